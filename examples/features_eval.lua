-- features_eval.lua: an AI for big boards (say 9x9 to 15x15, five in a
-- row) whose evaluator reads the line features instead of scanning the
-- board (docs/lua-api.md §3.8), searched by the C αβ over the candidate
-- moves.
--
--     marubatsu match examples/features_eval.lua ai14s --width 9 --height 9 --k 5 -n 5
--     marubatsu -I examples match features_eval ai2 --width 15 --height 15 --k 5 -n 2
--
-- The evaluator is a few calls on the game: window_counts fills two tables
-- kept between calls (no table is made per leaf), threat_counts says
-- whether the side to move can win at once. Everything is in 〇's view
-- (high is good for 〇), as mb.search_abs_dls wants.
local mb = require "marubatsu"

local WIN, SURE = 1e9, 1e8
local wo, wx = {}, {}

local function eval(game)
    local st = game.status
    if st == "o" then return WIN elseif st == "x" then return -WIN elseif st == "draw" then return 0 end
    -- the side to move with a win square wins with its next move
    local turn = game.turn
    if game:threat_counts(turn) > 0 then return turn == "o" and SURE or -SURE end
    -- windows with j marks of one side and none of the other, worth 4^(j-1)
    game:window_counts("o", wo)
    game:window_counts("x", wx)
    local score, weight = 0, 1
    for j = 1, game.k - 1 do
        score = score + weight * (wo[j] - wx[j])
        weight = weight * 4
    end
    return score
end

local function features_eval(game, params)
    -- a win now, then a block of the opponent's only win square: the
    -- threat lists answer without a search
    local me, other = game.turn, game.turn == "o" and "x" or "o"
    local wins = game:threats(me)
    if #wins > 0 then return wins[1] end
    local blocks = game:threats(other)
    if #blocks > 0 then return blocks[1] end
    -- else αβ over the candidates within distance 2, best first, one ply
    -- below each (params.maxdepth to go deeper)
    return mb.search_abs_dls(game, {maxdepth = params.maxdepth or 1, eval = eval, candidates = 2,
        use_tt = true})
end

return mb.make_ai("features_eval", features_eval)
