-- timecontrol_spec.lua: time controls from Lua (scripts/lib/timecontrol.lua,
-- src/lua/l_timed.c; docs/lua-api.md §5.12). Checks: host.timed_call
-- returns a call's results, its errors, and stops a spinning function at
-- its deadline even when the function catches errors (timed_out = true),
-- and puts the hook back; player:set_time sets and returns the sandbox's
-- time budget; host.tournament with move_time / game_time: a spinning
-- trusted function loses every game with the reason, an AI sees
-- time_left falling from the game time and timelimit = 0.8 x the share of
-- the allocation rule, keys set by the player's params are kept, the
-- journal's T time_control line; mb.ai_match counts losses on time;
-- the iterative deepening AIs and MCTS given a small timelimit return a
-- legal move; bad values are errors naming the option. Nothing asserts
-- speed: spinning functions never return, the others return at once.
-- All on the default back-end: what is timed does not depend on the board.
local mb = rawget(_G, "mb") or require "marubatsu"
local host = require "marubatsu.host"

local function spin() while true do end end
local function spin_catching()
    while true do pcall(function() while true do end end) end
end

local function legal(game, m)
    return math.type(m) == "integer" and m >= 0 and m < game.width * game.height and game:getmark_by_move(m) == "."
end

describe("host.timed_call", function()
    it("returns the results of a call in time", function()
        local r = {host.timed_call(5, function(a, b) return a + b, "x" end, 2, 3)}
        assert.same({true, 5, "x"}, r)
    end)
    it("returns an error of the call, not timed out", function()
        local ok, err, timed_out = host.timed_call(5, function() error("boom", 0) end)
        assert.is_false(ok)
        assert.equal("boom", err)
        assert.is_false(timed_out)
    end)
    it("stops a spinning function at its deadline", function()
        local ok, err, timed_out = host.timed_call(0.05, spin)
        assert.is_false(ok)
        assert.is_true(timed_out)
        assert.truthy(tostring(err):find("time: the move's time ran out", 1, true))
    end)
    it("stops one that catches every error", function()
        local ok, _, timed_out = host.timed_call(0.05, spin_catching)
        assert.is_false(ok)
        assert.is_true(timed_out)
    end)
    it("leaves no hook behind", function()
        host.timed_call(0.01, spin)
        assert.is_nil(debug.gethook())
        local n = 0
        for _ = 1, 100000 do n = n + 1 end
        assert.equal(100000, n)
    end)
    it("refuses bad seconds", function()
        assert.has_error(function() host.timed_call(-1, spin) end)
        assert.has_error(function() host.timed_call("x", spin) end)
    end)
end)

describe("player:set_time", function()
    it("sets the time budget of the next moves and returns the last", function()
        local path = os.tmpname()
        local f = assert(io.open(path, "w"))
        f:write("return function() while true do end end\n")
        f:close()
        local p = assert(mb.sandbox.load(path, {instructions = false, time = 3}))
        assert.equal(3, p:set_time(0.05))
        local m, why = p:move(mb.Marubatsu(), {})
        assert.is_nil(m)
        assert.equal("time", why)
        assert.equal(0.05, p:set_time(false))
        assert.is_false(p:set_time(1))
        assert.has_error(function() p:set_time(-1) end)
        p:close()
        os.remove(path)
    end)
end)

