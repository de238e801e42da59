-- scripts/lib/check.lua: Check_solved of the series (ais.md §9.4), the
-- strong-solution check of an AI over the test positions of ais.md §10.
-- Embedded; runs once with mb as its argument and adds
-- mb.cached_bestmoves_table, mb.test_positions, mb.check_solved,
-- mb.check_weakly_solved, and the move-history tables of ai_gt3 .. ai_gt5
-- (mb.records_key, mb.history, mb.nodes_by_records, mb.bestmoves_by_records).
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
-- ("min": 431 positions, "all": 3191, "unfinished": 4520), generated once. Shared: read only.
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
-- opts.positions: "min" (default, 431), "all" (3191), "unfinished" (4520,
-- every reachable unfinished board) or a list of move lists;
-- opts.weak: run mb.check_weakly_solved(ai, params, opts) instead and
-- return its boolean (and {o =, x =});
-- opts.table: the best-move table (default: the plain one from the engine);
-- opts.out: a file for the line (default io.stdout).
function mb.check_solved(ai, params, opts)
    opts = opts or {}
    if opts.weak then return mb.check_weakly_solved(ai, params, opts) end
    ai = mb.ai(ai)
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

-- ---- Move-history tables of the game tree (ai_gt3 .. ai_gt5) ----

-- mb.records_key(game) -> string: the series' full record tuple as a key,
-- records[0] (the -1 marker) included: "-1,4,3" after moves 4 and 3.
function mb.records_key(game)
    local r = game.records
    local parts = {"-1"}
    for i = 1, game.move_count do parts[#parts + 1] = tostring(r[i]) end
    return table.concat(parts, ",")
end

local function key_moves(key)
    local moves = {}
    for m in key:gmatch("[^,]+") do
        local v = math.tointeger(tonumber(m))
        if v == nil then return nil end
        if v >= 0 then moves[#moves + 1] = v end
    end
    return moves
end

-- A map records key -> value, filled on demand from the cached game tree
-- (the series' nodelist_by_mb / bestmoves_by_mb hold all 549,946 nodes;
-- filling lazily gives the same lookups).
local function lazy_map(fetch)
    return setmetatable({}, {__index = function(t, key)
        if type(key) ~= "string" or key:sub(1, 3) ~= "-1," and key ~= "-1" then return nil end
        local moves = key_moves(key)
        local v = moves and fetch(moves)
        if v ~= nil then rawset(t, key, v) end
        return v
    end})
end

-- mb.nodes_by_records([scoring]) -> map records key -> mb.tree_node(...)
-- mb.bestmoves_by_records([scoring]) -> map records key -> best moves
-- One per Lua state and scoring ("old" default, "sv", "sv_rd"). Read only.
local node_maps, best_maps = {}, {}
function mb.nodes_by_records(scoring)
    scoring = scoring or "old"
    local m = node_maps[scoring]
    if not m then
        m = lazy_map(function(moves) return mb.tree_node(moves, scoring) end)
        node_maps[scoring] = m
    end
    return m
end
function mb.bestmoves_by_records(scoring)
    scoring = scoring or "old"
    local m = best_maps[scoring]
    if not m then
        m = lazy_map(function(moves) return mb.tree_bestmoves(moves, scoring) end)
        best_maps[scoring] = m
    end
    return m
end

-- mb.history(game) -> {move, ...}: records[1 .. move_count].
function mb.history(game)
    local r, h = game.records, {}
    for i = 1, game.move_count do h[i] = r[i] end
    return h
end

-- ---- is_weakly_solved (ais.md §9.4) ----

-- mb.check_weakly_solved(ai [, params [, opts]]) -> passed, by_turn
-- For turn in o, x, from the empty board with a fresh set of visited board
-- keys: a visited node passes; a game won by turn or drawn passes, lost
-- fails; otherwise every child by the AI's candidates (analyze = true) on
-- turn's move, by every legal move on the other's, must pass (in order,
-- stopping at the first failure). Prints "   o <bool>", "   x <bool>" and
-- "Both <bool>" unless opts.quiet (opts.out: the file, default io.stdout).
-- by_turn = {o = bool, x = bool}.
function mb.check_weakly_solved(ai, params, opts)
    ai = mb.ai(ai)
    opts = opts or {}
    local p = {}
    for k, v in pairs(params or {}) do p[k] = v end
    p.analyze = true
    local out = opts.out or io.stdout
    local by_turn, both = {}, true
    for _, turn in ipairs({"o", "x"}) do
        local visited = {}
        local g = mb.Marubatsu()
        local function rec()
            local key = g:board_to_str()
            if visited[key] then return true end
            visited[key] = true
            local status = g.status
            if status == turn or status == "draw" then return true end
            if status ~= "playing" then return false end
            local moves
            if g.turn == turn then
                local result = ai(g, p)
                moves = type(result) == "table" and result.candidate or {}
            else
                moves = g:calc_legal_moves()
            end
            for _, m in ipairs(moves) do
                g:move(m)
                local ok = rec()
                g:unmove()
                if not ok then return false end
            end
            return true
        end
        local ok = rec()
        by_turn[turn] = ok
        both = both and ok
        if not opts.quiet then out:write(("   %s %s\n"):format(turn, tostring(ok))) end
    end
    if not opts.quiet then out:write(("Both %s\n"):format(tostring(both))) end
    return both, by_turn
end
