-- journal_check_spec.lua: every refusal of the journal check that reads a
-- tournament's journal back (--resume, merge), each met by a journal edited
-- by hand the way a person or a bug would: a move of the pair's opening
-- changed (the last one, swapped with a later move of the same side so the
-- game stays legal), a game missing its opening, a move after the game
-- ended, a forfeit after the game ended, a forfeit given to the side that
-- was to move, a game of another shard, a game past the schedule, a move
-- off the board and on an occupied square, moves that end otherwise than
-- the line says, a game left unfinished without a reason; with and without
-- openings, in a shard and under a time control. Each refusal names
-- journal.tsv:LINE and the game, and the untouched journal resumes.
-- All on the default back-end: tournaments are slow, and what the check does
-- with a board (moves, judging) api_spec checks on every back-end.
-- helpers.lua requires marubatsu first: marubatsu.host is then this
-- module's host library (busted gives each spec file a fresh package.loaded,
-- so the marubatsu of the previous spec file would otherwise still hold it, and the
-- tournaments' trusted players would draw from that module's stream)
local helpers = dofile("tests/lua/helpers.lua")
local host = require "marubatsu.host"
local newdir = helpers.dir_maker()

local read, write = helpers.read_file, helpers.write_file
local fields = helpers.fields -- a journal line's fields

local function run(t)
    t.quiet, t.progress = true, false
    return host.tournament(t)
end

