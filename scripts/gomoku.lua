-- gomoku: an AI for k in a row on big boards (15x15 with five, say), built
-- on the engine's native pieces. It is the example to copy when you write
-- your own: every step is a few lines, and each piece is documented in
-- docs/lua-api.md.
--
--   1. win at once           game:threats(me): the squares that complete k
--   2. block a win           game:threats(opponent)
--   3. make an open k-1      the second list of game:threats(me): an open
--                            four (.oooo.) cannot be stopped at both ends
--   4. a forced win          a victory by continuous fours, then by fours
--                            and threes (mb.vcf, mb.vct), given a small
--                            share of the time
--   5. search                αβ with iterative deepening (mb.search_iddfs)
--                            over the candidate moves near the stones,
--                            scored by the native "lines" evaluator (the
--                            line features: windows by how many marks they
--                            hold, threat squares), until the time is up
--
-- The line features are kept incrementally by move and unmove, so steps 1
-- to 3 cost a few table reads; steps 4 and 5 run entirely in C.
--
-- params (all optional):
--   timelimit   seconds for this move; a time control (tournament, match
--               or play --move-time / --game-time, or a Gomocup manager
--               through `marubatsu brain`) sets it. Default 1.
--   distance    candidate moves within this many squares of a stone (1)
--   analyze     return the search's analysis (a list of iterations, see
--               mb.search_iddfs) instead of a move; steps 1-3 give
--               {move = m, reason = "win" | "block" | "open" | "vcf" |
--               "vct", line = the forced win (4)}
local mb = require "marubatsu"

local SOFT = 0.8 -- the share of timelimit steps 4 and 5 may use (the rest: overhead, a busy machine)
local THREATS = 0.1 -- of which VCF and VCT get this share each

local function other(mark) return mark == "o" and "x" or "o" end

local function gomoku(game, params)
    local me, opponent = game.turn, other(game.turn)
    local forced, reason
    -- 1-3: the moves that need no search. threats(p) returns p's win
    -- squares and p's open squares, each in normative order.
    local my_wins, my_opens = game:threats(me)
    local their_wins = game:threats(opponent)
    if #my_wins > 0 then
        forced, reason = my_wins[1], "win"
    elseif #their_wins > 0 then
        forced, reason = their_wins[1], "block" -- two of them: the game is lost anyway
    elseif #my_opens > 0 then
        forced, reason = my_opens[1], "open" -- the opponent has no win to answer with
    end
    local budget = SOFT * (params.timelimit or 1)
    local line
    if not forced then
        -- 4: a forced win by threats. A line found is sound: every defence
        -- loses; none found (or out of time) says nothing, so go on.
        local t0 = mb.clock()
        for _, search in ipairs{"vcf", "vct"} do
            line = mb[search](game, {timelimit = THREATS * budget})
            if line then
                forced, reason = line[1], search
                break
            end
        end
        budget = budget - (mb.clock() - t0)
    end
    if forced then
        if params.analyze then return {move = forced, reason = reason, line = line} end
        return forced
    end
    -- 5: the search. It stops itself at its time limit and returns the
    -- best move of the deepest iteration it finished.
    local result = mb.search_iddfs(game, {
        eval = "lines",
        candidates = params.distance or 1,
        timelimit = math.max(budget, 0.001),
        analyze = params.analyze or false,
    })
    return result
end

return mb.make_ai("gomoku", gomoku, {kind = "search",
    params = {"timelimit", "time_left", "distance", "analyze"}})
