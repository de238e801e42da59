-- ai_gt7: unwrapped table AI (ais.md §5): candidate = table[key].bestmoves;
-- with params.analyze, {candidate =, score_by_move = {[move] = the child's
-- score in the table (o-view)}, moves = legal moves}; else mb.choice over
-- the candidates (params.rand, default true) or the first one.
-- params.table: a table with scores (mb.load_bestmoves of a
-- bestmoves_and_score file, or mb.bestmoves_table; default: the plain one
-- built from the engine once, on first use).
local mb = require "marubatsu"

local function row_of(t, game)
    local key = game:board_to_str()
    local row = t[key]
    if not row then error("ai_gt7: board " .. key .. " is not in the table", 3) end
    return row
end

local function fn(game, params)
    local t = params.table or mb.cached_bestmoves_table("old")
    local cand = row_of(t, game).bestmoves
    if params.analyze then
        local score_by_move = {}
        for m in game:children() do score_by_move[m] = row_of(t, game).score end
        return {candidate = table.move(cand, 1, #cand, 1, {}), score_by_move = score_by_move,
            moves = game:calc_legal_moves()}
    end
    if params.rand == false then return cand[1] end
    return mb.choice(cand)
end

return mb.make_ai("ai_gt7", fn, {kind = "table"})
