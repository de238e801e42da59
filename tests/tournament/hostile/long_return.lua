-- Returns a 1,100-byte string instead of a move.
return function(g) return string.rep("y", 1100) end
