-- tournament_spec.lua: host.tournament and its pieces. Checks: the schedule
-- (pairings, both colours, game and pair counts), results identical for
-- jobs = 1 and 2 (results.json bytes), resume after a journal cut in the
-- middle of a line gives byte-identical results.json, shards merged equal
-- one run, SPRT stops at the same game for any jobs, forfeits of trusted
-- players (error, illegal move, wrong type) with their reasons and no
-- effect on the other pairings' games, every hostile script of
-- tests/hostile/ as a tournament player (each game it loses recorded with
-- the right reason, under an instruction budget and, for those that spin
-- or grow, under the default budgets; the other players' results
-- unchanged, every game accounted for with jobs = 2), finite Elo for perfect records,
-- player specs with parameters, journal round trips, and the errors;
-- forfeit reasons cut and escaped, names checked up front, journal lines
-- checked against the schedule on resume and merge (issue 16);
-- host.stream_use (mb.stream drawing from another Random's state, which
-- the tournaments' trusted players use); a sandboxed script's searches
-- drawing from its own stream (the same games as when trusted).
-- All on the default back-end: tournaments are slow, and what they do with a
-- board (moves, judging, replay) api_spec checks on every back-end.
local mb = rawget(_G, "mb") or require "marubatsu"
local host = require "marubatsu.host"

local helpers = dofile("tests/lua/helpers.lua")
local newdir = helpers.dir_maker()

local read, write = helpers.read_file, helpers.write_file

local function run(t)
    t.quiet = true
    t.progress = false
    return host.tournament(t)
end

-- W-L-D of a against b in results
local function h2h(res, a, b)
    local ia, ib
    for _, p in ipairs(res.players) do
        if p.name == a then ia = p.index end
        if p.name == b then ib = p.index end
    end
    local c = res.cross[ia][ib]
    return ("%d-%d-%d o %d-%d-%d x %d-%d-%d"):format(c.all.w, c.all.l, c.all.d, c.o.w, c.o.l, c.o.d, c.x.w, c.x.l, c.x.d)
end

local function games_of(dir)
    local list = {}
    for line in read(dir .. "/journal.tsv"):gmatch("[^\n]+") do
        if line:sub(1, 1) == "G" then list[#list + 1] = assert(host.journal_parse(line)) end
    end
    return list
end

describe("the schedule", function()
    it("plays every pairing both ways, in pairs, numbered pair by pair", function()
        local dir = newdir()
        local res = run{players = {"ai1", "ai2", "ai4"}, games = 4, seed = 5, jobs = 1, out = dir}
        assert.are.equal(12, res.games)
        assert.are.equal(12, res.scheduled)
        local g = games_of(dir)
        assert.are.equal(12, #g)
        -- games 1, 2: pairing 1 (ai1, ai2) pair 1, ai1 as o then as x
        assert.are.same({1, 1, "ai1", "ai2"}, {g[1].pairing, g[1].index, g[1].o, g[1].x})
        assert.are.same({1, 2, "ai2", "ai1"}, {g[2].pairing, g[2].index, g[2].o, g[2].x})
        assert.are.same({2, 1, "ai1", "ai4"}, {g[3].pairing, g[3].index, g[3].o, g[3].x})
        assert.are.same({3, 2, "ai4", "ai2"}, {g[6].pairing, g[6].index, g[6].o, g[6].x})
        assert.are.same({1, 3, "ai1", "ai2"}, {g[7].pairing, g[7].index, g[7].o, g[7].x})
        for _, p in ipairs(res.players) do
            assert.are.equal(8, p.games)
            assert.are.equal(4, p.o.w + p.o.l + p.o.d)
            assert.are.equal(4, p.pairs)
        end
    end)

    it("gauntlet: the first player against each other", function()
        local res = run{players = {"ai4", "ai1", "ai2", "ai3"}, format = "gauntlet", games = 2, jobs = 1}
        assert.are.equal(6, res.games)
        assert.are.equal(6, res.players[1].games)
        assert.are.equal(2, res.players[2].games)
        assert.are.equal(0, res.cross[2][3].all.w + res.cross[2][3].all.l + res.cross[2][3].all.d)
    end)

    it("replays a game from its seed: same moves", function()
        local dir = newdir()
        run{players = {"ai2", "ai3"}, games = 2, seed = 11, jobs = 1, out = dir}
        local g = games_of(dir)[2]
        -- each side draws from its own stream, seeded from the game's seed
        local streams = {o = mb.Random(), x = mb.Random()}
        host.stream_seed(streams.o, host.tourney_seed(g.seed, "o", 1))
        host.stream_seed(streams.x, host.tourney_seed(g.seed, "x", 1))
        local game = mb.Marubatsu()
        local a = {ai2 = mb.ai("ai2"), ai3 = mb.ai("ai3")}
        local moves = {}
        while game.status == "playing" do
            local side = game.turn
            host.stream_copy(mb.stream, streams[side])
            local m = a[side == "o" and g.o or g.x].fn(game, mb.NO_PARAMS)
            host.stream_copy(streams[side], mb.stream)
            game:move(m)
            moves[#moves + 1] = game:excel(m)
        end
        assert.are.equal(g.moves, table.concat(moves, ","))
        assert.are.equal(g.result, game.status)
    end)

    it("host.stream_use: mb.stream draws from a Random's own state until pointed back", function()
        local function first(seed, n) -- n getrandbits(32) of a fresh stream
            local r, v = mb.Random(seed), {}
            for i = 1, n do v[i] = r:getrandbits(32) end
            return v
        end
        mb.seed(5)
        local r = mb.Random(0)
        host.stream_use(r)
        local z = first(0, 4)
        assert.are.equal(z[1], mb.getrandbits(32))
        assert.are.equal(z[2], r:getrandbits(32)) -- one state, not a copy
        assert.are.equal(z[3], mb.stream:getrandbits(32))
        assert.are.equal(3, r:draws())
        assert.are.equal(3, mb.draws())
        mb.seed(3) -- seeds r
        assert.are.equal(first(3, 1)[1], r:getrandbits(32))
        host.stream_use(nil) -- mb.stream's own state is untouched
        assert.are.equal(first(5, 1)[1], mb.getrandbits(32))
        host.stream_use(mb.Random(7)) -- kept alive while pointed at
        collectgarbage()
        collectgarbage()
        assert.are.same(first(7, 2), {mb.getrandbits(32), mb.getrandbits(32)})
        host.stream_use(mb.stream) -- the same as nil
        assert.are.equal(first(5, 2)[2], mb.getrandbits(32))
        assert.has_error(function() host.stream_use(42) end)
    end)

    it("a player can neither read nor steer its opponent's draws (own streams per side and game)", function()
        -- two sandboxed scripts that play the same moves; the second also
        -- burns draws and tries the host's streams: ai2's replies must not change
        local dir = os.tmpname()
        os.remove(dir)
        assert(os.execute("mkdir -p " .. dir))
        local function script(name, extra)
            local path = dir .. "/" .. name .. ".lua"
            write(path, "local mb = require 'marubatsu'\nreturn function(game)\n" .. extra
                .. "\nreturn game:calc_legal_moves()[1]\nend\n")
            return path
        end
        local plain = script("plain", "")
        local burner = script("burner", "for _ = 1, 97 do mb.random() end; math.random(5)"
            .. "; assert(mb.draws == nil and mb.stream == nil and mb.Random == nil and mb.tourney_seed == nil)")
        local function moves(p)
            local d = newdir()
            run{players = {"ai2", {name = "opponent", ai = p}}, games = 20, seed = 5, jobs = 1, out = d}
            local out = {}
            for _, g in ipairs(games_of(d)) do
                out[#out + 1] = g.moves .. " " .. g.result .. " " .. g.reason
            end
            return table.concat(out, "\n")
        end
        local a, b = moves(plain), moves(burner)
        assert.are.equal(a, b)
        assert.is_nil(b:find("error", 1, true))
    end)

    it("a sandboxed script's searches break ties from its own stream: as when trusted, every run", function()
        -- mb.search_abs_dls chooses at random among equal moves (rand); in a
        -- sandbox it draws from the player's stream, seeded for the game as
        -- a trusted player's is, so the games equal the trusted run's
        local dir = os.tmpname()
        os.remove(dir)
        assert(os.execute("mkdir -p " .. dir))
        local path = dir .. "/searcher.lua"
        write(path, "local mb = require 'marubatsu'\nreturn function(game)\n"
            .. "return mb.search_abs_dls(game, {maxdepth = 1})\nend\n")
        local function moves(sandbox)
            local d = newdir()
            run{players = {"ai2", {name = "searcher", ai = path}}, games = 20, seed = 9, jobs = 1, out = d,
                sandbox = sandbox}
            local out, seen = {}, {}
            for _, g in ipairs(games_of(d)) do
                out[#out + 1] = g.moves .. " " .. g.result .. " " .. g.reason
                seen[g.o .. g.moves:sub(1, 5)] = true
            end
            local n = 0
            for _ in pairs(seen) do n = n + 1 end
            return table.concat(out, "\n"), n
        end
        local a, n = moves(true)
        assert.are.equal(a, (moves(true)))
        assert.are.equal(a, (moves(false)))
        assert.is_true(n > 4) -- the openings do vary from game to game
        assert.is_nil(a:find("error", 1, true))
    end)

    it("a pairing's games do not depend on the other players", function()
        local a = run{players = {"ai2", "ai3"}, games = 10, seed = 3, jobs = 1}
        local b = run{players = {"ai1", "ai2", "ai4", "ai3"}, games = 10, seed = 3, jobs = 1}
        assert.are.equal(h2h(a, "ai2", "ai3"), h2h(b, "ai2", "ai3"))
    end)
end)

describe("determinism", function()
    it("results.json is identical for jobs = 1 and jobs = 2", function()
        local d1, d2 = newdir(), newdir()
        local players = {"ai1", "ai2", "ai14s", "ai3"}
        run{players = players, games = 30, seed = 9, jobs = 1, out = d1}
        run{players = players, games = 30, seed = 9, jobs = 2, out = d2}
        assert.are.equal(read(d1 .. "/results.json"), read(d2 .. "/results.json"))
        assert.are.equal(read(d1 .. "/results.csv"), read(d2 .. "/results.csv"))
        assert.are.equal(read(d1 .. "/ranking.svg"), read(d2 .. "/ranking.svg"))
    end)

    it("resume after a journal cut mid-line gives byte-identical results.json", function()
        local full, cut = newdir(), newdir()
        local t = {players = {"ai1", "ai2", "ai4"}, games = 20, seed = 4, jobs = 1}
        t.out = full
        run(t)
        local text = read(full .. "/journal.tsv")
        -- keep the header and 17 games, then half of the 18th line
        local lines, kept, n = {}, 0, 0
        for line in text:gmatch("[^\n]*\n") do
            n = n + 1
            if line:sub(1, 1) == "G" then kept = kept + 1 end
            if kept > 17 then
                lines[#lines + 1] = line:sub(1, 20)
                break
            end
            lines[#lines + 1] = line
        end
        assert(os.execute("mkdir -p " .. cut))
        write(cut .. "/journal.tsv", table.concat(lines))
        t.out, t.resume, t.jobs = cut, true, 2
        local res = run(t)
        assert.are.equal(60, res.games)
        assert.are.equal(read(full .. "/results.json"), read(cut .. "/results.json"))
        assert.are.equal(60, #games_of(cut))
    end)

    it("shards merged give the results of one run", function()
        local one, s1, s2, s3, merged = newdir(), newdir(), newdir(), newdir(), newdir()
        local t = {players = {"ai1", "ai2", "ai3"}, games = 10, seed = 8, jobs = 1}
        t.out = one
        run(t)
        for i, d in ipairs {s1, s2, s3} do
            t.out, t.shard = d, ("%d/3"):format(i)
            local r = run(t)
            assert.are.equal(10, r.games)
        end
        host.tournament_merge{dirs = {s1, s2, s3}, out = merged, quiet = true}
        assert.are.equal(read(one .. "/results.json"), read(merged .. "/results.json"))
    end)

    it("SPRT stops at the same game whatever jobs is", function()
        local d1, d2 = newdir(), newdir()
        local t = {players = {"ai14s", "ai2"}, games = 1000, seed = 2, sprt = {elo0 = 0, elo1 = 20, alpha = 0.05, beta = 0.05}}
        t.jobs, t.out = 1, d1
        local r1 = run(t)
        t.jobs, t.out = 2, d2
        local r2 = run(t)
        assert.are.equal("H1", r1.sprt.decision)
        assert.is_true(r1.games < 100)
        assert.are.equal(0, r1.games % 2)
        assert.are.equal(r1.games, r2.games)
        assert.are.equal(read(d1 .. "/results.json"), read(d2 .. "/results.json"))
    end)
end)

describe("statistics", function()
    it("perfect and all-draw records give finite Elo and intervals", function()
        local res = run{players = {"ai14s", "ai1"}, games = 20, jobs = 1}
        local top = res.ranking[1]
        assert.are.equal("ai14s", top.name)
        assert.are.equal(20, top.w)
        for _, p in ipairs(res.players) do
            for _, v in ipairs {p.elo, p.error, p.perf.elo, p.perf.elo_lo, p.perf.elo_hi, p.pair_stats.elo} do
                assert.is_true(v == v and v > -math.huge and v < math.huge)
            end
            assert.is_true(p.error > 0)
        end
        assert.is_true(top.los > 0.99)
        local gt = run{players = {"ai_gt6", "ai_gt7"}, games = 10, jobs = 1}
        assert.are.equal(10, gt.players[1].d)
        assert.is_true(math.abs(gt.players[1].elo) < 1e-9)
        assert.is_true(gt.players[1].error > 0 and gt.players[1].error < math.huge)
    end)

    it("the pentanomial counts add up to the pairs", function()
        local res = run{players = {"ai2", "ai4"}, games = 40, seed = 6, jobs = 1}
        local p = res.players[1]
        local n = 0
        for k = 1, 5 do n = n + p.penta[k] end
        assert.are.equal(20, n)
        local pts = 0
        for k = 1, 5 do pts = pts + (k - 1) * p.penta[k] end
        assert.are.equal(2 * p.w + p.d, pts)
    end)
end)

describe("players", function()
    it("functions and tables with parameters; the same AI twice is two players", function()
        local seen
        local res = run{players = {
            {name = "first", ai = function(g, p) seen = p.w return g:calc_legal_moves()[1] end, params = {w = 7}},
            "ai1", "ai1"}, games = 2, jobs = 1}
        assert.are.equal(7, seen)
        assert.are.same({"first", "ai1", "ai1#2"}, {res.players[1].name, res.players[2].name, res.players[3].name})
    end)

    it("NAME:key=value gives parameters", function()
        local name, params = host.playerspec("ai14s:w1=3,w2=-1.5,deep=true,mode=fast")
        assert.are.equal("ai14s", name)
        assert.are.same({w1 = 3, w2 = -1.5, deep = true, mode = "fast"}, params)
        assert.are.equal("integer", math.type(params.w1))
        local res = run{players = {"ai14s:score_201=3", "ai2"}, games = 2, jobs = 1}
        assert.are.equal("ai14s:score_201=3", res.players[1].name)
        -- a key the AI does not take fails at the start, listing the known ones
        local ok, err = pcall(run, {players = {"ai2:x=1", "ai2"}, games = 2, jobs = 1})
        assert.is_false(ok)
        assert.matches("players%[1%]: AI ai2: unknown parameter 'x' %(known: analyze, debug, rand%)", err)
        -- the same for a sandboxed script file (checked in its own state)
        ok, err = pcall(run, {players = {mb.scripts_dir .. "/ai14s.lua:score_victry=3", "ai2"}, games = 2, jobs = 1})
        assert.is_false(ok)
        assert.matches("players%[1%]: AI ai14s: unknown parameter 'score_victry' %(known: analyze,", err)
        res = run{players = {mb.scripts_dir .. "/ai14s.lua:score_victory=3", "ai2"}, games = 2, jobs = 1}
        assert.are.equal(2, res.games)
    end)

    it("a trusted player's error or bad move is a forfeit with its reason; other pairings are unchanged", function()
        local bad = {
            {name = "err", ai = function() error("boom") end, reason = "^error: .*boom"},
            {name = "str", ai = function() return "B2" end, reason = '^illegal move: "B2" %(a string%)'},
            {name = "occ", ai = function(g) return g.move_count > 0 and g.records[1] or 0 end, reason = "^illegal move: %d+ %(%u%d, occupied%)"},
            {name = "off", ai = function() return 99 end, reason = "^illegal move: 99 %(off the board%)"},
            {name = "none", ai = function() end, reason = "^illegal move: nothing"},
        }
        local base = run{players = {"ai1", "ai2"}, games = 6, seed = 12, jobs = 1}
        for _, b in ipairs(bad) do
            local dir = newdir()
            local res = run{players = {"ai1", "ai2", {name = b.name, ai = b.ai}}, games = 6, seed = 12, jobs = 1, out = dir}
            assert.are.equal(h2h(base, "ai1", "ai2"), h2h(res, "ai1", "ai2"))
            local forfeits = 0
            for _, g in ipairs(games_of(dir)) do
                if g.o == b.name or g.x == b.name then
                    local loser = g.result == "o" and g.x or g.o
                    if b.name ~= "occ" or g.reason ~= "" then
                        assert.are.equal(b.name, loser)
                        assert.is_truthy(g.reason:match(b.reason), g.reason)
                        forfeits = forfeits + 1
                    end
                end
            end
            assert.is_true(forfeits >= (b.name == "occ" and 6 or 12), b.name)
        end
    end)
end)

describe("hostile scripts as players", function()
    local H = "tests/hostile/"
    local LIMITS = {instructions = 200000, time = 5, memory = 16 * 1024 * 1024}
    local cases = {
        {"infinite_loop", "^instructions$"},
        {"infinite_loop_pcall", "^instructions$"},
        {"memory_bomb", "^memory$", {instructions = false, time = 30, memory = 16 * 1024 * 1024}},
        {"string_bomb_pcall", "^memory$"},
        {"huge_allocation", "^memory$"},
        {"deep_recursion", "^error: .*stack overflow",
            {instructions = false, time = 30, memory = 256 * 1024 * 1024}},
        {"error_at_load", "^error: "},
        {"illegal_move", "^illegal move: %d+ %("},
        {"wrong_type", "^illegal move: "},
        {"io_open", "^error: .*'io'"},
        {"os_execute", "^error: .*'execute'"},
        {"require_c", "^error: .*not available"},
        {"load_bytecode", "^error: .*binary chunks are not allowed"},
        {"string_dump", "^error: .*'dump'"},
        {"setmetatable_shared", "^error: "},
        -- a look-alike position replayed under the engine: the game is held
        {"search_eval_rewrite", "^error: .*restart: the game is in use by a search"},
        {"children_rewrite", "^error: .*unmove: the game is in use by a search"},
        {"score_rewrite", "^error: .*unmove: the game is in use by a search"},
        -- long native calls and C functions calling back into Lua
        {"solve_runaway", "^time$", {instructions = false, time = 0.05}},
        {"search_runaway", "^instructions$"},
        {"vcf_runaway", "^instructions$"},
        {"search_eval_spin", "^instructions$"},
        {"search_memory", "^memory$", {instructions = false, time = 30, memory = 8 * 1024 * 1024}},
        {"pattern_backtracking", "^error: .*worst case"},
        {"sort_comparator_spin", "^instructions$"},
        {"gsub_callback_spin", "^instructions$"},
        {"huge_sort", "^instructions$", {instructions = 3000000, time = 5, memory = 16 * 1024 * 1024}},
        -- C loops that ran outside the budgets (issue 22), and the
        -- parameter check before the first game
        {"move_huge_range", "^instructions$"},
        {"insert_huge_len", "^instructions$"},
        {"remove_huge_len", "^instructions$"},
        {"shuffle_huge_len", "^instructions$"},
        {"find_plain_quadratic", "^instructions$"},
        {"rep_empty", "^memory$"},
        {"match_literal_quadratic", "^error: .*worst case"},
        {"params_spin", "^instructions$", nil, {depth = 3}},
        -- collections inside the budgets (issue 22): a weak-keyed chain of
        -- 8,000 links a move, whose collections outlive a 0.1 s move
        {"gc_weak_chain", "^time$", {time = 0.1, memory = 64 * 1024 * 1024}, {n = 8000}},
        -- nothing that outlives the move or reaches the host
        {"gc_finalizer", "^error: .*__gc"},
        {"collectgarbage_tricks", "^error: .*collectgarbage"},
        {"coroutine_escape", "^error: .*'coroutine'"},
        {"debug_library", "^error: .*'debug'"},
        {"host_library", "^error: .*'mkdir'"},
        {"steer_random", "^error: .*'draws'"},
    }
    local base = run{players = {"ai1", "ai2"}, games = 4, seed = 31, jobs = 1}

    -- the games of dir that involve `name`, and its forfeits
    local function of(dir, name)
        local mine, lost = {}, {}
        for _, g in ipairs(games_of(dir)) do
            if g.o == name or g.x == name then
                mine[#mine + 1] = g
                if g.reason ~= "" and name == (g.result == "o" and g.x or g.o) then
                    lost[#lost + 1] = g
                end
            end
        end
        return mine, lost
    end

    for _, c in ipairs(cases) do
        it(c[1] .. ": every game a forfeit with its reason, the rest unchanged", function()
            local dir = newdir()
            local path = H .. c[1] .. ".lua"
            local res = run{players = {"ai1", "ai2", {name = c[1], ai = path, limits = c[3], params = c[4]}}, games = 4, seed = 31,
                jobs = 1, out = dir, limits = LIMITS}
            assert.are.equal(12, res.games)
            assert.are.equal(h2h(base, "ai1", "ai2"), h2h(res, "ai1", "ai2"))
            local mine, lost = of(dir, c[1])
            assert.are.equal(8, #mine)
            assert.are.equal(8, #lost)
            for _, g in ipairs(lost) do assert.matches(c[2], g.reason) end
            assert.are.equal(0, res.players[3].w + res.players[3].d)
            assert.is_nil(io.open("/tmp/marubatsu_sandbox_escaped_dir"))
        end)
    end

    -- the default budgets (no limits given: time and memory, no instruction
    -- budget), in a gauntlet against ai1: the scripts that spin lose on time,
    -- one second a move; one asking for 1 GiB at once loses on memory (the
    -- ones that grow step by step would race the 1 s deadline on a slow
    -- machine: their cases above give them time)
    it("under the default budgets: time for the spinning ones, memory for a huge allocation", function()
        local dir = newdir()
        local spinning = {"infinite_loop_pcall", "gsub_callback_spin", "search_eval_spin", "vcf_runaway",
            "move_huge_range", "insert_huge_len", "remove_huge_len", "shuffle_huge_len", "find_plain_quadratic",
            "params_spin"}
        local growing = {"huge_allocation", "rep_empty"}
        local players = {"ai1"}
        for _, n in ipairs(spinning) do
            players[#players + 1] = {name = n, ai = H .. n .. ".lua", params = n == "params_spin" and {depth = 3} or nil}
        end
        for _, n in ipairs(growing) do players[#players + 1] = {name = n, ai = H .. n .. ".lua"} end
        local res = run{players = players, format = "gauntlet", games = 2, seed = 31, jobs = 2, out = dir}
        assert.are.equal(2 * (#players - 1), res.games)
        for _, n in ipairs(spinning) do
            local _, lost = of(dir, n)
            assert.are.equal(2, #lost, n)
            for _, g in ipairs(lost) do assert.are.equal("time", g.reason, n) end
        end
        for _, n in ipairs(growing) do
            local _, lost = of(dir, n)
            assert.are.equal(2, #lost, n)
            for _, g in ipairs(lost) do assert.are.equal("memory", g.reason, n) end
        end
    end)

    it("an honest working set of over half the memory cap plays all its games (issue 22)", function()
        -- tests/lua/scripts/working_set.lua keeps 55% of its 16 MiB cap and
        -- drops a tree of 25% a move; before, about half its moves were lost
        -- on memory, ahead of the collection that would have made room
        local dir = newdir()
        local cap = 16 * 1024 * 1024
        local res = run{players = {"ai1", {name = "ws", ai = "tests/lua/scripts/working_set.lua",
            limits = {time = 60, memory = cap}, params = {live = cap * 55 // 100, temp = cap * 25 // 100}}},
            games = 4, seed = 31, jobs = 1, out = dir, width = 4, height = 4, k = 4}
        assert.are.equal(4, res.games)
        for _, g in ipairs(games_of(dir)) do assert.are.equal("", g.reason) end
        -- and one that needs 110% of its cap loses every game on memory
        dir = newdir()
        res = run{players = {"ai1", {name = "ws", ai = "tests/lua/scripts/working_set.lua",
            limits = {time = 60, memory = cap}, params = {live = cap * 110 // 100, temp = 0}}},
            games = 4, seed = 31, jobs = 1, out = dir, width = 4, height = 4, k = 4}
        local _, lost = of(dir, "ws")
        assert.are.equal(4, #lost)
        for _, g in ipairs(lost) do assert.are.equal("memory", g.reason) end
    end)

    it("error_at_50th_game: exactly its 50th game is lost, with the error", function()
        local dir = newdir()
        run{players = {"ai1", "ai2", H .. "error_at_50th_game.lua"}, games = 50, seed = 31, jobs = 1, out = dir, limits = LIMITS}
        local mine, lost = of(dir, H .. "error_at_50th_game.lua")
        assert.are.equal(100, #mine)
        assert.are.equal(1, #lost)
        assert.are.equal(mine[50].game, lost[1].game)
        assert.matches("^error: ", lost[1].reason)
    end)

    it("keep_game: using a kept game object is caught; other_globals plays legally", function()
        local dir = newdir()
        local kg, og = H .. "keep_game.lua", H .. "other_globals.lua"
        run{players = {"ai1", kg, og}, games = 4, seed = 31, jobs = 1, out = dir, limits = LIMITS}
        local _, lost = of(dir, kg)
        assert.is_true(#lost >= 1)
        for _, g in ipairs(lost) do assert.matches("^tampered$", g.reason) end
        local _, lost2 = of(dir, og)
        assert.are.equal(0, #lost2)
    end)

    it("all of them in one tournament on two workers: every game accounted for", function()
        local dir = newdir()
        local players = {"ai1", "ai2"}
        for _, c in ipairs(cases) do
            -- the slow ones (a deep stack, 5 s of solving) have their own cases above
            if c[1] ~= "deep_recursion" and c[1] ~= "solve_runaway" and c[1] ~= "search_memory"
                and c[1] ~= "gc_weak_chain" then
                players[#players + 1] = H .. c[1] .. ".lua" .. (c[1] == "params_spin" and ":depth=3" or "")
            end
        end
        players[#players + 1] = H .. "keep_game.lua"
        players[#players + 1] = H .. "other_globals.lua"
        local n = #players
        local res = run{players = players, games = 2, seed = 31, jobs = 2, out = dir, limits = LIMITS}
        assert.are.equal(n * (n - 1), res.games)
        assert.are.equal(n * (n - 1), #games_of(dir))
        assert.are.equal(h2h(run{players = {"ai1", "ai2"}, games = 2, seed = 31, jobs = 1}, "ai1", "ai2"),
            h2h(res, "ai1", "ai2"))
        -- against ai1 and ai2 the hostile players lose every game
        for i = 3, n - 2 do
            for j = 1, 2 do
                local c = res.cross[i][j].all
                assert.are.same({0, 2, 0}, {c.w, c.l, c.d}, res.players[i].name)
            end
        end
    end)
end)

describe("journal lines", function()
    it("format and parse round trip, escapes included", function()
        local r = {game = 3, pairing = 2, index = 1, seed = 123456789012, o = "a\tb", x = "c\\d\ne",
            moves = "B2,A1,C3", result = "x", reason = "error: x\ty"}
        local line = host.journal_format(r)
        assert.are.equal("G\t3\t2\t1\t123456789012\ta\\tb\tc\\\\d\\ne\tB2,A1,C3\tx\terror: x\\ty\n", line)
        assert.are.same(r, host.journal_parse(line))
        local ok, err = host.journal_parse("G\t1\t1\t1\t5\ta\tb\tB2,ZZ\tdraw\t")
        assert.is_nil(ok)
        assert.is_string(err)
    end)
end)

describe("errors", function()
    local function fails(t, pattern)
        local ok, err = pcall(run, t)
        assert.is_false(ok)
        assert.is_truthy(tostring(err):find(pattern, 1, true), tostring(err))
    end

    it("are clear", function()
        fails({players = {"ai1", "ai2"}, games = 3}, "games must be even")
        fails({players = {"ai1"}}, "at least two players")
        fails({players = {"ai1", "nosuch_ai"}}, "'nosuch_ai' not found")
        fails({players = {"ai1", "ai2"}, colour = 1}, "unknown option 'colour'")
        fails({players = {"ai1", "ai2"}, format = "swiss"}, "round_robin or gauntlet")
        fails({players = {"ai1", "ai2"}, resume = true}, "resume needs out")
        fails({players = {"ai1", "ai2", "ai3"}, sprt = {elo0 = 0, elo1 = 5}}, "exactly two players")
        fails({players = {"ai1", "ai2"}, shard = "4/3"}, "shard")
        fails({players = {"ai1", "ai2"}, openings = {"B2,B2"}}, "occupied")
        local dir = newdir()
        run{players = {"ai1", "ai2"}, games = 2, out = dir, jobs = 1}
        fails({players = {"ai1", "ai2"}, games = 2, out = dir}, "exists: continue it with resume")
        fails({players = {"ai1", "ai3"}, games = 2, out = dir, resume = true}, "another tournament")
    end)
end)

describe("hostile text (issue 16)", function()
    it("a long forfeit reason with control characters is cut and escaped", function()
        local dir = newdir()
        local res = run{players = {"ai1", {name = "loud", ai = function()
            error("\27[31m\t" .. ("x"):rep(1100) .. "\n\194\155", 0)
        end}}, games = 2, jobs = 1, out = dir}
        assert.are.equal(2, #res.forfeits)
        local r = res.forfeits[1].reason
        assert.is_true(#r <= 1000, #r)
        assert.are.equal("error: \\x1b[31m\\txxx", r:sub(1, 20))
        assert.are.equal("...", r:sub(-3))
        assert.is_nil(r:find("[%c\127]"))
        -- the journal reads back
        local again = run{players = {"ai1", {name = "loud", ai = function() error("x", 0) end}}, games = 2,
            jobs = 1, out = dir, resume = true}
        assert.are.equal(r, again.forfeits[1].reason)
    end)

    it("a name with control characters or over 255 bytes is refused before any game", function()
        local ok, err = pcall(run, {players = {"ai1", {name = "a\27b", ai = "ai2"}}, games = 2})
        assert.is_false(ok)
        assert.is_truthy(tostring(err):find("control characters ('a\\x1bb')", 1, true), tostring(err))
        ok, err = pcall(run, {players = {"ai1", {name = ("n"):rep(256), ai = "ai2"}}, games = 2})
        assert.is_false(ok)
        assert.is_truthy(tostring(err):find("256 bytes long", 1, true), tostring(err))
    end)

    it("a journal line the schedule contradicts is refused with file:line", function()
        local dir = newdir()
        run{players = {"ai1", "ai2"}, games = 4, jobs = 1, out = dir}
        local text = read(dir .. "/journal.tsv")
        -- the first game's seed, changed
        write(dir .. "/journal.tsv", (text:gsub("\nG\t(%d+)\t(%d+)\t(%d+)\t%d+", "\nG\t%1\t%2\t%3\t7", 1)))
        local ok, err = pcall(run, {players = {"ai1", "ai2"}, games = 4, jobs = 1, out = dir, resume = true})
        assert.is_false(ok)
        assert.is_truthy(tostring(err):find("journal.tsv:%d+: game %d+: the schedule gives it seed %d+, the line 7"),
            tostring(err))
        ok, err = pcall(host.tournament_merge, {dirs = {dir}, quiet = true})
        assert.is_false(ok)
        assert.is_truthy(tostring(err):find("journal.tsv:%d+: game"), tostring(err))
    end)
end)

describe("openings", function()
    it("both games of a pair start from the same opening", function()
        local dir = newdir()
        run{players = {"ai2", "ai3"}, games = 4, jobs = 1, out = dir, openings = {"B2", "A1,C3"}}
        local g = games_of(dir)
        assert.are.equal("B2", g[1].moves:sub(1, 2))
        assert.are.equal("B2", g[2].moves:sub(1, 2))
        assert.are.equal("A1,C3", g[3].moves:sub(1, 5))
        assert.are.equal("A1,C3", g[4].moves:sub(1, 5))
    end)
end)
