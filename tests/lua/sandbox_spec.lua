-- sandbox_spec.lua: mb.sandbox: hostile AI scripts (endless loops, also inside pcall; io, os, require, debug, string.dump, binary load; bad moves; errors; tampering; memory) end as a reason, well-behaved ones play, math.random follows mb.seed, players cannot see each other, the real game never changes.
local mb = rawget(_G, "mb") or require "marubatsu"

local dir = os.tmpname()
os.remove(dir)
assert(os.execute("mkdir -p " .. dir))
local n = 0
local function script(text)
    n = n + 1
    local path = ("%s/s%d.lua"):format(dir, n)
    local f = assert(io.open(path, "w"))
    f:write(text)
    f:close()
    return path
end

local function snapshot(g)
    local r = g.records
    return table.concat({g:board_to_str(), g.status, g.turn, tostring(g.last_turn),
        g.move_count, g.last_move, table.concat(r, ",", 1, #r)}, "|")
end

local function game_of(list)
    local g = mb.Marubatsu()
    for sq in list:gmatch("[^,]+") do g:move(mb.move(sq, g)) end
    return g
end

-- play one move of the script body `fn` on game (default A1,B2 played);
-- the real game must be unchanged
local function play(body, limits, g)
    g = g or game_of("A1,B2")
    local before = snapshot(g)
    local p = assert(mb.sandbox.load(script(body), limits or {instructions = 200000, time = 2}))
    local m, reason = p:move(g, {})
    assert.are.equal(before, snapshot(g))
    return m, reason
end

local function fn(code) return "return function(game, params)\n" .. code .. "\nend\n" end

describe("mb.sandbox", function()
    teardown(function() os.execute("rm -rf " .. dir) end)

    it("plays a well-behaved script", function()
        local m, r = play(fn("return game:calc_legal_moves()[1]"))
        assert.is_nil(r)
        assert.are.equal(game_of("A1,B2"):calc_legal_moves()[1], m)
    end)

    it("accepts {name =, fn =} and built-in names through mb.loadscript", function()
        local p = assert(mb.sandbox.load(script("return {name = 'first', fn = function(g) return g:calc_legal_moves()[1] end}")))
        assert.are.equal("first", p.ai.name)
        local q = assert(mb.sandbox.load("ai2"))
        local g = game_of("A1")
        local m = assert(q:move(g, {}))
        assert.is_true(g:getmark_by_move(m) == ".")
    end)

    it("stops endless loops, also inside pcall", function()
        local _, r = play(fn("while true do end"))
        assert.are.equal("instructions", r)
        _, r = play(fn([[
            while true do pcall(function() while true do end end) end]]))
        assert.are.equal("instructions", r)
        _, r = play(fn([=[
            for i = 1, 100 do pcall(function() while true do end end) end
            return game:calc_legal_moves()[1]]=]))
        assert.are.equal("instructions", r)
        _, r = play(fn("while true do end"), {instructions = false, time = 0.05})
        assert.are.equal("time", r)
    end)

    it("stops an endless loop in the script's main chunk", function()
        local p, r = mb.sandbox.load(script("while true do end"), {instructions = 100000})
        assert.is_nil(p)
        assert.are.equal("instructions", r)
    end)

    it("caps memory", function()
        local _, r = play(fn([[
            local t = {}
            for i = 1, 1e8 do t[i] = ("x"):rep(100) .. i end]]),
            {instructions = false, time = 10, memory = 4 * 1024 * 1024})
        assert.are.equal("memory", r)
    end)

    it("has no io, os.execute, require, debug, dofile, loadfile, string.dump, binary load", function()
        for _, code in ipairs {
            "io.open('/etc/passwd')", "os.execute('true')", "require('os')", "require('marubatsu.so')", "debug.getinfo(1)",
            "dofile('/dev/null')", "loadfile('/dev/null')", "package.loaded.x = 1",
            "string.dump(print)", "(''):dump()", "coroutine.create(print)", "collectgarbage()",
            "mb.loadscript('ai2')", "mb.seed(1)", "getmetatable('').__index.dump = 1",
        } do
            local _, r = play(fn(code .. "\nreturn 0"))
            assert.matches("^error: ", r, 1, code)
        end
        local _, r = play(fn([[
            local f = assert(load(string.char(27) .. "Lua"))
            return 0]]))
        assert.matches("^error: .*binary", r)
        assert.are.equal(3, (play(fn("return collectgarbage('count') and 3"))))
        assert.are.equal(3, (play(fn("return os.clock() and os.time() and os.date() and 3"))))
        assert.are.equal(3, (play(fn("return load('return 3')()"))))
    end)

    it("names illegal moves", function()
        local _, r = play(fn("return 'B2'"))
        assert.are.equal('illegal move: "B2" (a string)', r)
        _, r = play(fn("return 99"))
        assert.are.equal("illegal move: 99 (off the board)", r)
        _, r = play(fn("return nil"))
        assert.are.equal("illegal move: nothing", r)
        _, r = play(fn("return 4"))
        assert.are.equal("illegal move: 4 (B2, occupied)", r)
        _, r = play(fn("return 1.5"))
        assert.are.equal("illegal move: 1.5 (not an integer)", r)
    end)

    it("reports errors with their message", function()
        local _, r = play(fn("error('boom', 0)"))
        assert.are.equal("error: boom", r)
        _, r = play(fn("error(setmetatable({}, {__tostring = function() while true do end end}))"))
        assert.are.equal("error: (error object is a table value)", r)
    end)

    it("finds a changed game copy: tampered", function()
        local _, r = play(fn("game:move(game:calc_legal_moves()[1]); return game:calc_legal_moves()[1]"))
        assert.are.equal("tampered", r)
    end)

    it("routes math.random to the engine's stream", function()
        local body = fn("local l = game:calc_legal_moves(); return l[math.random(#l)]")
        local p = assert(mb.sandbox.load(script(body)))
        local g = mb.Marubatsu()
        local function draw()
            local t = {}
            for i = 1, 8 do t[i] = assert(p:move(g, {})) end
            return table.concat(t, ",")
        end
        mb.seed(42)
        local a = draw()
        mb.seed(42)
        assert.are.equal(a, draw())
        mb.seed(42)
        local expect = {}
        local legal = g:calc_legal_moves()
        for i = 1, 8 do expect[i] = legal[mb.randbelow(9) + 1] end
        assert.are.equal(table.concat(expect, ","), a)
    end)

    it("keeps players apart", function()
        local a = assert(mb.sandbox.load(script("secret = 'a'; mb.rules.x = 1; string.x = 1; " .. fn("return 0"))))
        local b = assert(mb.sandbox.load(script(fn("return (secret == nil and mb.rules.x == nil and string.x == nil and rawget(_G, 'secret') == nil) and 0 or 1"))))
        assert.are.equal(0, (a:move(mb.Marubatsu(), {})))
        assert.are.equal(0, (b:move(mb.Marubatsu(), {})))
        assert.is_nil(rawget(_G, "secret"))
        assert.is_nil(mb.rules.x)
        assert.is_nil(string.x)
    end)

    it("leaves the host as it was: hooks, string methods", function()
        play(fn("while true do end"))
        assert.is_function(string.dump)
        assert.is_function(("").dump)
        local t = 0
        for _ = 1, 1e6 do t = t + 1 end
        assert.are.equal(1e6, t)
    end)

    it("reports a missing script", function()
        local p, msg = mb.sandbox.load(dir .. "/nope.lua")
        assert.is_nil(p)
        assert.matches("nope", msg)
    end)
end)
