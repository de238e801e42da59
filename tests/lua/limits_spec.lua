-- limits_spec.lua: the `hash` option of every search that keeps a table or
-- a tree (mb.search_abs_dls, mb.search_pvs_dls, mb.search_iddfs,
-- mb.searcher, mb.solve, mb.mcts): the megabytes it may hold, a whole
-- number from 1 to 1048576, anything else refused with a message naming
-- the call; on 3x3 the smallest cap changes no count (the series' numbers:
-- 1175, the iterative deepening's per-depth counts, the searchers'), a
-- record says hash_full = true once its table reached the cap (7x6 for two
-- seconds, the solver on (5,4,4), MCTS on 9x9) and nothing otherwise, and
-- the answers under a cap are still right (the solver's draw, its
-- distance). All on the default back-end: the tables' caps do not depend on
-- the board (the searches run on every back-end in their own specs).
local mb = require "marubatsu"

local function big()
    local g = mb.Marubatsu{width = 7, height = 6, k = 4}
    g:move(24)
    return g
end

describe("the hash option", function()
    it("is a whole number of megabytes from 1 to 1048576", function()
        local g = mb.Marubatsu()
        for _, bad in ipairs({0, -1, 1.5, "8", 1048577, true}) do
            for _, f in ipairs({"search_abs_dls", "search_pvs_dls", "search_iddfs"}) do
                local ok, err = pcall(mb[f], g, {hash = bad})
                assert.is_false(ok)
                assert.matches(f .. ": option 'hash' must be a whole number of megabytes from 1 to 1048576",
                    err, 1, true)
            end
            local ok, err = pcall(mb.searcher, "ai_abs_all", g, {hash = bad})
            assert.is_false(ok)
            assert.matches("mb.searcher: option 'hash' must be", err, 1, true)
            ok, err = pcall(mb.solve, g, {hash = bad})
            assert.is_false(ok)
            assert.matches("solve: option 'hash' must be", err, 1, true)
            ok, err = pcall(mb.mcts, {hash = bad})
            assert.is_false(ok)
            assert.matches("mb.mcts: option 'hash' must be", err, 1, true)
        end
        assert.has_error(function() mb.mcts{hash = 1, max_nodes = 100} end,
            "mb.mcts: give max_nodes or hash, not both")
        local ok, err = pcall(mb.solve, g, {timelmit = 1})
        assert.is_false(ok)
        assert.matches("solve: unknown option 'timelmit' (known: timelimit, hash)", err, 1, true)
    end)

    it("keeps every 3x3 count at its smallest", function()
        local g = mb.Marubatsu()
        local r = mb.search_abs_dls(g, {maxdepth = 8, use_tt = true, analyze = true, rand = false, hash = 1})
        assert.are.equal(1175, r.count)
        assert.are.equal(3219, r.tt_size)
        assert.is_nil(r.hash_full)
        r = mb.search_iddfs(g, {analyze = true, moveordering = false, hash = 1, timelimit = 60})
        local counts = {}
        for i, it in ipairs(r) do
            counts[i] = it.count
            assert.is_nil(it.hash_full)
        end
        assert.are.same({9, 33, 81, 206, 431, 927, 1121, 1161, 1175}, counts)
        r = mb.search_pvs_dls(g, {maxdepth = 8, analyze = true, rand = false, hash = 1})
        assert.are.equal(1165, r.count)
        r = mb.searcher("ai_abs_tt", g, {analyze = true, hash = 1})
        assert.are.equal(10798, r.count)
        assert.is_nil(r.hash_full)
        r = mb.searcher("ai_abs_all", g, {analyze = true, use_tt = true, shortest_victory = true, hash = 1})
        assert.are.same(mb.searcher("ai_abs_all", g, {analyze = true, use_tt = true, shortest_victory = true}).counts,
            r.counts)
    end)

    it("is reported when a table reaches it", function()
        local r = mb.search_iddfs(big(), {analyze = true, hash = 1, timelimit = 2})
        local full = false
        for _, it in ipairs(r) do full = full or it.hash_full == true end
        assert.is_true(full)
        assert.is_nil(mb.search_iddfs(big(), {analyze = true, timelimit = 0.05})[1].hash_full)
        r = mb.search_abs_dls(big(), {maxdepth = 4, use_tt = true, analyze = true, hash = 1})
        assert.is_true(r.hash_full)
        assert.is_true(r.tt_size <= 24576) -- 3/4 of the 32,768 slots of 1 MB
    end)

    it("leaves the solver exact", function()
        local g = mb.Marubatsu{width = 5, height = 4, k = 4}
        local small = mb.solve(g, {hash = 1})
        local full = mb.solve(g)
        assert.are.equal("draw", small.value)
        assert.are.equal(full.distance, small.distance)
        assert.is_true(small.hash_full)
        assert.is_nil(full.hash_full)
        assert.is_true(small.table <= 24576) -- 3/4 of the 32,768 slots of 1 MB
        assert.is_true(small.nodes > full.nodes)
    end)

    it("sizes the MCTS arena", function()
        local s = mb.mcts{hash = 1, seed = 3}
        local m, info = s:search(mb.Marubatsu{width = 9, height = 9, k = 5}, {playouts = 20000})
        assert.is_true(info.hash_full)
        assert.is_true(info.nodes <= 1024 * 1024 // 24)
        assert.are.equal("integer", math.type(m))
        local _, small = mb.mcts{seed = 3}:search(mb.Marubatsu{width = 9, height = 9, k = 5}, {playouts = 200})
        assert.is_nil(small.hash_full)
    end)
end)
