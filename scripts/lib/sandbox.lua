-- scripts/lib/sandbox.lua: mb.sandbox, the host's half of the sandbox
-- (limits, the player's methods, describing a bad result); the C half is
-- src/lua/l_sandbox.c (one Lua state per player, budgets, moves), the
-- player's environment scripts/lib/sandbox_env.lua. Embedded; runs once
-- with mb and the library's private table, where C left sandbox_c = {
-- new_player, raw_move, fields, close, stats, seed, check_params, set_time, inventory,
-- Player }.
-- Leaves private.illegal for the tournaments (scripts/lib/tournament.lua).
local mb, private = ...
local c = private.sandbox_c
local new_player, raw_move, fields = c.new_player, c.raw_move, c.fields

local sandbox = {}
mb.sandbox = sandbox

-- The default budgets: time and memory. The instruction budget is opt-in
-- (limits.instructions): while it is armed Lua 5.4 runs every VM
-- instruction through its hook check, whatever the count, which made
-- sandboxed tournaments 16-18% slower than trusted ones; the time budget is
-- a timer that costs nothing per instruction. 1 s is what a runaway script
-- now costs per move (5 s before), and still leaves room for every move
-- the old default of 10^7 instructions let through, 30 ms to 0.5 s on the
-- development VM (docs/lua-api.md §5.10).
sandbox.defaults = {time = 1, memory = 64 * 1024 * 1024}

local function describe(v, kind)
    if kind ~= nil then return "a " .. kind .. " value" end
    if v == nil then return "nothing" end
    if type(v) == "string" then return ("%q (a string)"):format(v) end
    if type(v) == "number" then return tostring(v) .. " (not an integer)" end
    return "a " .. type(v) .. " value"
end

-- private.illegal(g, m [, kind]) -> what is wrong with the result m of a
-- move on g, or nil when it is a legal move (kind: the type of a value
-- that could not be copied out of a sandbox)
function private.illegal(g, m, kind)
    if math.type(m) ~= "integer" then return describe(m, kind) end
    local ok, where = pcall(g.excel, g, m)
    if not ok then return tostring(m) .. " (off the board)" end
    if g:getmark_by_move(m) ~= "." then return ("%d (%s, occupied)"):format(m, where) end
    if g.status ~= "playing" then return ("%d (%s, the game is over)"):format(m, where) end
    return nil
end
local illegal = private.illegal

local LIMITS = {"instructions", "time", "memory"}
local KNOWN = {instructions = true, time = true, memory = true}

local function limits_of(t)
    local l = {}
    for k, v in pairs(sandbox.defaults) do l[k] = v end
    if t ~= nil then
        if type(t) ~= "table" then error("bad argument #2 to 'load' (table of limits expected)", 3) end
        for k in pairs(t) do
            if not KNOWN[k] then
                error(("bad limit '%s' (known: %s)"):format(tostring(k), table.concat(LIMITS, ", ")), 3)
            end
        end
        for _, k in ipairs(LIMITS) do
            if t[k] ~= nil then
                if t[k] ~= false and not (type(t[k]) == "number" and t[k] > 0) then
                    error(("bad limit '%s' (a number > 0, or false for none, expected)"):format(k), 3)
                end
                l[k] = t[k] or nil
            end
        end
    end
    return l
end

-- mb.sandbox.load(spec [, limits]) -> player | nil, message
function sandbox.load(spec, limits)
    if type(spec) ~= "string" then error("bad argument #1 to 'load' (string expected)", 2) end
    return new_player(spec, limits_of(limits), (private.basename(spec)))
end

-- mb.sandbox.inventory() -> {"PATH TYPE", ...}: what a sandboxed script
-- can reach (sandbox_env.lua's inventory, run in a fresh player state)
sandbox.inventory = c.inventory

local methods = {close = c.close, stats = c.stats, seed = c.seed, check_params = c.check_params,
    set_time = c.set_time, tune = c.tune}

-- player:move(game, params) -> move | nil, reason
function methods.move(p, game, params)
    local m, v, kind = raw_move(p, game, params)
    if m then return m end
    local reason = v
    if m == false then reason = "illegal move: " .. (illegal(game, v, kind) or "?") end
    fields(p).last_reason = reason
    return nil, reason
end

local Player = c.Player
Player.__index = function(p, k)
    local f = methods[k]
    if f ~= nil then return f end
    return fields(p)[k]
end
Player.__tostring = function(p) return "sandboxed AI " .. fields(p).name end
-- a sandboxed player is also callable as an AI: errors on a failed move
Player.__call = function(p, game, params)
    local m, reason = methods.move(p, game, params)
    if m == nil then error(("%s: %s"):format(fields(p).name, reason), 2) end
    return m
end
