-- tests/source/include_cycles.lua: the source tree's files include each
-- other without a circle, and its layers stand on each other one way.
-- A unit is a file name without its extension, so X.c and its header X.h
-- are one node; in the engine, a file src/X_PART.c or src/X_PART.h belongs
-- to unit X when include/X.h is X's public header (board_bits.c and the
-- private board_backends.h are the board's; game_hot.h is the game's
-- inline move and unmove). An edge runs from a unit to each unit whose
-- file it #includes. Checks:
--   - no circle among the units of include/, src/, src/lua and src/cli;
--   - layers: the engine (include/, src/) includes no Lua header and no
--     file of the binding (src/lua) or the CLI (src/cli); the binding
--     includes no file of the CLI;
--   - in src/lua: the helper file l_util depends on no other binding
--     file, and a header declares only the lmb_ functions its own .c file
--     defines (a header shared by several files would hide their circles).
-- Then the same checks on made-up trees, each with one fault, which the
-- check must find (so it can fail). Prints "N passed, N failed".
-- Usage: lua5.4 tests/source/include_cycles.lua [ROOT]   (default: .)
local root = arg[1] or "."

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

-- ---- the whole tree: units, circles, layers ----

local LAYERS = {{dir = "include", layer = "engine"}, {dir = "src", layer = "engine"},
    {dir = "src/lua", layer = "binding"}, {dir = "src/cli", layer = "cli"}}
-- what each layer may not include: layers below may not see those above
local FORBIDDEN = {engine = {binding = true, cli = true}, binding = {cli = true}, cli = {}}
local LUA_HEADERS = {["lua.h"] = true, ["lauxlib.h"] = true, ["lualib.h"] = true}

-- Every file of the tree under r: {path, dir, name, base, layer}.
local function tree_files(r)
    local list = {}
    for _, l in ipairs(LAYERS) do
        local ok, names = pcall(files_of, r .. "/" .. l.dir)
        for _, name in ipairs(ok and names or {}) do
            list[#list + 1] = {path = r .. "/" .. l.dir .. "/" .. name, dir = l.dir, name = name,
                base = name:gsub("%.[ch]$", ""), layer = l.layer}
        end
    end
    return list
end

-- The unit of an engine file: X for src/X_PART.[ch] when include/X.h is
-- public and include/X_PART.h is not (the longest such X); else its base.
local function unit_of(file, public)
    if file.dir ~= "src" or public[file.base] then return file.base end
    for i = #file.base, 1, -1 do
        if file.base:sub(i, i) == "_" and public[file.base:sub(1, i - 1)] then
            return file.base:sub(1, i - 1)
        end
    end
    return file.base
end

