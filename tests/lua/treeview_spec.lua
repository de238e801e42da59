-- treeview_spec.lua: mb.show_tree (the text view of the game tree below a
-- position: exact text for the empty board at depth 1, indentation at depth
-- 2, scores in the sv schemes, errors off 3x3 or out of range) and mb.solve
-- (3x3 draw in 9 plies, 4x4 k4 draw, a won position, the game unchanged,
-- bad arguments). Each on every back-end but the errors.
local mb = require "marubatsu"
local helpers = dofile("tests/lua/helpers.lua")
local snapshot = helpers.snapshot

-- What mb.show_tree prints, as one string.
local function shown(...)
    local out = {}
    local saved = _G.print
    _G.print = function(...)
        local parts = {}
        for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
        out[#out + 1] = table.concat(parts, "\t")
    end
    local ok, err = pcall(mb.show_tree, ...)
    _G.print = saved
    if not ok then error(err, 0) end
    return table.concat(out, "\n")
end

helpers.each_backend(function(bk)
    describe("mb.show_tree on " .. bk.label, function()
        it("prints the children of the empty board with scores and best marks", function()
            assert.are.equal("score 0, o to move\n"
                .. "A1 0 *\nB1 0 *\nC1 0 *\nA2 0 *\nB2 0 *\nC2 0 *\nA3 0 *\nB3 0 *\nC3 0 *",
                shown(bk.new(), 1))
        end)

        it("defaults to depth 1 and marks only the best moves", function()
            local g = bk.game_of("A1,B2,C3,A3")
            assert.are.equal("score 1, o to move\n"
                .. "B1 -1\nC1 1 *\nA2 -1\nC2 -1\nB3 -1", shown(g))
        end)

        it("indents deeper levels and uses the scheme's scores", function()
            local g = bk.game_of("A1,B2,C3,A3,C1")
            local text = shown(g, 2, "sv")
            assert.are.equal("score 2.0, x to move\n"
                .. "B1 2.0 *\n  A2 -1.0\n  C2 2.0 *\n  B3 0\n"
                .. "A2 2.0 *\n  B1 2.0 *\n  C2 2.0 *\n  B3 -1.0\n"
                .. "C2 2.0 *\n  B1 2.0 *\n  A2 0\n  B3 -1.0\n"
                .. "B3 2.0 *\n  B1 2.0 *\n  A2 -1.0\n  C2 2.0 *", text)
        end)

        it("shows a finished game alone", function()
            local g = bk.game_of("A1,A2,B1,B2,C1")
            assert.are.equal("score 1, game over, o wins", shown(g, 3))
        end)
    end)

    describe("mb.solve on " .. bk.label, function()
        it("solves the empty 3x3 board: a draw in 9 plies", function()
            local g = bk.new()
            local before = snapshot(g)
            local r = mb.solve(g)
            assert.are.equal("draw", r.value)
            assert.are.equal(9, r.distance)
            assert.is_number(r.best)
            assert.is_true(r.nodes > 0)
            assert.is_true(r.table >= 0)
            assert.is_number(r.time)
            assert.are.same(before, snapshot(g))
        end)

        it("solves 4x4 with k = 4: a draw", function()
            local g = bk.new({width = 4, height = 4, k = 4})
            local r = mb.solve(g, {timelimit = 60})
            assert.are.equal("draw", r.value)
            assert.are.equal(16, r.distance)
        end)

        it("finds a won position and keeps the game unchanged", function()
            local g = bk.game_of("A1,B2,C3,A3")
            local before = snapshot(g)
            local r = mb.solve(g)
            assert.are.equal("first player wins", r.value)
            assert.are.equal(3, r.distance)
            assert.are.same(before, snapshot(g))
            local x = bk.game_of("A1,B2,B1")
            assert.are.equal("draw", mb.solve(x).value)
            local over = bk.game_of("A1,A2,B1,B2,C1")
            local r2 = mb.solve(over)
            assert.are.equal("first player wins", r2.value)
            assert.are.equal(0, r2.distance)
            assert.is_nil(r2.best)
        end)
    end)
end)

describe("mb.show_tree", function()
    it("rejects other boards, bad depths and schemes", function()
        local big = mb.Marubatsu({width = 4, height = 4})
        assert.has_error(function() shown(big, 1) end)
        assert.has_error(function() shown(mb.Marubatsu(), 10) end)
        assert.has_error(function() shown(mb.Marubatsu(), -1) end)
        assert.has_error(function() shown(mb.Marubatsu(), 1, "new") end)
        assert.has_error(function() shown("game", 1) end)
    end)
end)

describe("mb.solve", function()
    it("rejects bad arguments", function()
        assert.has_error(function() mb.solve() end)
        assert.has_error(function() mb.solve("game") end)
        assert.has_error(function() mb.solve(mb.Marubatsu(), 5) end)
        assert.has_error(function() mb.solve(mb.Marubatsu(), {timelimit = -1}) end)
        assert.has_error(function() mb.solve(mb.Marubatsu(), {timelimit = "x"}) end)
        assert.has_error(function() mb.solve(mb.Marubatsu({width = 9, height = 8})) end)
    end)
end)
