-- args.lua: prints what a script receives (golden test of `run`).
print("arg[0] = " .. arg[0])
print("#arg = " .. #arg)
for i = 1, #arg do print(("arg[%d] = %s"):format(i, arg[i])) end
print("... = " .. table.concat({...}, " "))
print("mb is the module: " .. tostring(mb == require "marubatsu"))
