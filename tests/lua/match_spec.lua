-- match_spec.lua: matches on the CPython-compatible stream reproduce the
-- series exactly: the first ai2 games after seed(0), the 10-iteration
-- ai2 VS ai2 example with its printed tables (ais.md §9.2), and the
-- benchmark procedure (ais.md §9.5, §11.1): seed(0), ai2 VS ai2 for
-- 50,000 iterations, then ai14s VS ai2 for 50,000 on the same stream. The
-- short matches on every back-end, and 300 iterations of ai14s VS ai2
-- giving one table on all of them; the benchmark on the default one.
-- And ai_match with a sandboxed player (the player itself): its games run
-- in a worker process, so a player stuck inside one C call
-- (tests/tournament/hostile/stuck_in_load.lua: a compilation of 30 s of
-- CPU, whose own loading is quick even in a loaded sanitizer build) is
-- ended by the hard line within its budget + the slack + a margin: the
-- match stops with its "time" error, or under a time control counts the
-- losses.
local mb = require "marubatsu"
local helpers = dofile("tests/lua/helpers.lua")

local function tally(t)
    return {t.o.win, t.o.lose, t.o.draw, t.x.win, t.x.lose, t.x.draw,
        t.total.win, t.total.lose, t.total.draw}
end

-- Run f with io.write going to a temporary file; returns what was written.
local function captured(f)
    local tmp = io.tmpfile()
    local old = io.output()
    io.output(tmp)
    local ok, err = pcall(f)
    io.output(old)
    tmp:seek("set")
    local text = tmp:read("a")
    tmp:close()
    assert(ok, err)
    return text
end

-- the tally of ai14s VS ai2, 300 iterations from seed(0), on a game made
-- from mbparams (that of the default back-end computed once)
local default_ai14s
local function ai14s_table(mbparams)
    if not mbparams and default_ai14s then return default_ai14s end
    local t = tally(mb.ai_match{ai = {"ai14s", "ai2"}, match_num = 300, seed = 0, quiet = true,
        mbparams = mbparams})
    if not mbparams then default_ai14s = t end
    return t
end

