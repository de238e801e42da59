-- hostile: the scorer of an ai_by_score AI (called by the engine on each
-- child of the real position, in place) takes the game back below the
-- child and replays other squares to the same move count and last move,
-- so that the loop's next step would unmove and move on a rewritten parent
-- (a move landing on a mark). The game is held while the scorer has it:
-- unmove raises "in use" and the move is lost with that error.
local mb = require "marubatsu"
local ai = mb.ai_by_score(function(game)
    local n, last = game.move_count, game.last_move
    while game.move_count > 0 do game:unmove() end
    while game.move_count < n - 1 do
        local legal = game:calc_legal_moves()
        game:move(legal[#legal] == last and legal[#legal - 1] or legal[#legal])
    end
    game:move(last)
    return 0
end, "score_rewrite")
return function(game, params) return ai(game, params) end
