-- gomoku_mcts.lua: a second big-board AI from the same pieces as gomoku,
-- written differently: Monte Carlo tree search (mb.mcts) whose children
-- are tried in the order of the pattern codes' move scores, with threats
-- answered before any search.
--
--   1. the forced moves (game:forced_moves): a win, a block, or against an
--      open three the answer with the best move score
--   2. else MCTS for the move's time, each child's prior its pattern value
--      for the side to move plus most of its value for the other side
--
--   $ marubatsu tournament examples/gomoku_mcts.lua mcts --width 15 --height 15 --k 5 \
--         --games 10 --move-time 1
local mb = require "marubatsu"

-- the prior of a child: its move score (game:pattern_moves' order), scaled
-- to about 0 .. 1 for the usual shapes
local function prior(game, move)
    local _, mine = game:pattern_square(move, game.turn)
    local _, theirs = game:pattern_square(move, game.turn == "o" and "x" or "o")
    return (mine + 0.8 * theirs) / 2000
end

local searcher = mb.mcts{prior = prior, prior_weight = 1, solver = true, radius = 2}

local function gomoku_mcts(game, params)
    local forced, why = game:forced_moves()
    if why == "win" or why == "block" then return forced[1] end
    if why == "defend" then
        -- the answers, best first by the move score: the first is one of them
        local moves = game:pattern_moves()
        for _, m in ipairs(moves) do
            for _, f in ipairs(forced) do
                if f == m then return m end
            end
        end
        return forced[1]
    end
    local move = searcher:search(game, {time = 0.9 * (params.timelimit or 1),
        seed = mb.getrandbits(32)})
    return move
end

return mb.make_ai("gomoku_mcts", gomoku_mcts, {kind = "search", params = {"timelimit", "time_left"}})