helpers.each_backend(function(bk)
    describe("ai2 games after seed(0) (ais.md §11.1) on " .. bk.label, function()
        it("are the series' first six games, sides alternating as in ai_match", function()
            local want = {
                {"x", {{0, 2}, {1, 2}, {0, 0}, {0, 1}, {2, 2}, {2, 1}, {2, 0}, {1, 1}}},
                {"x", {{1, 2}, {2, 1}, {1, 1}, {1, 0}, {2, 2}, {2, 0}, {0, 1}, {0, 0}}},
                {"x", {{1, 0}, {2, 1}, {0, 2}, {2, 2}, {1, 2}, {2, 0}}},
                {"x", {{1, 1}, {1, 0}, {1, 2}, {0, 0}, {2, 1}, {2, 2}, {0, 2}, {2, 0}}},
                {"x", {{2, 1}, {1, 2}, {2, 0}, {0, 2}, {1, 0}, {2, 2}}},
                {"x", {{1, 2}, {1, 1}, {0, 0}, {0, 2}, {1, 0}, {2, 0}}},
            }
            local g = bk.new()
            mb.seed(0)
            for i, w in ipairs(want) do
                assert.are.equal(w[1], mb.play{ai = {"ai2", "ai2"}, game = g}, "game " .. i)
                local moves = {}
                for j, xy in ipairs(w[2]) do moves[j] = g:xy_to_move(xy[1], xy[2]) end
                local r = g.records
                assert.are.same(moves, {table.unpack(r, 1, #r)}, "game " .. i)
            end
        end)
    end)

    describe("ai_match on " .. bk.label, function()
        it("seed(0), ai2 VS ai2, 10 iterations: the series' example (ais.md §9.2)", function()
            mb.seed(0)
            local t = mb.ai_match{ai = {"ai2", "ai2"}, match_num = 10, quiet = true,
                mbparams = bk.opts()}
            assert.are.same({2, 7, 1, 5, 5, 0, 7, 12, 1}, tally(t))
            assert.are.same({"ai2", "ai2"}, t.names)
        end)

        it("ai14s VS ai2, 300 iterations from seed(0): the table of the default back-end", function()
            local t = ai14s_table(bk.opts())
            assert.are.same(ai14s_table(), t)
            assert.are.equal(600, t[7] + t[8] + t[9])
        end)
    end)
end)

describe("ai_match", function()
    it("prints the series' tables", function()
        local text = captured(function()
            mb.ai_match{ai = {"ai2", "ai2"}, match_num = 10, seed = 0, progress = false}
        end)
        assert.are.equal(table.concat({
            "ai2 VS ai2",
            "count     win    lose    draw",
            "o           2       7       1",
            "x           5       5       0",
            "total       7      12       1",
            "",
            "ratio     win    lose    draw",
            "o       20.0%   70.0%   10.0%",
            "x       50.0%   50.0%    0.0%",
            "total   35.0%   60.0%    5.0%",
            "",
            "",
        }, "\n"), text)
    end)

    it("benchmark: seed(0), ai2 VS ai2 then ai14s VS ai2, 50,000 each on one stream", function()
        mb.seed(0)
        local t = mb.ai_match{ai = {"ai2", "ai2"}, match_num = 50000, quiet = true}
        assert.are.same({29454, 14352, 6194, 14208, 29592, 6200, 43662, 43944, 12394}, tally(t))
        t = mb.ai_match{ai = {"ai14s", "ai2"}, match_num = 50000, quiet = true}
        assert.are.same({49446, 0, 554, 44043, 0, 5957, 93489, 0, 6511}, tally(t))
    end)
end)

describe("ai_match with a sandboxed player (the hard line)", function()
    local STUCK = "tests/tournament/hostile/stuck_in_load.lua"

    it("mb.ai makes a player an AI that keeps it", function()
        local p = assert(mb.sandbox.load("scripts/ai2.lua"))
        local ai = mb.ai(p)
        assert.is_true(mb.is_ai(ai))
        assert.are.equal(p, ai.sandbox_player)
        assert.are.equal("ai2", ai.name)
        assert.is_number(ai.fn(mb.Marubatsu(), {}))
    end)

    it("plays its games in a worker process: only the tallies come back", function()
        local p = assert(mb.sandbox.load("scripts/ai2.lua"))
        local calls = 0
        local function counted(g) calls = calls + 1 return g:calc_legal_moves()[1] end
        local t = mb.ai_match{ai = {p, counted}, match_num = 5, seed = 1, quiet = true}
        assert.are.equal(10, t.total.win + t.total.lose + t.total.draw)
        assert.are.equal(0, calls) -- the trusted AI was called in the worker
        calls = 0
        mb.ai_match{ai = {function(g, q) return p(g, q) end, counted}, match_num = 5, seed = 1, quiet = true}
        assert.is_true(calls > 0) -- a player wrapped in a function plays here
    end)

    it("a move stuck inside one C call stops the match with 'time', within the bound", function()
        local p = assert(mb.sandbox.load(STUCK))
        local t0 = mb.clock()
        local ok, err = pcall(mb.ai_match, {ai = {p, "ai2"}, match_num = 2, slack = 0.2, quiet = true})
        local took = mb.clock() - t0
        assert.is_false(ok)
        assert.matches("^stuck_in_load %(o%) did not play a legal move in position\n.*time$", err)
        assert.is_true(took < 15, ("took %.1f s"):format(took)) -- without the hard line: about 30 s
    end)

    it("under a time control a stuck move is a loss on time, and the match goes on", function()
        local p = assert(mb.sandbox.load(STUCK))
        local t0 = mb.clock()
        local t = mb.ai_match{ai = {"ai2", p}, match_num = 1, move_time = 1, slack = 0.2, quiet = true}
        local took = mb.clock() - t0
        assert.are.same({0, 2}, t.time_forfeits)
        assert.are.equal(2, t.total.win)
        assert.is_true(took < 25, ("took %.1f s"):format(took)) -- two stuck moves; without the hard line about 60 s
    end)

    it("refuses a bad slack", function()
        local p = assert(mb.sandbox.load("scripts/ai2.lua"))
        local ok, err = pcall(mb.ai_match, {ai = {p, "ai2"}, match_num = 1, slack = -1, quiet = true})
        assert.is_false(ok)
        assert.matches("ai_match: slack must be a number of seconds >= 0", err, 1, true)
    end)
end)
