-- hostile: the pattern searcher asked again and again for depth 64 with a
-- time limit of 10^7 s on an open 15x15 board: each search stops at the
-- player's deadline, and the loop after it ends with "time"; under an
-- instruction budget the searches' positions count against it
-- ("instructions"). Its 2^20-entry table (16 MiB) is made at load.
local mb = require "marubatsu"
local searcher = mb.pattern_searcher{tt_bits = 20}
return function(game)
    local g = mb.Marubatsu{width = 15, height = 15, k = 5}
    g:move(g:xy_to_move(7, 7))
    g:move(g:xy_to_move(8, 8))
    for _ = 1, 1000 do searcher:search(g, {timelimit = 1e7, maxdepth = 64, soft = 1}) end
    return game:calc_legal_moves()[1]
end