-- The problems of the tree at r: a circle among its units and includes
-- across the layers.
local function tree_problems(r)
    local files, public, by_name, out = tree_files(r), {}, {}, {}
    for _, f in ipairs(files) do
        if f.dir == "include" then public[f.base] = true end
    end
    for _, f in ipairs(files) do
        f.unit = unit_of(f, public)
        if by_name[f.name] then
            out[#out + 1] = ("two files named %s: %s/ and %s/"):format(f.name, by_name[f.name].dir, f.dir)
        end
        by_name[f.name] = f
    end
    local graph = {}
    for _, f in ipairs(files) do
        graph[f.unit] = graph[f.unit] or {}
        for line in io.lines(f.path) do
            local inc = line:match('^%s*#%s*include%s+"([^"]+)"')
            local sys = line:match("^%s*#%s*include%s+<([^>]+)>")
            local to = inc and by_name[inc:match("[^/]+$")]
            if to then
                if to.unit ~= f.unit then graph[f.unit][to.unit] = true end
                if FORBIDDEN[f.layer][to.layer] then
                    out[#out + 1] = ("%s/%s (%s) includes %s/%s (%s)"):format(f.dir, f.name, f.layer,
                        to.dir, to.name, to.layer)
                end
            end
            if f.layer == "engine" and LUA_HEADERS[inc or sys or ""] then
                out[#out + 1] = ("%s/%s (engine) includes Lua's %s"):format(f.dir, f.name, inc or sys)
            end
        end
    end
    local cycle = find_cycle(graph)
    if cycle then out[#out + 1] = "include circle: " .. table.concat(cycle, " -> ") end
    table.sort(out)
    return out, graph
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

local found, graph = tree_problems(root)
for _, p in ipairs(found) do print("  " .. p) end
check(#found == 0, "the tree: no include circle among the units of include/, src/, src/lua, " ..
    "src/cli; the engine includes no Lua, binding or CLI file, the binding no CLI file")
check(graph.board and graph.game and graph.game.board and graph.l_game and graph.cmd_play and
    not graph.board_bits and not graph.game_hot, "the tree: its units are found (board_bits.c " ..
    "and game_hot.h belong to board and game)")
local dir = root .. "/src/lua"
found = problems(dir)
for _, p in ipairs(found) do print("  " .. p) end
check(#found == 0, "src/lua: no include circle, l_util depends on no binding file, every " ..
    "header declares only what its own .c file defines")
check(graph_of(dir, files_of(dir)).l_util ~= nil, "src/lua: has l_util")

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

-- the tree checks on a made-up tree
tmp = os.tmpname()
os.remove(tmp)
assert(os.execute('mkdir -p "' .. tmp .. '/include" "' .. tmp .. '/src/lua" "' .. tmp .. '/src/cli"'))
write("include/board.h", "\n")
write("src/board.c", '#include "board.h"\n#include "board_parts.h"\n')
write("src/board_parts.h", '#include "board.h"\n')
write("src/board_fast.c", '#include "board_parts.h"\n')
write("include/clock.h", "\n")
write("src/clock.c", '#include "clock.h"\n')
write("include/search.h", '#include "board.h"\n#include "clock.h"\n')
write("src/search.c", '#include "search.h"\n')
write("src/lua/l_game.c", '#include <lua.h>\n#include "search.h"\n')
write("src/cli/main.c", '#include "l_game.h"\n#include "search.h"\n')
write("src/lua/l_game.h", "\n")
bad = tree_problems(tmp)
check(#bad == 0, "a made-up tree with parts of a unit (board_parts.h, board_fast.c) passes (" ..
    table.concat(bad, "; ") .. ")")
write("src/clock.c", '#include "clock.h"\n#include "search.h"\n')
bad = tree_problems(tmp)
check(#bad == 1 and bad[1]:match("include circle: clock %-> search %-> clock") ~= nil,
    "an engine circle clock -> search -> clock is found (" .. tostring(bad[1]) .. ")")
write("src/clock.c", '#include "clock.h"\n')
write("src/board_fast.c", '#include "board_parts.h"\n#include <lua.h>\n')
bad = tree_problems(tmp)
check(#bad == 1 and bad[1]:match("src/board_fast.c %(engine%) includes Lua's lua.h") ~= nil,
    "the engine including lua.h is found (" .. tostring(bad[1]) .. ")")
write("src/board_fast.c", '#include "board_parts.h"\n#include "l_game.h"\n')
bad = tree_problems(tmp)
bad = table.concat(bad, "; ")
check(bad:match("src/board_fast.c %(engine%) includes src/lua/l_game.h %(binding%)") ~= nil,
    "the engine including a binding header is found (" .. bad .. ")")
write("src/board_fast.c", '#include "board_parts.h"\n')
write("src/cli/cli.h", "\n")
write("src/lua/l_game.c", '#include "search.h"\n#include "cli.h"\n')
bad = tree_problems(tmp)
check(#bad == 1 and bad[1]:match("src/lua/l_game.c %(binding%) includes src/cli/cli.h %(cli%)") ~= nil,
    "the binding including a CLI header is found (" .. tostring(bad[1]) .. ")")
os.execute('rm -r "' .. tmp .. '"')

print(("%d passed, %d failed"):format(pass, fail))
os.exit(fail == 0 and 0 or 1)
