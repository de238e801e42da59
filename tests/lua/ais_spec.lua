-- ais_spec.lua: the rule-based AIs ai1..ai7 and ai1s..ai14s (ais.md §4)
-- against the series' vectors on the 431 test positions (candidate lists
-- and scores, exactly and in order), their strong-solution pass counts
-- (ais.md §11.3), ai6's early-judge quirk, the seeded ai14s/ai2 games of
-- ais.md §11.1, random draws, parameter overrides, and that an AI leaves
-- the game and its params as they were. Every case on a game runs on every
-- back-end, but the long families over the 431 positions: there each AI's
-- three cases take three back-end settings in turn (helpers.backend), so
-- every setting meets about a third of the AIs in each case.
local mb = require "marubatsu"
local json = require "dkjson"
local helpers = dofile("tests/lua/helpers.lua")
local snapshot = helpers.snapshot

local DATA = os.getenv("MARUBATSU_SPEC_DATA") or "tests/data" -- the series' test vectors, copied into the repository

local function load_json(name)
    return assert(json.decode(helpers.read_file(DATA .. "/" .. name)))
end

local vectors = load_json("vectors_rule_ais_431.json")
local bestmoves = load_json("bestmoves_by_board.json")
local positions = vectors.positions

local AIS = {"ai1", "ai2", "ai3", "ai4", "ai5", "ai6", "ai7",
    "ai1s", "ai2s", "ai3s", "ai4s", "ai5s", "ai6s", "ai7s", "ai8s", "ai9s",
    "ai10s", "ai11s", "ai12s", "ai13s", "ai14s"}

-- ais.md §11.3 (ai6s/ai7s with the intended rule)
local PASS = {ai1 = 138, ai1s = 138, ai2 = 0, ai2s = 0, ai3 = 117, ai3s = 117,
    ai4 = 229, ai4s = 229, ai5 = 252, ai5s = 252, ai6 = 352, ai6s = 363,
    ai7 = 334, ai7s = 339, ai8s = 342, ai9s = 349, ai10s = 349, ai11s = 356,
    ai12s = 424, ai13s = 424, ai14s = 424}

-- The game after the moves [[x, y], ...], on the back-end setting bk (or
-- the default).
local function replay(list, bk)
    local g = bk and bk.new() or mb.Marubatsu()
    for _, xy in ipairs(list) do g:move(g:xy_to_move(xy[1], xy[2])) end
    return g
end

local function moves_of(g, list)
    local t = {}
    for i, xy in ipairs(list) do t[i] = g:xy_to_move(xy[1], xy[2]) end
    return t
end

