-- lines: an αβ search for any board and k on the engine's line evaluator
-- (the C evaluator "lines", docs/lua-api.md §5.7): its windows, levels and
-- open squares, with the evaluator's weights as parameters, so that
-- `marubatsu tune lines` tunes them. Every node searches its candidate
-- moves (the empty squares near the marks, best first), so it plays on
-- 15x15 as on 3x3. A move that wins at once is played without a search.
--
-- params (all optional):
--   maxdepth     a fixed depth: mb.search_pvs_dls, maxdepth plies below
--                each root child (the same moves on any machine: what a
--                tuning run wants, `lines:maxdepth=2`); without it,
--                iterative deepening (mb.search_iddfs) on the move's time
--   timelimit    seconds for this move (a time control sets it); default 1
--   candidates   the distance of the candidate moves (1 .. 32, default 2);
--                0: every legal move
--   vcf          the VCF win check at every node (false; true or a number
--                of fours)
--   rand         one mb.choice among the best moves (true)
--   analyze      return the search's analysis (candidate, score_by_move,
--                moves, score, bestmove, PV, count, ...) instead of the move
--   the evaluator's weights: base, open_mover, open_other (tuned, below)
--   and sure_win, sure_loss (settable, not tuned): the search's option
--   lines_weights, whose ranges they keep.
local mb = require "marubatsu"

-- The weights a tuning run moves. base (4): a window one mark fuller
-- weighs base times more. open_mover and open_other (1): an open square
-- (where a mark makes an open k-1) of the side to move weighs open_mover
-- times base^(k-1), one of the other side open_other times base^(k-2).
-- The ranges keep the levels' order (base at least 2) and let a weight
-- drop to 0 or grow fourfold. The steps (0.5, 0.25, 0.25) are large
-- because the weights matter little near the defaults: at maxdepth 1 on
-- 15x15, base 3, 3.5, 4.5 or 5 and either open weight halved or doubled
-- each scored within 12 Elo of the defaults (400 games each;
-- docs/lua-api.md §5.11c). sure_win (10^8) and sure_loss (5*10^7) are not
-- tuned: any values above every sum of windows give the same moves, and
-- values below it throw wins away, so there is nothing for a tuner to
-- find between.
local TUNE = {
    base = {default = 4.0, min = 2.0, max = 8.0, step = 0.5},
    open_mover = {default = 1.0, min = 0.0, max = 4.0, step = 0.25},
    open_other = {default = 1.0, min = 0.0, max = 4.0, step = 0.25},
}
local WEIGHTS = {"base", "open_mover", "open_other", "sure_win", "sure_loss"}

-- A move that wins at once, if any: the searches score every won line
-- alike (a win now and a win in three tie), so the AI takes it first.
local function win_now(game)
    local me = game.turn
    for _, m in ipairs(game:calc_legal_moves()) do
        if game:wins_with(m, me) then return m end
    end
end

local function lines(game, params)
    local win = win_now(game)
    if win then
        if params.analyze then return {candidate = {win}, score_by_move = {}, moves = {win}, bestmove = win} end
        return win
    end
    local weights
    for _, name in ipairs(WEIGHTS) do
        if params[name] ~= nil then
            weights = weights or {}
            weights[name] = params[name]
        end
    end
    local candidates = params.candidates or 2
    local opts = {
        eval = "lines",
        lines_weights = weights,
        candidates = candidates ~= 0 and candidates or nil,
        vcf = params.vcf,
        rand = params.rand ~= false,
        analyze = params.analyze and true or false,
    }
    if params.maxdepth then
        opts.maxdepth = params.maxdepth
        local result, err = mb.search_pvs_dls(game, opts)
        if result == nil then error("lines: " .. tostring(err), 0) end
        return result
    end
    -- the move's share of the clock: the deepening drops the depth the
    -- deadline cuts (the rest: a busy machine's scheduling, the host's work)
    opts.pvs = true
    opts.timelimit = 0.85 * (params.timelimit or 1)
    local result = mb.search_iddfs(game, opts)
    if not params.analyze then return result end
    -- the last whole depth's analysis (none: the first legal move, as the
    -- deepening plays it)
    local m = game:calc_legal_moves()[1]
    return result[#result] or {candidate = {m}, score_by_move = {}, moves = {m}, bestmove = m, depth = 0}
end

local accepted = {"maxdepth", "timelimit", "time_left", "candidates", "vcf", "rand", "analyze"}
for _, name in ipairs(WEIGHTS) do accepted[#accepted + 1] = name end
return mb.make_ai("lines", lines, {kind = "search", params = accepted, tune = TUNE})
