-- gomoku: an AI for k in a row on big boards (15x15 with five, say), built
-- on the engine's native pieces. It is the example to copy when you write
-- your own: the whole AI is one native search, and this script chooses
-- its time, its heuristics and its weights.
--
-- The pieces (docs/lua-api.md §3.9 and §5.14):
--   game:pattern(square, dir, p)   the gomoku shape (open three, four, ...)
--                                  p would make on an empty square along a
--                                  line, kept by every move and unmove
--   game:forced_moves()            the moves a threat leaves: a block, or
--                                  the answers to an open three
--   mb.pattern_searcher()          a principal variation search on those
--                                  codes: a transposition table kept from
--                                  move to move, iterative deepening,
--                                  threat-aware moves, victories by
--                                  continuous fours at the horizon
--
-- params (all optional):
--   timelimit   seconds for this move; a time control (tournament, match
--               or play --move-time / --game-time, or a Gomocup manager
--               through `marubatsu brain`) sets it. Default 1.
--   analyze     return the search's information (move, score, depth,
--               nodes, pv, reason) instead of the move, with what play's
--               hint and the web's heat map draw: candidate = {move} and
--               score_by_move, the pattern score of each candidate square
--               for the side to move (game:pattern_moves, at most 60)
--   and any option of searcher:search (tt, lmr, vcf, width, weights, ...),
--   so that `gomoku:lmr=false` is the same AI without late move
--   reductions: a tournament measures what each piece is worth.
local mb = require "marubatsu"

local OPTIONS = {"soft", "maxdepth", "nodes", "tt", "aspiration", "killers", "history", "lmr", "vcf",
    "forced", "prune", "window", "vcf_depth", "vcf_nodes", "root_vcf", "width", "width1",
    "defend", "root_vct", "vct_nodes", "vct_share", "guard", "qdefend", "extend", "verify", "verify_share", "weights"}

-- One searcher per Lua state, made when the script loads (not on a move's
-- clock): its table (16 MiB, touched as the search reaches it) carries what
-- earlier moves learnt.
local searcher = mb.pattern_searcher{tt_bits = 20}

local function gomoku(game, params)
    -- the move's share of the clock: the native search stops itself at
    -- 85% of it (the rest: a busy machine's scheduling, the host's own
    -- work), and starts no new iteration after 70% of that (an iteration
    -- cut short still gives its better move: starting late is not waste)
    local opts = {timelimit = 0.85 * (params.timelimit or 1), soft = 0.7}
    for _, key in ipairs(OPTIONS) do
        if params[key] ~= nil then opts[key] = params[key] end
    end
    local move, info = searcher:search(game, opts)
    if params.analyze then
        info.move = move
        info.candidate = {move}
        info.score_by_move = {}
        info.score_label = "pattern score"
        info.moves, info.width, info.height = {}, game.width, game.height -- best first, for the REPL
        if game.status == "playing" then
            local moves, scores = game:pattern_moves(60)
            for i, m in ipairs(moves) do info.score_by_move[m] = scores[i] end
            info.moves = moves
        end
        return info
    end
    return move
end

local accepted = {"timelimit", "time_left", "analyze"}
for _, key in ipairs(OPTIONS) do accepted[#accepted + 1] = key end
return mb.make_ai("gomoku", gomoku, {kind = "search", params = accepted})
