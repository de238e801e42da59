-- scripts/lib/search_ai.lua: what the four AIs over the C αβ search share
-- (ai_abs_dls, ai_pvs_dls, ai_ab_iddfs, ai_pvs_iddfs), written once so that
-- each of those files stays a one-screen example of its own options.
-- Embedded; runs once with mb as its argument and adds mb.search_ai:
--
--   mb.search_ai.options(params, own) -> own
--       own (the options a search takes from this AI alone) with the
--       options all four read from params alike: eval ("ai14s" unless
--       eval_func is given), eval_func, eval_params, rand (true unless
--       false) and analyze (true when analyze or debug is set: debug
--       prints from the analysis).
--   mb.search_ai.root_answer(name, game, result, params [, emit]) -> result | move
--       A root search's answer: with params.debug, the board, a line
--       "NAME SQUARE score S" per root move and "NAME best: SQUARE" are
--       written first, and the best move is returned unless params.analyze.
--       A score (calc_score) is returned as it is, debug or not.
--   mb.search_ai.depths_answer(name, game, result, params [, emit]) -> result | move
--       The same for iterative deepening: a line "NAME depth D time T s
--       count N best SQUARE candidates A,B" per completed depth; without
--       analyze, the last completed depth's move (the first legal move if
--       none completed).
-- emit(line) writes one line (without its newline): stdout by default; a
-- sandboxed script's copy passes its print (stderr, bounded).
local mb = ...

local write = io.write
local function stdout_line(line) write(line, "\n") end

local search_ai = {}
mb.search_ai = search_ai

function search_ai.options(params, own)
    own.eval = params.eval or (params.eval_func == nil and "ai14s" or nil)
    own.eval_func = params.eval_func
    own.eval_params = params.eval_params
    own.rand = params.rand ~= false
    own.analyze = (params.analyze or params.debug) and true or false
    return own
end

function search_ai.root_answer(name, game, result, params, emit)
    if not params.debug or type(result) ~= "table" then return result end
    emit = emit or stdout_line
    emit((tostring(game):gsub("\n$", "")))
    for _, m in ipairs(result.moves) do
        emit(("%s %s score %s"):format(name, game:excel(m), tostring(result.score_by_move[m])))
    end
    emit(name .. " best: " .. game:excel(result.bestmove))
    if params.analyze then return result end
    return result.bestmove
end

function search_ai.depths_answer(name, game, result, params, emit)
    if not params.debug then return result end
    emit = emit or stdout_line
    for _, r in ipairs(result) do
        local cands = {}
        for i, m in ipairs(r.candidate) do cands[i] = game:excel(m) end
        emit(("%s depth %d time %.6f s count %d best %s candidates %s"):format(name, r.depth, r.time, r.count,
            game:excel(r.bestmove), table.concat(cands, ",")))
    end
    if params.analyze then return result end
    local last = result[#result]
    return last and last.bestmove or game:calc_legal_moves()[1]
end

return search_ai
