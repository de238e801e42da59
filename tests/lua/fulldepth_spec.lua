-- fulldepth_spec.lua: mb.searcher and the ai_mmdfs ... ai_mtdf AIs (ais.md §6, §7.1-7.4): the §11.2 node totals through
-- Lua from the empty board and after 〇(1,1), candidate lists and score views, one seeded game per AI against ai2,
-- option errors, and that the game is left unchanged.
-- The searches run on every back-end setting: the long lists (the node
-- totals, the searchers of one view, the AIs' games) take the settings in
-- turn (helpers.backend), so that each setting meets several searchers and
-- the run costs no more than on one. The strong-solution test stays on the
-- default back-end: mb.check_solved makes its own games.
local mb = require "marubatsu"
local helpers = dofile("tests/lua/helpers.lua")
local snapshot = helpers.snapshot

local function scores_in_order(r)
    local out = {}
    for i, m in ipairs(r.moves) do out[i] = r.score_by_move[m] end
    return out
end

local SIX = {"ai_mmdfs", "ai_mmdfs_tt", "ai_abs", "ai_abs2", "ai_abs3", "ai_abs_tt", "ai_abs_tt2",
    "ai_abs_tt3", "ai_abs_tt4", "ai_nws_3score", "ai_nws_3score2", "ai_nws_3score_tt"}
local SEVEN = {"ai_mmdfs_all", "ai_abs_all", "ai_scout", "ai_mtdf"}
local ALL = {}
for _, n in ipairs(SIX) do ALL[#ALL + 1] = n end
for _, n in ipairs(SEVEN) do ALL[#ALL + 1] = n end

-- §11.2: {name, opts, empty-board total, total after 〇(1,1), per-child counts, tt_size}
local TOTALS = {
    {"ai_mmdfs", {}, 549945, 55504, {59705, 63905, 59705, 63905, 55505, 63905, 59705, 63905, 59705}},
    {"ai_mmdfs_tt", {}, 15191, 4080, {1820, 1817, 1820, 1817, 643, 1817, 1820, 1817, 1820}},
    {"ai_abs", {}, 30709, 6138, {2338, 2869, 3275, 3574, 2316, 3590, 3809, 4981, 3957}},
    {"ai_abs2", {}, 30709, 6138, {2338, 2869, 3275, 3574, 2316, 3590, 3809, 4981, 3957}},
    {"ai_abs3", {}, 27565, 4663},
    {"ai_nws_3score2", {}, 27565, 4663},
    {"ai_nws_3score", {}, 94977, 8481},
    {"ai_abs_tt", {}, 10798, 2778},
    {"ai_abs_tt", {shortest_victory = true}, 14292, 4338},
    {"ai_abs_tt2", {}, 6718, 2003},
    {"ai_abs_tt3", {}, 6641, 2000},
    {"ai_abs_tt4", {}, 5511, 1489},
    {"ai_abs_tt4", {shortest_victory = true}, 7362, 2539},
    {"ai_nws_3score_tt", {}, 5511, 1489},
    {"ai_mmdfs_all", {}, 549945, 55504, {59705, 63905, 59705, 63905, 55505, 63905, 59705, 63905, 59705}},
    {"ai_mmdfs_all", {use_tt = true, share_tt = false}, 15191, 4080,
        {1820, 1817, 1820, 1817, 643, 1817, 1820, 1817, 1820}},
    {"ai_mmdfs_all", {use_tt = true}, 2270, 642, {1820, 421, 1, 1, 23, 1, 1, 1, 1}, 4519},
    {"ai_abs_all", {}, 30709, 6138, {2338, 2869, 3275, 3574, 2316, 3590, 3809, 4981, 3957}},
    {"ai_abs_all", {use_tt = true, init_ab = true, share_tt = false}, 5511, 1489},
    {"ai_abs_all", {use_tt = true, init_ab = true, shortest_victory = true, share_tt = false}, 7362, 2539},
    {"ai_abs_all", {use_tt = true}, 1153, 337, {699, 348, 1, 1, 100, 1, 1, 1, 1}, 3219},
    {"ai_abs_all", {use_tt = true, init_ab = true}, 933, 269, nil, 2999},
    {"ai_abs_all", {use_tt = true, ai_for_mo = "ai14s", sort_allnodes = true}, 415, 181,
        {178, 144, 1, 1, 87, 1, 1, 1, 1}, 1457},
    {"ai_abs_all", {use_tt = true, ai_for_mo = "ai14s", sort_allnodes = false}, 415, 181,
        {178, 144, 1, 1, 87, 1, 1, 1, 1}, 1457},
    {"ai_abs_all", {use_tt = true, ai_for_mo = "ai14s"}, 415, 181,
        {178, 144, 1, 1, 87, 1, 1, 1, 1}, 1457},
    {"ai_scout", {}, 40353, 6084},
    {"ai_scout", {use_tt = true}, 1079, 291, nil, 3159},
    {"ai_mtdf", {}, 30327, 6889},
    {"ai_mtdf", {use_tt = true}, 999, 332, {564, 325, 2, 2, 98, 2, 2, 2, 2}, 2999},
    {"ai_mtdf", {use_tt = true, init_ab = true, shortest_victory = true}, 999, 504,
        {564, 325, 2, 2, 98, 2, 2, 2, 2}, 2999},
}

local function with(opts, extra)
    local t = {}
    for k, v in pairs(opts) do t[k] = v end
    for k, v in pairs(extra) do t[k] = v end
    return t
end

local function describe_opts(opts)
    local keys = {}
    for k, v in pairs(opts) do keys[#keys + 1] = k .. "=" .. tostring(v) end
    table.sort(keys)
    return "{" .. table.concat(keys, ", ") .. "}"
end

describe("mb.searcher node counts (ais.md §11.2)", function()
    for i, row in ipairs(TOTALS) do
        local name, opts, empty_total, after_total, counts, tt_size = table.unpack(row, 1, 6)
        local bk = helpers.backend(i)
        it(name .. " " .. describe_opts(opts) .. " on " .. bk.label, function()
            local g = bk.new()
            local r = mb.searcher(name, g, with(opts, {analyze = true}))
            assert.are.equal(empty_total, r.count)
            if counts then assert.are.same(counts, r.counts) end
            if tt_size then assert.are.equal(tt_size, r.tt_size) end
            local legal = g:calc_legal_moves()
            assert.are.equal(9, #legal)
            assert.are.same(legal, r.candidate)
            assert.are.same(legal, r.moves)
            for _, m in ipairs(r.moves) do assert.are.equal(0, r.score_by_move[m]) end
            g:move(4)
            r = mb.searcher(name, g, with(opts, {analyze = true}))
            assert.are.equal(after_total, r.count)
            assert.are.same({0, 6, 2, 8}, r.candidate) -- the corners, in legal order
            assert.are.same(g:calc_legal_moves(), r.moves)
        end)
    end
end)

describe("mb.searcher views after 〇(1,1)", function()
    it("§6 searchers: mover-view, best = max", function()
        for i, name in ipairs(SIX) do
            local bk = helpers.backend(i)
            local g = bk.new()
            g:move(4)
            local r = mb.searcher(name, g, {analyze = true})
            local on = name .. " on " .. bk.label
            assert.are.same({0, -1, 0, -1, -1, 0, -1, 0}, scores_in_order(r), on)
            assert.are.equal(0, r.score, on)
            assert.is_nil(r.bestmove, on)
        end
    end)
    it("§7 searchers: o-view, min for ×; 2 with shortest_victory", function()
        for i, name in ipairs(SEVEN) do
            local bk = helpers.backend(i)
            local g = bk.new()
            g:move(4)
            local r = mb.searcher(name, g, {analyze = true, rand = false})
            local on = name .. " on " .. bk.label
            assert.are.same({0, 1, 0, 1, 1, 0, 1, 0}, scores_in_order(r), on)
            assert.are.equal(0, r.bestmove, on)
            r = mb.searcher(name, g, {analyze = true, shortest_victory = true})
            assert.are.same({0, 2, 0, 2, 2, 0, 2, 0}, scores_in_order(r), on)
        end
    end)
    it("§7 searchers with ai_for_mo = ai14s, sorted or not, keep the values", function()
        for i, name in ipairs({"ai_abs_all", "ai_scout", "ai_mtdf"}) do
            for j, sorted in ipairs({true, false}) do
                for _, tt in ipairs({true, false}) do
                    local bk = helpers.backend(2 * i + j)
                    local g = bk.new()
                    g:move(4)
                    local r = mb.searcher(name, g, {analyze = true, rand = false, use_tt = tt,
                        ai_for_mo = "ai14s", sort_allnodes = sorted})
                    assert.are.same({0, 1, 0, 1, 1, 0, 1, 0}, scores_in_order(r), name .. " on " .. bk.label)
                    assert.are.equal(0, r.bestmove, name .. " on " .. bk.label)
                end
            end
        end
    end)
    it("§7 PV with a shared table: the intended one, to a draw (§3.3, §13 #4)", function()
        for i, name in ipairs(SEVEN) do
            for j, extra in ipairs({{}, {ai_for_mo = "ai14s", sort_allnodes = true}}) do
                if name == "ai_mmdfs_all" and next(extra) then break end
                local bk = helpers.backend(2 * i + j)
                local g = bk.new()
                g:move(4)
                local r = mb.searcher(name, g, with(extra, {analyze = true, rand = false, use_tt = true}))
                local on = name .. " on " .. bk.label
                assert.is_true(r.pv_complete, on)
                assert.are.equal(r.bestmove, r.PV[1], on)
                assert.are.equal(8, #r.PV, on)
                for _, m in ipairs(r.PV) do g:move(m) end
                assert.are.equal("draw", g.status, on)
                r = mb.searcher(name, bk.new(), {analyze = true, rand = false})
                assert.are.same({0}, r.PV) -- no table: only the root move is known
                assert.is_false(r.pv_complete)
                r = mb.searcher(name, bk.new(), {analyze = true, use_tt = true, share_tt = false})
                assert.is_nil(r.PV)
            end
        end
    end)
    it("§6 with shortest_victory scores in mover-view too, on every back-end", function()
        helpers.each_backend(function(bk)
            local g = bk.new()
            g:move(4)
            local r = mb.searcher("ai_abs_tt4", g, {analyze = true, shortest_victory = true})
            assert.are.same({0, -2, 0, -2, -2, 0, -2, 0}, scores_in_order(r), bk.label)
        end)
    end)
end)

helpers.each_backend(function(bk)
    describe("mb.searcher choice on " .. bk.label, function()
        it("rand = false takes the first of the tie list; rand draws one from mb.stream", function()
            local g = bk.new()
            g:move(4)
            assert.are.equal(0, mb.searcher("ai_abs", g, {rand = false}))
            mb.seed(7)
            local m = mb.searcher("ai_abs", g)
            mb.seed(7)
            assert.are.equal(({0, 6, 2, 8})[mb.randbelow(4) + 1], m)
        end)
        it("§7 draws even with analyze, §6 does not", function()
            local g = bk.new()
            g:move(4)
            mb.seed(3)
            local r = mb.searcher("ai_abs_all", g, {analyze = true})
            local after = mb.random()
            mb.seed(3)
            assert.are.equal(({0, 6, 2, 8})[mb.randbelow(4) + 1], r.bestmove)
            mb.seed(3)
            mb.searcher("ai_abs", g, {analyze = true})
            assert.are_not.equal(after, mb.random())
        end)
    end)
end)

describe("the searcher AIs", function()
    for i, name in ipairs(ALL) do
        local bk = helpers.backend(i)
        it(name .. " plays a seeded game against ai2 on both sides and wins, on " .. bk.label, function()
            local ai = mb.ai(name)
            assert.are.equal(name, ai.name)
            local g = bk.new()
            assert.are.equal("o", mb.play{ai = {ai, "ai2"}, seed = 1, game = g})
            local first = table.concat(g.records, ",", 1, g.move_count)
            local g2 = bk.new()
            mb.play{ai = {ai, "ai2"}, seed = 1, game = g2}
            assert.are.equal(first, table.concat(g2.records, ",", 1, g2.move_count))
            assert.are.equal("x", mb.play{ai = {"ai2", ai}, seed = 1, game = bk.new()})
        end)
    end
end)

describe("mb.searcher errors and the game", function()
    it("rejects unknown names and options", function()
        local g = mb.Marubatsu()
        assert.has_error(function() mb.searcher("ai_nope", g) end)
        local ok, err = pcall(mb.searcher, "ai_nope", g)
        assert.is_false(ok)
        assert.matches("unknown searcher 'ai_nope'", err, 1, true)
        ok, err = pcall(mb.searcher, "ai_abs", g, {use_ttt = true})
        assert.is_false(ok)
        assert.matches("unknown option 'use_ttt'", err, 1, true)
        ok, err = pcall(mb.searcher, "ai_abs", g, {use_tt = true})
        assert.is_false(ok)
        assert.matches("ai_abs does not take option 'use_tt'", err, 1, true)
        ok, err = pcall(mb.searcher, "ai_nws_3score", g, {shortest_victory = true})
        assert.is_false(ok)
        assert.matches("does not take option 'shortest_victory'", err, 1, true)
        ok, err = pcall(mb.searcher, "ai_mmdfs_all", g, {init_ab = true})
        assert.is_false(ok)
        assert.matches("does not take option 'init_ab'", err, 1, true)
        ok, err = pcall(mb.searcher, "ai_abs_all", g, {ai_for_mo = "ai2"})
        assert.is_false(ok)
        assert.matches("ai_for_mo 'ai2' is not supported (only \"ai14s\")", err, 1, true)
        ok, err = pcall(mb.searcher, "ai_abs_all", g, {ai_for_mo = true})
        assert.is_false(ok)
        assert.matches("option 'ai_for_mo' must be the string \"ai14s\"", err, 1, true)
        ok, err = pcall(mb.searcher, "ai_mmdfs_all", g, {ai_for_mo = "ai14s"})
        assert.is_false(ok)
        assert.matches("does not take option 'ai_for_mo'", err, 1, true)
        ok, err = pcall(mb.searcher, "ai_abs", g, {sort_allnodes = true})
        assert.is_false(ok)
        assert.matches("does not take option 'sort_allnodes'", err, 1, true)
        ok, err = pcall(mb.searcher, "ai_abs_all", g, {rand = 1})
        assert.is_false(ok)
        assert.matches("option 'rand' must be a boolean", err, 1, true)
        assert.is_false(pcall(mb.searcher, "ai_abs_all", g, 5))
        assert.is_false(pcall(mb.searcher, "ai_abs_all", {}, {}))
        local ai = mb.ai("ai_abs")
        ok, err = pcall(ai, g, {typo = true})
        assert.is_false(ok)
        assert.matches("unknown option 'typo'", err, 1, true)
    end)
    it("rejects a finished game", function()
        local g = mb.Marubatsu()
        for _, m in ipairs{0, 3, 1, 4, 2} do g:move(m) end
        local ok, err = pcall(mb.searcher, "ai_abs", g)
        assert.is_false(ok)
        assert.matches("the game is over", err, 1, true)
    end)
    it("leaves the game as found, undone moves included", function()
        for i, name in ipairs(ALL) do
            local bk = helpers.backend(i)
            local g = bk.new()
            g:move(4) g:move(0) g:move(8) g:move(2)
            g:unmove() g:unmove()
            local before = snapshot(g)
            mb.searcher(name, g, {analyze = true})
            assert.are.same(before, snapshot(g), name .. " on " .. bk.label)
            mb.searcher(name, g)
            assert.are.same(before, snapshot(g), name .. " on " .. bk.label)
        end
    end)
end)

describe("strong solution (ais.md §11.3)", function()
    local SV = {ai_mmdfs_tt = true, ai_abs_tt = true, ai_abs_tt2 = true, ai_abs_tt3 = true,
        ai_abs_tt4 = true, ai_mmdfs_all = true, ai_abs_all = true, ai_scout = true, ai_mtdf = true}
    for _, name in ipairs(ALL) do
        it(name .. " passes 431/431 (plain, and with shortest_victory where taken)", function()
            if not mb.check_solved then pending("mb.check_solved is not available") return end
            local ok, _, count = mb.check_solved(mb.ai(name), {}, {quiet = true})
            assert.is_true(ok)
            assert.are.equal(431, count)
            if SV[name] then
                ok, _, count = mb.check_solved(mb.ai(name), {shortest_victory = true}, {quiet = true})
                assert.is_true(ok)
                assert.are.equal(431, count)
            end
        end)
    end
end)
