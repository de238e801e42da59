-- tests/source/include_cycles.lua: the binding's files (src/lua) include
-- each other without a circle, and the helper file l_util depends on no
-- other binding file. A unit is a file name without its extension, so X.c
-- and its header X.h are one node; an edge runs from a unit to each unit
-- whose file it #includes (headers outside the directory, the engine's and
-- Lua's, are not nodes). Checks src/lua, then two made-up directories, one
-- with a circle and one where l_util includes a binding header, which the
-- check must reject (so it can fail). Prints "N passed, N failed".
-- Usage: lua5.4 tests/source/include_cycles.lua [DIR]
local dir = arg[1] or "src/lua"

local function files_of(d)
    local list = {}
    local p = assert(io.popen('ls "' .. d .. '"'))
    for name in p:lines() do
        if name:match("%.[ch]$") then list[#list + 1] = name end
    end
    p:close()
    return list
end

-- graph[unit] = {unit = true, ...} from the #include "..." lines
local function graph_of(d, files)
    local present, graph = {}, {}
    for _, f in ipairs(files) do present[f] = true end
    for _, f in ipairs(files) do
        local unit = f:gsub("%.[ch]$", "")
        graph[unit] = graph[unit] or {}
        for line in io.lines(d .. "/" .. f) do
            local inc = line:match('^%s*#%s*include%s+"([^"]+)"')
            if inc and present[inc] then
                local to = inc:gsub("%.[ch]$", "")
                if to ~= unit then graph[unit][to] = true end
            end
        end
    end
    return graph
end

-- The first circle found, as a list of units (nil when there is none).
local function find_cycle(graph)
    local state, stack = {}, {}
    local units = {}
    for u in pairs(graph) do units[#units + 1] = u end
    table.sort(units)
    local function visit(u)
        state[u] = "open"
        stack[#stack + 1] = u
        local next_units = {}
        for v in pairs(graph[u] or {}) do next_units[#next_units + 1] = v end
        table.sort(next_units)
        for _, v in ipairs(next_units) do
            if state[v] == "open" then
                local cycle, on = {}, false
                for _, w in ipairs(stack) do
                    if w == v then on = true end
                    if on then cycle[#cycle + 1] = w end
                end
                cycle[#cycle + 1] = v
                return cycle
            elseif not state[v] then
                local c = visit(v)
                if c then return c end
            end
        end
        stack[#stack] = nil
        state[u] = "done"
        return nil
    end
    for _, u in ipairs(units) do
        if not state[u] then
            local c = visit(u)
            if c then return c end
        end
    end
    return nil
end

-- Declarations of lmb_* names in header X.h that X.c does not define: a
-- header shared by several files would hide their circles from the graph.
local function misplaced(d, files)
    local present, out = {}, {}
    for _, f in ipairs(files) do present[f] = true end
    for _, h in ipairs(files) do
        if h:match("%.h$") then
            local c = h:gsub("%.h$", ".c")
            local defined = {}
            if present[c] then
                for line in io.lines(d .. "/" .. c) do
                    local name = line:match("^[%w_][%w_ %*]-(lmb_[%w_]+)%s*[%(=]") or
                        line:match("^[%w_][%w_ %*]-(lmb_[%w_]+)%s*;")
                    if name then defined[name] = true end
                end
            end
            for line in io.lines(d .. "/" .. h) do
                local name = line:match("(lmb_[%w_]+)%s*%(") or line:match("^extern.-(lmb_[%w_]+)%s*;")
                if name and line:match("^[%w_]") and not line:match("^#") and not defined[name] then
                    out[#out + 1] = ("%s declares %s, which %s does not define"):format(h, name, c)
                end
            end
        end
    end
    return out
end

-- The problems of directory d: a circle, binding units l_util uses, and
-- declarations in a header that its own .c file does not define.
local function problems(d)
    local graph = graph_of(d, files_of(d))
    local out = misplaced(d, files_of(d))
    local cycle = find_cycle(graph)
    if cycle then out[#out + 1] = "include circle: " .. table.concat(cycle, " -> ") end
    for to in pairs(graph.l_util or {}) do
        if to:match("^l_") or to == "lmb" then
            out[#out + 1] = "l_util includes the binding file " .. to
        end
    end
    table.sort(out)
    return out
end

local pass, fail = 0, 0
local function check(ok, what)
    if ok then
        pass = pass + 1
        print("ok " .. what)
    else
        fail = fail + 1
        print("not ok " .. what)
    end
end

local found = problems(dir)
for _, p in ipairs(found) do print("  " .. p) end
check(#found == 0, dir .. ": no include circle, l_util depends on no binding file, every " ..
    "header declares only what its own .c file defines")
check(graph_of(dir, files_of(dir)).l_util ~= nil, dir .. ": has l_util")

-- the check itself on made-up directories
local tmp = os.tmpname()
os.remove(tmp)
assert(os.execute('mkdir "' .. tmp .. '"'))
local function write(name, text)
    local f = assert(io.open(tmp .. "/" .. name, "w"))
    f:write(text)
    f:close()
end
write("l_util.h", '#include <lua.h>\n#include "embedded.h"\n')
write("l_util.c", '#include "l_util.h"\n')
write("embedded.h", "\n")
write("l_game.h", '#include "l_util.h"\nGame *lmb_check_game(lua_State *L, int arg);\n')
write("l_game.c", '#include "l_game.h"\n#include "l_position.h"\n' ..
    'Game *lmb_check_game(lua_State *L, int arg) { return NULL; }\n')
write("l_position.h", '#include "l_game.h"\n')
write("l_position.c", '#include "l_position.h"\n')
local bad = problems(tmp)
check(#bad == 1 and bad[1]:match("l_game %-> l_position %-> l_game"),
    "a circle l_game -> l_position -> l_game is found (" .. tostring(bad[1]) .. ")")
write("l_game.c", '#include "l_game.h"\nGame *lmb_check_game(lua_State *L, int arg)\n{\n}\n')
check(#problems(tmp) == 0, "the same files without the circle pass")
write("lmb.h", 'Game *lmb_check_game(lua_State *L, int arg);\n')
bad = problems(tmp)
check(#bad == 1 and bad[1]:match("lmb.h declares lmb_check_game"),
    "a header declaring another file's function is found")
os.remove(tmp .. "/lmb.h")
write("l_util.c", '#include "l_util.h"\n#include "l_game.h"\n')
bad = table.concat(problems(tmp), "\n")
check(bad:match("l_util includes the binding file l_game") ~= nil,
    "l_util including a binding header is found")
os.execute('rm -r "' .. tmp .. '"')

print(("%d passed, %d failed"):format(pass, fail))
os.exit(fail == 0 and 0 or 1)
