-- helpers.lua: pieces several busted specs share (not a spec itself; a
-- spec loads it with dofile("tests/lua/helpers.lua"), the specs running
-- from the repository's root as tests/lua/run.sh has them):
--   game_of(list [, opts])  a game made from opts with the moves of the
--                           comma-separated list ("B2,A1") played
--   random_moves(g, n)      play up to n random legal moves on g from the
--                           default stream (mb.randint), stopping at the end
--                           of the game; returns g
--   dir_maker()             a function returning a new, not yet existing
--                           directory path under a fresh temporary root
local mb = rawget(_G, "mb") or require "marubatsu"

local helpers = {}

function helpers.game_of(list, opts)
    local g = mb.Marubatsu(opts)
    for sq in list:gmatch("[^,]+") do g:move(mb.move(sq, g)) end
    return g
end

function helpers.random_moves(g, n)
    for _ = 1, n do
        if g.status ~= "playing" then break end
        local legal = g:calc_legal_moves()
        g:move(legal[mb.randint(1, #legal)])
    end
    return g
end

function helpers.dir_maker()
    local root = os.tmpname()
    os.remove(root)
    assert(os.execute("mkdir -p " .. root))
    local n = 0
    return function()
        n = n + 1
        return ("%s/t%d"):format(root, n)
    end
end

return helpers
