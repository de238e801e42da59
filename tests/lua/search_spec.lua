-- search_spec.lua: mb.search_abs_dls and the ai_abs_dls AI (search.md §3-§4):
-- the benchmark numbers through Lua with the C evaluator and with a Lua
-- evaluator (ai14s in minimax form, which checks the fields are in sync
-- during the search) and in the series' form (eval_func = the Lua ai14s,
-- eval_params = {minimax = true}), eval_func errors, errors in the evaluator (raised, game unchanged),
-- option checking, timeouts, and that rand draws exactly one choice. The
-- searches run on every back-end (each has its own instance of the search),
-- option checking and the timeout once.
local mb = require "marubatsu"
local helpers = dofile("tests/lua/helpers.lua")
local snapshot = helpers.snapshot

local ai14s = mb.ai("ai14s")
local function lua_ai14s(game) return ai14s(game, {calc_score = true, minimax = true}) end

local function scores_in_order(r)
    local out = {}
    for i, m in ipairs(r.moves) do out[i] = r.score_by_move[m] end
    return out
end

local EVALS = {
    {"the C evaluator", {eval = "ai14s"}},
    {"a Lua evaluator (ai14s, minimax)", {eval = lua_ai14s}},
    -- the series' form: ai_abs_dls(P, eval_func = ai14s, eval_params = {minimax = True})
    {"eval_func = the Lua ai14s, eval_params = {minimax = true}",
        {eval_func = ai14s, eval_params = {minimax = true}}},
    -- an AI of ai_by_score is called at the leaves through its eval (the
    -- minimax negation in C); any other function through itself: the same
    {"eval_func = a function calling the Lua ai14s, eval_params = {minimax = true}",
        {eval_func = function(game, params) return ai14s.fn(game, params) end,
            eval_params = {minimax = true}}},
    {"eval_func = ai14s.fn (the wrapper's function), eval_params = {minimax = true}",
        {eval_func = ai14s.fn, eval_params = {minimax = true}}},
}

-- t with the evaluator options of one EVALS entry
local function with(eval, t)
    for k, v in pairs(eval) do t[k] = v end
    return t
end

