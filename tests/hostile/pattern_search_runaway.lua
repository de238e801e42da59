-- hostile: the pattern searcher asked for depth 64 with a time limit of
-- 10^7 s on an open 15x15 board: the player's deadline stops it ("time");
-- under an instruction budget its positions count against it
-- ("instructions"). Its 2^20-entry table (16 MiB) is made at load.
local mb = require "marubatsu"
local searcher = mb.pattern_searcher{tt_bits = 20}
return function(game)
    local g = mb.Marubatsu{width = 15, height = 15, k = 5}
    g:move(g:xy_to_move(7, 7))
    g:move(g:xy_to_move(8, 8))
    searcher:search(g, {timelimit = 1e7, maxdepth = 64, soft = 1})
    return game:calc_legal_moves()[1]
end
