-- gomoku_spec.lua: the built-in gomoku AI (scripts/gomoku.lua) on 15x15
-- with five in a row. Checks, on every back-end (the pattern codes follow
-- each one's moves): it completes its own four, blocks the opponent's four
-- when it has no win, makes an open four from an open three, plays a
-- victory by continuous fours, answers an open three with one of the
-- forced moves, and otherwise searches and returns an empty square near
-- the stones within a small time limit; analyze reports the reason and
-- the search's figures; the game is left as it was. Once: the search's
-- switches are parameters; analyze gives, for people (play's hint, the
-- web's heat map), its move as the candidate and the pattern score of each
-- candidate square; an unknown parameter is refused with the known ones
-- listed. The second example AI (examples/gomoku_mcts.lua: MCTS with
-- pattern priors) blocks, defends and plays a square near the stones.
local mb = rawget(_G, "mb") or require "marubatsu"

local shape = {width = 15, height = 15, k = 5}

local helpers = dofile("tests/lua/helpers.lua")
local function game_of(list) return helpers.game_of(list, shape) end
local gomoku = mb.ai("gomoku")

-- the tactics on every back-end: the pattern codes follow each one's moves
helpers.each_backend(function(backend)
    describe("the gomoku AI on " .. backend.label, function()
        local function game_of(list) return backend.game_of(list, shape) end

        it("wins with its four", function()
            -- o: D8 E8 F8 G8, x: D1 E1 F1 G1; o to move wins at C8 or H8
            local g = game_of("D8,D1,E8,E1,F8,F1,G8,G1")
            local m = gomoku(g, {timelimit = 0.05})
            assert.is_true(m == mb.move("C8", g) or m == mb.move("H8", g))
            local r = gomoku(g, {analyze = true})
            assert.are.equal("win", r.reason)
        end)

        it("blocks the opponent's four", function()
            -- x: D1 E1 F1 G1 threatens C1 and H1 (a lost game: it blocks one)
            local g = game_of("H8,D1,H9,E1,A15,F1,O15,G1")
            local r = gomoku(g, {analyze = true})
            assert.are.equal("block", r.reason)
            assert.is_true(r.move == mb.move("C1", g) or r.move == mb.move("H1", g))
            -- x: D1 E1 F1 G1 with C1 taken: H1 is the only block
            g = game_of("H8,D1,H9,E1,C1,F1,O15,G1")
            assert.are.same(mb.move("H1", g), gomoku(g, {timelimit = 0.05}))
        end)

        it("makes an open four from an open three", function()
            -- o: E8 F8 G8 with D8 and H8 (and C8, I8) empty; x far away
            local g = game_of("E8,A1,F8,O15,G8,A15")
            local r = gomoku(g, {analyze = true})
            assert.are.equal("vcf", r.reason)
            assert.is_true(r.move == mb.move("D8", g) or r.move == mb.move("H8", g))
        end)

        it("plays a victory by continuous fours", function()
            -- o: E8 F8 G8 (D8 is x) and H5 H6 H7 (H4 is x): H8 makes two fours
            local g = game_of("E8,D8,F8,H4,G8,A1,H5,A15,H6,O1,H7,O15")
            local wins, opens = g:threats("o")
            assert.are.same({0, 0}, {#wins, #opens})
            local r = gomoku(g, {analyze = true, timelimit = 0.5})
            assert.are.equal("vcf", r.reason)
            assert.are.equal(mb.move("H8", g), r.move)
            assert.are.equal(mb.move("H8", g), r.pv[1])
        end)

        it("answers an open three with a forced move", function()
            -- o: H8 I8 J8 open; x to move must stop it (or make a four)
            local g = game_of("H8,A1,I8,A2,J8")
            local forced = g:forced_moves()
            local m = gomoku(g, {timelimit = 0.2})
            local found = false
            for _, f in ipairs(forced) do found = found or f == m end
            assert.is_true(found)
        end)

        it("searches a quiet position and plays an empty square near the stones", function()
            local g = game_of("H8,H9,I9")
            local before = g:board_to_str()
            local r = gomoku(g, {timelimit = 0.1, analyze = true})
            assert.are.equal(before, g:board_to_str())
            assert.are.equal("search", r.reason)
            assert.are.equal(".", g:getmark_by_move(r.move))
            assert.is_true(r.depth >= 1 and r.nodes > 0 and r.seconds < 5)
            assert.are.equal(r.move, r.pv[1])
            local x, y = g:move_to_xy(r.move)
            local hx, hy = g:move_to_xy(mb.move("H8", g))
            assert.is_true(math.abs(x - hx) <= 2 and math.abs(y - hy) <= 2)
            -- the first move of a game is the centre
            assert.are.equal(mb.move("H8", g), gomoku(backend.new(shape), {timelimit = 0.05}))
        end)
    end)
end)

describe("the gomoku AI's parameters", function()
    it("takes the search's switches as parameters", function()
        local g = game_of("H8,H9,I9")
        local r = gomoku(g, {timelimit = 0.05, lmr = false, tt = false, width = 5, analyze = true,
            weights = {shape = {10000, 1000}}})
        assert.are.equal(".", g:getmark_by_move(r.move))
        local ok, err = pcall(gomoku, g, {width = -1})
        assert.is_false(ok)
        assert.matches("option 'width' must be an integer", err)
    end)

    it("analyzes for people: its move as the candidate, each candidate square's pattern score", function()
        local g = game_of("H8,I9")
        local r = gomoku(g, {analyze = true, timelimit = 0.1})
        assert.are.same({r.move}, r.candidate)
        assert.are.equal("pattern score", r.score_label)
        local moves, scores = g:pattern_moves(60)
        local want = {}
        for i, m in ipairs(moves) do want[m] = scores[i] end
        assert.are.same(want, r.score_by_move)
        assert.are.same(moves, r.moves)
        assert.is_true(#moves >= 8)
        assert.is_not_nil(r.score_by_move[r.move])
    end)

    it("refuses an unknown parameter", function()
        local ok, err = pcall(gomoku, game_of("H8"), {depth = 3})
        assert.is_false(ok)
        assert.matches("unknown parameter 'depth'", err)
        assert.matches("maxdepth", err)
    end)
end)

describe("examples/gomoku_mcts.lua", function()
    local ai = dofile("examples/gomoku_mcts.lua")

    it("blocks a four, answers an open three, and otherwise searches", function()
        local g = game_of("H8,D1,H9,E1,C1,F1,O15,G1")
        assert.are.equal(mb.move("H1", g), ai.fn(g, {timelimit = 0.1}))
        g = game_of("H8,A1,I8,A2,J8")
        local m, found = ai.fn(g, {timelimit = 0.1}), false
        for _, f in ipairs(g:forced_moves()) do found = found or f == m end
        assert.is_true(found)
        g = game_of("H8,H9,I9")
        local before = g:board_to_str()
        m = ai.fn(g, {timelimit = 0.2})
        assert.are.equal(before, g:board_to_str())
        assert.are.equal(".", g:getmark_by_move(m))
        local x, y = g:move_to_xy(m)
        local hx, hy = g:move_to_xy(mb.move("H8", g))
        assert.is_true(math.abs(x - hx) <= 3 and math.abs(y - hy) <= 3)
    end)
end)
