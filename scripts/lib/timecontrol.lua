-- scripts/lib/timecontrol.lua: time controls for games between AIs (the
-- --move-time and --game-time options of `tournament`, `match` and
-- `play`; docs/lua-api.md §5.12): reading them, each move's limit and the
-- AI's share of it, the params fields an AI sees, and one timed move of a
-- trusted or sandboxed AI. Embedded; runs once with mb and the library's
-- private table, where it leaves private.timecontrol for match.lua,
-- play.lua, brains.lua, gomocup_brain.lua and tournament.lua.
--
-- A time control is {move = S, game = S, increment = S} (seconds; move
-- and game may be nil, not both): at most `move` seconds per move, and a
-- clock per player of `game` seconds for the whole game that gains
-- `increment` after each of its moves. Its text (the journal's `T
-- time_control` line, the tables' titles) is "move=S", "game=S+INC" or
-- both, e.g. "move=1 game=60+0.5".
--
-- A move's hard limit is min(move, clock left): past it the player loses
-- on time. Its share (what the AI is asked to use, params.timelimit) is
-- SOFT x min(move, left / max(8, empty // 4) + increment, left): a
-- clock is spread over at least 8 moves, more while many squares are
-- empty, and 20% is kept for the AI's own overhead. The same rule paces
-- `marubatsu brain` under a manager's timeout_turn / time_left.
local mb, private = ...
local host = private.host -- the host library (timed_call)

local TC = {}
private.timecontrol = TC

TC.SOFT = 0.8 -- the share of a move's budget an AI is asked to use
TC.MIN_SPREAD = 8 -- a clock is spread over at least this many moves
local MAX_SECONDS = 1e7

local fail = private.fail

-- A number of seconds from a number or a text: > 0 (>= 0 with zero_ok).
local function seconds_of(v, what, zero_ok, level)
    local n = v
    if type(v) == "string" then
        n = v:match("^%s*[%d.]+[eE]?[-+]?%d*%s*$") and tonumber(v) or nil
    end
    if type(n) ~= "number" or n ~= n or n > MAX_SECONDS or n < 0 or (n == 0 and not zero_ok) then
        fail(("%s must be a number of seconds %s (at most %g), not '%s'"):format(what,
            zero_ok and ">= 0" or "> 0", MAX_SECONDS, tostring(v)), (level or 1) + 1)
    end
    return n + 0.0
end

-- TC.of{move_time =, game_time =, increment =} -> time control | nil
-- (none given). game_time is S or "S+INC" (then no separate increment).
-- Raises a one-line message naming the option at fault.
function TC.of(t, prefix)
    prefix = prefix or ""
    local move, game, inc = t.move_time, t.game_time, t.increment
    if move == nil and game == nil then
        if inc ~= nil then fail(prefix .. "increment needs game_time (a clock to add to)", 2) end
        return nil
    end
    local tc = {increment = 0.0}
    if move ~= nil then tc.move = seconds_of(move, prefix .. "move_time", false, 2) end
    if game ~= nil then
        if type(game) == "string" and game:find("+", 1, true) then
            local s, i = game:match("^%s*([^+]*)%+(.*)$")
            if not s then fail(("%sgame_time must be S or S+INC, not '%s'"):format(prefix, game), 2) end
            if inc ~= nil then fail(prefix .. "increment given twice (game_time S+INC and increment)", 2) end
            game, inc = s, i
        end
        tc.game = seconds_of(game, prefix .. "game_time", false, 2)
        if inc ~= nil then tc.increment = seconds_of(inc, prefix .. "increment", true, 2) end
    elseif inc ~= nil then
        fail(prefix .. "increment needs game_time (a clock to add to)", 2)
    end
    return tc
end

local function num(v) return ("%.6g"):format(v) end

-- "move=1 game=60+0.5"
function TC.text(tc)
    local parts = {}
    if tc.move then parts[#parts + 1] = "move=" .. num(tc.move) end
    if tc.game then
        parts[#parts + 1] = "game=" .. num(tc.game) .. (tc.increment > 0 and "+" .. num(tc.increment) or "")
    end
    return table.concat(parts, " ")
end

-- TC.parse_text(text) -> tc: the inverse of TC.text (a journal's line).
function TC.parse_text(text)
    local t = {}
    for k, v in text:gmatch("(%w+)=(%S+)") do
        if k == "move" then t.move_time = v elseif k == "game" then t.game_time = v end
    end
    return TC.of(t)
end

-- The clocks of a game: seconds left per side (nil without a game clock).
function TC.clocks(tc)
    return {o = tc.game, x = tc.game}
end

-- TC.limit(tc, left) -> seconds, kind: the move's hard limit, "move" or
-- "game" for the one that binds.
function TC.limit(tc, left)
    if left and (not tc.move or left < tc.move) then return math.max(left, 0.0), "game" end
    return tc.move, "move"
end

-- TC.budget(move, left, increment, empty) -> seconds: the allocation rule
-- before SOFT (move, left: nil when absent).
function TC.budget(move, left, increment, empty)
    local b = move or math.huge
    if left then
        local share = left / math.max(TC.MIN_SPREAD, empty // 4) + (increment or 0)
        b = math.min(b, share, left)
    end
    return b
end

-- TC.params(params, tc, left, empty) -> a copy of params with timelimit
-- (the move's share, seconds) and, with a game clock, time_left (seconds
-- left on the mover's clock before this move); keys the player's spec
-- set itself are kept.
function TC.params(params, tc, left, empty)
    local p = {}
    for k, v in pairs(params) do p[k] = v end
    if p.timelimit == nil then p.timelimit = TC.SOFT * TC.budget(tc.move, left, tc.increment, empty) end
    if left and p.time_left == nil then p.time_left = math.max(left, 0.0) end
    return p
end

-- The reason of a loss on time.
function TC.reason(tc, kind, limit)
    if kind == "game" then
        return ("time: the game clock of %s s ran out (game time)"):format(num(tc.game))
    end
    return ("time: no move within %s s (move time)"):format(num(limit))
end

local illegal = private.illegal -- scripts/lib/sandbox.lua
local now = mb.clock

-- TC.slack_of(v, prefix) -> seconds: the slack of the hard line (nil: the
-- default, host.watch_slack), a number of seconds >= 0.
function TC.slack_of(v, prefix)
    if v == nil then return host.watch_slack end
    return seconds_of(v, (prefix or "") .. "slack", true, 2)
end

-- TC.move(player, g, params, tc, left [, spent]) -> move | nil, reason;
-- seconds used. player: {ai = AI} (trusted: called under host.timed_call)
-- or {sandbox = player, sandbox_time = its own time budget or nil} (its
-- time budget for this move becomes min(that, the limit); the move runs
-- under the hard line, host.watch_move, spent = {o =, x =} the seconds each
-- side used before it, for the journal of a move the hard line ends). Over
-- the limit, measured around the call, is a loss on time whatever the call
-- returned.
function TC.move(player, g, params, tc, left, spent)
    local limit, kind = TC.limit(tc, left)
    local p = TC.params(params, tc, left, g.width * g.height - g.move_count)
    local m, why
    local t0 = now()
    if player.sandbox then
        local own = player.sandbox_time
        local budget = own and math.min(own, limit) or limit
        player.sandbox:set_time(budget > 0 and budget or 1e-6)
        host.watch_move(budget, g, kind, limit, spent and spent.o, spent and spent.x)
        m, why = player.sandbox:move(g, p)
        host.watch_done()
        local used = now() - t0
        if used > limit or (m == nil and why == "time" and budget == limit) then
            return nil, TC.reason(tc, kind, limit), used
        end
        return m, why, used
    end
    local ok, r, timed_out = host.timed_call(limit, player.ai.fn, g, p)
    local used = now() - t0
    if timed_out or used > limit then return nil, TC.reason(tc, kind, limit), used end
    if not ok then return nil, "error: " .. tostring(r), used end
    local what = illegal(g, r)
    if what then return nil, "illegal move: " .. what, used end
    return r, nil, used
end

-- The journal's C line of game g of a timed tournament: the seconds the
-- moves of 〇 and of × took, to the millisecond (docs/journal.md).
function TC.clock_line(g, o, x)
    return ("C\t%d\t%.3f\t%.3f\n"):format(g, o, x)
end

-- TC.parse_clock_line(line) -> game, o, x | nil, message
function TC.parse_clock_line(line)
    local g, o, x = line:match("^C\t(%d+)\t(%d+%.%d%d%d)\t(%d+%.%d%d%d)$")
    g = g and math.tointeger(tonumber(g))
    if not g or g < 1 then
        return nil, "a clock line is C, the game number and the seconds of 〇 and × (C\t7\t1.250\t0.875)"
    end
    return g, tonumber(o), tonumber(x)
end

-- After a move that took `used` seconds: the clock left (nil: none).
function TC.charge(tc, left, used)
    if not left then return nil end
    return left - used + tc.increment
end

return TC
