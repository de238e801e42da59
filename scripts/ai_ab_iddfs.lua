-- ai_ab_iddfs: the series' iterative deepening over ai_abs_dls (ais.md §8.1),
-- run in C by mb.search_iddfs. Depth 0, 1, ... up to a full-depth search, all under one time limit; a depth that runs
-- out of time is dropped and the last completed depth's move is played
-- (the first legal move if none completed). Every completed depth draws
-- one mb.choice over its best moves. Parameters (all optional):
--   timelimit (10)     seconds for the whole deepening
--   eval ("ai14s")     "ai14s" (the C evaluator) or a Lua function
--                      (game) -> o-view score, called at the leaves
--   eval_func, eval_params  the series' form instead of eval (see
--                      ai_abs_dls.lua)
--   moveordering (true) order moves by the previous depth's table (forces
--                      use_tt and share_tt)
--   use_tt (true), share_tt (true)   the table of each depth
--   rand (true)        one mb.choice per completed depth
--   analyze (false)    return the list of per-depth records {depth,
--                      candidate, score_by_move, moves, score, bestmove,
--                      PV, count, counts, time, tt_size}
--   debug (false)      print one line per depth
local mb = require "marubatsu"

local search = mb.search_iddfs

local function fn(game, params)
    local result = search(game, {
        pvs = false,
        moveordering = params.moveordering ~= false,
        use_tt = params.use_tt ~= false,
        share_tt = params.share_tt ~= false,
        eval = params.eval or (params.eval_func == nil and "ai14s" or nil),
        eval_func = params.eval_func,
        eval_params = params.eval_params,
        timelimit = params.timelimit or 10,
        rand = params.rand ~= false,
        analyze = (params.analyze or params.debug) and true or false,
    })
    if params.debug then
        for _, r in ipairs(result) do
            local cands = {}
            for i, m in ipairs(r.candidate) do cands[i] = game:excel(m) end
            io.write(("ai_ab_iddfs depth %d time %.6f s count %d best %s candidates %s\n")
                :format(r.depth, r.time, r.count, game:excel(r.bestmove),
                    table.concat(cands, ",")))
        end
        if not params.analyze then
            local last = result[#result]
            return last and last.bestmove or game:calc_legal_moves()[1]
        end
    end
    return result
end

return mb.make_ai("ai_ab_iddfs", fn, {kind = "search",
    params = {"timelimit", "eval", "eval_func", "eval_params", "moveordering", "use_tt", "share_tt", "rand", "analyze",
        "debug"}})