helpers.each_backend(function(bk)
    describe("mb.search_abs_dls on " .. bk.label, function()
        for _, e in ipairs(EVALS) do
            local label, eval = e[1], e[2]
            describe("with " .. label, function()
                it("gives the benchmark numbers from the empty board (maxdepth 8, use_tt)", function()
                    local g = bk.new()
                    local before = snapshot(g)
                    local r = mb.search_abs_dls(g, with(eval, {maxdepth = 8, use_tt = true, analyze = true,
                        rand = false}))
                    assert.are.equal(1175, r.count)
                    assert.are.same({707, 355, 1, 1, 107, 1, 1, 1, 1}, r.counts)
                    assert.are.equal(3219, r.tt_size)
                    assert.are.same(g:calc_legal_moves(), r.moves)
                    assert.are.same(r.moves, r.candidate)
                    for _, s in ipairs(scores_in_order(r)) do assert.are.equal(0, s) end
                    assert.are.equal(0, r.score)
                    assert.are.equal(r.candidate[1], r.bestmove)
                    assert.are.equal(r.bestmove, r.PV[1])
                    assert.is_true(#r.PV >= 1 and #r.PV <= 9)
                    assert.is_number(r.time)
                    assert.are.same(before, snapshot(g))
                end)

                it("gives the maxdepth 2 and 3 numbers (use_tt)", function()
                    local g = bk.new()
                    local r = mb.search_abs_dls(g, with(eval, {maxdepth = 2, use_tt = true, analyze = true}))
                    assert.are.equal(81, r.count)
                    assert.are.same({1.0, 0.5, 1.0, 0.5, 2.5, 0.5, 1.0, 0.5, 1.0}, scores_in_order(r))
                    assert.are.same({4}, r.candidate)
                    assert.are.equal(2.5, r.score)
                    r = mb.search_abs_dls(g, with(eval, {maxdepth = 3, use_tt = true, analyze = true}))
                    assert.are.equal(206, r.count)
                    assert.are.same({4}, r.candidate)
                end)
            end)
        end

        it("gives a Lua evaluator fields that match the position at every leaf", function()
            local g = bk.new()
            g:move(4)
            local before = snapshot(g)
            local held = g.records
            local leaves = 0
            local function check(game)
                leaves = leaves + 1
                local board = game:board_to_str()
                local _, marks = board:gsub("[ox]", "")
                assert(marks == game.move_count, "move_count stale")
                assert(#game.records == game.move_count, "records stale")
                assert(game.records[#game.records] == game.last_move, "last_move stale")
                assert(game.status == game:judge(), "status stale")
                local turn = game.move_count % 2 == 0 and "o" or "x"
                assert(game.turn == turn, "turn stale")
                -- every record, not only the last: the moves replayed give the board
                assert(game.records == held, "records view replaced")
                local replay = bk.new()
                for i = 1, #game.records do replay:move(game.records[i]) end
                assert(replay:board_to_str() == board, "records stale")
                return ai14s(game, {calc_score = true, minimax = true})
            end
            local a = mb.search_abs_dls(g, {maxdepth = 4, eval = check, analyze = true, rand = false})
            local t = mb.search_abs_dls(g, {maxdepth = 5, use_tt = true, eval = check, analyze = true,
                rand = false})
            assert.are.equal(mb.search_abs_dls(g, {maxdepth = 5, use_tt = true, analyze = true,
                rand = false}).count, t.count)
            local b = mb.search_abs_dls(g, {maxdepth = 4, analyze = true, rand = false})
            assert.is_true(leaves > 0)
            assert.are.equal(b.count, a.count)
            assert.are.same(b.score_by_move, a.score_by_move)
            assert.are.same(before, snapshot(g))
        end)

        it("raises the error of a Lua evaluator and leaves the game unchanged", function()
            for _, use_tt in ipairs{false, true} do
                local g = bk.new()
                g:move(4)
                g:move(0)
                local before = snapshot(g)
                local ok, err = pcall(mb.search_abs_dls, g, {maxdepth = 3, use_tt = use_tt,
                    eval = function(game)
                        if game.move_count == 5 then error("boom in eval") end
                        return 0
                    end})
                assert.is_false(ok)
                assert.matches("boom in eval", tostring(err))
                assert.are.same(before, snapshot(g))
                -- a non-error value is propagated as it is
                ok, err = pcall(mb.search_abs_dls, g, {eval = function() error({code = 7}) end})
                assert.is_false(ok)
                assert.are.same({code = 7}, err)
                assert.are.same(before, snapshot(g))
                -- the game still plays
                g:move(8)
                assert.are.equal(3, g.move_count)
            end
        end)

        it("scores with an ai_by_score AI as eval_func as through its function, without minimax",
            function()
            -- mover-view scores (no minimax) at the leaves: the same search
            -- values whether the leaves call the AI's eval or the AI
            local g = bk.new()
            g:move(4)
            local direct = mb.search_abs_dls(g, {maxdepth = 3, eval_func = ai14s, analyze = true,
                rand = false})
            local wrapped = mb.search_abs_dls(g, {maxdepth = 3, analyze = true, rand = false,
                eval_func = function(game, params) return ai14s(game, params) end})
            assert.are.same(wrapped.score_by_move, direct.score_by_move)
            assert.are.equal(wrapped.count, direct.count)
            -- and an error deep in the tree of an iterative deepening restores the game
            local before = snapshot(g)
            local ok, err = pcall(mb.search_iddfs, g, {eval = function(game)
                if game.move_count == 4 then error("deep boom") end
                return 0
            end})
            assert.is_false(ok)
            assert.matches("deep boom", err)
            assert.are.same(before, snapshot(g))
        end)

        it("rejects an evaluator that returns no number or changes the game", function()
            local g = bk.new()
            local before = snapshot(g)
            local ok, err = pcall(mb.search_abs_dls, g, {eval = function() return "x" end})
            assert.is_false(ok)
            assert.matches("expected a number", err)
            ok, err = pcall(mb.search_abs_dls, g, {eval = function(game)
                if game.status == "playing" then game:move(game:calc_legal_moves()[1]) end
                return 0
            end})
            assert.is_false(ok)
            assert.matches("changed the game", err)
            -- the engine restored the game (the stray move was inside the search)
            assert.are.same(before, snapshot(g))
        end)

        it("draws exactly one choice over the tie list when rand (also with analyze)", function()
            local g = bk.new()
            for _, analyze in ipairs{false, true} do
                mb.seed(12345)
                local r = mb.search_abs_dls(g, {maxdepth = 8, use_tt = true, analyze = analyze})
                local move = analyze and r.bestmove or r
                local draws = mb.draws()
                mb.seed(12345)
                assert.are.equal(mb.choice(g:calc_legal_moves()), move)
                assert.are.equal(mb.draws(), draws)
            end
            mb.seed(1)
            local r = mb.search_abs_dls(g, {maxdepth = 2, use_tt = true, analyze = true})
            assert.are.equal(1, mb.draws()) -- one candidate: still one draw
            assert.are.equal(4, r.bestmove)
            mb.seed(1)
            assert.are.equal(0, mb.search_abs_dls(g, {maxdepth = 8, use_tt = true, rand = false}))
            assert.are.equal(0, mb.draws())
        end)

        it("returns the search value of the position itself with calc_score", function()
            local g = bk.new()
            g:move(4)
            assert.are.equal(0, mb.search_abs_dls(g, {maxdepth = 8, use_tt = true, calc_score = true}))
        end)
    end)

    describe("the ai_abs_dls AI on " .. bk.label, function()
        it("is an AI named ai_abs_dls that passes its params to the search", function()
            local ai = mb.ai("ai_abs_dls")
            assert.is_true(mb.is_ai(ai))
            assert.are.equal("ai_abs_dls", ai.name)
            local g = bk.new()
            local r = ai(g, {maxdepth = 8, use_tt = true, analyze = true})
            assert.are.equal(1175, r.count)
            assert.are.equal(3219, r.tt_size)
            r = ai(g, {maxdepth = 8, use_tt = true, analyze = true, eval = lua_ai14s})
            assert.are.equal(1175, r.count)
            -- no params: maxdepth 1, rand, one legal move
            local m = ai(g)
            assert.is_true(m >= 0 and m <= 8)
            assert.are.equal(4, ai(g, {maxdepth = 2, use_tt = true, rand = false}))
            -- calc_score returns the score, with debug too (it has no moves to print)
            local after_centre = bk.new()
            after_centre:move(4)
            assert.are.equal(0, ai(after_centre, {maxdepth = 8, use_tt = true, calc_score = true, debug = true}))
        end)

        it("plays whole games against ai2 with the default params", function()
            local ai, ai2 = mb.ai("ai_abs_dls"), mb.ai("ai2")
            mb.seed(3)
            for _ = 1, 5 do
                local g = helpers.play_out(bk.new(), ai, ai2)
                assert.are.equal(g.move_count, #g.records)
            end
        end)
    end)
end)

describe("mb.search_abs_dls", function()
    it("checks its options", function()
        local g = mb.Marubatsu()
        local function fails(opts, pattern)
            local ok, err = pcall(mb.search_abs_dls, g, opts)
            assert.is_false(ok)
            assert.matches(pattern, err)
        end
        fails({maxdepth = 0}, "'maxdepth' must be at least 1")
        fails({maxdepth = 1.5}, "'maxdepth' must be an integer")
        fails({maxdepth = "2"}, "'maxdepth' must be an integer")
        fails({eval = 5}, "'eval' must be \"ai14s\", \"lines\" or a function")
        fails({candidates = 0}, "'candidates' must be a distance 1..32")
        fails({eval = "ai99"}, "unknown evaluator 'ai99'")
        fails({use_tt = 1}, "'use_tt' must be a boolean")
        fails({timelimit = -1}, "'timelimit' must be a number")
        fails({maxdpth = 3}, "unknown option 'maxdpth' %(known: maxdepth, eval, eval_func, eval_params,")
        fails({eval_params = {minimax = true}}, "eval_params needs eval_func")
        fails({eval = "ai14s", eval_func = ai14s}, "give eval or eval_func")
        fails({eval_func = 3}, "'eval_func' must be an AI or a function")
        fails({eval_func = ai14s, eval_params = 3}, "'eval_params' must be a table")
        assert.has_error(function() mb.search_abs_dls({}, {}) end)
        g:move(0) g:move(3) g:move(1) g:move(4) g:move(2)
        fails({}, "the game is over")
    end)

    it("reports a timeout as nil, \"time out\" and restores the game", function()
        local g = mb.Marubatsu()
        local before = snapshot(g)
        local r, err = mb.search_abs_dls(g, {maxdepth = 8, timelimit = 0})
        assert.is_nil(r)
        assert.are.equal("time out", err)
        assert.are.same(before, snapshot(g))
    end)
end)
