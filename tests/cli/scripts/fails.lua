-- fails.lua: raises an error two calls deep (golden test of tracebacks).
local function inner() error("the evaluator broke") end
local function outer() inner() end
outer()