local function where(list)
    local t = {}
    for i, xy in ipairs(list) do t[i] = ("(%d,%d)"):format(xy[1], xy[2]) end
    return "after " .. (#t > 0 and table.concat(t, " ") or "nothing")
end

-- Does ai's candidate set lie within the position's best moves (ais.md §9.4)?
local function passes(ai, g)
    local best = {}
    for _, xy in ipairs(bestmoves[g:board_to_str()]) do best[g:xy_to_move(xy[1], xy[2])] = true end
    for _, m in ipairs(ai(g, {analyze = true}).candidate) do
        if not best[m] then return false end
    end
    return true
end

-- Compare an analysis' scores with the vector's [[x, y, score], ...]: the
-- same moves in legal order, numerically equal scores (2 == 2.0; all are
-- multiples of 0.5, so exact).
local function check_scores(name, g, want, r, list)
    local moves = {}
    for j, xys in ipairs(want) do moves[j] = g:xy_to_move(xys[1], xys[2]) end
    assert.are.same(moves, r.moves, name .. " moves " .. where(list))
    for j, xys in ipairs(want) do
        local got = r.score_by_move[moves[j]]
        assert(xys[3] == got, ("%s: score of (%d,%d) %s is %s, want %s")
            :format(name, xys[1], xys[2], where(list), tostring(got), tostring(xys[3])))
    end
end

-- Params that raise on any write, as the wrappers' own empty table does.
local function frozen(t)
    return setmetatable(t, {__newindex = function() error("params written", 2) end})
end

describe("rule-based AIs on the 431 test positions", function()
    for i, name in ipairs(AIS) do
        local vec = vectors[name]
        local what = vec.score_by_move and " candidates and scores" or " candidates"
        local on = {helpers.backend(i), helpers.backend(i + 1), helpers.backend(i + 2)}
        it(name .. " matches the series'" .. what .. " on " .. on[1].label, function()
            local ai = mb.ai(name)
            local params = frozen({analyze = true})
            for i, list in ipairs(positions) do
                local g = replay(list, on[1])
                local before = snapshot(g)
                local r = ai(g, params)
                assert.are.equal(before, snapshot(g), name .. " changed the game " .. where(list))
                assert.are.same(moves_of(g, vec.candidate[i]), r.candidate,
                    name .. " candidate " .. where(list))
                if vec.score_by_move then check_scores(name, g, vec.score_by_move[i], r, list) end
            end
        end)

        it(name .. " passes " .. PASS[name] .. "/431 of the strong-solution test on " .. on[2].label, function()
            local ai = mb.ai(name)
            local passed = 0
            for _, list in ipairs(positions) do
                if passes(ai, replay(list, on[2])) then passed = passed + 1 end
            end
            assert.are.equal(PASS[name], passed)
        end)

        it(name .. " plays a candidate, draws once, and leaves the game as it was on " .. on[3].label, function()
            local ai = mb.ai(name)
            for i = 1, #positions, 7 do
                local g = replay(positions[i], on[3])
                local before = snapshot(g)
                mb.seed(i)
                local cand = ai(g, {analyze = true}).candidate
                assert.are.equal(0, mb.draws())
                local m = ai(g)
                assert.are.equal(before, snapshot(g))
                -- the wrapper's one choice over the candidates, even a single one
                mb.seed(i)
                assert.are.equal(mb.choice(cand), m)
                local draws = mb.draws()
                mb.seed(i)
                ai(g)
                assert.are.equal(draws, mb.draws())
                assert.are.equal(cand[1], ai(g, {rand = false}))
            end
        end)
    end

end)

helpers.each_backend(function(bk)
    describe("the series' quirks on " .. bk.label, function()
        it("ai6 and ai7 cannot see o's win at move 4: all 6 moves after o(0,0) x(1,1) o(1,0)", function()
            local g = replay({{0, 0}, {1, 1}, {1, 0}}, bk)
            local legal = g:calc_legal_moves()
            assert.are.equal(6, #legal)
            assert.are.same(legal, mb.ai("ai6")(g, {analyze = true}).candidate)
            assert.are.same(legal, mb.ai("ai7")(g, {analyze = true}).candidate)
            -- a block at move 5 is seen: after o(0,0) x(1,1) o(2,2) x(1,0), o blocks (1,2)
            local h = replay({{0, 0}, {1, 1}, {2, 2}, {1, 0}}, bk)
            assert.are.same({h:xy_to_move(1, 2)}, mb.ai("ai6")(h, {analyze = true}).candidate)
        end)

        it("ai5 returns the first winning move only, ai5s ties all of them", function()
            -- o on (0,0) (2,2) (0,2), x on (1,0) (2,0) (1,2), o to move: o wins on (0,1)
            -- (column 0) and on (1,1) (diagonal)
            local g = replay({{0, 0}, {1, 0}, {2, 2}, {2, 0}, {0, 2}, {1, 2}}, bk)
            local ai5 = mb.ai("ai5")(g, {analyze = true}).candidate
            local ai5s = mb.ai("ai5s")(g, {analyze = true}).candidate
            assert.are.same({g:xy_to_move(0, 1)}, ai5)
            assert.are.same({g:xy_to_move(0, 1), g:xy_to_move(1, 1)}, ai5s)
        end)

        it("ai12s, ai13s and ai14s fail the positions o(0,0) x(2,0) and o(0,0) x(2,0) o(1,0)", function()
            for _, list in ipairs({{{0, 0}, {2, 0}}, {{0, 0}, {2, 0}, {1, 0}}}) do
                for _, name in ipairs({"ai12s", "ai13s", "ai14s"}) do
                    assert.is_false(passes(mb.ai(name), replay(list, bk)), name .. " " .. where(list))
                end
            end
        end)
    end)

    describe("seeded games (ais.md §11.1) on " .. bk.label, function()
        it("fresh seed(0), then ai14s/ai2 alternating sides, gives the series' four games", function()
            local want = {
                {{"ai14s", "ai2"}, "o", {{1, 1}, {1, 2}, {0, 2}, {2, 0}, {0, 1}, {2, 2}, {2, 1}}},
                {{"ai2", "ai14s"}, "x", {{1, 2}, {1, 1}, {2, 1}, {2, 2}, {0, 2}, {0, 0}}},
                {{"ai14s", "ai2"}, "o", {{1, 1}, {2, 0}, {0, 0}, {1, 2}, {2, 2}}},
                {{"ai2", "ai14s"}, "x", {{2, 2}, {1, 1}, {2, 0}, {2, 1}, {0, 0}, {0, 1}}},
            }
            local g = bk.new()
            mb.seed(0)
            for _, w in ipairs(want) do
                local status = mb.play{ai = w[1], game = g}
                assert.are.equal(w[2], status)
                local records = g.records
                assert.are.same(moves_of(g, w[3]), {table.unpack(records, 1, #records)})
            end
        end)
    end)

    describe("parameters on " .. bk.label, function()
        -- o(0,0) x(0,1) o(1,0) x(1,1): o to move wins on (2,0)
        local list = {{0, 0}, {0, 1}, {1, 0}, {1, 1}}
        it("are read per call: ai14s with score_victory = 1000 scores a win 1000", function()
            local g = replay(list, bk)
            local win = g:xy_to_move(2, 0)
            local ai = mb.ai("ai14s")
            assert.are.equal(300, ai(g, {analyze = true}).score_by_move[win])
            assert.are.equal(1000, ai(g, {analyze = true, score_victory = 1000}).score_by_move[win])
            assert.are.equal(300, ai(g, {analyze = true}).score_by_move[win])
        end)

        it("override the positional weights of ai11s..ai14s", function()
            local g = replay({{1, 1}, {0, 0}}, bk) -- o to move; no child is won or special
            for _, name in ipairs({"ai11s", "ai12s", "ai13s", "ai14s"}) do
                local ai = mb.ai(name)
                local a = ai(g, {analyze = true})
                local b = ai(g, {analyze = true, score_201 = 20, score_102 = 5, score_012 = -10})
                local differs = false
                for _, m in ipairs(a.moves) do differs = differs or a.score_by_move[m] ~= b.score_by_move[m] end
                assert.is_true(differs, name)
            end
        end)

        it("override score_defeat, score_special and score_sure_victory", function()
            -- o(0,0) x(1,1) o(1,0), x plays (0,1): o keeps its open two on row 0
            local g = replay({{0, 0}, {1, 1}, {1, 0}}, bk)
            local m = g:xy_to_move(0, 1)
            assert.are.equal(-7, mb.ai("ai12s")(g, {analyze = true, score_defeat = -7}).score_by_move[m])
            assert.are.equal(-7, mb.ai("ai13s")(g, {analyze = true, score_defeat = -7}).score_by_move[m])
            local d = mb.ai("ai14s")(g, {analyze = true}).score_by_move[m]
            assert.are.equal(d + 93, mb.ai("ai14s")(g, {analyze = true, score_defeat = -7}).score_by_move[m])
            -- SPECIAL: o(0,0) x(1,1) o(2,2); x on any edge scores score_special
            local s = replay({{0, 0}, {1, 1}, {2, 2}}, bk)
            local edges = {s:xy_to_move(1, 0), s:xy_to_move(0, 1), s:xy_to_move(2, 1), s:xy_to_move(1, 2)}
            for _, name in ipairs({"ai12s", "ai13s", "ai14s"}) do
                local r = mb.ai(name)(s, {analyze = true, score_special = 42})
                for _, e in ipairs(edges) do assert.are.equal(42, r.score_by_move[e], name) end
                assert.are.same(edges, r.candidate, name)
            end
            -- a fork: o(0,0) x(1,0) o(2,2) x(2,0), o plays (0,2): open twos on column 0 and row 2
            local f = replay({{0, 0}, {1, 0}, {2, 2}, {2, 0}}, bk)
            local fork = f:xy_to_move(0, 2)
            for _, name in ipairs({"ai12s", "ai13s", "ai14s"}) do
                assert.are.equal(200, mb.ai(name)(f, {analyze = true}).score_by_move[fork], name)
                local r = mb.ai(name)(f, {analyze = true, score_sure_victory = 77})
                assert.are.equal(77, r.score_by_move[fork], name)
            end
        end)
    end)

    describe("calc_score on " .. bk.label, function()
        it("ai14s gives +300/-300/0 at game ends with minimax", function()
            local ai = mb.ai("ai14s")
            local o_won = replay({{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}}, bk)
            assert.are.equal(300, ai(o_won, {calc_score = true}))
            assert.are.equal(300, ai(o_won, {calc_score = true, minimax = true}))
            local x_won = replay({{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 2}, {2, 1}}, bk)
            assert.are.equal(300, ai(x_won, {calc_score = true}))
            assert.are.equal(-300, ai(x_won, {calc_score = true, minimax = true}))
            local draw = replay({{0, 0}, {1, 1}, {2, 2}, {1, 0}, {1, 2}, {0, 2}, {2, 0}, {2, 1}, {0, 1}}, bk)
            assert.are.equal("draw", draw.status)
            assert.are.equal(0, ai(draw, {calc_score = true}))
        end)
    end)

    describe("other boards on " .. bk.label, function()
        it("the others play whole games on 4x4 and 5x5 with k = 3 and k = 4", function()
            local all = {"ai1", "ai2", "ai5", "ai6", "ai1s", "ai2s", "ai5s", "ai6s", "ai12s", "ai13s", "ai14s"}
            for _, opts in ipairs({{width = 4, height = 4, k = 3}, {width = 5, height = 5, k = 4}}) do
                mb.seed(1)
                for _, name in ipairs(all) do
                    local g = bk.new(opts)
                    local status = mb.play{ai = {name, "ai2"}, game = g}
                    assert.are_not.equal("playing", status)
                end
            end
            mb.seed(1)
            local g = bk.new{width = 5, height = 5, k = 4}
            for _, name in ipairs({"ai3", "ai4", "ai7", "ai7s", "ai11s"}) do
                assert.are_not.equal("playing", mb.play{ai = {"ai2", name}, game = g})
            end
        end)

        it("ai6 sees a k = 4 win only from move 2k - 1 = 7", function()
            local function game_of(list)
                local g = bk.new{width = 5, height = 5, k = 4}
                for _, xy in ipairs(list) do g:move(g:xy_to_move(xy[1], xy[2])) end
                return g
            end
            -- o on (0,0) (1,0) (2,0) wins on (3,0); x to move, that win would be move 6: unseen
            local g = game_of({{0, 0}, {0, 4}, {1, 0}, {1, 4}, {2, 0}})
            assert.are.same(g:calc_legal_moves(), mb.ai("ai6")(g, {analyze = true}).candidate)
            -- o to move after x(4,4): its own win is move 7, seen
            g:move(g:xy_to_move(4, 4))
            assert.are.same({g:xy_to_move(3, 0)}, mb.ai("ai6")(g, {analyze = true}).candidate)
            -- x to move at move 8 blocks it
            g = game_of({{0, 0}, {0, 4}, {1, 0}, {1, 4}, {4, 2}, {4, 4}, {2, 0}})
            assert.are.same({g:xy_to_move(3, 0)}, mb.ai("ai6")(g, {analyze = true}).candidate)
        end)
    end)

    describe("mb.rules, the pieces the AIs share on " .. bk.label, function()
        local rules = mb.rules
        it("patterns: the indexes of (0,k-1,1) (k-1,0,1) (1,0,k-1) (0,1,k-1), as count_markpats counts them", function()
            for k = 1, 5 do
                assert.are.same({mb.markpat_index(0, k - 1, k), mb.markpat_index(k - 1, 0, k),
                    mb.markpat_index(1, 0, k), mb.markpat_index(0, 1, k)}, {rules.patterns(k)})
            end
            mb.seed(7)
            for _, opts in ipairs({{}, {width = 5, height = 5, k = 4}, {width = 4, height = 4, k = 3}}) do
                local g = bk.new(opts)
                local k = g.k
                while g.status == "playing" do
                    local c = g:count_markpats()
                    assert.are.same({c[("0,%d,1"):format(k - 1)], c[("%d,0,1"):format(k - 1)],
                        c[("1,0,%d"):format(k - 1)], c[("0,1,%d"):format(k - 1)]},
                        {g:markpats(rules.patterns(k))})
                    g:move(mb.choice(g:calc_legal_moves()))
                end
            end
        end)

        it("special: x's edge reply to o's opposite corners, on 3x3 only", function()
            assert.is_true(rules.special(replay({{0, 0}, {1, 1}, {2, 2}, {1, 0}}, bk)))
            assert.is_true(rules.special(replay({{2, 0}, {1, 1}, {0, 2}, {2, 1}}, bk)))
            assert.is_false(rules.special(replay({{0, 0}, {1, 1}, {2, 2}, {2, 0}}, bk)))
            assert.is_false(rules.special(replay({{0, 0}, {1, 1}, {2, 1}, {1, 0}}, bk)))
            assert.is_false(rules.special(replay({{0, 0}, {1, 1}, {2, 2}}, bk)))
            assert.is_false(rules.special(bk.new{width = 5, height = 5, k = 3}))
        end)

        it("special: the series' square-by-square rule on every 4-move position", function()
            -- rules.special reads the bit planes; the series reads the squares
            local function series_special(g)
                if g.move_count ~= 4 then return false end
                local function is(x, y, mark) return g:getmark(x, y) == mark end
                return is(1, 1, "x") and ((is(0, 0, "o") and is(2, 2, "o")) or (is(2, 0, "o") and is(0, 2, "o")))
                    and (is(1, 0, "x") or is(0, 1, "x") or is(2, 1, "x") or is(1, 2, "x"))
            end
            local g, seen, held = bk.new(), 0, 0
            local function walk(depth)
                if depth == 4 then
                    seen = seen + 1
                    local s = rules.special(g)
                    if s then held = held + 1 end
                    assert.are.equal(series_special(g), s)
                    return
                end
                for m in g:children() do walk(depth + 1) end
            end
            walk(0)
            assert.are.same({3024, 32}, {seen, held})
        end)

        it("winning_move: the first winning move, none before move 2k - 1", function()
            local g = replay({{0, 0}, {1, 1}, {1, 0}}, bk)
            assert.is_nil(rules.winning_move(g, "o", g:calc_legal_moves()))
            g:move(g:xy_to_move(2, 2))
            assert.are.equal(g:xy_to_move(2, 0), rules.winning_move(g, "o", g:calc_legal_moves()))
            assert.is_nil(rules.winning_move(g, "x", g:calc_legal_moves()))
        end)
    end)

    describe("ai_by_score's loop over the children (in C) on " .. bk.label, function()
        -- a rule that scores the square number: the best is the last legal move
        local function by_square(game) return game.last_move end
        it("scores every legal move in order and keeps the ties", function()
            local ai = mb.ai_by_score(function(game) return game.last_move % 3 end, "mod3")
            local g = bk.new()
            g:move(4)
            local a = ai(g, {analyze = true})
            assert.are.same({2, 5, 8}, a.candidate)
            assert.are.equal(2, a.score)
            assert.are.same(g:calc_legal_moves(), a.moves) -- y outer, x inner
            assert.are.same({0, 3, 6, 1, 7, 2, 5, 8}, a.moves)
            for _, m in ipairs(a.moves) do assert.are.equal(m % 3, a.score_by_move[m]) end
            assert.are.equal(8, mb.ai_by_score(by_square, "sq")(g, {rand = false}))
            -- an integer and a float of one value tie, as Lua's == says
            local mixed = mb.ai_by_score(function(game) return game.last_move == 0 and 1 or 1.0 end, "mixed")
            assert.are.same(g:calc_legal_moves(), mixed(g, {analyze = true}).candidate)
            assert.are.equal(1, g.move_count)
        end)

        it("gives the game back when the rule raises or returns no number", function()
            local g = bk.new()
            g:move(4)
            g:move(0)
            local records = g.records
            local function fails(rule, pattern)
                local ok, err = pcall(mb.ai_by_score(rule, "bad"), g)
                assert.is_false(ok)
                assert.matches(pattern, tostring(err))
                assert.are.equal(2, g.move_count)
                assert.are.equal(0, g.last_move)
                assert.are.equal("o", g.turn)
                assert.are.same({[0] = -1, 4, 0}, g.records)
                assert.are.equal(records, g.records)
            end
            fails(function(game) if game.last_move == 5 then error("boom at 5") end return 0 end,
                "boom at 5")
            fails(function(game) if game.last_move == 3 then return nil end return 0 end,
                "attempt to compare")
            -- a rule that moves the game is stopped; the game stays as it left it
            local ok, err = pcall(mb.ai_by_score(function(game)
                game:move(game:calc_legal_moves()[1])
                return 0
            end, "mover"), g)
            assert.is_false(ok)
            assert.matches("the game was changed inside the loop", err)
            assert.are.equal(4, g.move_count)
        end)

        it("nests: a rule that makes decisions itself, on the same game, after an error", function()
            -- the loop state is kept from call to call; a nested loop gets its own
            local inner = mb.ai_by_score(by_square, "sq")
            local outer = mb.ai_by_score(function(game) return -inner(game, {rand = false}) end, "nest")
            local g = bk.new()
            g:move(4)
            local expected = {}
            for m in g:children() do
                local best = -1
                for c in g:children() do best = math.max(best, c) end -- by_square's choice
                expected[m] = -best
            end
            local before = outer(g, {analyze = true})
            assert.are.same(expected, before.score_by_move)
            assert.are.same({8}, before.candidate) -- the one child whose best reply is not 8
            assert.is_false(pcall(mb.ai_by_score(function() error("boom") end, "bad"), g))
            local after = outer(g, {analyze = true})
            assert.are.same(before, after)
            assert.are_not.equal(before.candidate, after.candidate) -- a new list each time
            assert.are.equal(8, outer(g, {rand = false}))
            assert.are.same({[0] = -1, 4}, g.records)
        end)
    end)
end)

describe("parameters", function()
    -- o(0,0) x(0,1) o(1,0) x(1,1): o to move wins on (2,0)
    local list = {{0, 0}, {0, 1}, {1, 0}, {1, 1}}
    it("are never written to", function()
        local g = replay(list)
        for _, name in ipairs(AIS) do
            local p = {analyze = true, score_victory = 5, score_201 = 3}
            local copy = {}
            for k, v in pairs(p) do copy[k] = v end
            mb.ai(name).fn(g, p) -- fn itself: ai(g, p) refuses keys the AI does not take
            mb.ai(name)(g, frozen({}))
            assert.are.same(copy, p, name)
        end
    end)
end)

describe("unknown parameters", function()
    it("are refused by every built-in AI, with the known ones listed", function()
        local g = mb.Marubatsu()
        local ok, err = pcall(mb.ai("ai14s"), g, {score_victry = 1})
        assert.is_false(ok)
        assert.matches("AI ai14s: unknown parameter 'score_victry' %(known: analyze, calc_score, debug, "
            .. "minimax, rand, score_012, score_102, score_201, score_defeat, score_special, "
            .. "score_sure_victory, score_victory%)", err)
        ok, err = pcall(mb.ai("ai2"), g, {depth = 3})
        assert.is_false(ok)
        assert.matches("AI ai2: unknown parameter 'depth' %(known: analyze, debug, rand%)", err)
        ok, err = pcall(mb.ai("ai_abs_dls"), g, {maxdepht = 3})
        assert.is_false(ok)
        assert.matches("AI ai_abs_dls: unknown parameter 'maxdepht' %(known: analyze, calc_score, "
            .. "debug, eval, eval_func, eval_params, maxdepth, rand, share_tt, timelimit, use_tt%)", err)
        ok, err = pcall(mb.ai("ai_abs"), g, {use_t = true})
        assert.is_false(ok)
        assert.matches("unknown option", err)
        for _, name in ipairs {"ai1", "ai7", "ai1s", "ai13s", "ai_pvs_dls", "ai_ab_iddfs", "ai_pvs_iddfs"} do
            assert.is_false(pcall(mb.ai(name), g, {no_such_parameter = 1}), name)
        end
        -- known keys pass, and an AI without a list (a user's) takes anything
        assert.is_number(mb.ai("ai14s")(g, {score_victory = 5, rand = false}))
        assert.is_number(mb.ai(function(game) return 0 end)(g, {anything = 1}))
    end)

    it("are refused by the matches before the first game", function()
        local ok, err = pcall(mb.ai_match, {ai = {"ai2", "ai14s"}, params = {{}, {score_victry = 1}},
            match_num = 1, quiet = true})
        assert.is_false(ok)
        assert.matches("AI ai14s: unknown parameter 'score_victry'", err)
    end)

    it("reach ai_abs_dls's evaluator as the series passes them (eval_func, eval_params)", function()
        local r = mb.ai("ai_abs_dls")(mb.Marubatsu(), {maxdepth = 8, use_tt = true, analyze = true,
            rand = false, eval_func = mb.ai("ai14s"), eval_params = {minimax = true}})
        assert.are.equal(1175, r.count)
        assert.are.equal(0, r.score)
        -- eval_params reach eval_func: with score_201 = 20 instead of 2 the
        -- corner's maxdepth-2 score (1.0 by default) changes
        r = mb.ai("ai_abs_dls")(mb.Marubatsu(), {maxdepth = 2, use_tt = true, analyze = true,
            eval_func = mb.ai("ai14s"), eval_params = {minimax = true}})
        assert.are.equal(1.0, r.score_by_move[0])
        r = mb.ai("ai_abs_dls")(mb.Marubatsu(), {maxdepth = 2, use_tt = true, analyze = true,
            eval_func = mb.ai("ai14s"), eval_params = {minimax = true, score_201 = 20}})
        assert.are.equal(19.0, r.score_by_move[0])
    end)
end)

describe("other boards", function()
    it("the centre rules need odd sides and say so", function()
        local g = mb.Marubatsu{width = 4, height = 4, k = 3}
        for _, name in ipairs({"ai3", "ai3s", "ai4", "ai4s", "ai7", "ai7s", "ai8s", "ai9s", "ai10s", "ai11s"}) do
            local ok, err = pcall(mb.ai(name), g)
            assert.is_false(ok, name)
            assert.are.equal(name .. ": the centre rule needs odd width and height (board is 4x4)", err)
            assert.are.equal(0, g.move_count, name)
        end
    end)
end)

describe("mb.rules, the pieces the AIs share", function()
    local rules = mb.rules
    it("centre: the middle square of odd sides, else an error naming the AI", function()
        assert.are.equal(mb.move("B2"), rules.centre(mb.Marubatsu(), "ai3"))
        local g = mb.Marubatsu{width = 5, height = 3, k = 3}
        assert.are.equal(g:xy_to_move(2, 1), rules.centre(g, "ai3"))
        local ok, err = pcall(rules.centre, mb.Marubatsu{width = 4, height = 5, k = 3}, "mine")
        assert.is_false(ok)
        assert.are.equal("mine: the centre rule needs odd width and height (board is 4x5)", err)
    end)

    it("corners in reading order, and is_corner", function()
        local g = mb.Marubatsu{width = 4, height = 3, k = 3}
        local want = {g:xy_to_move(0, 0), g:xy_to_move(3, 0), g:xy_to_move(0, 2), g:xy_to_move(3, 2)}
        assert.are.same(want, rules.corners(g))
        local corner = {}
        for _, m in ipairs(want) do corner[m] = true end
        for m = 0, 11 do assert.are.equal(corner[m] == true, rules.is_corner(g, m), m) end
        assert.is_false(rules.is_corner(g, -1))
    end)

    it("positional: score_201 for one open two, plus score_102 and score_012 per single", function()
        assert.are.equal(2 + 3 * 0.5 - 2, rules.positional(mb.NO_PARAMS, 1, 3, 2))
        assert.are.equal(0.5, rules.positional(mb.NO_PARAMS, 2, 1, 0))
        assert.are.equal(10 + 3 - 4, rules.positional({score_201 = 10, score_102 = 1,
            score_012 = -2}, 1, 3, 2))
    end)
end)

describe("ai_by_score's loop over the children (in C)", function()
    it("keeps no game in its loop state between calls (reached through debug: refused)", function()
        local kept
        local ai = mb.ai_by_score(function(game)
            for i = 1, 12 do -- the C frame of the loop, one level up
                local _, v = debug.getlocal(2, i)
                if type(v) == "userdata" and tostring(v):find("Children", 1, true) then kept = v end
            end
            return 0
        end, "peek")
        local g = mb.Marubatsu()
        ai(g)
        assert.is_not_nil(kept)
        assert.has_error(function() (g:children())(kept) end, "children: this loop is not running")
        assert.are.equal(0, g.move_count)
    end)
end)
