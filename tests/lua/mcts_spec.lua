-- mcts_spec.lua: mb.mcts and the mcts / mcts_solver AIs, and the Lua side of
-- the Gomocup protocol (mb.gomocup). Checks: a seeded searcher repeats its
-- move and its root statistics, another seed differs; the game object is
-- unchanged after a search (fields and records); the solver proves 3x3
-- a draw and a win in one, and plays the win; tree reuse after a reply;
-- analyze gives each square's share of the root's visits (summing to 100%)
-- with the most visited as its move;
-- Lua priors order the children and a Lua playout policy is called and
-- checked (a bad move, a non-number prior, a callback that changes the
-- game, an error: each raised, the game restored); unknown options and
-- missing limits refused; the named AIs play legal moves, ai_match with
-- playouts repeats for a seed, and a tournament's games are the same with
-- --jobs 1 and 2; in the sandbox mb.mcts works under the
-- memory budget (an arena larger than the budget is a "memory" loss) and
-- mb.brainproc / mb.gomocup are absent; mb.gomocup parses and formats.
-- The search plays on a list1d copy of the game, or on the game itself
-- when it is list1d without counters or has Lua callbacks: a seeded search
-- gives the same move and statistics on every back-end, and the cases with
-- a game to leave as it was, a tree to reuse and callbacks run on each.
local mb = rawget(_G, "mb") or require "marubatsu"
local host = require "marubatsu.host"

local helpers = dofile("tests/lua/helpers.lua")
local game_of = helpers.game_of
local snapshot = helpers.snapshot

local big = {width = 9, height = 9, k = 5}

