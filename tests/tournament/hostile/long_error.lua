-- An error message of 1,100 bytes, with a tab, a newline and an escape
-- sequence in it: the forfeit reason must be cut and shown escaped.
return function(g) error("\27[31mred\t" .. string.rep("x", 1100) .. "\nmore", 0) end
