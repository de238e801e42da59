-- gt_spec.lua: the best-move tables for Lua (mb.load_bestmoves, mb.bestmoves_table,
-- mb.mblist_by_board) against the JSON copies, ai_gt6 / ai_gt7 (ais.md §5), and
-- mb.check_solved (ais.md §9.4): the generated 431 positions, the pass counts of
-- ais.md §11.3, the printed line, and clear errors for bad files.
local mb = require "marubatsu"
local json = require "dkjson"

local DATA = os.getenv("MARUBATSU_SPEC_DATA") or "tests/data"

local function load_json(name)
    local f = assert(io.open(DATA .. "/" .. name, "rb"))
    local text = f:read("a")
    f:close()
    return assert(json.decode(text))
end

local function xy_moves(list)
    local t = {}
    for i, xy in ipairs(list) do t[i] = xy[2] + 3 * xy[1] end
    return t
end

local function count_keys(t)
    local n = 0
    for _ in pairs(t) do n = n + 1 end
    return n
end

local function tmpfile(text)
    local path = os.tmpname()
    local f = assert(io.open(path, "wb"))
    f:write(text)
    f:close()
    return path
end

describe("mb.mblist_by_board", function()
    it("generates the 431 positions of mblist_by_board_min.json, in order", function()
        local want = load_json("mblist_by_board_min.json")
        local got = mb.mblist_by_board("min")
        assert.are.equal(431, #want)
        assert.are.equal(#want, #got)
        for i, list in ipairs(want) do assert.are.same(xy_moves(list), got[i]) end
        local hist = {}
        for _, l in ipairs(got) do hist[#l] = (hist[#l] or 0) + 1 end
        assert.are.same({3, 9, 28, 91, 101, 134, 65}, hist)
    end)
    it("has 3191 positions for all boards", function()
        assert.are.equal(3191, #mb.mblist_by_board("all"))
    end)
end)

describe("mb.bestmoves_table", function()
    it("equals bestmoves_by_board.json for all 5,478 boards", function()
        local want = load_json("bestmoves_by_board.json")
        local got = mb.bestmoves_table("old")
        assert.are.equal(5478, count_keys(want))
        assert.are.equal(5478, count_keys(got))
        for key, list in pairs(want) do
            assert.are.same(xy_moves(list), got[key].bestmoves, key)
        end
    end)
    for _, c in ipairs({{"old", "bestmoves_and_score_by_board.json"},
            {"sv", "bestmoves_and_score_by_board_shortest_victory.json"},
            {"sv_rd", "bestmoves_and_score_by_board_sv_rd.json"}}) do
        it("equals " .. c[2] .. " with scores (" .. c[1] .. ")", function()
            local want = load_json(c[2])
            local got = mb.bestmoves_table(c[1])
            assert.are.equal(count_keys(want), count_keys(got))
            for key, row in pairs(want) do
                assert.are.same(xy_moves(row.bestmoves), got[key].bestmoves, key)
                assert.are.equal(row.score, got[key].score, key)
            end
        end)
    end
    it("rejects an unknown scoring", function()
        assert.has_error(function() mb.bestmoves_table("nope") end)
    end)
end)

describe("mb.load_bestmoves", function()
    it("reads bestmoves_and_score_by_board.json: the same moves and scores", function()
        local want = load_json("bestmoves_and_score_by_board.json")
        local got = mb.load_bestmoves(DATA .. "/bestmoves_and_score_by_board.json")
        assert.are.equal(5478, count_keys(got))
        for key, row in pairs(want) do
            assert.are.same(xy_moves(row.bestmoves), got[key].bestmoves, key)
            assert.are.equal(row.score, got[key].score, key)
        end
        assert.are.same(mb.bestmoves_table("old"), got)
    end)
    it("reads the key -> moves shape without scores", function()
        local got = mb.load_bestmoves(DATA .. "/bestmoves_by_board.json")
        assert.are.same({4}, got["o........"].bestmoves)
        assert.is_nil(got["o........"].score)
    end)
    it("errors with the line and column of a bad file", function()
        local path = tmpfile('{".........": [[0,0]],\n "oo": []}')
        local ok, err = pcall(mb.load_bestmoves, path)
        os.remove(path)
        assert.is_false(ok)
        assert.matches("line 2, column %d+", err)
        assert.matches(path, err, 1, true)
        local ok2, err2 = pcall(mb.load_bestmoves, "/nonexistent/x.json")
        assert.is_false(ok2)
        assert.matches("/nonexistent/x.json", err2, 1, true)
    end)
end)

describe("ai_gt6 and ai_gt7", function()
    it("play a best move and analyze with the table", function()
        local g = mb.Marubatsu()
        g:move(0)
        local gt6, gt7 = mb.ai("ai_gt6"), mb.ai("ai_gt7")
        assert.are.same({4}, gt6(g, {analyze = true}).candidate)
        assert.are.equal(4, gt6(g, {rand = false}))
        local a = gt7(g, {analyze = true})
        assert.are.same({4}, a.candidate)
        assert.are.same({3, 6, 1, 4, 7, 2, 5, 8}, a.moves) -- legal order: row by row
        assert.are.equal(0, a.score_by_move[4])
        assert.are.equal(1, a.score_by_move[1])
        assert.are.equal(4, gt7(g, {rand = false}))
        assert.are.equal(4, gt7(g))
        assert.are.equal("o........", g:board_to_str())
    end)
    it("use params.table (sv scores)", function()
        local t = mb.load_bestmoves(DATA .. "/bestmoves_and_score_by_board_shortest_victory.json")
        local g = mb.Marubatsu()
        local a = mb.ai("ai_gt7")(g, {analyze = true, table = t})
        assert.are.equal(t[g:board_to_str()].bestmoves[1], a.candidate[1])
    end)
    it("draw the same random number as a candidate AI", function()
        local g = mb.Marubatsu()
        mb.seed(0)
        local m1 = mb.ai("ai_gt7")(g)
        mb.seed(0)
        local m2 = mb.ai("ai_gt6")(g)
        assert.are.equal(m1, m2)
    end)
end)

describe("mb.check_solved", function()
    local PASS = {ai_gt6 = 431, ai_gt7 = 431, ai14s = 424, ai2 = 0, ai6 = 352, ai1 = 138}
    for _, name in ipairs({"ai_gt6", "ai_gt7", "ai14s", "ai2", "ai6", "ai1"}) do
        it(name .. " passes " .. PASS[name] .. " of 431", function()
            local passed, failures, count = mb.check_solved(name, nil, {quiet = true})
            assert.are.equal(PASS[name], count)
            assert.are.equal(431 - PASS[name], #failures)
            assert.are.equal(PASS[name] == 431, passed)
            if failures[1] then
                assert.is_table(failures[1].moves)
                assert.is_table(failures[1].candidate)
                assert.is_table(failures[1].bestmoves)
            end
        end)
    end
    it("prints the series' line", function()
        local path = os.tmpname()
        local f = assert(io.open(path, "w"))
        mb.check_solved("ai_gt6", nil, {out = f})
        mb.check_solved("ai14s", {}, {out = f})
        f:close()
        f = assert(io.open(path))
        local text = f:read("a")
        f:close()
        os.remove(path)
        assert.are.equal("431/431 100.00%\n424/431 98.38%\n", text)
    end)
    it("checks all 3191 boards and given positions", function()
        local passed, _, count = mb.check_solved("ai_gt6", nil, {quiet = true, positions = "all"})
        assert.is_true(passed)
        assert.are.equal(3191, count)
        local ok, failures, n = mb.check_solved("ai2", {}, {quiet = true, positions = {{0, 3}}})
        assert.is_false(ok)
        assert.are.equal(0, n)
        assert.are.same({0, 3}, failures[1].moves)
    end)
end)
