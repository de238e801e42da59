-- tests/bench/tournament.lua: tournament throughput (games/s) of rule-based
-- Lua AIs with jobs = 1 and jobs = 2 (the scaling ratio), and the cost of
-- the sandbox: the same tournament with the AIs loaded as script files,
-- sandboxed, and trusted. Runs alternate so that both sides of a ratio see
-- the same machine load; medians of REPS runs.
-- Usage: marubatsu run tests/bench/tournament.lua [REPS] [GAMES]
local reps = tonumber(arg and arg[1]) or 7
local games = tonumber(arg and arg[2]) or 1000

local function median(t)
    local c = {}
    for i, v in ipairs(t) do c[i] = v end
    table.sort(c)
    return c[(#c + 1) // 2]
end

local names = {"ai14s", "ai6s", "ai4", "ai3"}
local files = {}
for i, n in ipairs(names) do files[i] = mb.scripts_dir .. "/" .. n .. ".lua" end

-- games per second of one tournament
local function rate(t)
    t.games, t.seed, t.quiet, t.progress = games, 1, true, false
    local t0 = mb.clock()
    local res = mb.tournament(t)
    return res.games / (mb.clock() - t0)
end

local r1, r2, on, off = {}, {}, {}, {}
for _ = 1, reps do
    r1[#r1 + 1] = rate{players = names, jobs = 1}
    r2[#r2 + 1] = rate{players = names, jobs = 2}
    on[#on + 1] = rate{players = files, jobs = 1}
    off[#off + 1] = rate{players = files, jobs = 1, sandbox = false}
end
local pairings = #names * (#names - 1) // 2
print(("tournament of %s, %d games per pairing (%d games), median of %d runs:"):format(
    table.concat(names, " "), games, games * pairings, reps))
print(("  jobs 1: %8.0f games/s"):format(median(r1)))
print(("  jobs 2: %8.0f games/s   scaling x%.2f (%d cores)"):format(median(r2), median(r2) / median(r1), mb.cpu_count()))
print(("  script files sandboxed: %8.0f games/s, trusted: %8.0f games/s   sandbox overhead %+.1f%%"):format(
    median(on), median(off), 100 * (median(off) / median(on) - 1)))
