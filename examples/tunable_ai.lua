-- tunable_ai.lua: an AI whose weights `marubatsu tune` can tune, to copy
-- when you write your own (docs/tune.md).
--
-- It scores every legal move by a few features, each with a weight, and
-- plays a best one (ties broken with mb.choice). The weights are declared
-- in make_ai's `tune` field: a default, the range the tuner keeps to, and
-- a step (about the smallest change that makes a difference you could
-- measure). The defaults below are deliberately poor (a block weighs
-- nothing, a fork more than half a win), so that tuning
-- has something to find; the openings (every first two moves) give the
-- games their variety, since two players this simple would otherwise play
-- the same few games over and over:
--
--     marubatsu tune --list examples/tunable_ai.lua
--     marubatsu tune examples/tunable_ai.lua --openings examples/openings_3x3.txt \
--         --iterations 60 --out runs/tunable
--
-- Each weight is also an ordinary parameter: tunable_ai:block=120 is this
-- AI with that weight, in match, tournament or play.
local mb = require "marubatsu"

local TUNE = {
    win = {default = 100, min = 0, max = 200, step = 10},   -- completes our line
    block = {default = 0, min = 0, max = 200, step = 10},   -- stops theirs
    fork = {default = 60, min = 0, max = 100, step = 8},    -- leaves us two ways to win
    centre = {default = 2, min = 0, max = 50, step = 4},
    corner = {default = 4, min = 0, max = 50, step = 4},
}

-- How many squares would win at once for `mark` after m is played.
local function threats_after(game, m, mark)
    game:move(m)
    local n = 0
    for _, next_move in ipairs(game:calc_legal_moves()) do
        if game:wins_with(next_move, mark) then n = n + 1 end
    end
    game:unmove()
    return n
end

local function score(game, m, w)
    local me = game.turn
    local them = me == "o" and "x" or "o"
    local x, y = game:move_to_xy(m)
    local s = 0
    if game:wins_with(m, me) then s = s + w.win end
    if game:wins_with(m, them) then s = s + w.block end
    if threats_after(game, m, me) >= 2 then s = s + w.fork end
    if x == game.width // 2 and y == game.height // 2 then s = s + w.centre end
    if (x == 0 or x == game.width - 1) and (y == 0 or y == game.height - 1) then s = s + w.corner end
    return s
end

local function tunable_ai(game, params)
    local w = {}
    for name, t in pairs(TUNE) do w[name] = params[name] or t.default end
    local best, best_score = {}, -math.huge
    for _, m in ipairs(game:calc_legal_moves()) do
        local s = score(game, m, w)
        if s > best_score then
            best, best_score = {m}, s
        elseif s == best_score then
            best[#best + 1] = m
        end
    end
    return mb.choice(best)
end

return mb.make_ai("tunable_ai", tunable_ai, {params = {}, tune = TUNE})
