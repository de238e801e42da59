-- features_spec.lua: the line features, Zobrist keys and candidate moves
-- from Lua (docs/lua-api.md §3.8 "Line features"). On random positions
-- reached by random moves and unmoves, on every back-end with and without
-- count_linemark and on 3x3, 4x4 k3, 7x7 k5, 15x15 k5, 20x20 k5 and 5x8 k4:
-- window_counts / window_count equal a recount written here from getmark,
-- threats equal a brute force written here (runs of marks through each
-- empty square), hash is the same for a transposition and changes with
-- every move. Then: candidates (centre, neighbourhood, wins first), the
-- searches' candidates option and "lines" evaluator, a Lua evaluator that
-- reads the features (these also on every back-end but the search over
-- candidates), argument errors, and the methods from a sandbox.
local mb = rawget(_G, "mb") or require "marubatsu"
local helpers = dofile("tests/lua/helpers.lua")

local DIRS = {{1, 0}, {0, 1}, {1, 1}, {1, -1}}

local function mark_at(g, x, y)
    if x < 0 or y < 0 or x >= g.width or y >= g.height then return "off" end
    return g:getmark(x, y)
end

local function run(g, x, y, dx, dy, p)
    local n = 0
    while mark_at(g, x, y) == p do n, x, y = n + 1, x + dx, y + dy end
    return n
end

-- the counts of windows by marks, from the squares
local function recount(g, p)
    local other = p == "o" and "x" or "o"
    local counts = {}
    for j = 1, g.k do counts[j] = 0 end
    for x = 0, g.width - 1 do
        for y = 0, g.height - 1 do
            for _, d in ipairs(DIRS) do
                local ex, ey = x + (g.k - 1) * d[1], y + (g.k - 1) * d[2]
                if mark_at(g, ex, ey) ~= "off" and (g.k > 1 or d[1] == 1 and d[2] == 0) then
                    local mine, theirs = 0, 0
                    for i = 0, g.k - 1 do
                        local m = g:getmark(x + i * d[1], y + i * d[2])
                        if m == p then mine = mine + 1 elseif m == other then theirs = theirs + 1 end
                    end
                    if theirs == 0 and mine > 0 then counts[mine] = counts[mine] + 1 end
                end
            end
        end
    end
    return counts
end

