-- ai_pvs_dls: the series' principal variation search (ais.md §7.6) under
-- the root driver ai_by_mmscore (search.md §4), run in C by
-- mb.search_pvs_dls. Like ai_abs_dls, but the transposition table is always
-- on and every move after the first is tried with a null window first.
-- Parameters (all optional; the CLI passes none, so maxdepth 1):
--   maxdepth (1)       depth below each root child; 8 solves 3x3 from start
--   eval ("ai14s")     "ai14s" (the C evaluator) or a Lua function
--                      (game) -> o-view score, called at the leaves
--   eval_func, eval_params  the series' form instead of eval: an AI (or
--                      a function (game, params)) called at the leaves as
--                      eval_func(game, eval_params + {calc_score = true}),
--                      e.g. eval_func = mb.ai("ai14s"), eval_params =
--                      {minimax = true}
--   share_tt (true)    one table for all root children
--   timelimit (nil)    seconds; running out raises "ai_pvs_dls: time out"
--   rand (true)        one mb.choice over the best moves (also with analyze)
--   analyze (false)    return {candidate, score_by_move, moves, score,
--                      bestmove, PV, count, counts, time, tt_size}
--   calc_score (false) return the search value of the position itself
local mb = require "marubatsu"

local search, answer = mb.search_pvs_dls, mb.search_ai.root_answer

local function fn(game, params)
    local result, err = search(game, mb.search_ai.options(params, {
        maxdepth = params.maxdepth or 1,
        share_tt = params.share_tt ~= false,
        timelimit = params.timelimit,
        calc_score = params.calc_score or false,
    }))
    if result == nil then error("ai_pvs_dls: " .. tostring(err), 2) end
    return answer("ai_pvs_dls", game, result, params)
end

return mb.make_ai("ai_pvs_dls", fn, {kind = "search",
    params = {"maxdepth", "eval", "eval_func", "eval_params", "share_tt", "timelimit", "rand", "analyze", "debug",
        "calc_score"}})