describe("time controls in tournaments", function()
    local function journal_of(dir)
        local f = assert(io.open(dir .. "/journal.tsv", "rb"))
        local text = f:read("a")
        f:close()
        return text
    end
    local dir = dofile("tests/lua/helpers.lua").dir_maker()

    it("a spinning trusted function loses every game on the move time", function()
        local d = dir()
        local res = host.tournament{players = {{name = "spin", ai = spin}, "ai2"}, games = 2, jobs = 1,
            quiet = true, move_time = 0.05, out = d}
        local text = journal_of(d)
        assert.truthy(text:find("\nT\ttime_control\tmove=0.05\n", 1, true))
        local losses = 0
        for reason in text:gmatch("G\t[^\n]-\t([^\t\n]*)\n") do
            assert.equal("time: no move within 0.05 s (move time)", reason)
            losses = losses + 1
        end
        assert.equal(2, losses)
        assert.equal(2, res.games)
    end)

    it("and on the game clock", function()
        local d = dir()
        host.tournament{players = {"ai2", {name = "spin", ai = spin_catching}}, games = 2, jobs = 1, quiet = true,
            game_time = "0.1+0.01", out = d}
        local text = journal_of(d)
        assert.truthy(text:find("\nT\ttime_control\tgame=0.1+0.01\n", 1, true))
        local _, count = text:gsub("time: the game clock of 0.1 s ran out %(game time%)", "")
        assert.equal(2, count)
    end)

    it("an AI sees time_left falling and its share as timelimit", function()
        local seen = {}
        local function seer(game, params)
            seen[#seen + 1] = {left = params.time_left, limit = params.timelimit, w = params.w,
                empty = game.width * game.height - game.move_count}
            return game:calc_legal_moves()[1]
        end
        host.tournament{players = {{name = "seer", ai = seer, params = {w = 7}}, "ai2"}, games = 2, jobs = 1,
            quiet = true, game_time = 4}
        assert.truthy(#seen >= 4)
        local last
        for i, s in ipairs(seen) do
            assert.equal(7, s.w) -- the player's own params are kept
            assert.truthy(s.left <= 4 and s.left > 3)
            -- 0.8 x min(left / max(8, empty // 4), left), no increment
            assert.near(0.8 * s.left / math.max(8, s.empty // 4), s.limit, 1e-12)
            if last and s.empty < last.empty then assert.truthy(s.left < last.left, "decreasing at " .. i) end
            last = s
        end
        assert.equal(4, seen[1].left)
    end)

    it("without a game clock there is no time_left; a timelimit of the params is kept", function()
        local seen = {}
        local function seer(game, params)
            seen[#seen + 1] = {params.time_left, params.timelimit}
            return game:calc_legal_moves()[1]
        end
        host.tournament{players = {{name = "a", ai = seer}, {name = "b", ai = seer, params = {timelimit = 0.125}}},
            games = 2, jobs = 1, quiet = true, move_time = 1}
        local limits = {}
        for _, s in ipairs(seen) do
            assert.is_nil(s[1])
            limits[s[2]] = true
        end
        assert.same({[0.8] = true, [0.125] = true}, limits)
    end)

    it("refuses bad time controls, naming the option", function()
        local function err(t)
            t.players, t.quiet, t.jobs = {"ai1", "ai2"}, true, 1
            local ok, e = pcall(host.tournament, t)
            assert.is_false(ok)
            return tostring(e)
        end
        assert.truthy(err{move_time = -1}:find("move_time must be a number of seconds > 0", 1, true))
        assert.truthy(err{move_time = 0}:find("move_time must be", 1, true))
        assert.truthy(err{game_time = "x+1"}:find("game_time must be", 1, true))
        assert.truthy(err{game_time = "1+y"}:find("increment must be", 1, true))
        assert.truthy(err{game_time = "1+1", increment = 1}:find("increment given twice", 1, true))
        assert.truthy(err{increment = 1}:find("increment needs game_time", 1, true))
    end)
end)

describe("time controls in mb.ai_match", function()
    it("counts losses on time as lost games", function()
        local t = mb.ai_match{ai = {mb.make_ai("spin", spin), "ai2"}, match_num = 2, move_time = 0.02, quiet = true,
            progress = false}
        assert.same({4, 0}, t.time_forfeits)
        assert.equal(4, t.total.lose)
    end)
    it("untimed: no count", function()
        local t = mb.ai_match{ai = {"ai2", "ai2"}, match_num = 2, quiet = true, progress = false}
        assert.is_nil(t.time_forfeits)
    end)
    it("refuses a bad move_time", function()
        assert.has_error(function() mb.ai_match{ai = {"ai2", "ai2"}, match_num = 1, move_time = "abc",
            quiet = true} end)
    end)
end)

describe("searchers under a small timelimit", function()
    for _, name in ipairs {"ai_ab_iddfs", "ai_pvs_iddfs", "mcts", "mcts_solver"} do
        it(name .. " returns a legal move", function()
            local game = mb.Marubatsu{width = 6, height = 6, k = 4}
            for _, sq in ipairs {"C3", "D4", "C4"} do game:move(mb.move(sq, game)) end
            local m = mb.ai(name)(game, {timelimit = 0.02})
            assert.truthy(legal(game, m), tostring(m))
            assert.equal(3, game.move_count)
        end)
    end
end)
