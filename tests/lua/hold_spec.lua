-- hold_spec.lua: a game that native code hands to Lua and then goes on from
-- (a search's evaluator, ai_by_score's scorer, an MCTS callback, the body of
-- a children() loop) is held at that position for the call: it may be moved
-- on and back (an evaluator that looks ahead works, and scores as one that
-- does not), but unmove below the position, restart, change_step below it,
-- place_mark and remove_mark raise "in use"; the search or loop is unwound
-- and the game is exactly as before; the hold is given back after the call,
-- also when it raised, and holds nest (a scorer that searches the same
-- game). Each case on every back-end (helpers.backends: list, list1d,
-- bitboard), with and without the line counters. The attacks of tests/hostile/*_rewrite.lua
-- (a look-alike position replayed under the search: before holds, the
-- engine wrote past an array) are refused here through the API.
local mb = rawget(_G, "mb") or require "marubatsu"
local helpers = dofile("tests/lua/helpers.lua")
local snapshot = helpers.snapshot

-- rewrite(g): the position of g (move count n >= 2, last move `last`)
-- replaced by one with other squares, the same n and the same last move,
-- g first taken back to the start by unmove or by restart
local function replay_other(g, n, last)
    while g.move_count < n - 1 do
        local legal = g:calc_legal_moves()
        g:move(legal[#legal] == last and legal[#legal - 1] or legal[#legal])
    end
    g:move(last)
end
local function rewrite_by_unmove(g)
    local n, last = g.move_count, g.last_move
    while g.move_count > 0 do g:unmove() end
    replay_other(g, n, last)
end
local function rewrite_by_restart(g)
    local n, last = g.move_count, g.last_move
    g:restart()
    replay_other(g, n, last)
end
local function rewrite_by_edit(g)
    local x, y = g:move_to_xy(g.records[1])
    g:remove_mark(x, y)
end
local function rewrite_by_step(g) g:change_step(0) end
local rewrites = {
    unmove = rewrite_by_unmove,
    restart = rewrite_by_restart,
    remove_mark = rewrite_by_edit,
    change_step = rewrite_by_step,
}

-- an evaluator that looks two plies ahead on the game it is given and
-- comes back: allowed, and it must not change the score
local function lookahead(pos)
    if pos.status == "playing" then
        pos:move(pos:calc_legal_moves()[1])
        pos:unmove()
        for _ in pos:children() do end
    end
    return pos.move_count
end

helpers.each_backend(function(bk)
    local function start() return bk.game_of("C3,D3,C2", {width = 5, height = 5, k = 4}) end

    describe("a held game (" .. bk.label .. ")", function()
        for name, rewrite in pairs(rewrites) do
            it("search_abs_dls: an evaluator's " .. name .. " below its position raises", function()
                local g = start()
                local before = snapshot(g)
                local ok, err = pcall(mb.search_abs_dls, g, {maxdepth = 2, eval = function(pos)
                    if pos.move_count >= 4 then rewrite(pos) end
                    return 0
                end})
                assert.is_false(ok)
                assert.matches(name .. ": the game is in use by a search, a scorer or a "
                    .. "children%(%) loop that holds it at move 6", err)
                assert.are.equal(before, snapshot(g))
                -- the hold was given back: the game is free again
                g:unmove()
                assert.are.equal(2, g.move_count)
            end)

            it("ai_by_score: the scorer's " .. name .. " raises; the game is as before", function()
                local g = start()
                local before = snapshot(g)
                local ai = mb.ai_by_score(function(pos) rewrite(pos) return 0 end, "rw")
                local ok, err = pcall(ai, g)
                assert.is_false(ok)
                assert.matches(name .. ": the game is in use .* at move 4", err)
                assert.are.equal(before, snapshot(g))
                g:restart()
                assert.are.equal(0, g.move_count)
            end)

            it("children(): the body's " .. name .. " raises; the loop restores the parent", function()
                local g = start()
                local before = snapshot(g)
                local ok, err = pcall(function()
                    for _ in g:children() do rewrite(g) end
                end)
                assert.is_false(ok)
                assert.matches(name .. ": the game is in use .* at move 4", err)
                assert.are.equal(before, snapshot(g))
            end)
        end

        it("an evaluator may look ahead and come back: the same result as without", function()
            local g = start()
            local plain = mb.search_abs_dls(g, {maxdepth = 2, rand = false, analyze = true,
                eval = function(pos) return pos.move_count end})
            local ahead = mb.search_abs_dls(g, {maxdepth = 2, rand = false, analyze = true,
                eval = lookahead})
            assert.are.same(plain.candidate, ahead.candidate)
            assert.are.same(plain.score_by_move, ahead.score_by_move)
            assert.are.same(plain.PV, ahead.PV)
            -- and a scorer that makes its own moves above the child
            local ai = mb.ai_by_score(function(pos)
                pos:move(pos:calc_legal_moves()[1])
                pos:unmove()
                return 0
            end, "peek")
            assert.are.equal(0, ai(g, {rand = false}))
        end)

        it("holds nest: a scorer that runs a search on the same game", function()
            local g = start()
            local before = snapshot(g)
            local ai = mb.ai_by_score(function(pos)
                local v = mb.search_abs_dls(pos, {maxdepth = 1, calc_score = true,
                    eval = function(p) return p.move_count end})
                -- back in the scorer: held at the child, still
                local ok, err = pcall(pos.unmove, pos)
                assert(not ok and err:match("in use .* at move 4"), err)
                return v
            end, "nest")
            assert.is_number(ai(g, {rand = false}))
            assert.are.equal(before, snapshot(g))
            g:unmove() -- free again
            assert.are.equal(2, g.move_count)
        end)

        it("mcts: a callback's edit raises; the game is as before", function()
            local g = start()
            local before = snapshot(g)
            local ok, err = pcall(function()
                return mb.mcts{prior = function(pos) rewrite_by_edit(pos) return 0 end}
                    :search(g, {playouts = 20})
            end)
            assert.is_false(ok)
            assert.matches("remove_mark: the game is in use", err)
            assert.are.equal(before, snapshot(g))
        end)

        it("moves above the hold are free: change_step at or above it, cmove", function()
            local g = start()
            for _ in g:children() do
                g:move(g:calc_legal_moves()[1])
                g:change_step(4) -- back to the child: allowed
                assert.are.equal(4, g.move_count)
                assert.is_true((g:cmove(g:move_to_xy(g:calc_legal_moves()[1]))))
                g:unmove()
                break
            end
            assert.are.equal(3, g.move_count)
        end)
    end)
end)