-- win squares (freestyle: k or more) and open k-1 squares, by brute force
local function brute_threats(g, p)
    local wins, opens = {}, {}
    for y = 0, g.height - 1 do
        for x = 0, g.width - 1 do
            if g:getmark(x, y) == "." then
                local win, open = false, false
                for _, d in ipairs(DIRS) do
                    local a = run(g, x + d[1], y + d[2], d[1], d[2], p)
                    local c = run(g, x - d[1], y - d[2], -d[1], -d[2], p)
                    if 1 + a + c >= g.k then win = true end
                    if g.k >= 3 and 1 + a + c == g.k - 1
                        and mark_at(g, x + (a + 1) * d[1], y + (a + 1) * d[2]) == "."
                        and mark_at(g, x - (c + 1) * d[1], y - (c + 1) * d[2]) == "." then
                        open = true
                    end
                end
                if win then wins[#wins + 1] = g:xy_to_move(x, y) end
                if open then opens[#opens + 1] = g:xy_to_move(x, y) end
            end
        end
    end
    return wins, opens
end

local function check(g)
    for _, p in ipairs {"o", "x"} do
        local want = recount(g, p)
        assert.are.same(want, g:window_counts(p))
        for j = 1, g.k do assert.are.equal(want[j], g:window_count(p, j)) end
        local wins, opens = g:threats(p)
        local bw, bo = brute_threats(g, p)
        assert.are.same(bw, wins)
        assert.are.same(bo, opens)
        local nw, no = g:threat_counts(p)
        assert.are.equal(#bw, nw)
        assert.are.equal(#bo, no)
    end
end

-- o's open four D8-G8 (C8 and H8 win), x's three D10-F10 and a stray x on
-- K1; o to move
local function fork(g)
    for _, xy in ipairs {{3, 7}, {3, 9}, {4, 7}, {4, 9}, {5, 7}, {5, 9}, {6, 7}, {10, 0}} do
        g:move(g:xy_to_move(xy[1], xy[2]))
    end
    return g
end

helpers.each_backend(function(bk)
    describe("line features on " .. bk.label, function()
        local shapes = {{3, 3, 3}, {4, 4, 3}, {7, 7, 5}, {15, 15, 5}, {20, 20, 5}, {5, 8, 4}}
        it("equal a recount on random positions", function()
            local r = mb.Random(7)
            for _, s in ipairs(shapes) do
                local g = bk.new {width = s[1], height = s[2], k = s[3]}
                check(g)
                for _ = 1, 24 do
                    if g.status ~= "playing" or (g.move_count > 0 and r:randbelow(4) == 0) then
                        g:unmove()
                    else
                        g:move(r:choice(g:calc_legal_moves()))
                    end
                    check(g)
                end
            end
        end)

        it("hash: a transposition has one key, a move changes it", function()
            local a = bk.new {width = 15, height = 15, k = 5}
            local b = bk.new {width = 15, height = 15, k = 5}
            assert.are.equal(0, a:hash())
            for _, m in ipairs {112, 113, 97} do a:move(m) end
            for _, m in ipairs {97, 113, 112} do b:move(m) end
            assert.are.equal(a:hash(), b:hash())
            local h = a:hash()
            a:unmove()
            assert.are_not.equal(h, a:hash())
            a:move(97)
            assert.are.equal(h, a:hash())
            assert.are.equal(h, a:copy():hash())
            assert.is_true(math.type(h) == "integer")
        end)

        it("candidates: the centre, a mark's neighbourhood, wins first", function()
            local g = bk.new {width = 15, height = 15, k = 5}
            assert.are.same({g:xy_to_move(7, 7)}, g:candidates())
            g:move(g:xy_to_move(0, 0))
            assert.are.equal(3, #g:candidates(1))
            assert.are.equal(8, #g:candidates(2))
            assert.are.equal(8, #g:candidates())
            g:restart()
            fork(g)
            local c = g:candidates(2)
            local first = {c[1], c[2]}
            table.sort(first)
            assert.are.same({g:xy_to_move(2, 7), g:xy_to_move(7, 7)}, first)
            g:move(c[1])
            assert.are.same({}, g:candidates())
        end)

        it("a Lua evaluator reading the features gives the searches' values", function()
            local g = bk.new {width = 9, height = 9, k = 5}
            for _, m in ipairs {40, 41, 31, 49, 50} do g:move(m) end
            local w = {}
            local function eval(game)
                if game.status == "o" then return 1e9 elseif game.status == "x" then return -1e9 end
                local s, f = 0, 1
                local o = game:window_counts("o", w)
                local so = 0
                for j = 1, game.k - 1 do so = so + f * o[j]; f = f * 4 end
                local x = game:window_counts("x", w)
                f = 1
                for j = 1, game.k - 1 do s = s + f * x[j]; f = f * 4 end
                return so - s
            end
            local r1 = mb.search_abs_dls(g, {maxdepth = 1, eval = eval, candidates = 1, analyze = true, rand = false})
            local r2 = mb.search_abs_dls(g, {maxdepth = 1, eval = eval, candidates = 1, analyze = true, rand = false,
                use_tt = true})
            assert.are.equal(r1.score, r2.score)
            assert.are.equal(r1.bestmove, r2.bestmove)
            -- the evaluator saw every leaf's features: the same minimax by hand
            -- (maxdepth 1: one ply below each root child)
            -- (x to move minimises over its candidates, then o maximises)
            assert.are.equal("x", g.turn)
            local best = math.huge
            for _, m in ipairs(g:candidates(1)) do
                g:move(m)
                local reply = -math.huge
                for _, n in ipairs(g:candidates(1)) do
                    g:move(n)
                    reply = math.max(reply, eval(g))
                    g:unmove()
                end
                g:unmove()
                best = math.min(best, reply)
            end
            assert.are.equal(best, r1.score)
        end)
    end)
end)

describe("line features", function()
    it("candidates: the searches take the win with them", function()
        -- on the default back-end: a search on 15x15, seconds under the
        -- sanitizers (search_spec runs the searches on every back-end)
        local g = fork(mb.Marubatsu {width = 15, height = 15, k = 5})
        local c = g:candidates(2)
        assert.are.equal(c[1], mb.search_abs_dls(g, {maxdepth = 2, eval = "lines", candidates = 2, rand = false}))
    end)

    it("checks its arguments", function()
        local g = mb.Marubatsu {width = 7, height = 7, k = 5}
        assert.has_error(function() g:window_counts("z") end)
        assert.has_error(function() g:window_count("o", 6) end)
        assert.has_error(function() g:window_counts("o", 5) end)
        assert.has_error(function() g:candidates(0) end)
        assert.has_error(function() g:candidates(33) end)
        local t = {}
        assert.are.equal(t, g:window_counts("o", t))
    end)

    it("is there for sandboxed scripts", function()
        local dir = os.tmpname()
        os.remove(dir)
        local path = dir .. ".lua"
        local f = assert(io.open(path, "w"))
        f:write([[
return mb.make_ai("feat", function(game)
    local c = game:candidates(2)
    local wins = game:threats(game.turn)
    assert(game:hash() ~= 0 or game.move_count == 0)
    return wins[1] or c[1]
end)
]])
        f:close()
        local p = assert(mb.sandbox.load(path))
        local g = mb.Marubatsu {width = 9, height = 9, k = 5}
        assert.are.equal(g:xy_to_move(4, 4), p:move(g))
        p:close()
        os.remove(path)
    end)
end)
