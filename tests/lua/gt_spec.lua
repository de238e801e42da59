-- gt_spec.lua: the best-move tables for Lua (mb.load_bestmoves, mb.bestmoves_table,
-- mb.mblist_by_board) against the JSON copies, ai_gt6 / ai_gt7 (ais.md §5), and
-- mb.check_solved (ais.md §9.4): the generated 431 positions, the pass counts of
-- ais.md §11.3, the printed line, and clear errors for bad files. The
-- tables and mb.check_solved make their own games (on the default
-- back-end); the table AIs' lists over the 431 positions are taken on the
-- back-end settings in turn, position i on helpers.backend(i).
local mb = require "marubatsu"
local json = require "dkjson"
local helpers = dofile("tests/lua/helpers.lua")

local DATA = os.getenv("MARUBATSU_SPEC_DATA") or "tests/data"

local function load_json(name)
    return assert(json.decode(helpers.read_file(DATA .. "/" .. name)))
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

-- ---- ai_gt1 .. ai_gt5, ai_gtsv (ais.md §5, tree.md §6-7) and is_weakly_solved (§9.4) ----

local GT = {"ai_gt1", "ai_gt2", "ai_gt3", "ai_gt4", "ai_gt5", "ai_gtsv"}
-- T1 of tree.md §7: 〇(1,1) ×(1,0) 〇(0,0) ×(2,0), engine moves y + 3x
local T1 = {4, 3, 0, 6}

-- the game after moves, on the back-end setting bk (or the default)
local function game_of(moves, bk)
    local g = bk and bk.new() or mb.Marubatsu()
    for _, m in ipairs(moves) do g:move(m) end
    return g
end

local function read_back(fn)
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    local r1, r2 = fn(f)
    f:close()
    f = assert(io.open(path))
    local text = f:read("a")
    f:close()
    os.remove(path)
    return text, r1, r2
end

describe("mb.tree_node and mb.tree_bestmoves", function()
    it("give the T1 node's children and scores in both schemes", function()
        local old = mb.tree_node(T1)
        assert.are.equal(1, old.score)
        assert.are.same({1, 7, 2, 5, 8}, old.children)
        assert.are.same({1, 1, 1, 0, 1}, old.child_scores)
        assert.are.same({1, 7, 2, 8}, old.bestmoves)
        local sv = mb.tree_node(T1, "sv")
        assert.are.equal(3.0, sv.score)
        assert.are.same({2.0, 2.0, 2.0, 0, 3.0}, sv.child_scores)
        assert.are.same({8}, sv.bestmoves)
        assert.are.same({8}, mb.tree_bestmoves(T1, "sv"))
        assert.are.same({0, 3, 6, 1, 4, 7, 2, 5, 8}, mb.tree_bestmoves({})) -- legal order
        assert.are.same({0, 6, 2, 8}, mb.tree_bestmoves({4}))
    end)
    it("give nil off the tree and reject bad arguments", function()
        assert.is_nil(mb.tree_node({0, 0}))
        assert.is_nil(mb.tree_bestmoves({9}))
        assert.is_nil(mb.tree_node({0, 1, 3, 4, 6, 7}))  -- after 〇's win
        assert.are.same({}, mb.tree_bestmoves({0, 1, 3, 4, 6}))  -- finished
        assert.has_error(function() mb.tree_node({"a"}) end)
        assert.has_error(function() mb.tree_node({}, "nope") end)
        assert.has_error(function() mb.tree_node("x") end)
    end)
    it("records keys carry the -1 marker", function()
        assert.are.equal("-1", mb.records_key(mb.Marubatsu()))
        assert.are.equal("-1,4,3,0,6", mb.records_key(game_of(T1)))
        assert.are.same({8}, mb.bestmoves_by_records("sv")["-1,4,3,0,6"])
        assert.is_nil(mb.bestmoves_by_records()["4,3"])
    end)
end)

