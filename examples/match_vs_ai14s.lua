-- match_vs_ai14s.lua: match the example AI against the series' best
-- rule-based AI, ai14s, then against random play, and report.
--
--     marubatsu run examples/match_vs_ai14s.lua [ITERATIONS] [SEED]
--
-- Each iteration is two games (each AI plays 〇 once); the tables are the
-- series' format, from the first AI's point of view.
local mb = require "marubatsu"

local n = tonumber(arg[1]) or 1000
local seed = tonumber(arg[2]) or 0

-- mb.ai takes a name (built-in or on mb.path) or a file path; the path is
-- relative to where the program runs, so find this script's directory.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
local mine = mb.ai(here .. "/my_first_ai.lua")

for _, opponent in ipairs({"ai14s", "ai2"}) do
    local t = mb.ai_match{ai = {mine, opponent}, match_num = n, seed = seed}
    local score = (t.total.win + t.total.draw / 2) / (2 * n)
    print(("%s scores %.1f%% against %s"):format(mine.name, 100 * score, opponent))
    print()
end
