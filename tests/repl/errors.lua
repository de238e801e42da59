error("first")
x = 5
x + 1
local g = mb.Marubatsu() g:move(9)
nosuchfunction()
1 +
x
