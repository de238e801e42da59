-- ai_pvs_iddfs: the series' iterative deepening over ai_pvs_dls (ais.md §8.2),
-- always with move ordering by the previous depth's table, run in C by mb.search_iddfs. Depth 0, 1, ...
-- up to a full-depth search, all under one time limit; a depth that runs
-- out of time is dropped and the last completed depth's move is played
-- (the first legal move if none completed). Every completed depth draws
-- one mb.choice over its best moves. Parameters (all optional):
--   timelimit (10)     seconds for the whole deepening
--   eval ("ai14s")     "ai14s" (the C evaluator) or a Lua function
--                      (game) -> o-view score, called at the leaves
--   eval_func, eval_params  the series' form instead of eval (see
--                      ai_abs_dls.lua)
--   (the table is always on and shared)
--   rand (true)        one mb.choice per completed depth
--   analyze (false)    return the list of per-depth records {depth,
--                      candidate, score_by_move, moves, score, bestmove,
--                      PV, count, counts, time, tt_size}
--   debug (false)      print one line per depth
local mb = require "marubatsu"

local search, answer = mb.search_iddfs, mb.search_ai.depths_answer

local function fn(game, params)
    local result = search(game, mb.search_ai.options(params, {pvs = true, timelimit = params.timelimit or 10}))
    return answer("ai_pvs_iddfs", game, result, params)
end

return mb.make_ai("ai_pvs_iddfs", fn, {kind = "search",
    params = {"timelimit", "eval", "eval_func", "eval_params", "rand", "analyze", "debug"}})
