-- hostile: mb.vct on 15x15 with k = 4 after 20 scattered stones, maxdepth
-- 60: a threat search of far more than a move's time. The search takes
-- the player's budgets: it stops at the deadline ("time"), or its nodes
-- count against an instruction budget ("instructions").
local mb = require "marubatsu"
return function(game)
    local g = mb.Marubatsu{width = 15, height = 15, k = 4}
    local seed = 7
    while g.move_count < 20 do
        seed = (seed * 1103515245 + 12345) % 2147483648
        local m = seed % 225
        if g:getmark_by_move(m) == "." then
            g:move(m)
            if g.status ~= "playing" or mb.vcf(g, {maxdepth = 1}) then g:unmove() end
        end
    end
    mb.vct(g, {maxdepth = 60})
    return game:calc_legal_moves()[1]
end
