-- hostile: the body of a children() loop takes the game back below the
-- child it was given and replays other squares to the same move count and
-- last move, so that the loop's next step would unmove and move on a
-- rewritten parent (a move landing on a mark). The game is held at the
-- child while the body runs: unmove raises "in use" and the move is lost
-- with that error.
local mb = require "marubatsu"
return function(game)
    local g = mb.Marubatsu{width = 5, height = 5, k = 4}
    for _, m in ipairs({12, 13, 7}) do g:move(m) end
    for _ in g:children() do
        local n, last = g.move_count, g.last_move
        while g.move_count > 0 do g:unmove() end
        while g.move_count < n - 1 do
            local legal = g:calc_legal_moves()
            g:move(legal[#legal] == last and legal[#legal - 1] or legal[#legal])
        end
        g:move(last)
    end
    return game:calc_legal_moves()[1]
end
