-- my_first_ai.lua: a complete user AI, commented, to copy and change.
--
-- An AI is a Lua file that returns a function (game, params) -> move, or a
-- table {name = ..., fn = that function}. A move is an integer: the square
-- (x, y) is y + x * game.height (game:xy_to_move(x, y) computes it).
-- Load it by file name, or by name from a directory given with -I:
--
--     marubatsu match examples/my_first_ai.lua ai14s -n 1000 --seed 1
--     marubatsu -I examples match my_first_ai ai2
--
-- The rule: win now if possible; else block the opponent's win; else take
-- the centre; else a corner; else any square. Ties are broken with mb.choice,
-- the CPython-compatible random stream, so seeded matches are reproducible.
local mb = require "marubatsu"

-- Moves that make `mark` complete a line right now.
local function winning_moves(game, legal, mark)
    local found = {}
    for _, m in ipairs(legal) do
        if game:wins_with(m, mark) then found[#found + 1] = m end
    end
    return found
end

local function my_first_ai(game, params)
    local legal = game:calc_legal_moves()   -- in order: row by row
    local me = game.turn                    -- "o" or "x": the side to move
    local opponent = me == "o" and "x" or "o"

    -- 1. a win, 2. a block
    local wins = winning_moves(game, legal, me)
    if #wins > 0 then return mb.choice(wins) end
    local blocks = winning_moves(game, legal, opponent)
    if #blocks > 0 then return mb.choice(blocks) end

    -- 3. the centre, when the board has one and it is free
    if game.width % 2 == 1 and game.height % 2 == 1 then
        local centre = game:xy_to_move(game.width // 2, game.height // 2)
        if game:getmark_by_move(centre) == "." then return centre end
    end

    -- 4. a free corner (params.corners = false turns this rule off)
    if params.corners ~= false then
        local corners = {}
        for _, xy in ipairs({{0, 0}, {game.width - 1, 0}, {0, game.height - 1},
                             {game.width - 1, game.height - 1}}) do
            local m = game:xy_to_move(xy[1], xy[2])
            if game:getmark_by_move(m) == "." then corners[#corners + 1] = m end
        end
        if #corners > 0 then return mb.choice(corners) end
    end

    -- 5. anything
    return mb.choice(legal)
end

return {name = "my_first_ai", fn = my_first_ai}
