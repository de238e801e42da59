-- scripts/lib/progress.lua: the progress report of the long commands
-- (match, tournament) on stderr, private.progress. Embedded; runs once with
-- mb and the library's private table as its arguments.
--
-- Three modes:
--   bar    one line that rewrites itself (\r), as wide as the terminal:
--          done/total, percent, a bar, elapsed time, time left, the rate
--   lines  a line now and then for a log: every INTERVAL seconds and when
--          the work is done ("match: 120/10000 iterations (1%) ... [3s,
--          4m05s left, 40.0 it/s]"); the times come last, in brackets
--   none   nothing
-- The default is bar when stderr is a terminal, lines otherwise.
local mb, private = ...

local P = {}
P.MODES = {"bar", "lines", "none"}
P.INTERVAL = 5 -- seconds between two lines of the lines mode

-- The mode asked for: "bar", "lines", "none", false (none), or nil / true
-- (the default for stderr) -> mode. Anything else raises "bad mode".
function P.mode(asked)
    if asked == false then return "none" end
    if asked == nil or asked == true then return mb.isatty(2) and "bar" or "lines" end
    for _, m in ipairs(P.MODES) do
        if asked == m then return m end
    end
    error(("progress must be bar, lines or none, not '%s'"):format(tostring(asked)), 0)
end

-- seconds as 42s, 3m05s or 2h07m
function P.duration(s)
    s = math.max(0, math.floor(s + 0.5))
    if s < 60 then return ("%ds"):format(s) end
    if s < 3600 then return ("%dm%02ds"):format(s // 60, s % 60) end
    return ("%dh%02dm"):format(s // 3600, s % 3600 // 60)
end

-- The width of the terminal on stderr (at least 40; 80 when unknown).
local function columns()
    local c = private.columns and private.columns(2) or 0
    if c <= 0 then c = tonumber(os.getenv("COLUMNS") or "") or 80 end
    return math.max(40, math.floor(c))
end

-- P.new{mode =, total =, label = "match", unit = "iterations", rate_unit =
-- "it/s", interval = P.INTERVAL} -> a report r with
--   r:update(done, extra)  done of total finished (extra: a function
--                          returning a short text such as a running score,
--                          shown after the count; called only when drawn)
--   r:clear()              (bar) wipe the line, before other stderr output
--   r:finish()             (bar) end the line
-- The lines mode always writes the line of done == total.
function P.new(t)
    local r = {mode = t.mode, total = t.total, label = t.label or "match", unit = t.unit or "iterations",
        rate_unit = t.rate_unit or "it/s", interval = t.interval or P.INTERVAL, t0 = mb.clock(), last = nil,
        drawn = false}
    local function times(done, now)
        local dt = now - r.t0
        local rate = dt > 0 and done / dt or 0
        local left = rate > 0 and (r.total - done) / rate or 0
        return dt, left, rate
    end
    function r.update(_, done, extra)
        if r.mode == "none" then return end
        local now = mb.clock()
        local final = done >= r.total
        if r.mode == "lines" then
            if not final and r.last and now - r.last < r.interval then return end
            if not final and not r.last and now - r.t0 < r.interval then return end
            r.last = now
            local dt, left, rate = times(done, now)
            extra = extra and extra()
            io.stderr:write(("%s: %d/%d %s (%d%%)%s [%s, %s left, %.1f %s]\n"):format(r.label, done, r.total,
                r.unit, r.total > 0 and 100 * done // r.total or 100, extra and " " .. extra or "", P.duration(dt),
                P.duration(left), rate, r.rate_unit))
            return
        end
        -- bar: at most ten redraws a second, and the last
        if not final and r.last and now - r.last < 0.1 then return end
        r.last = now
        local dt, left, rate = times(done, now)
        extra = extra and extra()
        local pct = r.total > 0 and 100 * done // r.total or 100
        local head = ("%3d%%|"):format(pct)
        local rate_text = (rate >= 100 and "%.0f %s" or "%.1f %s"):format(rate, r.rate_unit)
        local function tail(with_extra)
            return ("| %d/%d %s[%s<%s, %s]"):format(done, r.total, with_extra and extra and extra .. " " or "",
                P.duration(dt), P.duration(left), rate_text)
        end
        local width = columns() - 1 -- the last column would wrap on some terminals
        -- the bar with the extra text, else without it, else the numbers alone
        local text = tail(true)
        if width - #head - utf8.len(text) < 10 then text = tail(false) end
        local room = width - #head - utf8.len(text)
        if room < 10 then
            text = ("%3d%% %d/%d [%s left]"):format(pct, done, r.total, P.duration(left)):sub(1, width)
        else
            local bar = math.min(room, 40)
            local filled = r.total > 0 and bar * done // r.total or bar
            text = head .. ("#"):rep(filled) .. (" "):rep(bar - filled) .. text
        end
        io.stderr:write("\r", text, (" "):rep(math.max(0, width - utf8.len(text))))
        r.drawn = true
    end
    function r.clear()
        if r.mode == "bar" and r.drawn then io.stderr:write("\r", (" "):rep(columns() - 1), "\r") end
    end
    function r.finish()
        if r.mode == "bar" and r.drawn then io.stderr:write("\n") end
        r.drawn = false
    end
    return r
end

private.progress = P
