-- Fails in its main chunk with a 1,100-byte message.
error(string.rep("z", 1100), 0)
