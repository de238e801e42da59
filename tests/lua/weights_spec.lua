-- weights_spec.lua: the evaluation weights of the built-in AIs as
-- parameters (issue: AIs declare what `marubatsu tune` may tune).
-- Checks:
-- - gomoku declares its tunable weights (scripts/gomoku.lua's tune field),
--   each default equal to the engine's (mb.pattern_weights) at the level or
--   class its name says, integers, min <= default <= max, step > 0;
-- - every scalar weight parameter lands where its name says in the weights
--   the search gets (gomoku.weights_of, read back through
--   game:pattern_weights), over the `weights` table's entries, which keep
--   the rest;
-- - with no weight given, with every tunable one at its default, and with
--   every scalar weight at the engine's value, a fixed-nodes search gives
--   the same move, score, node counts, depth and line as the pattern
--   searcher called as the AI always called it (no weights); a changed
--   weight gives the search of a searcher given that weight, and another
--   search than the default's;
-- - bad weight parameters (a fraction, out of range, a string, a name that
--   is not a weight) raise errors naming the parameter;
-- - the searches' option lines_weights (mb.search_abs_dls, search_pvs_dls,
--   search_iddfs): the defaults given change nothing (move, score, counts),
--   another base changes the score, and a bad table (unknown key, wrong
--   type, out of range, NaN, without eval = "lines") raises a clear error;
-- - the AI lines: its tunable weights (reals) are declared, its fixed-depth
--   move is mb.search_pvs_dls's on the lines evaluator with candidates 2,
--   its weight parameters are that search's lines_weights, and it plays
--   3x3 and 15x15 on a time limit, a win at once when it has one.
local mb = rawget(_G, "mb") or require "marubatsu"

local helpers = dofile("tests/lua/helpers.lua")
local shape = {width = 15, height = 15, k = 5}
local function game_of(list) return helpers.game_of(list, shape) end

-- a fresh copy of a built-in AI: its own searcher (whose table keeps what
-- earlier searches learnt), so that each search below starts the same
local function fresh(name)
    local chunk = assert(mb.loadscript(name))
    return chunk(name)
end

-- what a search result shows, to compare
local function figures(move, r)
    return {move = move, score = r.score, nodes = r.nodes, vcf_nodes = r.vcf_nodes, depth = r.depth,
        pv = r.pv, reason = r.reason}
end

local POSITIONS = {"H8,H9,I9", "H8,I9,G7,J10,H10,H7,G9"}
local NODES = 2000

-- the AI's search of list at NODES nodes with params p (a fresh AI)
local function gomoku_search(list, p)
    local params = {nodes = NODES, timelimit = 1000, analyze = true}
    for k, v in pairs(p or {}) do params[k] = v end
    local r = fresh("gomoku")(game_of(list), params)
    return figures(r.move, r)
end

-- the same search as the AI makes it, on a fresh searcher, weights w
local function searcher_search(list, w)
    local opts = {nodes = NODES, timelimit = 0.85 * 1000, soft = 0.7, weights = w}
    return figures(mb.pattern_searcher{tt_bits = 20}:search(game_of(list), opts))
end

local LEVELS = {"win", "open4", "four", "open3", "three", "open2", "two", "open1", "one"}
local CLASSES = {"three", "double_three", "four", "four_three", "double_four", "open_four", "win"}

-- every scalar weight parameter of gomoku -> the engine's default value
local function all_scalars()
    local d, t = mb.pattern_weights(), {tempo = mb.pattern_weights().tempo}
    for i, level in ipairs(LEVELS) do t["shape_" .. level] = d.shape[i] end
    for _, field in ipairs{"combo", "tomove", "waiting"} do
        for _, class in ipairs(CLASSES) do t[field .. "_" .. class] = d[field][class] end
    end
    return t
end

