-- tournament_spec.lua: host.tournament and its pieces. Checks: the schedule
-- (pairings, both colours, game and pair counts), results identical for
-- jobs = 1 and 2 (results.json bytes), resume after a journal cut in the
-- middle of a line gives byte-identical results.json, shards merged equal
-- one run, SPRT stops at the same game for any jobs, forfeits of trusted
-- players (error, illegal move, wrong type) with their reasons and no
-- effect on the other pairings' games, every hostile script of
-- tests/hostile/ as a tournament player (each game it loses recorded with
-- the right reason (those that fail to load or to check their parameters
-- with allow_forfeits: the pre-flight refuses them), under an instruction
-- budget and, for those that spin
-- or grow, under the default budgets; the other players' results
-- unchanged, every game accounted for with jobs = 2), finite Elo for perfect records,
-- player specs with parameters, journal round trips, and the errors;
-- forfeit reasons cut and escaped, names checked up front, journal lines
-- checked against the schedule on resume and merge (issue 16);
-- host.stream_use (mb.stream drawing from another Random's state, which
-- the tournaments' trusted players use); a sandboxed script's searches
-- drawing from its own stream (the same games as when trusted).
-- The pre-flight (issue 24): players that cannot load, cannot play the
-- board (a rule of a built-in AI raising on the start position) or fail
-- their parameter check stop the tournament before anything is written,
-- with {exit = 2, message = ...}; allow_forfeits plays them as forfeits.
-- Player options (issue 24): name= (and the default names: a script's
-- file name without .lua), tc= and st= (a player's own time control),
-- kept from the AI's params; unknown keys refused naming them; a journal
-- of the earlier default names (a script named by its spec) resumes.
-- Knockout (issue 24): the bracket with byes, ties decided by the
-- tie-breaks then the better seed. Adjudication (issue 24): on 15x15
-- positions where the side to move has a VCF, and on 3x3 positions the
-- solver decides, the adjudicated results equal the played-out ones (by
-- gomoku, which plays a VCF it sees, and by the perfect ai_gt6); the
-- journal records the adjudication and --resume re-checks it; max_moves.
-- Records (issue 24): games.sgf (every board) and games/NNNNN.psq (k = 5),
-- read back by a parser of this file: each equals its journal line (moves,
-- names, result, the forfeit's reason), also after a cut journal resumed.
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
    return ("%d-%d-%d o %d-%d-%d x %d-%d-%d"):format(c.all.w, c.all.l, c.all.d, c.o.w, c.o.l, c.o.d, c.x.w, c.x.l,
        c.x.d)
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
        local t = {players = {"ai14s", "ai2"}, games = 1000, seed = 2,
            sprt = {elo0 = 0, elo1 = 20, alpha = 0.05, beta = 0.05}}
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
            {name = "occ", ai = function(g) return g.move_count > 0 and g.records[1] or 0 end,
                reason = "^illegal move: %d+ %(%u%d, occupied%)"},
            {name = "off", ai = function() return 99 end, reason = "^illegal move: 99 %(off the board%)"},
            {name = "none", ai = function() end, reason = "^illegal move: nothing"},
        }
        local base = run{players = {"ai1", "ai2"}, games = 6, seed = 12, jobs = 1}
        for _, b in ipairs(bad) do
            local dir = newdir()
            local res = run{players = {"ai1", "ai2", {name = b.name, ai = b.ai}}, games = 6, seed = 12, jobs = 1,
                out = dir}
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
            local res = run{players = {"ai1", "ai2", {name = c[1], ai = path, limits = c[3], params = c[4]}}, games = 4,
                seed = 31,
                jobs = 1, out = dir, limits = LIMITS, allow_forfeits = true}
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
            players[#players + 1] = {name = n, ai = H .. n .. ".lua", params = n == "params_spin" and {depth = 3}
                or nil}
        end
        for _, n in ipairs(growing) do players[#players + 1] = {name = n, ai = H .. n .. ".lua"} end
        local res = run{players = players, format = "gauntlet", games = 2, seed = 31, jobs = 2, out = dir,
            allow_forfeits = true}
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
        run{players = {"ai1", {name = "ws", ai = "tests/lua/scripts/working_set.lua",
            limits = {time = 60, memory = cap}, params = {live = cap * 110 // 100, temp = 0}}},
            games = 4, seed = 31, jobs = 1, out = dir, width = 4, height = 4, k = 4}
        local _, lost = of(dir, "ws")
        assert.are.equal(4, #lost)
        for _, g in ipairs(lost) do assert.are.equal("memory", g.reason) end
    end)

    it("error_at_50th_game: exactly its 50th game is lost, with the error", function()
        local dir = newdir()
        run{players = {"ai1", "ai2", H .. "error_at_50th_game.lua"}, games = 50, seed = 31, jobs = 1, out = dir,
            limits = LIMITS}
        local mine, lost = of(dir, "error_at_50th_game") -- a script's name: its file's, without .lua
        assert.are.equal(100, #mine)
        assert.are.equal(1, #lost)
        assert.are.equal(mine[50].game, lost[1].game)
        assert.matches("^error: ", lost[1].reason)
    end)

    it("keep_game: using a kept game object is caught; other_globals plays legally", function()
        local dir = newdir()
        local kg, og = H .. "keep_game.lua", H .. "other_globals.lua"
        run{players = {"ai1", kg, og}, games = 4, seed = 31, jobs = 1, out = dir, limits = LIMITS}
        local _, lost = of(dir, "keep_game")
        assert.is_true(#lost >= 1)
        for _, g in ipairs(lost) do assert.matches("^tampered$", g.reason) end
        local _, lost2 = of(dir, "other_globals")
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
        local res = run{players = players, games = 2, seed = 31, jobs = 2, out = dir, limits = LIMITS,
            allow_forfeits = true}
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
        fails({players = {"ai1", "ai2"}, format = "swiss"}, "round_robin, gauntlet or knockout")
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

describe("the pre-flight", function()
    -- the error of a tournament that must not start
    local function refused(t)
        t.quiet, t.progress = true, false
        local ok, err = pcall(host.tournament, t)
        assert.is_false(ok)
        assert.are.equal("table", type(err))
        assert.are.equal(2, err.exit)
        assert.are.equal(err.message, tostring(err))
        return err.message
    end

    it("a script that does not load stops the run before anything is written", function()
        local dir = newdir()
        local path = os.tmpname()
        write(path, "return function(g\n  return 1\nend\n")
        local msg = refused{players = {"ai2", path}, games = 2, jobs = 1, out = dir .. "/out"}
        os.remove(path)
        assert.are.equal(("players[2] %s cannot load: %s:2: ')' expected near 'return'"):format(path, path), msg)
        assert.is_nil(io.open(dir .. "/out/journal.tsv"))
        assert.is_nil(io.open(dir .. "/out"))
    end)

    it("a rule that cannot play the board: ai7's centre and ai_gt6's table on 4x4, no library paths", function()
        local msg = refused{players = {"ai2", "ai7"}, games = 2, jobs = 1, width = 4, height = 4}
        assert.are.equal("players[2] ai7 cannot play this board (4x4, k=4): ai7: the centre rule needs odd width and "
            .. "height (board is 4x4)", msg)
        msg = refused{players = {"ai_gt6", "ai2"}, games = 2, jobs = 1, width = 4, height = 4, k = 3, rule = "exact"}
        assert.matches("^players%[1%] ai_gt6 cannot play this board %(4x4, k=3, exact rule%): "
            .. "ai_gt6: board %.+ is not in the table$", msg)
        assert.is_nil(msg:find("scripts/lib", 1, true))
        -- a score rule (ai3s: the centre too)
        msg = refused{players = {"ai2", "ai3s:rand=false"}, games = 2, jobs = 1, width = 4, height = 3, k = 3}
        assert.matches("^players%[2%] ai3s:rand=false cannot play this board %(4x3, k=3%): ai3s: the centre rule", msg)
    end)

    it("the rule is asked on the first game's start: an opening, the player's parameters", function()
        -- ai_gt6 plays 3x3 from any opening; on 3x3 everything passes
        local res = host.tournament{players = {"ai_gt6", "ai7", "ai3s"}, games = 2, jobs = 1, quiet = true,
            openings = {"B2,A1"}}
        assert.are.equal(6, res.games)
        -- a user AI whose rule raises on a board with a mark on A1 only
        local picky = mb.ai_by_candidate(function(g)
            if g:getmark_by_move(0) ~= "." then error("picky: A1 is taken", 0) end
            return g:calc_legal_moves()
        end, "picky", {})
        local msg = refused{players = {"ai2", picky}, games = 2, jobs = 1, openings = {"A1"}}
        assert.are.equal("players[2] picky cannot play this board (3x3, k=3): picky: A1 is taken", msg)
        res = host.tournament{players = {"ai2", picky}, games = 2, jobs = 1, quiet = true, openings = {"B2"}}
        assert.are.equal(2, res.games)
    end)

    it("a search is not called, nor a sandboxed script's move; functions are not checked", function()
        -- trusted players play in this process with jobs = 1: the function
        -- is called for its moves in the games, and never before
        local dir = newdir()
        local called = 0
        local res = run{players = {"ai_abs_dls", "ai2", function(g)
            called = called + 1
            return g:calc_legal_moves()[1]
        end}, games = 2, jobs = 1, out = dir}
        assert.are.equal(6, res.games)
        local moves = 0
        for _, g in ipairs(games_of(dir)) do
            local n = select(2, g.moves:gsub("[^,]+", ""))
            if g.o == "function3" then
                moves = moves + (n + 1) // 2
            elseif g.x == "function3" then
                moves = moves + n // 2
            end
        end
        assert.is_true(moves > 0)
        assert.are.equal(moves, called)
    end)

    it("allow_forfeits plays the broken player: every game of it a forfeit", function()
        local dir = newdir()
        local res = run{players = {"ai2", "ai7"}, games = 2, jobs = 1, width = 4, height = 4, out = dir,
            allow_forfeits = true}
        assert.are.equal(2, res.games)
        assert.are.equal(2, res.players[2].l)
        assert.are.equal(2, res.players[2].forfeits.error)
    end)
end)

describe("player options", function()
    local TP = "tests/lua/scripts/tell_params.lua"

    it("name= names a player everywhere; a script is named by its file, with its parameters", function()
        local dir = newdir()
        local res = run{players = {"ai2:name=Two", "ai14s", TP .. ":depth=2,name=Teller", TP .. ":depth=3,mode=x"},
            games = 2, seed = 4, jobs = 1, out = dir, allow_forfeits = true}
        local names = {}
        for i, p in ipairs(res.players) do names[i] = p.name end
        assert.are.same({"Two", "ai14s", "Teller", "tell_params:depth=3,mode=x"}, names)
        assert.are.equal(TP .. ":depth=2,name=Teller", res.players[3].spec)
        local journal = read(dir .. "/journal.tsv")
        assert.truthy(journal:find("\nP\t1\tTwo\tai2:name=Two\n", 1, true))
        assert.truthy(journal:find("\nP\t4\ttell_params:depth=3,mode=x\t" .. TP .. ":depth=3,mode=x\n", 1, true))
        -- the AI's params hold its own keys only: name= stays the tournament's
        for _, g in ipairs(games_of(dir)) do
            if g.reason ~= "" then
                local loser = g.result == "o" and g.x or g.o
                if loser == "Teller" then assert.are.equal("error: keys: depth", g.reason) end
                if loser:find("^tell_params") then assert.are.equal("error: keys: depth mode", g.reason) end
            end
        end
        assert.truthy(read(dir .. "/results.json"):find('"name": "Teller"', 1, true))
    end)

    it("the same name twice is numbered; a name too long or empty is refused", function()
        local res = run{players = {"ai2:name=X", "ai1:name=X"}, games = 2, jobs = 1}
        assert.are.equal("X", res.players[1].name)
        assert.are.equal("X#2", res.players[2].name)
        -- a name of 250 bytes is one a journal holds, whatever the player spec's length
        res = run{players = {"ai2", "ai1:name=" .. ("n"):rep(250)}, games = 2, jobs = 1}
        assert.are.equal(("n"):rep(250), res.players[2].name)
        local ok, err = pcall(run, {players = {"ai2", "ai1:name=" .. ("n"):rep(256)}, games = 2, jobs = 1})
        assert.is_false(ok)
        assert.matches("players%[2%]: bad player .*: parameter 1 %(name%): the value is longer than 255 bytes", err)
        -- a spec of 20 values of 250 bytes: past what a player spec holds
        local items = {}
        for i = 1, 20 do items[i] = ("p%02d="):format(i) .. ("v"):rep(250) end
        local long = "ai1:" .. table.concat(items, ",") .. ",name=a"
        ok, err = pcall(run, {players = {"ai2", long}, games = 2, jobs = 1})
        assert.is_false(ok)
        assert.matches(("players%%[2%%]: the player .* is %d bytes long; a player spec holds at most 4096 bytes")
            :format(#long), err)
    end)

    it("unknown keys of a built-in AI are refused with the AI's keys and the player options", function()
        local ok, err = pcall(run, {players = {"ai2", "ai14s:colour=red"}, games = 2, jobs = 1})
        assert.is_false(ok)
        assert.matches("players%[2%]: AI ai14s: unknown parameter 'colour' %(known: .*%); player options: name, st, tc",
            err)
    end)

    it("st= and tc= are a player's own time control, replacing the tournament's", function()
        local spin = "tests/timecontrol/spin.lua"
        local dir = newdir()
        run{players = {spin .. ":st=0.2", "ai2"}, games = 2, jobs = 1, out = dir, limits = {instructions = false}}
        local journal = read(dir .. "/journal.tsv")
        assert.is_nil(journal:find("\nT\ttime_control", 1, true)) -- the tournament is untimed
        assert.are.equal(2, select(2, journal:gsub("\nC\t", ""))) -- but its games are timed: C lines
        for _, g in ipairs(games_of(dir)) do
            assert.are.equal("time: no move within 0.2 s (move time)", g.reason)
            assert.are.equal("spin", g.result == "o" and g.x or g.o)
        end
        -- a game clock with an increment; the tournament's move time (5 s)
        -- is replaced, not kept beside it
        dir = newdir()
        run{players = {spin .. ":tc=0.3+0.1", "ai2"}, games = 2, jobs = 1, out = dir, move_time = 5}
        for _, g in ipairs(games_of(dir)) do
            assert.are.equal("time: the game clock of 0.3 s ran out (game time)", g.reason)
        end
        assert.truthy(read(dir .. "/journal.tsv"):find("\nT\ttime_control\tmove=5\n", 1, true))
        local ok, err = pcall(run, {players = {"ai2:tc=x", "ai1"}, games = 2, jobs = 1})
        assert.is_false(ok)
        assert.matches("players%[1%]: tc must be", err)
        ok, err = pcall(run, {players = {"ai2", "ai1:st=0"}, games = 2, jobs = 1})
        assert.is_false(ok)
        assert.matches("players%[2%]: st must be a number of seconds > 0", err)
    end)

    it("a journal of the earlier default names (a script named by its spec) resumes to the same results", function()
        local script = "tests/cli/scripts/first_square.lua"
        local full = newdir()
        run{players = {"ai2", {name = script, ai = script}, "ai1"}, games = 6, seed = 8, jobs = 1, out = full}
        local dir = newdir()
        run{players = {"ai2", {name = script, ai = script}, "ai1"}, games = 6, seed = 8, jobs = 1, out = dir}
        -- cut to its header and first games, as a run stopped on the way
        local text = read(dir .. "/journal.tsv")
        local keep = text:match("^(.-\nG[^\n]*\nG[^\n]*\n)")
        write(dir .. "/journal.tsv", keep)
        local res = run{players = {"ai2", script, "ai1"}, games = 6, seed = 8, jobs = 1, out = dir, resume = true}
        assert.are.equal(script, res.players[2].name)
        assert.are.equal(read(full .. "/results.json"), read(dir .. "/results.json"))
    end)
end)

describe("knockout", function()
    -- players that always play the first empty square: each wins as 〇,
    -- so every match is tied, and tied again after its tie-breaks
    local function first() return function(g) return g:calc_legal_moves()[1] end end

    it("a tie after the tie-breaks: the better seed goes on; every match plays all its games", function()
        local players = {}
        for i = 1, 6 do players[i] = {name = "p" .. i, ai = first()} end
        local res = run{players = players, format = "knockout", games = 2, tiebreak = 2, jobs = 1}
        local ko = res.knockout
        assert.are.equal("p1", ko.winner)
        -- 6 players: a bracket of 8, seeds 1 and 2 get byes
        assert.are.same({"p1", nil}, {ko.rounds[1][1].a, ko.rounds[1][1].b})
        assert.are.same({"p4", "p5"}, {ko.rounds[1][2].a, ko.rounds[1][2].b})
        assert.are.same({"p2", nil}, {ko.rounds[1][3].a, ko.rounds[1][3].b})
        assert.are.same({"p3", "p6"}, {ko.rounds[1][4].a, ko.rounds[1][4].b})
        local matches = 0
        for _, round in ipairs(ko.rounds) do
            for _, m in ipairs(round) do
                if m.a and m.b then
                    matches = matches + 1
                    assert.are.equal(6, m.games) -- 2 games and 2 tie-break pairs
                    assert.is_true(m.by_seed)
                    assert.are.equal(m.a < m.b and m.a or m.b, m.winner)
                end
            end
        end
        assert.are.equal(5, matches) -- 6 players, 5 eliminated
        assert.are.equal(30, res.games)
    end)

    it("with tiebreak = 0 a tie goes to the better seed at once; two players are one match", function()
        local res = run{players = {{name = "a", ai = first()}, {name = "b", ai = first()}}, format = "knockout",
            games = 4, tiebreak = 0, jobs = 1}
        assert.are.equal(4, res.games)
        assert.are.equal("a", res.knockout.winner)
        assert.are.equal(1, #res.knockout.rounds)
    end)

    it("the stronger player wins its matches; sprt, shards and tiebreak elsewhere are refused", function()
        local res = run{players = {"ai1", "ai14s", "ai2", "ai6s"}, format = "knockout", games = 4, seed = 2, jobs = 1}
        assert.are.equal("ai14s", res.knockout.winner)
        assert.has_error(function() run{players = {"ai1", "ai2"}, format = "knockout", sprt = "elo0=0,elo1=5"} end)
        assert.has_error(function() run{players = {"ai1", "ai2"}, format = "knockout", shard = "1/2"} end)
        assert.has_error(function() run{players = {"ai1", "ai2"}, tiebreak = 1} end)
    end)
end)

describe("adjudication", function()

    -- the result of each game of a journal, by game number
    local function results(dir)
        local out = {}
        for _, g in ipairs(games_of(dir)) do out[g.game] = g.result end
        return out
    end

    -- n seeded 15x15 positions where the side to move has a VCF (and the
    -- game goes on), as openings
    local function vcf_positions(n)
        local list, seed = {}, 11
        while #list < n do
            local g = mb.Marubatsu{width = 15, height = 15, k = 5}
            local stones = 16 + #list * 3
            while g.move_count < stones and g.status == "playing" do
                seed = (seed * 1103515245 + 12345) % 2147483648
                local x, y = 4 + seed % 7, 4 + (seed // 7) % 7 -- a crowded middle
                local m = g:xy_to_move(x, y)
                if g:getmark_by_move(m) == "." then g:move(m) end
            end
            if g.status == "playing" and #g:threats(g.turn == "o" and "x" or "o") == 0 and mb.vcf(g) then
                local sq = {}
                for i = 1, g.move_count do sq[i] = g:excel(g.records[i]) end
                list[#list + 1] = table.concat(sq, ",")
            end
        end
        return list
    end

    it("15x15: a VCF for the side to move ends the game at once, as gomoku plays it out", function()
        local openings = vcf_positions(6)
        local t = {players = {"gomoku", "gomoku:name=gomoku2"}, width = 15, height = 15, k = 5, games = 12, jobs = 2,
            openings = openings, seed = 5, move_time = 2}
        local played = newdir()
        t.out = played
        run(t)
        local adjudicated = newdir()
        t.out, t.adjudicate = adjudicated, true
        local res = run(t)
        assert.are.equal(12, res.adjudicated)
        assert.are.same(results(played), results(adjudicated))
        for _, g in ipairs(games_of(adjudicated)) do
            assert.matches("^adjudicated: [ox] wins by VCF %(", g.reason)
            assert.are.equal(select(2, g.moves:gsub("[^,]+", "")), #openings == 0 and 0
                or select(2, openings[(g.index - 1) // 2 % #openings + 1]:gsub("[^,]+",
                    ""))) -- no move after the opening
        end
        for _, g in ipairs(games_of(played)) do assert.are.equal("", g.reason) end
        -- the journal says so, and --resume re-checks every adjudication
        local journal = read(adjudicated .. "/journal.tsv")
        assert.truthy(journal:find("\nT\tadjudicate\tsolve<=12 vcf<=10\n", 1, true))
        t.resume = true
        assert.are.equal(12, run(t).games)
        local first = journal:match("\n(G\t[^\n]*)\n")
        local fields = {}
        for f in (first .. "\t"):gmatch("([^\t]*)\t") do fields[#fields + 1] = f end
        fields[9] = fields[9] == "o" and "x" or "o"
        write(adjudicated .. "/journal.tsv",
            journal:gsub(first:gsub("%p", "%%%0"), (table.concat(fields, "\t"):gsub("%%", "%%%%"))))
        local ok, err = pcall(run, t)
        assert.is_false(ok)
        assert.matches("journal.tsv:%d+: game %d+: adjudicated as 'adjudicated: [ox] wins by VCF", err)
    end)

    it("3x3: the solver's result equals the perfect ai_gt6 playing it out", function()
        local openings = {}
        local g = mb.Marubatsu()
        for a = 0, 8 do
            for b = 0, 8 do
                if b ~= a then openings[#openings + 1] = g:excel(a) .. "," .. g:excel(b) end
            end
        end
        local t = {players = {"ai_gt6", "ai_gt6:name=gt6b"}, games = 2 * #openings, jobs = 2, openings = openings,
            seed = 3}
        local played = newdir()
        t.out = played
        run(t)
        local adjudicated = newdir()
        t.out, t.adjudicate = adjudicated, true
        local res = run(t)
        assert.are.equal(2 * #openings, res.adjudicated)
        assert.are.same(results(played), results(adjudicated))
        local wins = 0
        for _, r in pairs(results(adjudicated)) do wins = wins + (r ~= "draw" and 1 or 0) end
        assert.is_true(wins > 0 and wins < 2 * #openings) -- both kinds of position are there
    end)

    it("max_moves: a draw with that many stones; other journals have no adjudication line", function()
        local dir = newdir()
        local res = run{players = {"ai1", "ai2"}, width = 7, height = 7, k = 5, games = 4, jobs = 1, max_moves = 6,
            out = dir}
        assert.are.equal(4, res.adjudicated)
        for _, g in ipairs(games_of(dir)) do
            assert.are.equal("draw", g.result)
            assert.are.equal("adjudicated: a draw (the move limit of 6)", g.reason)
            assert.are.equal(6, select(2, g.moves:gsub("[^,]+", "")))
        end
        assert.truthy(read(dir .. "/journal.tsv"):find("\nT\tmax_moves\t6\n", 1, true))
        dir = newdir()
        run{players = {"ai1", "ai2"}, games = 2, jobs = 1, out = dir}
        assert.is_nil(read(dir .. "/journal.tsv"):find("adjudicat", 1, true))
        assert.is_nil(read(dir .. "/results.json"):find("adjudicat", 1, true))
    end)
end)

describe("game records", function()
    -- an SGF collection as a list of games {props = {KEY = value, ...}, moves = {{colour, x, y}, ...}}
    -- (a small reader of the FF[4] syntax: nodes, properties, escaped values)
    local function read_sgf(text)
        local games, i, n = {}, 1, #text
        local function skip() while i <= n and text:sub(i, i):match("%s") do i = i + 1 end end
        while true do
            skip()
            if i > n then break end
            assert(text:sub(i, i) == "(", "a game tree starts with (")
            i = i + 1
            local game = {props = {}, moves = {}}
            while true do
                skip()
                local c = text:sub(i, i)
                if c == ")" then i = i + 1 break end
                assert(c == ";", "a node starts with ;")
                i = i + 1
                while true do
                    skip()
                    local key = text:match("^%u+", i)
                    if not key then break end
                    i = i + #key
                    skip()
                    assert(text:sub(i, i) == "[")
                    i = i + 1
                    local value = {}
                    while text:sub(i, i) ~= "]" do
                        if text:sub(i, i) == "\\" then i = i + 1 end
                        value[#value + 1] = text:sub(i, i)
                        i = i + 1
                    end
                    i = i + 1
                    value = table.concat(value)
                    if key == "B" or key == "W" then
                        local function v(ch)
                            local b = ch:byte()
                            return b >= 97 and b - 97 or b - 65 + 26
                        end
                        game.moves[#game.moves + 1] = {key, v(value:sub(1, 1)), v(value:sub(2, 2))}
                    else
                        game.props[key] = value
                    end
                end
            end
            games[#games + 1] = game
        end
        return games
    end

    -- a .psq file as {width, height, moves = {{x, y}, ...} (0-based), o, x}
    local function read_psq(text)
        local lines = {}
        for line in text:gmatch("[^\n]+") do lines[#lines + 1] = line end
        local w, h = lines[1]:match("^Piskvorky (%d+)x(%d+), 11:11, 0$")
        local moves = {}
        for i = 2, #lines - 3 do
            local x, y = lines[i]:match("^(%d+),(%d+),0$")
            moves[#moves + 1] = {tonumber(x) - 1, tonumber(y) - 1}
        end
        assert(lines[#lines] == "-1")
        return {width = tonumber(w), height = tonumber(h), moves = moves, o = lines[#lines - 2], x = lines[#lines - 1]}
    end

    -- each game of the journal in dir against its SGF tree and .psq file
    local function check_records(dir, shape)
        local trees = {}
        for _, t in ipairs(read_sgf(read(dir .. "/games.sgf"))) do trees[tonumber(t.props.GN:match("%d+"))] = t end
        local g = mb.Marubatsu(shape)
        local count = 0
        for _, rec in ipairs(games_of(dir)) do
            count = count + 1
            local t = assert(trees[rec.game], "game " .. rec.game .. " has its SGF tree")
            assert.are.equal("4", t.props.GM)
            assert.are.equal(shape.width == shape.height and tostring(shape.width) or shape.width .. ":"
                .. shape.height,
                t.props.SZ)
            assert.are.equal(rec.o, t.props.PB)
            assert.are.equal(rec.x, t.props.PW)
            local side = rec.result == "o" and "B+" or rec.result == "x" and "W+" or "0"
            assert.are.equal(side, t.props.RE:sub(1, #side))
            if rec.reason ~= "" then assert.are.equal(rec.reason, t.props.C) end
            local sq = {}
            for i, m in ipairs(t.moves) do
                assert.are.equal(i % 2 == 1 and "B" or "W", m[1])
                sq[i] = g:excel(g:xy_to_move(m[2], m[3]))
            end
            assert.are.equal(rec.moves, table.concat(sq, ","))
            if shape.k == 5 then
                local p = read_psq(read(("%s/games/%05d.psq"):format(dir, rec.game)))
                assert.are.same({shape.width, shape.height, rec.o, rec.x}, {p.width, p.height, p.o, p.x})
                for i, m in ipairs(p.moves) do sq[i] = g:excel(g:xy_to_move(m[1], m[2])) end
                assert.are.equal(#t.moves, #p.moves)
                assert.are.equal(rec.moves, table.concat(sq, ",", 1, #p.moves))
            end
        end
        local n = 0
        for _ in pairs(trees) do n = n + 1 end
        assert.are.equal(count, n) -- no tree without its game
        return count
    end

    it("9x9 with k = 5: games.sgf and a .psq per game read back to the journal's games", function()
        local dir = newdir()
        local shape = {width = 9, height = 9, k = 5}
        run{players = {"ai1", "ai2", "tests/hostile/illegal_move.lua:name=bad ]\\name", "ai14s"}, width = 9, height = 9,
            k = 5, games = 4, jobs = 2, out = dir, allow_forfeits = true, max_moves = 30}
        assert.are.equal(24, check_records(dir, shape))
        assert.truthy(read(dir .. "/games.sgf"):find("PB[bad \\]\\\\name]", 1, true))
        -- cut to its first games and resumed: every game still there
        local text = read(dir .. "/journal.tsv")
        write(dir .. "/journal.tsv", text:match("^(.-\nG[^\n]*\nG[^\n]*\nG[^\n]*\n)"))
        os.remove(dir .. "/games.sgf")
        run{players = {"ai1", "ai2", "tests/hostile/illegal_move.lua:name=bad ]\\name", "ai14s"}, width = 9, height = 9,
            k = 5, games = 4, jobs = 1, out = dir, allow_forfeits = true, max_moves = 30, resume = true}
        assert.are.equal(24, check_records(dir, shape))
    end)

    it("3x3 and a 7x5 board: games.sgf only (no .psq below k = 5)", function()
        local dir = newdir()
        run{players = {"ai1", "ai14s"}, games = 6, jobs = 1, out = dir}
        assert.are.equal(6, check_records(dir, {width = 3, height = 3, k = 3}))
        assert.is_nil(io.open(dir .. "/games"))
        dir = newdir()
        run{players = {"ai1", "ai2"}, width = 7, height = 5, k = 4, games = 4, jobs = 1, out = dir}
        assert.are.equal(4, check_records(dir, {width = 7, height = 5, k = 4}))
    end)

    it("merge writes the records of the merged games", function()
        local s1, s2, m = newdir(), newdir(), newdir()
        local t = {players = {"ai1", "ai2"}, width = 9, height = 9, k = 5, games = 4, jobs = 1}
        t.out, t.shard = s1, "1/2"
        run(t)
        t.out, t.shard = s2, "2/2"
        run(t)
        host.tournament_merge{dirs = {s1, s2}, out = m, quiet = true}
        assert.are.equal(4, check_records(m, {width = 9, height = 9, k = 5}))
    end)
end)
