-- scripts/lib/check.lua: Check_solved of the series (ais.md §9.4), the
-- strong-solution check of an AI over the test positions of ais.md §10.
-- Embedded; runs once with mb as its argument and adds
-- mb.cached_bestmoves_table, mb.test_positions and mb.check_solved.
local mb = ...

-- mb.cached_bestmoves_table([scoring]) -> table: mb.bestmoves_table(scoring)
-- built once per Lua state ("old" default, "sv", "sv_rd"). Shared: read only.
local tables = {}
function mb.cached_bestmoves_table(scoring)
    scoring = scoring or "old"
    local t = tables[scoring]
    if not t then
        t = mb.bestmoves_table(scoring)
        tables[scoring] = t
    end
    return t
end

-- mb.test_positions([kind]) -> list of move lists: mb.mblist_by_board(kind)
-- ("min": 431 positions, "all": 3191), generated once. Shared: read only.
local lists = {}
function mb.test_positions(kind)
    kind = kind or "min"
    local l = lists[kind]
    if not l then
        l = mb.mblist_by_board(kind)
        lists[kind] = l
    end
    return l
end

-- mb.check_solved(ai [, params [, opts]]) -> passed, failures, count
-- ai: an AI, or anything mb.ai accepts ("ai14s"). For each test position P,
-- C = the candidate set of ai(P, analyze = true, params...), B = the plain
-- best moves of P's board; P passes iff C ⊆ B. Prints
-- "{count}/{n} {100*count/n:.2f}%" unless opts.quiet. passed is count == n;
-- failures is a list of {moves =, candidate =, bestmoves =}.
-- opts.positions: "min" (default, 431), "all" (3191) or a list of move lists;
-- opts.table: the best-move table (default: the plain one from the engine);
-- opts.out: a file for the line (default io.stdout).
function mb.check_solved(ai, params, opts)
    ai = mb.ai(ai)
    opts = opts or {}
    local positions = opts.positions or "min"
    if type(positions) == "string" then positions = mb.test_positions(positions) end
    local best = opts.table or mb.cached_bestmoves_table("old")
    local p = {}
    for k, v in pairs(params or {}) do p[k] = v end
    p.analyze = true
    local count, failures = 0, {}
    for _, moves in ipairs(positions) do
        local g = mb.Marubatsu()
        for _, m in ipairs(moves) do g:move(m) end
        local key = g:board_to_str()
        local result = ai(g, p)
        local candidate = type(result) == "table" and result.candidate or {}
        local row = best[key]
        local bestmoves = row and (row.bestmoves or row) or {}
        local set = {}
        for _, m in ipairs(bestmoves) do set[m] = true end
        local ok = true
        for _, m in ipairs(candidate) do
            if not set[m] then ok = false break end
        end
        if ok then
            count = count + 1
        else
            failures[#failures + 1] = {moves = moves, candidate = candidate, bestmoves = bestmoves}
        end
    end
    local n = #positions
    if not opts.quiet then
        local pct = n > 0 and 100 * count / n or 0
        ;(opts.out or io.stdout):write(("%d/%d %.2f%%\n"):format(count, n, pct))
    end
    return count == n, failures, count
end