describe("ai_gt1 .. ai_gt5 and ai_gtsv", function()
    for _, name in ipairs(GT) do
        it(name .. " is strongly solved: 431/431 and 4520/4520 unfinished boards", function()
            local passed, failures, count = mb.check_solved(name, nil, {quiet = true})
            assert.is_true(passed)
            assert.are.equal(431, count)
            assert.are.same({}, failures)
            local passed2, _, count2 = mb.check_solved(name, nil,
                {quiet = true, positions = "unfinished"})
            assert.is_true(passed2)
            assert.are.equal(4520, count2)
        end)
    end
    it("ai_gt1 .. ai_gt5 give ai_gt6's candidate lists on the 431 positions (old scoring)", function()
        local gt6 = mb.ai("ai_gt6")
        local ais = {}
        for i = 1, 5 do ais[i] = mb.ai("ai_gt" .. i) end
        for j, moves in ipairs(mb.test_positions("min")) do
            local bk = helpers.backend(j)
            local g = game_of(moves, bk)
            local want = gt6(g, {analyze = true}).candidate
            assert.is_true(#want > 0)
            for i = 1, 5 do
                assert.are.same(want, ais[i](g, {analyze = true}).candidate,
                    "ai_gt" .. i .. " at " .. table.concat(moves, ",") .. " on " .. bk.label)
            end
        end
    end)
    it("ai_gtsv gives the shortest-victory table's lists, as ai_gt2 on the sv tree", function()
        local sv = mb.cached_bestmoves_table("sv")
        local gtsv, gt2 = mb.ai("ai_gtsv"), mb.ai("ai_gt2")
        for j, moves in ipairs(mb.test_positions("min")) do
            local bk = helpers.backend(j)
            local g = game_of(moves, bk)
            local c = gtsv(g, {analyze = true}).candidate
            local at = table.concat(moves, ",") .. " on " .. bk.label
            assert.are.same(sv[g:board_to_str()].bestmoves, c, at)
            assert.are.same(c, gt2(g, {analyze = true, scoring = "sv"}).candidate, at)
        end
    end)
    it("T3, T4, T5: the shortest-victory AIs play (2,2) at once", function()
        local g = game_of(T1)
        assert.are.same({8}, mb.ai("ai_gtsv")(g, {analyze = true}).candidate)   -- T5
        assert.are.same({8}, mb.ai("ai_gt4")(g, {analyze = true, scoring = "sv"}).candidate) -- T3
        for _ = 1, 20 do assert.are.equal(8, mb.ai("ai_gtsv")(g)) end
        local g4 = game_of({4, 3, 0})                                              -- T4 / T6
        assert.are.same({6, 1, 7, 2, 5, 8}, mb.ai("ai_gt6")(g4, {analyze = true}).candidate)
        assert.are.same({8}, mb.ai("ai_gt6")(g4,
            {analyze = true, table = mb.cached_bestmoves_table("sv")}).candidate)
        assert.are.same({8}, mb.ai("ai_gt1")(g4, {analyze = true, scoring = "sv"}).candidate)
        assert.are.equal("-1,4,3,0,6", mb.records_key(g))  -- the game is unchanged
    end)
    it("ai_gt5 returns the whole list of params.bestmoves (intended behaviour)", function()
        local g = game_of({4})
        local gt5 = mb.ai("ai_gt5")
        assert.are.same({0, 6, 2, 8}, gt5(g, {analyze = true}).candidate)
        local t = {["-1,4"] = {3, 5}}
        assert.are.same({3, 5}, gt5(g, {analyze = true, bestmoves = t}).candidate)
        local m = gt5(g, {bestmoves = t})
        assert.is_true(m == 3 or m == 5)
        assert.has_error(function() gt5(game_of({0}), {bestmoves = t}) end)
    end)
    it("draw the same random number as ai_gt6", function()
        local g = mb.Marubatsu()
        mb.seed(0)
        local want = mb.ai("ai_gt6")(g)
        for _, name in ipairs({"ai_gt1", "ai_gt2", "ai_gt3", "ai_gt4", "ai_gt5"}) do
            mb.seed(0)
            assert.are.equal(want, mb.ai(name)(g), name)
        end
    end)
end)

describe("mb.check_solved on all unfinished boards", function()
    it("lists 4520 positions, one per unfinished board", function()
        local list = mb.test_positions("unfinished")
        assert.are.equal(4520, #list)
        local seen = {}
        for _, moves in ipairs(list) do
            local g = game_of(moves)
            assert.are.equal("playing", g.status)
            assert.is_nil(seen[g:board_to_str()])
            seen[g:board_to_str()] = true
        end
    end)
    it("ai_gt6 and ai_gt7 pass 4520/4520 and print the line", function()
        local text, passed = read_back(function(f)
            return mb.check_solved("ai_gt6", nil, {out = f, positions = "unfinished"})
        end)
        assert.is_true(passed)
        assert.are.equal("4520/4520 100.00%\n", text)
        assert.is_true((mb.check_solved("ai_gt7", nil, {quiet = true, positions = "unfinished"})))
    end)
end)

describe("is_weakly_solved (mb.check_weakly_solved)", function()
    it("ai_gt6 is weakly solved and prints the series' three lines", function()
        local text, both, by_turn = read_back(function(f)
            return mb.check_weakly_solved("ai_gt6", nil, {out = f})
        end)
        assert.is_true(both)
        assert.are.same({o = true, x = true}, by_turn)
        assert.are.equal("   o true\n   x true\nBoth true\n", text)
    end)
    it("the table AIs are weakly solved; opts.weak of mb.check_solved", function()
        for _, name in ipairs(GT) do
            assert.is_true((mb.check_weakly_solved(name, nil, {quiet = true})), name)
        end
        local text, both = read_back(function(f)
            return mb.check_solved("ai_gt2", {}, {weak = true, out = f})
        end)
        assert.is_true(both)
        assert.are.equal("   o true\n   x true\nBoth true\n", text)
    end)
    it("a failing AI prints false lines", function()
        -- an AI whose only candidate is the first legal move loses as either side
        local first = mb.ai_by_candidate(function(g) return {g:calc_legal_moves()[1]} end, "first")
        local text, both, by_turn = read_back(function(f)
            return mb.check_weakly_solved(first, nil, {out = f})
        end)
        assert.is_false(both)
        assert.are.same({o = false, x = false}, by_turn)
        assert.are.equal("   o false\n   x false\nBoth false\n", text)
    end)
end)
