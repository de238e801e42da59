-- gomoku: an AI for k in a row on big boards (15x15 with five, say), built
-- on the engine's native pieces. It is the example to copy when you write
-- your own: the whole AI is one native search, and this script chooses
-- its time, its heuristics and its weights.
--
-- The pieces (docs/lua-api.md §3.9 and §5.14):
--   game:pattern(square, dir, p)   the gomoku shape (open three, four, ...)
--                                  p would make on an empty square along a
--                                  line, kept by every move and unmove
--   game:forced_moves()            the moves a threat leaves: a block, or
--                                  the answers to an open three
--   mb.pattern_searcher()          a principal variation search on those
--                                  codes: a transposition table kept from
--                                  move to move, iterative deepening, late
--                                  move reductions and width pruning, root
--                                  threat searches; the other heuristics
--                                  (killers, the horizon VCF, ...) are off
--                                  by default, as they did not gain
--
-- params (all optional):
--   timelimit   seconds for this move; a time control (tournament, match
--               or play --move-time / --game-time, or a Gomocup manager
--               through `marubatsu brain`) sets it. Default 1.
--   analyze     return the search's information (move, score, depth,
--               nodes, pv, reason) instead of the move, with what play's
--               hint and the web's heat map draw: candidate = {move} and
--               score_by_move, the pattern score of each candidate square
--               for the side to move (game:pattern_moves, at most 60)
--   and any option of searcher:search (tt, lmr, vcf, width, weights, ...),
--   so that `gomoku:lmr=false` is the same AI without late move
--   reductions and `gomoku:vcf=true` the same with the horizon VCF: a
--   tournament measures what each piece is worth
--   (tests/bench/sprt_switches.sh runs one SPRT per piece).
--   the evaluation's weights one number each (below), so that
--   `gomoku:shape_open3=52` is the same AI with that weight; they override
--   the `weights` table's entries. The tunable ones are declared in
--   make_ai's `tune` field (`marubatsu tune --list gomoku`).
local mb = require "marubatsu"

local OPTIONS = {"soft", "maxdepth", "nodes", "tt", "aspiration", "killers", "history", "lmr", "vcf",
    "forced", "prune", "window", "vcf_depth", "vcf_nodes", "root_vcf", "width", "width1",
    "defend", "root_vct", "vct_nodes", "vct_share", "guard", "qdefend", "extend", "verify", "verify_share", "weights"}

