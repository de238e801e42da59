-- a bare `help` calls help() (it writes the index) instead of printing <function>
real = io.write; writes = 0; io.write = function() writes = writes + 1 end
help
io.write = real
print(writes)
-- mb.move names the board it assumed
pcall(mb.move, "H8")
pcall(mb.move, "H8", mb.Marubatsu{width = 15, height = 15, k = 5})
-- quit(status) leaves at once with that status
quit(3)
print("not reached")
