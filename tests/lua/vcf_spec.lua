-- vcf_spec.lua: mb.vcf and mb.vct (the threat search of vcf.h) from Lua:
-- the winning line of hand-made positions as a list of moves that
-- replays to the attacker's win, nil where there is none (the empty
-- board, the side without threats), the exact rule refusing a win by an
-- overline, "time out" from timelimit, option errors; on random 5x5 k4
-- positions every win found is confirmed by mb.solve; and the αβ
-- searchers' vcf option: a win 11 plies deep found from maxdepth 2 (the
-- plain search scores 5.5), the same counts when it is off. mb.vcf and
-- mb.vct on every back-end; the option errors and the searchers' option
-- (its searches run on every back-end in search_spec) once.
local mb = require "marubatsu"

local helpers = dofile("tests/lua/helpers.lua")

-- play the line on a copy: legal moves, the last one wins for the mover
local function wins(g, line)
    local c, me = g:copy(), g.turn
    for _, m in ipairs(line) do
        if c.status ~= "playing" or c:getmark_by_move(m) ~= "." then return false end
        c:move(m)
    end
    return c.status == me
end

-- o: A1 B1 C1 along row 1 and D2 D3 D4 down column D; x scattered
local FORK = "A1,I9,B1,G7,C1,I5,D2,E9,D3,G3,D4,C7"

helpers.each_backend(function(bk)
    describe("mb.vcf on " .. bk.label, function()
        it("finds the double four and its line replays", function()
            local g = bk.game_of(FORK, {width = 9, height = 9, k = 5})
            local line = mb.vcf(g)
            assert.are.same({"D1", "E1", "D5"}, {g:excel(line[1]), g:excel(line[2]), g:excel(line[3])})
            assert.is_true(wins(g, line))
            assert.are.equal(12, g.move_count) -- the game is only read
        end)

        it("gives nil without a win: the empty board, the side without threats", function()
            assert.is_nil(mb.vcf(bk.new{width = 15, height = 15, k = 5}))
            local g = bk.game_of(FORK .. ",H8", {width = 9, height = 9, k = 5})
            g:unmove()
            g:move(mb.move("E5", g)) -- o plays elsewhere: x to move has nothing
            assert.is_nil(mb.vcf(g))
            assert.is_nil(mb.vct(g, {maxdepth = 2}))
        end)

        it("keeps to the rule: under exact, six in a row is no win", function()
            -- o: A1 B1 C1 D1 and F1; E1 makes six
            local moves = "A1,I9,B1,G7,C1,I5,D1,E9,F1,G3"
            local free = mb.vcf(bk.game_of(moves, {width = 9, height = 9, k = 5}))
            assert.are.same({mb.move("E1", bk.new{width = 9, height = 9})}, free)
            local g = bk.game_of(moves, {width = 9, height = 9, k = 5, rule = "exact"})
            local line = mb.vcf(g)
            if line then
                assert.are_not.equal("E1", g:excel(line[1]))
                assert.is_true(wins(g, line))
            end
        end)

        it("stops at timelimit: nil, 'time out'", function()
            local g = bk.new{width = 15, height = 15, k = 4}
            local seed = 7
            while g.move_count < 20 do
                seed = (seed * 1103515245 + 12345) % 2147483648
                local m = seed % 225
                if g:getmark_by_move(m) == "." then
                    g:move(m)
                    if g.status ~= "playing" or mb.vcf(g, {maxdepth = 1}) then g:unmove() end
                end
            end
            local line, why = mb.vct(g, {maxdepth = 60, timelimit = 0.05})
            assert.is_nil(line)
            assert.are.equal("time out", why)
        end)
    end)

    describe("mb.vct on " .. bk.label, function()
        it("finds more than VCF on random 5x5 k4 positions, every win confirmed by mb.solve", function()
            mb.seed(4)
            local found = {vcf = 0, vct = 0}
            for _ = 1, 40 do
                local g = helpers.random_moves(bk.new{width = 5, height = 5, k = 4}, mb.randint(4, 10))
                if g.status == "playing" then
                    for name, fn in pairs{vcf = mb.vcf, vct = mb.vct} do
                        local line = fn(g, {maxdepth = 3})
                        if line then
                            found[name] = found[name] + 1
                            assert.is_true(wins(g, line))
                            local want = g.turn == "o" and "first player wins" or "second player wins"
                            assert.are.equal(want, mb.solve(g).value)
                        end
                    end
                end
            end
            assert.is_true(found.vct >= found.vcf and found.vcf > 5)
        end)
    end)
end)

describe("mb.vcf", function()
    it("rejects bad options, naming the known ones", function()
        local g = mb.Marubatsu()
        assert.has_error(function() mb.vcf(g, {depth = 3}) end,
            "vcf: unknown option 'depth' (known: maxdepth, timelimit)")
        assert.has_error(function() mb.vct(g, {maxdepth = 0}) end,
            "vct: option 'maxdepth' must be an integer from 1 to 60")
        assert.has_error(function() mb.vcf(g, {timelimit = -1}) end,
            "vcf: option 'timelimit' must be a positive number of seconds")
        assert.has_error(function() mb.vcf({}) end)
    end)
end)

describe("the searchers' vcf option", function()
    -- (on the default back-end: the slowest case here, seconds under the
    -- sanitizers) seed 25: a 9x9 k5 position after 22 random moves, o to move, with a
    -- VCF of 11 moves
    local function position()
        mb.seed(25)
        return helpers.random_moves(mb.Marubatsu{width = 9, height = 9, k = 5}, mb.randint(16, 30))
    end

    it("sees a VCF win beyond maxdepth", function()
        local g = position()
        assert.are.equal(22, g.move_count)
        assert.are.equal(11, #mb.vcf(g))
        local plain = mb.search_abs_dls(g, {maxdepth = 2, analyze = true, rand = false})
        local off = mb.search_abs_dls(g, {maxdepth = 2, analyze = true, rand = false, vcf = false})
        local on = mb.search_abs_dls(g, {maxdepth = 2, analyze = true, rand = false, vcf = true})
        assert.are.equal(5.5, plain.score)
        assert.are.same({plain.score, plain.count, plain.bestmove}, {off.score, off.count, off.bestmove})
        assert.are.equal(300, on.score)
        local pvs = mb.search_pvs_dls(g, {maxdepth = 2, analyze = true, rand = false, vcf = 12})
        assert.are.equal(300, pvs.score)
        -- iterative deepening takes it too (3x3: every depth completes)
        local it = mb.search_iddfs(mb.Marubatsu(), {analyze = true, rand = false, vcf = true})
        assert.are.equal(9, #it)
        assert.are.equal(0, it[#it].score)
        assert.are.equal(22, g.move_count)
    end)

    it("rejects a bad vcf option", function()
        assert.has_error(function() mb.search_abs_dls(mb.Marubatsu(), {vcf = 0}) end,
            "search_abs_dls: option 'vcf' must be a boolean or an integer from 1 to 60 (fours)")
    end)
end)