-- The weights of the evaluation (docs/lua-api.md §3.9, pattern.h) as
-- scalar parameters: shape_LEVEL (the weight of a code, by level from the
-- top; the names are k = 5's: open4 is an open k-1, three a k-2, ...),
-- combo_CLASS, tomove_CLASS, waiting_CLASS (by class) and tempo. Left out,
-- a weight keeps its value (the `weights` table's, else the default).
local LEVELS = {"win", "open4", "four", "open3", "three", "open2", "two", "open1", "one"}
local CLASSES = {"three", "double_three", "four", "four_three", "double_four", "open_four", "win"}
local WEIGHT_MAX = 1000000 -- the engine's limit, either sign
local SCALARS = {} -- {name =, field =, key =} in a fixed order: errors name the first bad one
for i, level in ipairs(LEVELS) do SCALARS[#SCALARS + 1] = {name = "shape_" .. level, field = "shape", key = i} end
for _, field in ipairs{"combo", "tomove", "waiting"} do
    for _, class in ipairs(CLASSES) do
        SCALARS[#SCALARS + 1] = {name = field .. "_" .. class, field = field, key = class}
    end
end
SCALARS[#SCALARS + 1] = {name = "tempo", field = "tempo"}
local DEFAULTS = mb.pattern_weights()

-- The tunable ones: what the evaluation sums over a position that is not
-- yet decided. Each step is about a fifth of its default (at least 1 for
-- these integers): at 3000 nodes a move, halving one weight alone cost
-- 0 to 23 Elo (400 games each, open three, tempo and four-three the most;
-- docs/lua-api.md §5.11b), so a tenth would be lost in the noise. Each
-- range runs from 0 (a shape counting against its own side makes no
-- sense) to 5-10 times the default. Left out, though settable: shape_win
-- and combo_win (a square that completes five: the search sees the win
-- before it evaluates), combo_three and combo_four (0: the shapes already
-- count them), and tomove / waiting (all 0; giving six of them 100 to 300
-- changed nothing measurable, within ±7 Elo).
local TUNE = {
    shape_open4 = {default = 1200, min = 0, max = 6000, step = 250},
    shape_four = {default = 160, min = 0, max = 1000, step = 30},
    shape_open3 = {default = 140, min = 0, max = 1000, step = 30},
    shape_three = {default = 40, min = 0, max = 300, step = 8},
    shape_open2 = {default = 36, min = 0, max = 300, step = 8},
    shape_two = {default = 8, min = 0, max = 60, step = 2},
    shape_open1 = {default = 3, min = 0, max = 30, step = 1},
    shape_one = {default = 1, min = 0, max = 10, step = 1},
    combo_double_three = {default = 300, min = 0, max = 2000, step = 60},
    combo_four_three = {default = 600, min = 0, max = 4000, step = 120},
    combo_double_four = {default = 1000, min = 0, max = 6000, step = 200},
    combo_open_four = {default = 1000, min = 0, max = 6000, step = 200},
    tempo = {default = 800, min = 0, max = 4000, step = 160},
}

-- A copy of t's entries (t a table), or {} for nil.
local function copy(t)
    local c = {}
    for k, v in pairs(t or {}) do c[k] = v end
    return c
end

-- The weights option for params: nil or params.weights as given when no
-- scalar weight is set (the search's own defaults: the AI as it always
-- was), else the table with the scalars written over it.
local function weights_of(params)
    params = params or {}
    local w
    for _, s in ipairs(SCALARS) do
        local v = params[s.name]
        if v ~= nil then
            local n = math.type(v) and math.tointeger(v)
            if not n or n < -WEIGHT_MAX or n > WEIGHT_MAX then
                local got = type(v) == "string" and ("'%s'"):format(v) or tostring(v)
                error(("gomoku: parameter '%s' must be an integer from %d to %d, got %s")
                    :format(s.name, -WEIGHT_MAX, WEIGHT_MAX, got), 0)
            end
            if not w then
                local given = params.weights
                -- a bad table: the searcher's own error names what is wrong
                if given ~= nil and type(given) ~= "table" then return given end
                w = copy(given)
                for _, field in ipairs{"shape", "combo", "tomove", "waiting"} do
                    if w[field] ~= nil and type(w[field]) ~= "table" then return given end
                    w[field] = copy(w[field])
                end
                -- the shape array whole: the defaults under the given levels
                for i, d in ipairs(DEFAULTS.shape) do
                    if w.shape[i] == nil then w.shape[i] = d end
                end
            end
            if s.key then w[s.field][s.key] = n else w[s.field] = n end
        end
    end
    if w then return w end
    return params.weights
end

-- One searcher per Lua state, made when the script loads (not on a move's
-- clock): its table (16 MiB, cleared when made) carries what
-- earlier moves learnt.
local searcher = mb.pattern_searcher{tt_bits = 20}

local function gomoku(game, params)
    -- the move's share of the clock: the native search stops itself at
    -- 85% of it (the rest: a busy machine's scheduling, the host's own
    -- work), and starts no new iteration after 70% of that (an iteration
    -- cut short still gives its better move: starting late is not waste)
    local opts = {timelimit = 0.85 * (params.timelimit or 1), soft = 0.7}
    for _, key in ipairs(OPTIONS) do
        if params[key] ~= nil then opts[key] = params[key] end
    end
    opts.weights = weights_of(params)
    local move, info = searcher:search(game, opts)
    if params.analyze then
        info.move = move
        info.candidate = {move}
        info.score_by_move = {}
        info.score_label = "pattern score"
        info.moves, info.width, info.height = {}, game.width, game.height -- best first, for the REPL
        if game.status == "playing" then
            local moves, scores = game:pattern_moves(60)
            for i, m in ipairs(moves) do info.score_by_move[m] = scores[i] end
            info.moves = moves
        end
        return info
    end
    return move
end

local accepted = {"timelimit", "time_left", "analyze"}
for _, key in ipairs(OPTIONS) do accepted[#accepted + 1] = key end
for _, s in ipairs(SCALARS) do accepted[#accepted + 1] = s.name end
-- gomoku.weights_of(params): the weights option a move with params gives
-- the search (nil: the defaults), to read what the parameters make
return mb.make_ai("gomoku", gomoku, {kind = "search", params = accepted, tune = TUNE,
    weights_of = weights_of})