describe("mb.mcts", function()
    it("repeats itself for a seed, on every back-end", function()
        local function run(seed, g, playouts)
            local s = mb.mcts{seed = seed}
            local m, info = s:search(g, {playouts = playouts or 2000})
            local ch = s:children()
            local t = {m, info.playouts}
            for i = 1, #ch do t[#t + 1] = ch[i].move .. ":" .. ch[i].visits end
            return table.concat(t, " ")
        end
        local g = game_of("E5,D4,E4", big)
        local first = run(11, g)
        assert.are.equal(first, run(11, g))
        assert.are_not.equal(first, run(12, g))
        local short = run(11, g, 500)
        helpers.each_backend(function(bk)
            assert.are.equal(short, run(11, bk.game_of("E5,D4,E4", big), 500), bk.label)
        end)
    end)

    it("proves 3x3 a draw and a win in one", function()
        local s = mb.mcts{solver = true, max_nodes = 1 << 18}
        local m, info = s:search(mb.Marubatsu(), {playouts = 200000})
        assert.is_true(m >= 0 and m < 9)
        assert.are.equal("draw", info.proven)
        assert.are.equal(0.5, info.value)
        assert.is_true(info.playouts < 200000)
        local g = game_of("A1,A2,B1,B2")
        m, info = mb.mcts{solver = true}:search(g, {playouts = 10000})
        assert.are.equal("win", info.proven)
        assert.are.equal(mb.move("C1", g), m)
    end)

    it("refuses bad options", function()
        assert.has_error(function() mb.mcts{playout_count = 5} end, "mb.mcts: unknown option 'playout_count' "
            .. "(known: seed, c, solver, radius, expand_after, max_nodes, hash, prior, prior_weight, playout)")
        assert.has_error(function() mb.mcts{c = -1} end)
        assert.has_error(function() mb.mcts{}:search(mb.Marubatsu(), {}) end, "search: playouts or time is needed")
        assert.has_error(function() mb.mcts{}:search(mb.Marubatsu(), {playout = 5}) end,
            "search: unknown option 'playout' (known: playouts, time, seed)")
    end)

    it("is the AIs mcts and mcts_solver", function()
        for _, name in ipairs {"mcts", "mcts_solver"} do
            local ai = mb.ai(name)
            local g = game_of("E5,D4", big)
            local m = ai(g, {playouts = 300})
            assert.are.equal(".", g:getmark_by_move(m))
        end
        local function table_of()
            local t = mb.ai_match{ai = {mb.ai("mcts"), mb.ai("ai2")}, params = {{playouts = 200}, {}},
                match_num = 3, seed = 5, mbparams = {width = 5, height = 5, k = 4}, progress = false, quiet = true}
            local out = {}
            for _, row in ipairs {"o", "x"} do
                for i = 1, 3 do out[#out + 1] = tostring(t[row][i]) end
            end
            return table.concat(out, " ")
        end
        assert.are.equal(table_of(), table_of())
    end)

    it("analyzes for people: visit shares per square summing to 100%, the most visited its move", function()
        local g = game_of("H8,I9", {width = 15, height = 15, k = 5})
        mb.seed(3)
        local a = mb.ai("mcts")(g, {playouts = 2000, analyze = true})
        assert.are.equal(".", g:getmark_by_move(a.move))
        assert.are.same({a.move}, a.candidate)
        assert.are.equal("visit share %", a.score_label)
        local total, n, top = 0, 0, -1
        for m, share in pairs(a.score_by_move) do
            assert.are.equal(".", g:getmark_by_move(m))
            total, n, top = total + share, n + 1, math.max(top, share)
        end
        assert.is_true(n >= 5)
        assert.is_true(math.abs(total - 100) <= 0.05 * n + 0.01, ("the shares sum to %g"):format(total))
        assert.are.equal(top, a.score_by_move[a.move])
        assert.is_true(a.score > 0 and a.score < 1 and a.playouts >= 2000)
        -- the same move as without analyze, for the same seed
        mb.seed(3)
        g = game_of("H8,I9", {width = 15, height = 15, k = 5})
        assert.are.equal(a.move, mb.ai("mcts")(g, {playouts = 2000}))
    end)

    it("plays the same tournament games whatever the jobs", function()
        local function games(jobs)
            local dir = os.tmpname()
            os.remove(dir)
            host.tournament{players = {"mcts:playouts=200", "ai14s"}, games = 4, width = 7, height = 7, k = 5,
                jobs = jobs, out = dir, quiet = true, progress = false}
            local lines = {}
            for line in io.lines(dir .. "/journal.tsv") do
                if line:sub(1, 1) == "G" then lines[#lines + 1] = line end
            end
            table.sort(lines)
            os.execute("rm -rf '" .. dir .. "'")
            return table.concat(lines, "\n")
        end
        local one = games(1)
        assert.are.equal(4, select(2, one:gsub("\n", "")) + 1)
        assert.are.equal(one, games(2))
    end)
end)

helpers.each_backend(function(bk)
    describe("mb.mcts on " .. bk.label, function()
        it("leaves the game as it was", function()
            local g = bk.game_of("E5,D4,E4", big)
            local before = snapshot(g)
            mb.mcts{}:search(g, {playouts = 500})
            assert.are.equal(before, snapshot(g))
        end)

        it("reuses its tree when the position follows", function()
            local g = bk.game_of("E5,D4", big)
            local s = mb.mcts{seed = 3}
            local m, info = s:search(g, {playouts = 3000})
            assert.is_false(info.reused)
            g:move(m) -- the most visited child: grown, with its own subtree
            local _, again = s:search(g, {playouts = 50})
            assert.is_true(again.reused)
            assert.is_true(again.root_visits > 50)
            local _, other = s:search(bk.game_of("A1,B2", big), {playouts = 50})
            assert.is_false(other.reused)
            assert.are.equal(50, other.root_visits)
        end)

        it("takes Lua priors and playouts, and checks them", function()
            local g = bk.game_of("A1,I9", big)
            local calls = 0
            local s = mb.mcts{prior = function(game, m)
                calls = calls + 1
                assert.are.equal(2, game.move_count)
                local x, y = game:move_to_xy(m)
                return -((x - 4) ^ 2 + (y - 4) ^ 2)
            end}
            s:search(g, {playouts = 1})
            assert.are.equal(16, calls)
            local ch = s:children()
            assert.are.equal(-8, ch[1].prior)
            local before = snapshot(g)
            local played = 0
            local p = mb.mcts{playout = function(game)
                played = played + 1
                return game:calc_legal_moves()[1]
            end}
            local m = p:search(g, {playouts = 20})
            assert.is_true(played > 20)
            assert.are.equal(".", g:getmark_by_move(m))
            assert.are.equal(before, snapshot(g))
            local bad = {
                {{playout = function() return 0 end}, "empty square"},  -- A1 is taken
                {{prior = function() return "high" end}, "finite number"},
                {{prior = function(game) game:move(40) return 0 end}, "changed the game"},
                {{playout = function() error("boom") end}, "boom"},
            }
            for _, case in ipairs(bad) do
                local ok, err = pcall(function() return mb.mcts(case[1]):search(g, {playouts = 5}) end)
                assert.is_false(ok)
                assert.is_truthy(tostring(err):find(case[2], 1, true), tostring(err))
                assert.are.equal(before, snapshot(g))
            end
        end)
    end)
end)

describe("mcts in the sandbox", function()
    local function script(text)
        local path = os.tmpname() .. ".lua"
        local f = assert(io.open(path, "w"))
        f:write(text)
        f:close()
        return path
    end

    it("searches, and its arena counts against the memory budget", function()
        local ok_path = script([[
local mb = require "marubatsu"
assert(mb.brainproc == nil and mb.gomocup == nil)
return function(game) return (mb.mcts{max_nodes = 4096}:search(game, {playouts = 200})) end]])
        local p = assert(mb.sandbox.load(ok_path))
        local g = game_of("E5,D4", big)
        local m = assert(p:move(g, {}))
        assert.are.equal(".", g:getmark_by_move(m))
        local big_path = script([[
local mb = require "marubatsu"
return function(game) return (mb.mcts{max_nodes = 1 << 24}:search(game, {playouts = 10})) end]])
        local q = assert(mb.sandbox.load(big_path, {memory = 8 << 20}))
        local mv, why = q:move(g, {})
        assert.is_nil(mv)
        assert.are.equal("memory", why)
        -- a search asking for a minute: its playouts count as instructions,
        -- and without that budget the move's deadline stops it
        local long_path = script([[
local mb = require "marubatsu"
return function(game) return (mb.mcts{}:search(game, {time = 60})) end]])
        local r = assert(mb.sandbox.load(long_path, {instructions = 1e6, time = 30}))
        assert.are.same({nil, "instructions"}, {r:move(g, {})})
        local t = assert(mb.sandbox.load(long_path, {instructions = false, time = 0.05}))
        local t0 = os.clock()
        assert.are.same({nil, "time"}, {t:move(g, {})})
        assert.is_true(os.clock() - t0 < 5)
        os.remove(ok_path)
        os.remove(big_path)
        os.remove(long_path)
    end)
end)

describe("host.gomocup", function()
    it("parses and formats the protocol's lines", function()
        local c = host.gomocup.parse_command("turn 3, 4\r")
        assert.are.same({kind = "TURN", x = 3, y = 4}, c)
        assert.are.same({kind = "INFO", key = "time_left", value = "-5", int = -5},
            host.gomocup.parse_command("INFO time_left -5"))
        assert.are.same({kind = "UNKNOWN", word = "SWAP2BOARD"}, host.gomocup.parse_command("SWAP2BOARD"))
        local none, err = host.gomocup.parse_command("START x")
        assert.is_nil(none)
        assert.are.equal("START: expected 1 comma-separated numbers", err)
        assert.are.equal("DONE", host.gomocup.parse_stone("DONE"))
        assert.are.same({x = 1, y = 2, field = 2}, host.gomocup.parse_stone("1,2,2"))
        assert.are.same({kind = "move", x = 7, y = 8}, host.gomocup.parse_answer("7,8"))
        assert.are.same({kind = "MESSAGE", text = "hi"}, host.gomocup.parse_answer("MESSAGE hi"))
        assert.are.equal("MESSAGE a b", host.gomocup.answer("MESSAGE", "a\nb"))
        assert.are.equal("3,4", host.gomocup.answer("move", 3, 4))
    end)
end)
