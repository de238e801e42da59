-- gomoku_spec.lua: the built-in gomoku AI (scripts/gomoku.lua) on 15x15
-- with five in a row. Checks: it completes its own four (the first win
-- square in normative order), blocks the opponent's four when it has no
-- win, makes an open four from an open three, and otherwise searches and
-- returns an empty square within a small time limit; analyze reports the
-- reason of a forced move; an unknown parameter is refused with the known
-- ones listed; the game is left as it was. All but the parameter check on
-- every back-end.
local mb = rawget(_G, "mb") or require "marubatsu"

local shape = {width = 15, height = 15, k = 5}

local helpers = dofile("tests/lua/helpers.lua")
local gomoku = mb.ai("gomoku")

helpers.each_backend(function(bk)
    describe("the gomoku AI on " .. bk.label, function()
        local function game_of(list) return bk.game_of(list, shape) end

        it("wins with its four", function()
            -- o: D8 E8 F8 G8, x: D1 E1 F1 G1; o to move wins at C8 (or H8)
            local g = game_of("D8,D1,E8,E1,F8,F1,G8,G1")
            assert.are.equal(mb.move("C8", g), gomoku(g, {timelimit = 0.05}))
            assert.are.same({move = mb.move("C8", g), reason = "win"}, gomoku(g, {analyze = true}))
        end)

        it("blocks the opponent's four", function()
            -- x: D1 E1 F1 G1 threatens C1 and H1; o has no four of its own
            local g = game_of("H8,D1,H9,E1,A15,F1,O15,G1")
            assert.are.same({move = mb.move("C1", g), reason = "block"}, gomoku(g, {analyze = true}))
        end)

        it("makes an open four from an open three", function()
            -- o: E8 F8 G8 with D8 and H8 (and C8, I8) empty; x far away, no threat
            local g = game_of("E8,A1,F8,O15,G8,A15")
            assert.are.same({move = mb.move("D8", g), reason = "open"}, gomoku(g, {analyze = true}))
        end)

        it("plays a victory by continuous fours", function()
            -- o: E8 F8 G8 (D8 is x) and H5 H6 H7 (H4 is x): H8 makes two fours
            local g = game_of("E8,D8,F8,H4,G8,A1,H5,A15,H6,O1,H7,O15")
            local wins, opens = g:threats("o")
            assert.are.same({0, 0}, {#wins, #opens})
            local r = gomoku(g, {analyze = true, timelimit = 0.5})
            assert.are.equal("vcf", r.reason)
            assert.are.equal(mb.move("H8", g), r.move)
            assert.are.same(mb.vcf(g), r.line)
        end)

        it("searches a quiet position and plays an empty square near the stones", function()
            local g = game_of("H8,H9,I9")
            local before = g:board_to_str()
            local m = gomoku(g, {timelimit = 0.05})
            assert.are.equal(before, g:board_to_str())
            assert.are.equal(".", g:getmark_by_move(m))
            local x, y = g:move_to_xy(m)
            local hx, hy = g:move_to_xy(mb.move("H8", g))
            assert.is_true(math.abs(x - hx) <= 2 and math.abs(y - hy) <= 2)
            -- the first move of a game is the centre
            assert.are.equal(mb.move("H8", g), gomoku(bk.new(shape), {timelimit = 0.05}))
        end)
    end)
end)

describe("the gomoku AI", function()
    it("refuses an unknown parameter", function()
        local ok, err = pcall(gomoku, helpers.game_of("H8", shape), {depth = 3})
        assert.is_false(ok)
        assert.matches("unknown parameter 'depth'", err)
        assert.matches("distance", err)
    end)
end)