describe("gomoku's weights as parameters", function()
    local gomoku = mb.ai("gomoku")

    it("declares its tunable weights with the engine's defaults", function()
        local tune, d = gomoku.tune, mb.pattern_weights()
        local names = {}
        for name in pairs(tune) do names[#names + 1] = name end
        table.sort(names)
        assert.are.same({"combo_double_four", "combo_double_three", "combo_four_three", "combo_open_four",
            "shape_four", "shape_one", "shape_open1", "shape_open2", "shape_open3", "shape_open4", "shape_three",
            "shape_two", "tempo"}, names)
        local scalars = all_scalars()
        for name, e in pairs(tune) do
            assert.are.equal(scalars[name], e.default, name)
            assert.is_true(e.integer and e.min <= e.default and e.default <= e.max and e.step > 0, name)
            assert.is_true(gomoku.params[name], name)
        end
        -- the names say the level: k = 5's open three is level 4, ...
        assert.are.same({140, 1200, 160, 40, 800}, {tune.shape_open3.default, tune.shape_open4.default,
            tune.shape_four.default, tune.shape_three.default, tune.tempo.default})
        assert.are.equal(d.combo.four_three, tune.combo_four_three.default)
    end)

    it("puts each weight parameter where its name says", function()
        local g = game_of("H8")
        local d = mb.pattern_weights()
        assert.is_nil(gomoku.weights_of({}))
        local given = {shape = {9000}}
        assert.are.equal(given, gomoku.weights_of({weights = given}))
        for i, level in ipairs(LEVELS) do
            local w = g:pattern_weights(gomoku.weights_of({["shape_" .. level] = 4321}))
            local want = mb.pattern_weights()
            want.shape[i] = 4321
            assert.are.same(want, w, level)
            g:pattern_weights(d)
        end
        for _, field in ipairs{"combo", "tomove", "waiting"} do
            for _, class in ipairs(CLASSES) do
                local w = g:pattern_weights(gomoku.weights_of({[field .. "_" .. class] = -77}))
                local want = mb.pattern_weights()
                want[field][class] = -77
                assert.are.same(want, w, field .. "_" .. class)
                g:pattern_weights(d)
            end
        end
        assert.are.equal(55, g:pattern_weights(gomoku.weights_of({tempo = 55})).tempo)
        g:pattern_weights(d)
        -- over the weights table: its other entries stay, the parameter wins
        given = {shape = {9000, 1000, 150}, combo = {win = 12, four_three = 1}, tempo = 3}
        local w = g:pattern_weights(gomoku.weights_of({shape_four = 170, combo_win = 13, weights = given}))
        assert.are.same({9000, 1000, 170, 140}, {w.shape[1], w.shape[2], w.shape[3], w.shape[4]})
        assert.are.same({13, 1, 300}, {w.combo.win, w.combo.four_three, w.combo.double_three})
        assert.are.equal(3, w.tempo)
        -- the table given is not changed
        assert.are.same({shape = {9000, 1000, 150}, combo = {win = 12, four_three = 1}, tempo = 3}, given)
    end)

    it("searches as before with every weight at its default", function()
        for _, list in ipairs(POSITIONS) do
            local before = searcher_search(list, nil)
            assert.are.same(before, gomoku_search(list, {}))
            local defaults = {}
            for name, e in pairs(gomoku.tune) do defaults[name] = e.default end
            assert.are.same(before, gomoku_search(list, defaults))
            assert.are.same(before, gomoku_search(list, all_scalars()))
            assert.is_true(before.nodes > 0 and before.depth >= 1 and #before.pv >= 1)
        end
    end)

    it("searches with a changed weight as a searcher given it", function()
        local list = POSITIONS[1]
        local w = mb.pattern_weights()
        w.shape[4] = 20
        local changed = searcher_search(list, w)
        assert.are.same(changed, gomoku_search(list, {shape_open3 = 20}))
        assert.are_not.same(searcher_search(list, nil), changed)
        w = mb.pattern_weights()
        w.tempo = 100
        assert.are.same(searcher_search(list, w), gomoku_search(list, {tempo = 100}))
    end)

    it("refuses bad weight parameters, naming them", function()
        local g = game_of("H8")
        local cases = {
            {{shape_open3 = 1.5}, "parameter 'shape_open3' must be an integer from %-1000000 to 1000000, got 1.5"},
            {{tempo = 2000000}, "parameter 'tempo' must be an integer from %-1000000 to 1000000, got 2000000"},
            {{combo_win = "5"}, "parameter 'combo_win' must be an integer .*, got '5'"},
            {{waiting_four = true}, "parameter 'waiting_four' must be an integer .*, got true"},
            {{shape_five = 3}, "unknown parameter 'shape_five'"},
            {{tempo = 5, weights = {colour = 1}}, "weights: unknown key 'colour'"},
        }
        for _, c in ipairs(cases) do
            local ok, err = pcall(gomoku, g, c[1])
            assert.is_false(ok)
            assert.matches(c[2], err)
        end
        -- an integer-valued float is the integer
        assert.are.equal(3, g:pattern_weights(gomoku.weights_of({shape_four = 3.0})).shape[3])
    end)
end)

describe("the searches' option lines_weights", function()
    local DEFAULTS = {base = 4, open_mover = 1, open_other = 1, sure_win = 1e8, sure_loss = 5e7}

    local function run(fn, list, extra)
        local opts = {eval = "lines", candidates = 2, rand = false, analyze = true}
        if fn ~= mb.search_iddfs then opts.maxdepth = 2 else opts.timelimit = 1000 end
        for k, v in pairs(extra or {}) do opts[k] = v end
        local r = fn(game_of(list), opts)
        if fn == mb.search_iddfs then r = r[#r] end
        return {bestmove = r.bestmove, score = r.score, counts = r.counts, count = r.count}
    end

    it("changes nothing with the defaults, the score with another base", function()
        for _, fn in ipairs{mb.search_abs_dls, mb.search_pvs_dls} do
            for _, list in ipairs(POSITIONS) do
                local before = run(fn, list)
                assert.are.same(before, run(fn, list, {lines_weights = DEFAULTS}))
                assert.are.same(before, run(fn, list, {lines_weights = {}}))
                assert.are_not.equal(before.score, run(fn, list, {lines_weights = {base = 3}}).score)
            end
        end
        -- the deepening: on 3x3 it ends by itself (a solved game)
        local function iddfs(extra)
            local o = {eval = "lines", rand = false, analyze = true, timelimit = 1000}
            for k, v in pairs(extra or {}) do o[k] = v end
            local r = mb.search_iddfs(helpers.game_of("B2"), o)
            return {#r, r[#r].bestmove, r[#r].score, r[#r].count}
        end
        assert.are.same(iddfs(), iddfs({lines_weights = DEFAULTS}))
        assert.are.equal(8, iddfs()[1])
    end)

    it("refuses a bad table with a clear error", function()
        local g = game_of("H8,H9,I9")
        local cases = {
            {{bse = 4}, "search_pvs_dls: lines_weights: unknown option 'bse' "
                .. "%(known: base, open_mover, open_other, sure_win, sure_loss%)"},
            {{base = "4"}, "search_pvs_dls: lines_weights.base must be a number, got string"},
            {{base = 0.5}, "search_pvs_dls: lines_weights.base must be a number from 1 to 16, got 0.5"},
            {{open_other = -1}, "lines_weights.open_other must be a number from 0 to 64, got %-1"},
            {{open_mover = 0 / 0}, "lines_weights.open_mover must be a number from 0 to 64, got %-?nan"},
            {{sure_win = 1e10}, "lines_weights.sure_win must be a number from 0 to 1e%+09"},
            {{sure_loss = math.huge}, "lines_weights.sure_loss must be a number from 0 to 1e%+09, got inf"},
            {{4}, "lines_weights: unknown option number"},
        }
        for _, c in ipairs(cases) do
            local ok, err = pcall(mb.search_pvs_dls, g, {eval = "lines", candidates = 2, lines_weights = c[1]})
            assert.is_false(ok)
            assert.matches(c[2], err)
        end
        local ok, err = pcall(mb.search_abs_dls, g, {candidates = 2, lines_weights = {base = 3}})
        assert.is_false(ok)
        assert.matches("search_abs_dls: option 'lines_weights' needs eval = \"lines\"", err, 1, true)
        ok, err = pcall(mb.search_iddfs, g, {eval = "lines", lines_weights = 4})
        assert.is_false(ok)
        assert.matches("search_iddfs: option 'lines_weights' must be a table, got number", err, 1, true)
    end)
end)

describe("the AI lines", function()
    local lines = mb.ai("lines")

    it("declares its tunable weights, reals", function()
        assert.are.same({
            base = {default = 4.0, min = 2.0, max = 8.0, step = 0.5, integer = false},
            open_mover = {default = 1.0, min = 0.0, max = 4.0, step = 0.25, integer = false},
            open_other = {default = 1.0, min = 0.0, max = 4.0, step = 0.25, integer = false},
        }, lines.tune)
        assert.is_true(lines.params.sure_win and lines.params.sure_loss and lines.params.maxdepth)
    end)

    it("searches at a fixed depth with its weights as the search's lines_weights", function()
        -- the analysis without its time
        local function timeless(r)
            r.time = nil
            return r
        end
        for _, list in ipairs(POSITIONS) do
            local function search(lw)
                return timeless(mb.search_pvs_dls(game_of(list), {eval = "lines", candidates = 2, maxdepth = 2,
                    rand = false, analyze = true, lines_weights = lw}))
            end
            local r = timeless(lines(game_of(list), {maxdepth = 2, rand = false, analyze = true}))
            assert.are.same(search(nil), r)
            assert.are.same(search(nil), timeless(lines(game_of(list), {maxdepth = 2, rand = false, analyze = true,
                base = 4.0, open_mover = 1.0, open_other = 1.0})))
            local w = {base = 3, open_mover = 2, open_other = 0.5, sure_win = 1e6, sure_loss = 1e5}
            local p = {maxdepth = 2, rand = false, analyze = true}
            for k, v in pairs(w) do p[k] = v end
            local changed = timeless(lines(game_of(list), p))
            assert.are.same(search(w), changed)
            assert.are_not.equal(r.score, changed.score)
            assert.are.equal(r.bestmove, lines(game_of(list), {maxdepth = 2, rand = false}))
        end
        local ok, err = pcall(lines, game_of("H8"), {maxdepth = 1, base = 20})
        assert.is_false(ok)
        assert.matches("lines_weights.base must be a number from 1 to 16, got 20", err, 1, true)
    end)

    it("plays on a time limit, on 3x3 and on 15x15", function()
        local g = helpers.game_of("B2,A1")
        local before = helpers.snapshot(g)
        local m = lines(g, {timelimit = 5})
        assert.are.equal(".", g:getmark_by_move(m))
        assert.are.equal(before, helpers.snapshot(g))
        g = game_of("H8,H9,I9")
        local r = lines(g, {timelimit = 0.2, analyze = true})
        assert.are.equal(".", g:getmark_by_move(r.bestmove))
        assert.is_true(r.depth >= 0)
        -- o: D8 E8 F8 G8 with C8 and H8 open: it wins at once (the
        -- search alone may play any move that keeps the win)
        g = game_of("D8,D1,E8,E1,F8,F1,G8,A15")
        for _ = 1, 5 do
            m = lines(g, {timelimit = 0.2})
            assert.is_true(m == mb.move("C8", g) or m == mb.move("H8", g))
        end
        assert.are.equal(mb.move("C8", g), lines(g, {maxdepth = 2, analyze = true}).bestmove)
    end)
end)
