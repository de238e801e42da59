-- pattern_spec.lua: the pattern codes and the big-board search from Lua
-- (src/lua/l_pattern.c). Checks: game:pattern gives the known codes of
-- written shapes (an open three, a four, an open four, a five, a blocked
-- line) for both sides and every direction, and 0 on a mark; the codes
-- follow move, unmove, place_mark, remove_mark and restart, and a copy has
-- its own; pattern_square's class names and values; pattern_eval's sign;
-- forced_moves' reasons; pattern_moves puts the open-four square first;
-- pattern_weights reads and sets the weights (values follow); the
-- searcher plays the only block, a win, a VCF, respects its limits and
-- switches, and refuses bad options and weights with their names; a
-- sandboxed script can use all of it, its searcher's table counting
-- against its memory budget and its search against its time budget. The
-- codes on every back-end (they follow each back-end's moves); the
-- searcher, whose limits are times, and the sandbox on the default one.
local mb = rawget(_G, "mb") or require "marubatsu"

local shape = {width = 15, height = 15, k = 5}
local helpers = dofile("tests/lua/helpers.lua")
local function game_of(list, opts) return helpers.game_of(list, opts or shape) end
local function sq(g, name) return mb.move(name, g) end

helpers.each_backend(function(bk)
    describe("pattern codes on " .. bk.label, function()
        local function game_of(list, opts) return bk.game_of(list, opts or shape) end

        it("reads the known shapes", function()
            -- o: F8 G8 H8 (an open three), x: A1 A2
            local g = game_of("F8,A1,G8,A2,H8")
            assert.are.equal(8, g:pattern(sq(g, "E8"), 1, "o")) -- makes .oooo.: open four
            assert.are.equal(8, g:pattern(sq(g, "I8"), 1, "o"))
            assert.are.equal(7, g:pattern(sq(g, "D8"), 1, "o")) -- o.ooo: a four
            assert.are.equal(0, g:pattern(sq(g, "H8"), 1, "o")) -- a mark: 0
            -- x's A1 A2 along the column at the edge: A3 makes a closed three
            assert.are.equal(5, g:pattern(sq(g, "A3"), 2, "x"))
            -- a square with no mark within reach along its row and column: an
            -- open one there; at the edge a closed one (no room on one side)
            assert.are.equal(2, g:pattern(sq(g, "L12"), 1, "o"))
            assert.are.equal(2, g:pattern(sq(g, "L12"), 2, "o"))
            assert.are.equal(1, g:pattern(sq(g, "M3"), 3, "o"))
            assert.are.equal("open 4", mb.pattern_name(8, 5))
            assert.are.equal("win", mb.pattern_name(9, 5))
            assert.are.equal("3", mb.pattern_name(5, 5))
            assert.are.equal("none", mb.pattern_name(0, 5))
        end)

        it("follows moves, unmoves, edits and restarts; a copy has its own", function()
            local g = game_of("F8,A1,G8,A2")
            assert.are.equal(6, g:pattern(sq(g, "H8"), 1, "o")) -- .ooo.. after it
            g:move(sq(g, "H8"))
            assert.are.equal(8, g:pattern(sq(g, "E8"), 1, "o"))
            local c = g:copy()
            g:unmove()
            assert.are.equal(6, g:pattern(sq(g, "E8"), 1, "o"))
            assert.are.equal(8, c:pattern(sq(c, "E8"), 1, "o"))
            g:place_mark(8, 7, "o") -- I8
            assert.are.equal(8, g:pattern(sq(g, "H8"), 1, "o")) -- .oo?o.: an open four
            g:remove_mark(8, 7)
            assert.are.equal(6, g:pattern(sq(g, "H8"), 1, "o"))
            g:restart()
            assert.are.equal(2, g:pattern(sq(g, "H8"), 1, "o"))
        end)

        it("sums up a square: class and value", function()
            -- o: E8 F8 G8 and H5 H6 H7 (D8 and H4 blocked by x): H8 makes two fours
            local g = game_of("E8,D8,F8,H4,G8,A1,H5,A15,H6,O1,H7,O15")
            local cls, value, codes = g:pattern_square(sq(g, "H8"), "o")
            assert.are.equal("double_four", cls)
            assert.are.same({7, 7, 2, 2}, codes)
            assert.is_true(value > 0)
            assert.are.equal("none", (g:pattern_square(sq(g, "E8"), "o")))
            assert.are.equal("none", (g:pattern_square(sq(g, "H9"), "x")))
            assert.is_true(g:pattern_eval("o") > 0)
            -- each side's sum less the other's, plus the tempo for the side named
            -- (the default class weights of the evaluation are 0)
            assert.are.equal(2 * g:pattern_weights().tempo, g:pattern_eval("o") + g:pattern_eval("x"))
            assert.are.equal(g:pattern_eval(), g:pattern_eval("o")) -- o to move
        end)

        it("gives the forced moves with their reason", function()
            local g = game_of("H8,A1")
            local moves, why = g:forced_moves()
            assert.are.same({}, moves)
            assert.is_nil(why)
            g = game_of("H8,A1,I8,A2,J8") -- x faces an open three
            moves, why = g:forced_moves()
            assert.are.equal("defend", why)
            assert.are.same({sq(g, "F8"), sq(g, "G8"), sq(g, "K8"), sq(g, "L8")}, moves)
            g = game_of("H8,A1,I8,A2,J8,G8,K8") -- o: H8..K8 against G8: x blocks L8
            moves, why = g:forced_moves()
            assert.are.same({{sq(g, "L8")}, "block"}, {moves, why})
            g:move(sq(g, "A3"))
            moves, why = g:forced_moves()
            assert.are.same({{sq(g, "L8")}, "win"}, {moves, why})
        end)

        it("orders moves by the move score", function()
            local g = game_of("F8,A1,G8,A2,H8,A3")
            local moves, scores = g:pattern_moves(3)
            assert.are.equal(3, #moves)
            assert.is_true(moves[1] == sq(g, "E8") or moves[1] == sq(g, "I8"))
            assert.is_true(scores[1] >= scores[2] and scores[2] >= scores[3])
            assert.are.same({sq(g, "H8")}, (game_of("", shape):pattern_moves()))
        end)

        it("reads and sets the weights", function()
            local g = game_of("F8,A1,G8")
            local w = g:pattern_weights()
            assert.are.same(w, mb.pattern_weights())
            assert.are.equal(16, #w.shape)
            local before = select(2, g:pattern_square(sq(g, "H8"), "o"))
            w.shape[4] = w.shape[4] + 1000 -- open three (level 3: open k-2)
            g:pattern_weights(w)
            local after = select(2, g:pattern_square(sq(g, "H8"), "o"))
            assert.are.equal(before + 1000, after)
            assert.has_error(function() g:pattern_weights({shape = {1.5}}) end,
                "weights: shape entries must be an integer from -1000000 to 1000000")
            assert.has_error(function() g:pattern_weights({combo = {triple = 1}}) end)
            assert.has_error(function() g:pattern_weights({colour = {}}) end,
                "weights: unknown key 'colour' (known: shape, combo, tomove, waiting, tempo)")
        end)

        it("works for other k and the exact rule", function()
            local g = game_of("C3,A1,D3", {width = 9, height = 9, k = 4})
            assert.are.equal(6, g:pattern(sq(g, "E3"), 1, "o")) -- .ooo. for k = 4: open three
            local e = game_of("A8,H1,B8,H2,C8,H3,D8,H4,F8", {width = 15, height = 15, k = 5, rule = "exact"})
            assert.are.equal(0, e:pattern(sq(e, "E8"), 1, "o")) -- six: no window
            assert.are.equal(9, e:pattern(sq(e, "H5"), 2, "x"))
        end)
    end)
end)

describe("the pattern searcher", function()
    local s = mb.pattern_searcher{tt_bits = 12}

    it("plays forced moves without search", function()
        local g = game_of("H8,A1,I8,A2,J8,G8,K8")
        local m, info = s:search(g)
        assert.are.equal(sq(g, "L8"), m)
        assert.are.equal("block", info.reason)
        g = game_of("E8,D8,F8,H4,G8,A1,H5,A15,H6,O1,H7,O15")
        m, info = s:search(g, {timelimit = 1})
        assert.are.same({sq(g, "H8"), "vcf"}, {m, info.reason})
        assert.is_nil((s:search(game_of("A1,B1,A2,B2,A3,B3,A4,B4,A5"))))
    end)

    it("searches to a depth, by nodes or by time, with every switch off", function()
        local g = game_of("H8,I9,G9,G7,I7")
        local m, info = s:search(g, {maxdepth = 2, timelimit = 10})
        assert.are.equal(2, info.depth)
        assert.are.equal(".", g:getmark_by_move(m))
        assert.are.equal(m, info.pv[1])
        m, info = s:search(g, {nodes = 2000, timelimit = 10})
        assert.is_true(info.nodes + info.vcf_nodes < 2000 + 200)
        assert.are.equal(".", g:getmark_by_move(m))
        local t0 = mb.clock()
        m = s:search(g, {timelimit = 0.05})
        assert.is_true(mb.clock() - t0 < 2)
        assert.are.equal(".", g:getmark_by_move(m))
        m = s:search(g, {timelimit = 0.05, tt = false, aspiration = false, killers = false,
            history = false, lmr = false, vcf = false, forced = false, prune = false, guard = false,
            qdefend = false, root_vcf = 0, root_vct = 0})
        assert.are.equal(".", g:getmark_by_move(m))
    end)

    it("leaves a node budget to the search: the root VCT takes at most vct_share of it", function()
        -- a middle game where the root VCT of the side to move finds nothing
        -- after many positions: with a budget of 30000 it once took them all
        -- and the search reached depth 1 after 56 positions
        local g = game_of("H8,I6,J6,I7,I5,K7,G7")
        local m, info = s:search(g, {nodes = 30000, timelimit = 100})
        assert.are.equal("search", info.reason)
        assert.are.equal(".", g:getmark_by_move(m))
        assert.is_true(info.depth >= 3, "depth " .. info.depth)
        assert.is_true(info.nodes >= 3000, "nodes " .. info.nodes)
        assert.is_true(info.nodes + info.vcf_nodes < 30000 + 200)
    end)

    it("refuses bad options", function()
        local g = game_of("H8")
        assert.has_error(function() s:search(g, {depht = 3}) end)
        local ok, err = pcall(s.search, s, g, {depht = 3})
        assert.is_false(ok)
        assert.matches("unknown option 'depht' %(known: timelimit,", err)
        assert.has_error(function() s:search(g, {maxdepth = 0}) end,
            "search: option 'maxdepth' must be an integer from 1 to 64")
        assert.has_error(function() s:search(g, {lmr = 1}) end, "search: option 'lmr' must be a boolean")
        assert.has_error(function() s:search(g, {timelimit = -1}) end,
            "search: option 'timelimit' must be a number from 0 to 1e+07")
        assert.has_error(function() mb.pattern_searcher{tt_bits = 40} end,
            "pattern_searcher: option 'tt_bits' must be an integer from 10 to 26")
        assert.has_error(function() mb.pattern_searcher{size = 1} end,
            "pattern_searcher: unknown option 'size' (known: tt_bits)")
    end)
end)

describe("patterns in the sandbox", function()
    local dir = helpers.dir_maker()

    local function script(body)
        local d = dir()
        os.execute("mkdir -p " .. d)
        local path = d .. "/ai.lua"
        local f = assert(io.open(path, "w"))
        f:write(body)
        f:close()
        return path
    end

    it("a sandboxed AI uses the codes and a searcher", function()
        local p = assert(mb.sandbox.load(script([[
            local s = mb.pattern_searcher{tt_bits = 14}
            return function(game, params)
                assert(game:pattern(game:xy_to_move(7, 7), 1, "o") >= 0)
                return (s:search(game, {timelimit = 0.05}))
            end]]), {time = 5, memory = 64 * 1024 * 1024}))
        local m = p:move(game_of("H8,I9"), {})
        assert.is_number(m)
    end)

    it("a searcher's table counts against the memory budget", function()
        local p = assert(mb.sandbox.load(script([[
            return function(game, params)
                local s = mb.pattern_searcher{tt_bits = 22} -- 64 MiB
                return game:calc_legal_moves()[1]
            end]]), {time = 5, memory = 16 * 1024 * 1024}))
        assert.are.same({nil, "memory"}, {p:move(game_of("H8"), {})})
    end)

    it("hostile: pattern_memory ends in memory; pattern_search_runaway in time or instructions", function()
        local H = "tests/hostile/"
        local cap = 10 * 1024 * 1024
        local p = assert(mb.sandbox.load(H .. "pattern_memory.lua",
            {instructions = false, time = 30, memory = cap}))
        assert.is_number((p:move(game_of("A1,B2"), {features_only = true}))) -- the features fit
        assert.are.same({nil, "memory"}, {p:move(game_of("A1,B2"), {})})
        assert.is_true(p:stats().peak <= cap)
        p = assert(mb.sandbox.load(H .. "pattern_search_runaway.lua",
            {instructions = false, time = 0.2, memory = 64 * 1024 * 1024}))
        local t0 = mb.clock()
        assert.are.same({nil, "time"}, {p:move(game_of("A1,B2"), {})})
        assert.is_true(mb.clock() - t0 < 15)
        p = assert(mb.sandbox.load(H .. "pattern_search_runaway.lua",
            {instructions = 2000000, time = 30, memory = 64 * 1024 * 1024}))
        assert.are.same({nil, "instructions"}, {p:move(game_of("A1,B2"), {})})
    end)

    it("a search stops at the move's time budget", function()
        local p = assert(mb.sandbox.load(script([[
            local s = mb.pattern_searcher{tt_bits = 14}
            return function(game, params)
                return (s:search(game, {timelimit = 1000, maxdepth = 60}))
            end]]), {time = 0.3, memory = 64 * 1024 * 1024}))
        local t0 = mb.clock()
        local m, r = p:move(game_of("H8,I9,G9,G7,I7"), {})
        assert.is_true(mb.clock() - t0 < 10)
        -- the search ends at the deadline; the move is late or just in time
        assert.is_true(m ~= nil or r == "time")
    end)
end)
