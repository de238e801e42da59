-- scripts/lib/rules.lua: the pieces of rule that several of the series' AIs
-- share (ais.md §4), written once. Embedded in the program and in
-- marubatsu.so; runs once with mb as its argument and adds the table
-- mb.rules:
--
--   mb.rules.centre(game, ai_name) -> move
--       The centre square: (1,1) on 3x3, in general the middle square of a
--       board with odd width and height. On a board with an even side there
--       is no centre: raises "<ai_name>: the centre rule needs odd width and
--       height (board is WxH)" (level 0, no position prefix).
--   mb.rules.corners(game) -> {move, ...}
--       The four corners in reading order: (0,0), (w-1,0), (0,h-1),
--       (w-1,h-1) (a new table; repeats on a board one square wide or high).
--   mb.rules.is_corner(game, move) -> boolean
--       Whether move is one of those corners (false for -1, no move).
--   mb.rules.special(game) -> boolean
--       SPECIAL, the 3x3 rule of ai12s-ai14s, false on any other board.
--   mb.rules.patterns(k) -> i021, i201, i102, i012
--       The game:markpats indexes of the four mark patterns the evaluators
--       read, in this order, for k in a row. In an evaluator the game is the
--       position after the AI's move, so "last" is the AI and "turn" the
--       opponent; M(l,t,e) below counts the lines with l of the AI's marks,
--       t of the opponent's and e empty squares:
--         i021  M(0,k-1,1)  the opponent's open twos (it wins next move)
--         i201  M(k-1,0,1)  the AI's open twos (two or more: a fork)
--         i102  M(1,0,k-1)  lines with one mark of the AI's and no other
--         i012  M(0,1,k-1)  lines with one mark of the opponent's and no other
--       Computed with mb.markpat_index once per k and cached, so that
--       `game:markpats(mb.rules.patterns(game.k))` returns the four counts
--       without a table or a key string (lua-api.md §10).
--   mb.rules.positional(params, m201, m102, m012) -> number
--       The weighted positional terms of ai11s, ai12s and ai13s, from the
--       counts M(k-1,0,1), M(1,0,k-1), M(0,1,k-1) of markpats: score_201
--       (default 2) if the AI has exactly one open two, plus score_102 (0.5)
--       per line with one of its marks alone, plus score_012 (-1) per line
--       with one of the opponent's marks alone. The weights are read from
--       params on every call. (ai14s adds the same terms to its defeat
--       score, inline.)
--   mb.rules.winning_move(game, mark, moves) -> move | nil
--       The first of moves on which mark would win, as the series' move +
--       judge see it: judge looks at no board before move 2k - 1, so before
--       that nothing wins, not even an opponent's mark placed out of turn
--       (ais.md §13 #2; see ai6.lua).
local mb = ...

local rules = {}
mb.rules = rules

local markpat_index = mb.markpat_index

function rules.centre(game, ai_name)
    local w, h = game.width, game.height
    if w % 2 == 0 or h % 2 == 0 then
        error(("%s: the centre rule needs odd width and height (board is %dx%d)")
            :format(ai_name, w, h), 0)
    end
    -- the middle square (w // 2, h // 2) is move h // 2 + (w // 2) * h
    return h // 2 + (w // 2) * h
end

function rules.corners(game)
    local w, h = game.width, game.height
    return {game:xy_to_move(0, 0), game:xy_to_move(w - 1, 0),
        game:xy_to_move(0, h - 1), game:xy_to_move(w - 1, h - 1)}
end

function rules.is_corner(game, m)
    if m < 0 then return false end
    local w, h = game.width, game.height
    local x, y = m // h, m % h
    return (x == 0 or x == w - 1) and (y == 0 or y == h - 1)
end

-- SPECIAL (ais.md §4), a 3x3 rule, false on any other board: x has just
-- made its second move (move 4), x holds the centre, o holds two opposite
-- corners, and x holds an edge: the only safe reply to that opening. Read
-- from the bit planes (game:bits(), bit x + 3y), one call where reading the
-- squares one by one took up to seven.
local CENTRE, EDGES = 1 << 4, (1 << 1) | (1 << 3) | (1 << 5) | (1 << 7)
local DIAGONAL, ANTI = (1 << 0) | (1 << 8), (1 << 2) | (1 << 6)
function rules.special(game)
    if game.move_count ~= 4 or game.width ~= 3 or game.height ~= 3 or game.k ~= 3 then
        return false
    end
    local o, x = game:bits()
    return (x & CENTRE) ~= 0 and ((o & DIAGONAL) == DIAGONAL or (o & ANTI) == ANTI)
        and (x & EDGES) ~= 0
end

-- patterns: the indexes for the last k asked in upvalues (an evaluator sees
-- one k for a whole match), every k met so far in by_k.
local by_k = {}
local K, I021, I201, I102, I012

function rules.patterns(k)
    if k ~= K then
        local p = by_k[k]
        if not p then
            p = {markpat_index(0, k - 1, k), markpat_index(k - 1, 0, k),
                markpat_index(1, 0, k), markpat_index(0, 1, k)}
            by_k[k] = p
        end
        K, I021, I201, I102, I012 = k, p[1], p[2], p[3], p[4]
    end
    return I021, I201, I102, I012
end

function rules.positional(params, m201, m102, m012)
    local score = 0
    if m201 == 1 then score = params.score_201 or 2 end
    return score + m102 * (params.score_102 or 0.5) + m012 * (params.score_012 or -1)
end

function rules.winning_move(game, mark, moves)
    if game.move_count + 1 < 2 * game.k - 1 then return nil end
    for _, m in ipairs(moves) do
        if game:wins_with(m, mark) then return m end
    end
    return nil
end

return rules
