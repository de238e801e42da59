-- ai_abs_dls: the series' depth-limited αβ search (search.md §3) under its
-- root driver ai_by_mmscore (§4), run in C by mb.search_abs_dls. Every root
-- child is searched `maxdepth` plies deeper (so maxdepth + 1 plies from the
-- root) and scored in 〇's view; the AI plays a best move for the side to
-- move. Parameters (all optional; the CLI passes none, so maxdepth 1):
--   maxdepth (1)       depth below each root child; 8 solves 3x3 from start
--   eval ("ai14s")     "ai14s" (the C evaluator) or a Lua function
--                      (game) -> o-view score, called at the leaves
--   eval_func, eval_params  the series' form instead of eval: an AI (or
--                      a function (game, params)) called at the leaves as
--                      eval_func(game, eval_params + {calc_score = true}),
--                      e.g. eval_func = mb.ai("ai14s"), eval_params =
--                      {minimax = true}
--   use_tt (false)     transposition table with symmetric stores
--   share_tt (true)    one table for all root children
--   timelimit (nil)    seconds; running out raises "ai_abs_dls: time out"
--   rand (true)        one mb.choice over the best moves (also with analyze)
--   analyze (false)    return {candidate, score_by_move, moves, score,
--                      bestmove, PV, count, counts, time, tt_size}
--   calc_score (false) return the search value of the position itself
local mb = require "marubatsu"

local search, answer = mb.search_abs_dls, mb.search_ai.root_answer

local function fn(game, params)
    local result, err = search(game, mb.search_ai.options(params, {
        maxdepth = params.maxdepth or 1,
        use_tt = params.use_tt or false,
        share_tt = params.share_tt ~= false,
        timelimit = params.timelimit,
        calc_score = params.calc_score or false,
    }))
    if result == nil then error("ai_abs_dls: " .. tostring(err), 2) end
    return answer("ai_abs_dls", game, result, params)
end

return mb.make_ai("ai_abs_dls", fn, {kind = "search",
    params = {"maxdepth", "eval", "eval_func", "eval_params", "use_tt", "share_tt", "timelimit", "rand", "analyze",
        "debug", "calc_score"}})
