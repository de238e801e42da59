-- iddfs_spec.lua: mb.search_pvs_dls, mb.search_iddfs and the AIs
-- ai_pvs_dls, ai_ab_iddfs, ai_pvs_iddfs against ais.md §11.2: the PVS
-- counts, the per-depth counts of iterative deepening (move ordering on and
-- off, PVS), the root scores and candidates per depth, with the C
-- evaluator and a Lua one; the game unchanged (all of these on every
-- back-end); options checked.
local mb = require "marubatsu"
local helpers = dofile("tests/lua/helpers.lua")
local snapshot = helpers.snapshot

local ai14s = mb.ai("ai14s")
local function lua_ai14s(game) return ai14s(game, {calc_score = true, minimax = true}) end

local AB_MO = {9, 33, 66, 158, 269, 458, 584, 546, 545}
local AB_PLAIN = {9, 33, 81, 206, 431, 927, 1121, 1161, 1175}
local PVS_MO = {9, 36, 68, 163, 272, 459, 567, 544, 545}
local SCORES = {2, 2, 2.5, 1, 2.5, 0.5, 2.5, 0, 0}

local function check_depths(r, counts)
    assert.are.equal(9, #r)
    for d = 1, 9 do
        assert.are.equal(d - 1, r[d].depth)
        assert.are.equal(counts[d], r[d].count)
        assert.are.equal(SCORES[d], r[d].score)
        if d <= 7 then
            assert.are.same({4}, r[d].candidate)
        else
            assert.are.equal(9, #r[d].candidate)
        end
        assert.are.equal(r[d].bestmove, r[d].PV[1])
    end
end

local EVALS = {
    {"the C evaluator", "ai14s"},
    {"a Lua evaluator (ai14s, minimax)", lua_ai14s},
}

helpers.each_backend(function(bk)
    describe("mb.search_pvs_dls on " .. bk.label, function()
        for _, e in ipairs(EVALS) do
            it("gives the PVS numbers with " .. e[1], function()
                local g = bk.new()
                local before = snapshot(g)
                local r = mb.search_pvs_dls(g, {maxdepth = 8, analyze = true, eval = e[2],
                    rand = false})
                assert.are.equal(1165, r.count)
                assert.are.same({684, 381, 1, 1, 94, 1, 1, 1, 1}, r.counts)
                assert.are.equal(3163, r.tt_size)
                assert.are.equal(9, #r.candidate)
                assert.are.equal(267, mb.search_pvs_dls(g, {maxdepth = 3, analyze = true,
                    eval = e[2]}).count)
                assert.are.same(before, snapshot(g))
                g:move(4)
                r = mb.search_pvs_dls(g, {maxdepth = 8, analyze = true, eval = e[2]})
                assert.are.equal(331, r.count)
                assert.are.equal(4, #r.candidate)
                assert.are.equal(142, mb.search_pvs_dls(g, {maxdepth = 3, analyze = true,
                    eval = e[2]}).count)
            end)
        end
    end)

    describe("mb.search_iddfs on " .. bk.label, function()
        for _, e in ipairs(EVALS) do
            it("gives the per-depth counts with " .. e[1], function()
                local g = bk.new()
                local before = snapshot(g)
                check_depths(mb.search_iddfs(g, {analyze = true, eval = e[2], timelimit = 60}),
                    AB_MO)
                check_depths(mb.search_iddfs(g, {analyze = true, eval = e[2], timelimit = 60,
                    moveordering = false}), AB_PLAIN)
                check_depths(mb.search_iddfs(g, {analyze = true, eval = e[2], timelimit = 60,
                    pvs = true}), PVS_MO)
                assert.are.same(before, snapshot(g))
            end)
        end
    end)

    describe("the iterative deepening and PVS AIs on " .. bk.label, function()
        it("are AIs passing their params to the search", function()
            local g = bk.new()
            local r = mb.ai("ai_pvs_dls")(g, {maxdepth = 8, analyze = true})
            assert.are.equal(1165, r.count)
            local ab = mb.ai("ai_ab_iddfs")
            assert.are.equal("ai_ab_iddfs", ab.name)
            r = ab(g, {analyze = true})
            assert.are.equal(9, #r)
            assert.are.equal(545, r[9].count)
            r = ab(g, {analyze = true, moveordering = false})
            assert.are.equal(1175, r[9].count)
            r = mb.ai("ai_pvs_iddfs")(g, {analyze = true})
            assert.are.equal(36, r[2].count)
            -- rand = false: the first of the last depth's 9 candidates
            assert.are.equal(g:calc_legal_moves()[1],
                mb.ai("ai_pvs_iddfs")(g, {rand = false, timelimit = 60}))
        end)

        it("play whole games against ai2", function()
            local ai2 = mb.ai("ai2")
            mb.seed(3)
            for _, name in ipairs{"ai_pvs_dls", "ai_ab_iddfs", "ai_pvs_iddfs"} do
                local g = helpers.play_out(bk.new(), mb.ai(name), ai2)
                assert.are.equal(g.move_count, #g.records)
            end
        end)
    end)
end)

describe("mb.search_pvs_dls", function()
    it("rejects use_tt and unknown options", function()
        local g = mb.Marubatsu()
        assert.has_error(function() mb.search_pvs_dls(g, {use_tt = false}) end)
        assert.has_error(function() mb.search_pvs_dls(g, {maxdeph = 3}) end)
    end)
end)

describe("mb.search_iddfs", function()
    it("draws one choice per completed depth", function()
        local g = mb.Marubatsu()
        mb.seed(5)
        local m = mb.search_iddfs(g, {})
        mb.seed(5)
        local last
        for d = 0, 8 do last = mb.choice(d <= 6 and {4} or g:calc_legal_moves()) end
        assert.are.equal(last, m)
        assert.are.same(snapshot(mb.Marubatsu()), snapshot(g))
    end)

    it("stops at the deadline and falls back to the first legal move", function()
        local g = mb.Marubatsu()
        local r = mb.search_iddfs(g, {analyze = true, timelimit = 0})
        assert.are.equal(0, #r)
        assert.are.equal(g:calc_legal_moves()[1], mb.search_iddfs(g, {timelimit = 0}))
    end)

    it("rejects unknown options", function()
        assert.has_error(function() mb.search_iddfs(mb.Marubatsu(), {maxdepth = 3}) end)
    end)
end)