-- edit(dir, n, fn): fn(f) changes the fields of the n-th game line of
-- dir's journal in place
local function edit(dir, n, fn)
    local path = dir .. "/journal.tsv"
    local out, seen = {}, 0
    for line in read(path):gmatch("[^\n]+") do
        if line:sub(1, 2) == "G\t" then
            seen = seen + 1
            if seen == n then
                local f = fields(line)
                fn(f)
                line = table.concat(f, "\t")
            end
        end
        out[#out + 1] = line
    end
    write(path, table.concat(out, "\n") .. "\n")
end

-- the n-th game line's fields
local function game_line(dir, n)
    local seen = 0
    for line in read(dir .. "/journal.tsv"):gmatch("[^\n]+") do
        if line:sub(1, 2) == "G\t" then
            seen = seen + 1
            if seen == n then return fields(line) end
        end
    end
end

-- The journal of dir is refused on resume (and by merge) with `pattern`
-- (plain text) after journal.tsv:LINE: game N:
local function refused(t, dir, pattern)
    local copy = {}
    for k, v in pairs(t) do copy[k] = v end
    copy.out, copy.resume = dir, true
    local ok, err = pcall(run, copy)
    assert.is_false(ok, "resumed an edited journal")
    err = tostring(err)
    assert.is_truthy(err:find("journal.tsv:%d+: game %d+: "), err)
    assert.is_truthy(err:find(pattern, 1, true), err)
    if not t.shard then
        ok, err = pcall(host.tournament_merge, {dirs = {dir}, quiet = true})
        assert.is_false(ok)
        assert.is_truthy(tostring(err):find(pattern, 1, true), tostring(err))
    end
end

-- a player that loses every game by raising
local function failing() error("no move", 0) end

local OPENED = {players = {"ai2", "ai3"}, games = 4, seed = 5, jobs = 1, openings = {"B2,A1"}}
local PLAIN = {players = {"ai2", "ai3"}, games = 4, seed = 5, jobs = 1}

local function fresh(t)
    local dir = newdir()
    local copy = {}
    for k, v in pairs(t) do copy[k] = v end
    copy.out = dir
    run(copy)
    return dir
end

-- squares of a game line
local function moves_of(f)
    local list = {}
    for sq in f[8]:gmatch("[^,]+") do list[#list + 1] = sq end
    return list
end

describe("the journal check refuses", function()
    it("the last move of the pair's opening changed (swapped with a later move of its side)", function()
        local dir = fresh(OPENED)
        local f = game_line(dir, 1)
        local m = moves_of(f)
        assert.are.equal("B2", m[1])
        assert.are.equal("A1", m[2])
        assert.is_true(#m >= 4)
        edit(dir, 1, function(g)
            m[2], m[4] = m[4], m[2]
            g[8] = table.concat(m, ",")
        end)
        refused(OPENED, dir, ("move 2 is %s, but the pair's opening plays A1 there"):format(m[2]))
    end)

    it("the first move of the opening changed", function()
        local dir = fresh(OPENED)
        local m = moves_of(game_line(dir, 2))
        edit(dir, 2, function(g)
            m[1], m[3] = m[3], m[1]
            g[8] = table.concat(m, ",")
        end)
        refused(OPENED, dir, ("move 1 is %s, but the pair's opening plays B2 there"):format(m[1]))
    end)

    it("a forfeit before the opening was played out", function()
        local t = {players = {"ai2", {name = "failing", ai = failing}}, games = 2, seed = 5, jobs = 1,
            openings = {"B2,A1,C3"}}
        local dir = fresh(t)
        -- failing (x in one game of the pair) lost at move 4; cut its moves to one
        local n = game_line(dir, 1)[9] == "o" and 1 or 2
        edit(dir, n, function(g) g[8] = "B2" end)
        refused(t, dir, "its moves do not start with the pair's opening")
    end)

    it("a move after the game ended", function()
        local dir = fresh(PLAIN)
        local f = game_line(dir, 1)
        assert.are.equal("", f[10])
        local played = {}
        for _, sq in ipairs(moves_of(f)) do played[sq] = true end
        local extra
        for _, sq in ipairs({"A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"}) do
            if not played[sq] then extra = sq end
        end
        assert.is_truthy(extra, "the first game filled the board; pick another seed")
        local n = #moves_of(f)
        edit(dir, 1, function(g) g[8] = g[8] .. "," .. extra end)
        refused(PLAIN, dir, ("move %d (%s) comes after the game ended in"):format(n + 1, extra))
    end)

    it("a forfeit after the game ended", function()
        local dir = fresh(PLAIN)
        edit(dir, 1, function(g) g[10] = "time" end)
        refused(PLAIN, dir, "a forfeit after the game ended in")
    end)

    it("a forfeit given to the side that was to move", function()
        local t = {players = {"ai2", {name = "failing", ai = failing}}, games = 2, seed = 5, jobs = 1}
        local dir = fresh(t)
        local f = game_line(dir, 1)
        assert.are.equal("error: no move", f[10])
        local loser = f[9] == "o" and "x" or "o"
        edit(dir, 1, function(g) g[9] = loser end)
        refused(t, dir, "forfeited (it was to move), so the result is")
    end)

    it("the same forfeit under a time control", function()
        local t = {players = {"ai2", {name = "failing", ai = failing}}, games = 2, seed = 5, jobs = 1,
            move_time = 5}
        local dir = fresh(t)
        local f = game_line(dir, 2)
        edit(dir, 2, function(g) g[9] = f[9] == "o" and "x" or "o" end)
        refused(t, dir, "forfeited (it was to move), so the result is")
    end)

    it("a game of another shard", function()
        local t = {players = {"ai2", "ai3"}, games = 4, seed = 5, jobs = 1, shard = "1/2"}
        local dir = fresh(t)
        edit(dir, 1, function(g) g[2] = "2" end)
        refused(t, dir, "game 2: not a game of shard 1/2")
    end)

    it("a game past the schedule", function()
        local dir = fresh(PLAIN)
        edit(dir, 1, function(g) g[2] = "99" end)
        refused(PLAIN, dir, "not in the schedule, which has 4 games")
    end)

    it("a move off the board and a move on an occupied square", function()
        local dir = fresh(PLAIN)
        edit(dir, 1, function(g) g[8] = g[8]:gsub("^[^,]+", "D9") end)
        refused(PLAIN, dir, "move 1 (D9) is off the 3x3 board")
        dir = fresh(PLAIN)
        local m = moves_of(game_line(dir, 1))
        edit(dir, 1, function(g)
            m[2] = m[1]
            g[8] = table.concat(m, ",")
        end)
        refused(PLAIN, dir, ("move 2 (%s) is on an occupied square"):format(m[1]))
    end)

    it("moves that end otherwise than the line says, and an unfinished game", function()
        local dir = fresh(PLAIN)
        local f = game_line(dir, 1)
        edit(dir, 1, function(g) g[9] = f[9] == "draw" and "o" or "draw" end)
        refused(PLAIN, dir, "its moves end in")
        dir = fresh(PLAIN)
        edit(dir, 1, function(g) g[8] = g[8]:match("^[^,]+,[^,]+") end)
        refused(PLAIN, dir, "the game is not over after its moves, and no forfeit reason is given")
    end)

    it("nothing in an untouched journal, which resumes to the same results", function()
        for _, t in ipairs({OPENED, PLAIN}) do
            local dir = fresh(t)
            local before = read(dir .. "/results.json")
            local copy = {}
            for k, v in pairs(t) do copy[k] = v end
            copy.out, copy.resume = dir, true
            run(copy)
            assert.are.equal(before, read(dir .. "/results.json"))
        end
    end)
end)
