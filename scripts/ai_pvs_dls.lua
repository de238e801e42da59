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

local search = mb.search_pvs_dls

local function fn(game, params)
    local result, err = search(game, {
        maxdepth = params.maxdepth or 1,
        eval = params.eval or (params.eval_func == nil and "ai14s" or nil),
        eval_func = params.eval_func,
        eval_params = params.eval_params,
        share_tt = params.share_tt ~= false,
        timelimit = params.timelimit,
        rand = params.rand ~= false,
        analyze = (params.analyze or params.debug) and true or false,
        calc_score = params.calc_score or false,
    })
    if result == nil then error("ai_pvs_dls: " .. tostring(err), 2) end
    if params.debug then
        io.write(tostring(game))
        for _, m in ipairs(result.moves) do
            io.write(("ai_pvs_dls %s score %s\n"):format(game:excel(m),
                tostring(result.score_by_move[m])))
        end
        io.write("ai_pvs_dls best: ", game:excel(result.bestmove), "\n")
        if not params.analyze then return result.bestmove end
    end
    return result
end

return mb.make_ai("ai_pvs_dls", fn, {kind = "search",
    params = {"maxdepth", "eval", "eval_func", "eval_params", "share_tt", "timelimit", "rand", "analyze", "debug",
        "calc_score"}})
