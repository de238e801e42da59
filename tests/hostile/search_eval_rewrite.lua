-- hostile: an evaluator given to mb.search_abs_dls restarts the game it is
-- handed and replays other squares, keeping the move count and the last
-- move, so that a check of those two fields alone passes and the search
-- would go on moving and unmoving on a different board (before games were
-- held, its line counters wrapped and the engine wrote past an array). The
-- game is held while the evaluator has it: restart raises "in use", the
-- search is unwound and the move is lost with that error.
local mb = require "marubatsu"

-- the position after `n` moves ending with `last`, on other squares
local function rewrite(g)
    local n, last = g.move_count, g.last_move
    g:restart()
    while g.move_count < n - 1 do
        local legal = g:calc_legal_moves()
        local pick = legal[#legal]
        if pick == last then pick = legal[#legal - 1] end
        g:move(pick)
    end
    g:move(last)
end

return function(game)
    local g = mb.Marubatsu{width = 9, height = 9, k = 5, count_linemark = true}
    for _, m in ipairs({40, 41, 31, 49}) do g:move(m) end
    mb.search_abs_dls(g, {maxdepth = 3, eval = function(pos)
        if pos.status == "playing" then rewrite(pos) end
        return 0
    end})
    return game:calc_legal_moves()[1]
end
