-- src/jupyter/driver.lua: the Lua half of the Jupyter kernel (the Python
-- half is marubatsu_kernel.py beside it). The kernel starts `marubatsu` as
-- the REPL, fed from pipes, and sends this file as the REPL's first chunk:
--
--     assert(load(io.read(N), "=[kernel]"))(FD, PROGRAM)
--
-- followed by its N bytes. Then each request of the kernel is two lines:
-- the REPL chunk `__jupyter_step()` and the request itself, so that every
-- cell runs as its own REPL chunk, in the REPL's globals (mb, help, reload,
-- _, what the init file made), with the REPL's Ctrl-C: the kernel's
-- interrupt (SIGINT to this process group) raises "interrupted" in the
-- running cell as Ctrl-C does in the terminal, and whatever the REPL resets
-- between chunks is reset between cells. A step returns only once the next
-- request is there, so the REPL never waits for a line itself (in a pipe,
-- an interrupt there would read as the end of its input).
--
-- Requests (one line each on stdin, the body escaped: "\\" and "\n"):
--   run COUNT<TAB>CODE, complete<TAB>WORD\0LINE, inspect<TAB>NAME,
--   is_complete<TAB>CODE; during a cell, input<TAB>TEXT or eof<TAB> answer
--   an input frame.
-- Answers go to the pipe FD ("/dev/fd/FD") as frames: a header line of
-- words whose last one is the body's length in bytes, then the body:
--   ready VERSION 0; data MIME LEN (one part of a bundle), then result 0
--   (the cell's value) or display 0 (display()); error KIND LEN (the
--   message) then traceback LEN; done ok|error 0; input LEN (the cell reads
--   stdin); reply LEN (completions one a line, help text, or "complete" |
--   "incomplete" | "invalid").
-- stdout and stderr stay the cell's own streams; stdout is flushed before
-- every frame, so the kernel shows output and pictures in their order.
--
-- Interrupts must never cut a frame or lose a request: the REPL's handler
-- arms a hook on the main thread only, so all reading and writing here runs
-- in a coroutine made before any cell ran, with no hook (`io_thread`); the
-- cells and the __repr functions run on the main thread, interruptible.
local fd, program = ...
local mb = _G.mb
local proto = assert(io.open("/dev/fd/" .. fd, "wb"))
io.stdout:setvbuf("line")

local stdin = io.stdin
local file_methods = getmetatable(stdin).__index
local raw_read = file_methods.read
local raw_lines = file_methods.lines
local raw_io_read, raw_io_lines = io.read, io.lines

-- The REPL's library (scripts/lib/repl.lua): its printing, completion and
-- help, kept in the registry by the REPL once it started.
local function repl() return debug.getregistry()["marubatsu.repl"] end
local guard = repl().guard -- hold interrupts back, or let them through

local MAX_PICTURE = 8 * 1024 * 1024 -- bytes of one tree picture

-- ---- frames -----------------------------------------------------------------

-- The I/O jobs, run by io_thread: ("send", frames) writes frames, each
-- {kind, body, words...}; ("line", t) reads one request line into t.line;
-- ("wait") waits until stdin has data or ends.
local function io_job(job, arg)
    if job == "send" then
        io.stdout:flush()
        for _, f in ipairs(arg) do
            local body = f[2] or ""
            local head = {f[1]}
            for i = 3, #f do head[#head + 1] = f[i] end
            head[#head + 1] = #body
            proto:write(table.concat(head, " "), "\n", body)
        end
        proto:flush()
        return true
    elseif job == "line" then
        -- a request line into arg.line (kept there if an interrupt comes as
        -- the read returns); an interrupt (EINTR) gives nil and a message
        local line, err = raw_read(stdin, "l")
        arg.line = line
        return line, err
    elseif job == "ack" then
        -- until the kernel's "--ack" (an interrupt gives up: the line is
        -- then skipped later, and is a comment to the REPL anyway)
        while true do
            local line = raw_read(stdin, "l")
            if line == nil or line == "--ack" then return line end
        end
    else
        -- until stdin has data or ends (a late "--ack" is data: the REPL
        -- then reads it as a comment)
        while true do
            local ok, err = raw_read(stdin, 0)
            if ok or not (err and err:find("nterrupt")) then return ok end
        end
    end
end

local io_thread = coroutine.create(function(job, arg)
    while true do job, arg = coroutine.yield(io_job(job, arg)) end
end)
debug.sethook(io_thread)

local function io_run(job, arg)
    local ok, a, b = coroutine.resume(io_thread, job, arg)
    if not ok then error(a, 0) end
    return a, b
end

local function send(kind, body, ...) io_run("send", {{kind, body, ...}}) end

-- A request line: kind, words, body (unescaped); nil for none.
local function parse(line)
    if line == nil then return nil end
    local head, body = line:match("^([^\t]*)\t?(.*)$")
    body = body:gsub("\\(.)", {["\\"] = "\\", n = "\n"})
    local words = {}
    for w in head:gmatch("%S+") do words[#words + 1] = w end
    return words[1], words, body
end

-- ---- rich display ---------------------------------------------------------

local function xml(s)
    return (tostring(s):gsub("[&<>\"]", {["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;"}))
end

local function is_game(v)
    local mt = type(v) == "userdata" and debug.getmetatable(v)
    return mt and mt.__name == "marubatsu.Game" or false
end

local function column_name(g, x) return g:excel(g:xy_to_move(x, 0)):match("^%a+") end

-- The two end squares of the winning run through the last move, if any.
local function winning_run(g)
    if g.status ~= "o" and g.status ~= "x" or g.last_move < 0 then return nil end
    local lx, ly = g:move_to_xy(g.last_move)
    local function mine(x, y)
        return x >= 0 and y >= 0 and x < g.width and y < g.height and g:getmark(x, y) == g.status
    end
    for _, d in ipairs {{1, 0}, {0, 1}, {1, 1}, {1, -1}} do
        local ax, ay, bx, by = lx, ly, lx, ly
        while mine(ax - d[1], ay - d[2]) do ax, ay = ax - d[1], ay - d[2] end
        while mine(bx + d[1], by + d[2]) do bx, by = bx + d[1], by + d[2] end
        local n = math.max(math.abs(bx - ax), math.abs(by - ay)) + 1
        if n == g.k or (n > g.k and g.rule ~= "exact") then return ax, ay, bx, by end
    end
    return nil
end

-- A game as the series draws it: a grid with 〇 and × in the squares,
-- columns A.. and rows 1.. as Excel squares, the last move shaded, the
-- winning line drawn through, and the state below.
local function board_svg(g)
    local w, h = g.width, g.height
    local cell = math.max(20, math.min(56, 300 // math.max(w, h)))
    local left, top = 24, 20
    local W, H = left + cell * w + 8, top + cell * h + 30
    local out = {('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
        .. 'font-family="sans-serif">'):format(W, H, W, H),
        ('<rect width="%d" height="%d" fill="white"/>'):format(W, H)}
    local function add(fmt, ...) out[#out + 1] = fmt:format(...) end
    if g.last_move >= 0 then
        local x, y = g:move_to_xy(g.last_move)
        add('<rect x="%d" y="%d" width="%d" height="%d" fill="#fde68a"/>', left + cell * x, top + cell * y, cell, cell)
    end
    for i = 0, w do
        add('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>', left + cell * i, top, left + cell * i,
            top + cell * h)
    end
    for j = 0, h do
        add('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>', left, top + cell * j, left + cell * w,
            top + cell * j)
    end
    local fs = math.max(9, math.min(14, cell // 3))
    for i = 0, w - 1 do
        add('<text x="%g" y="%d" font-size="%d" text-anchor="middle" fill="#555">%s</text>',
            left + cell * (i + 0.5), top - 6, fs, column_name(g, i))
    end
    for j = 0, h - 1 do
        add('<text x="%d" y="%g" font-size="%d" text-anchor="end" fill="#555">%d</text>',
            left - 5, top + cell * (j + 0.5) + fs / 3, fs, j + 1)
    end
    local r = cell * 0.32
    for x = 0, w - 1 do
        for y = 0, h - 1 do
            local mark = g:getmark(x, y)
            local cx, cy = left + cell * (x + 0.5), top + cell * (y + 0.5)
            if mark == "o" then
                add('<circle cx="%g" cy="%g" r="%g" fill="none" stroke="#c0392b" stroke-width="%g"/>', cx, cy, r,
                    cell / 12)
            elseif mark == "x" then
                add('<path d="M%g %gL%g %gM%g %gL%g %g" stroke="#1f4e9c" stroke-width="%g" stroke-linecap="round"/>',
                    cx - r, cy - r, cx + r, cy + r, cx - r, cy + r, cx + r, cy - r, cell / 12)
            end
        end
    end
    local ax, ay, bx, by = winning_run(g)
    if ax then
        add('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#d00" stroke-width="%g" stroke-opacity="0.6" '
            .. 'stroke-linecap="round"/>', left + cell * (ax + 0.5), top + cell * (ay + 0.5), left + cell * (bx + 0.5),
            top + cell * (by + 0.5), cell / 8)
    end
    local state = g.status == "playing" and "turn " .. g.turn
        or g.status == "draw" and "draw" or "winner " .. g.status
    local last = g.last_move >= 0 and ", last " .. g:excel(g.last_move) or ""
    add('<text x="%d" y="%d" font-size="13">%s, move %d%s</text>', left, top + cell * h + 20, state, g.move_count,
        last)
    out[#out + 1] = "</svg>"
    return table.concat(out, "\n")
end

local function is_wld(t)
    return type(t) == "table" and math.type(t.win) == "integer" and math.type(t.lose) == "integer"
        and math.type(t.draw) == "integer"
end

-- mb.ai_match's tallies as the series' two tables, side by side.
local function match_html(t)
    local function tbl(title, cell)
        local rows = {('<table><thead><tr><th>%s</th><th>win</th><th>lose</th><th>draw</th></tr></thead><tbody>')
            :format(title)}
        for _, side in ipairs {"o", "x", "total"} do
            local s = t[side]
            local n = s.win + s.lose + s.draw
            rows[#rows + 1] = ("<tr><th>%s</th><td>%s</td><td>%s</td><td>%s</td></tr>"):format(side,
                cell(s.win, n), cell(s.lose, n), cell(s.draw, n))
        end
        return table.concat(rows) .. "</tbody></table>"
    end
    local names = type(t.names) == "table" and ("%s VS %s"):format(xml(t.names[1]), xml(t.names[2])) or "match"
    return ('<div class="marubatsu-match"><b>%s</b><div style="display:flex;gap:2em">%s%s</div></div>'):format(names,
        tbl("count", function(v) return tostring(v) end),
        tbl("ratio", function(v, n) return n > 0 and ("%.1f%%"):format(100 * v / n) or "-" end))
end

local function is_match(t)
    return type(t) == "table" and is_wld(t.o) and is_wld(t.x) and is_wld(t.total)
end

local function is_results(t)
    return type(t) == "table" and type(t.ranking) == "table" and type(t.cross) == "table"
        and type(t.players) == "table" and math.type(t.games) == "integer"
end

local function signed(x) return (x >= 0 and "+" or "") .. ("%.1f"):format(x) end

-- The Elo of each player with its 95% interval, one row each.
local function elo_svg(res)
    local lo, hi = -100, 100
    for _, r in ipairs(res.ranking) do
        lo, hi = math.min(lo, r.elo - r.error), math.max(hi, r.elo + r.error)
    end
    local step = 50
    while (hi - lo) / step > 10 do step = step * 2 end
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
    local namew = 40
    for _, r in ipairs(res.ranking) do namew = math.max(namew, 8 * (utf8.len(r.name) or #r.name)) end
    local left, plotw, rowh, top = namew + 30, 360, 24, 28
    local W, H = left + plotw + 20, top + rowh * #res.ranking + 30
    local function X(e) return left + (e - lo) / (hi - lo) * plotw end
    local o = {('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
        .. 'font-family="sans-serif" font-size="12">'):format(W, H, W, H),
        ('<text x="%d" y="16" font-weight="bold">Elo, 95%% intervals</text>'):format(left)}
    for e = lo, hi, step do
        o[#o + 1] = ('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"/>'):format(X(e), top - 4, X(e), H - 24,
            e == 0 and "#888" or "#ddd")
        o[#o + 1] = ('<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%d</text>'):format(X(e), H - 10, e)
    end
    for i, r in ipairs(res.ranking) do
        local y = top + rowh * (i - 1) + rowh / 2
        o[#o + 1] = ('<text x="%d" y="%.1f" text-anchor="end">%s</text>'):format(left - 8, y + 4, xml(r.name))
        o[#o + 1] = ('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#36c" stroke-width="3"/>'):format(
            X(r.elo - r.error), y, X(r.elo + r.error), y)
        o[#o + 1] = ('<circle cx="%.1f" cy="%.1f" r="4" fill="#135"/>'):format(X(r.elo), y)
    end
    o[#o + 1] = "</svg>"
    return table.concat(o, "\n")
end

-- A tournament's results: the ranking, the crosstable and the Elo plot.
local function results_html(res)
    local o = {'<div class="marubatsu-results">',
        ("<b>%d games</b>"):format(res.games),
        "<table><thead><tr><th>rank</th><th>player</th><th>games</th><th>win</th><th>loss</th><th>draw</th>"
            .. "<th>score%</th><th>Elo</th><th>±95%</th><th>LOS</th></tr></thead><tbody>"}
    for _, r in ipairs(res.ranking) do
        o[#o + 1] = ("<tr><td>%d</td><th>%s</th><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%.1f</td>"
            .. "<td>%s</td><td>%.1f</td><td>%s</td></tr>"):format(r.rank, xml(r.name), r.games, r.w, r.l, r.d,
            100 * r.score, signed(r.elo), r.error, r.los and ("%.1f%%"):format(100 * r.los) or "")
    end
    o[#o + 1] = "</tbody></table>"
    o[#o + 1] = "<p>crosstable: the row's win-loss-draw against the column, as 〇 / as ×</p>"
    o[#o + 1] = "<table><thead><tr><th></th>"
    for _, c in ipairs(res.ranking) do o[#o + 1] = ("<th>%s</th>"):format(xml(c.name)) end
    o[#o + 1] = "</tr></thead><tbody>"
    for _, r in ipairs(res.ranking) do
        o[#o + 1] = ("<tr><th>%s</th>"):format(xml(r.name))
        for _, c in ipairs(res.ranking) do
            local x = res.cross[r.index] and res.cross[r.index][c.index]
            local text = "–"
            if r.index ~= c.index and x and x.all.w + x.all.l + x.all.d > 0 then
                text = ("%d-%d-%d / %d-%d-%d"):format(x.o.w, x.o.l, x.o.d, x.x.w, x.x.l, x.x.d)
            end
            o[#o + 1] = ("<td>%s</td>"):format(text)
        end
        o[#o + 1] = "</tr>"
    end
    o[#o + 1] = "</tbody></table>"
    if type(res.forfeits) == "table" and #res.forfeits > 0 then
        o[#o + 1] = ("<p>forfeits (%d):</p><ul>"):format(#res.forfeits)
        for i = 1, math.min(#res.forfeits, 10) do
            local f = res.forfeits[i]
            o[#o + 1] = ("<li>game %s, %s: %s</li>"):format(xml(f.game), xml(f.player), xml(f.reason))
        end
        if #res.forfeits > 10 then o[#o + 1] = ("<li>... %d more</li>"):format(#res.forfeits - 10) end
        o[#o + 1] = "</ul>"
    end
    o[#o + 1] = elo_svg(res)
    o[#o + 1] = "</div>"
    return table.concat(o, "\n")
end

local REPR = {
    {"__repr_html", "text/html"}, {"__repr_svg", "image/svg+xml"}, {"__repr_markdown", "text/markdown"},
    {"__repr_latex", "text/latex"}, {"__repr_json", "application/json"},
}

-- A metamethod of the value's metatable, inherited ones too (a class whose
-- metatable has an __index of its own).
local function meta(mt, name)
    local ok, f = pcall(function() return mt[name] end)
    return ok and f or nil
end

-- The MIME bundle of a value: {mime = text, ...}, always with text/plain.
local function bundle(v)
    local b = {}
    local mt = (type(v) == "table" or type(v) == "userdata") and debug.getmetatable(v) or nil
    local drew = false
    if type(mt) == "table" then
        for _, pair in ipairs(REPR) do
            local f = meta(mt, pair[1])
            if f ~= nil then
                local text = f(v)
                if text ~= nil then
                    b[pair[2]] = tostring(text)
                    drew = true
                end
            end
        end
        local f = meta(mt, "__repr_text")
        if f ~= nil then b["text/plain"] = tostring(f(v)) end
    end
    if not drew then
        if is_game(v) then
            b["image/svg+xml"] = board_svg(v)
        elseif is_match(v) then
            b["text/html"] = match_html(v)
        elseif is_results(v) then
            b["text/html"] = results_html(v)
        end
    end
    if not b["text/plain"] then
        local r = repl()
        b["text/plain"] = r and r.format(v) or tostring(v)
    end
    return b
end

-- A bundle's frames, written at once: data MIME ... then KIND.
local function send_bundle(b, kind)
    local mimes, frames = {}, {}
    for mime in pairs(b) do mimes[#mimes + 1] = mime end
    table.sort(mimes)
    for _, mime in ipairs(mimes) do frames[#frames + 1] = {"data", b[mime], mime} end
    frames[#frames + 1] = {kind}
    io_run("send", frames)
end

-- ---- what a notebook adds to the REPL's globals ------------------------------

local jupyter = {}

-- display(v, ...): show each value below the cell, as its richest form.
-- Each waits for the kernel's "--ack" line: the kernel has then shown all
-- the cell's output before it, so pictures and text keep their order.
function jupyter.display(...)
    for i = 1, select("#", ...) do
        send_bundle(bundle((select(i, ...))), "display")
        io_run("ack")
    end
end

local function markup(mime_field, text_of)
    return function(text)
        if type(text) ~= "string" then error("a string expected, not " .. type(text), 2) end
        return setmetatable({text = text}, {
            [mime_field] = function(self) return self.text end,
            __repr_text = text_of or function(self) return self.text end,
        })
    end
end

-- jupyter.html(text), jupyter.svg(text), jupyter.markdown(text): values that
-- display as that markup.
jupyter.html = markup("__repr_html")
jupyter.svg = markup("__repr_svg", function(self) return ("<SVG picture, %d bytes>"):format(#self.text) end)
jupyter.markdown = markup("__repr_markdown")

-- jupyter.board(game [, {numbers = true, o =, x =, title =}]): the game as
-- a picture; numbers: mb.game_svg's stones with move numbers (big boards).
function jupyter.board(g, opts)
    if not is_game(g) then error("bad argument #1 to 'board' (game expected, got " .. type(g) .. ")", 2) end
    local text = tostring(g):gsub("\n$", "")
    local svg = opts and opts.numbers and mb.game_svg(g, opts) or board_svg(g)
    return setmetatable({}, {__repr_svg = function() return svg end, __repr_text = function() return text end})
end

-- jupyter.tree(game [, depth = 1 [, scoring = "old"]]): the 3x3 game tree
-- below the position, drawn by `marubatsu tree --svg`.
function jupyter.tree(g, depth, scoring)
    if not is_game(g) then error("bad argument #1 to 'tree' (game expected, got " .. type(g) .. ")", 2) end
    if g.width ~= 3 or g.height ~= 3 or g.k ~= 3 then error("tree: the game tree is of the 3x3 game only", 2) end
    depth = depth or 1
    if math.type(depth) ~= "integer" or depth < 0 or depth > 9 then
        error("tree: depth must be an integer 0..9", 2)
    end
    scoring = scoring or "old"
    if scoring ~= "old" and scoring ~= "sv" and scoring ~= "sv_rd" then
        error("tree: scoring must be old, sv or sv_rd", 2)
    end
    local moves = {}
    for i = 1, g.move_count do moves[i] = g:excel(g.records[i]) end
    local command = ("'%s' tree --svg - --depth %d --scoring %s %s 2>&1"):format((program:gsub("'", "'\\''")), depth,
        scoring, #moves > 0 and table.concat(moves, ",") or "''")
    local pipe = assert(io.popen(command, "r"))
    local parts, size = {}, 0
    while size <= MAX_PICTURE do
        local chunk = pipe:read(65536)
        if not chunk then break end
        parts[#parts + 1], size = chunk, size + #chunk
    end
    pipe:close()
    local text = table.concat(parts)
    if size > MAX_PICTURE then
        error(("tree: the picture of depth %d is over %d MiB; choose a smaller depth"):format(depth,
            MAX_PICTURE // 1048576), 2)
    end
    if not text:find("<svg", 1, true) then error("tree: " .. text:gsub("\n$", ""), 2) end
    text = text:gsub("^<%?xml[^\n]*\n", "")
    local n = select(2, text:gsub('<g class="board"', ""))
    return setmetatable({}, {
        __repr_svg = function() return text end,
        __repr_text = function() return ("<game tree below %s, depth %d: %d boards>"):format(g:key(), depth, n) end,
    })
end

-- The entries of help for what the notebook adds.
local HELP = {
    display = "display(v, ...): shows each value below the cell in its richest form: games as SVG boards, "
        .. "match tallies and tournament results as HTML tables, and any table or userdata whose metatable has "
        .. "__repr_html, __repr_svg, __repr_markdown, __repr_latex or __repr_json (a function(v) -> text) as "
        .. "that; __repr_text gives the plain text (else the REPL's).",
    ["jupyter.board"] = "jupyter.board(game [, {numbers = true, o =, x =, title =}]): the game as an SVG board; "
        .. "numbers draws stones with move numbers (mb.game_svg).",
    ["jupyter.tree"] = "jupyter.tree(game [, depth = 1 [, scoring = \"old\"]]): the 3x3 game tree below the "
        .. "position as SVG (marubatsu tree --svg): boards coloured by score, best moves thicker.",
    ["jupyter.html"] = "jupyter.html(text): a value shown as HTML.",
    ["jupyter.svg"] = "jupyter.svg(text): a value shown as an SVG picture.",
    ["jupyter.markdown"] = "jupyter.markdown(text): a value shown as Markdown.",
}
HELP["jupyter.display"] = HELP.display

_G.jupyter = jupyter
_G.display = jupyter.display

-- help knows them too: help "display", help(jupyter.tree)
local repl_help = _G.help
if type(repl_help) == "function" then
    _G.help = function(what)
        local key = what
        if type(what) == "function" then
            for k, v in pairs(jupyter) do
                if v == what then key = "jupyter." .. k end
            end
        end
        if type(key) == "string" and HELP[key] then
            io.write(HELP[key], "\n")
            return
        end
        return repl_help(what)
    end
end

-- ---- stdin: the cell's reads become the notebook's input boxes ---------------

-- One line from the notebook (nil if it has no input box, or at its end).
-- An interrupt while the box waits raises "interrupted" here, on the
-- main thread, as soon as the read returns.
local function ask_line()
    send("input", "")
    while true do
        local t = {}
        local line, err = io_run("line", t)
        if line == nil and err then error("interrupted", 0) end
        local kind, _, body = parse(line)
        if kind == "input" then return body end
        if kind == "eof" or kind == nil then return nil end
    end
end

local function read_formats(...)
    local n = select("#", ...)
    if n == 0 then return ask_line() end
    local out = {}
    for i = 1, n do
        local f = select(i, ...)
        local line = ask_line()
        if line == nil then break end
        if type(f) == "string" then f = f:gsub("^%*", "") end
        if f == "n" then
            out[i] = tonumber(line)
            if out[i] == nil then break end
        elseif f == "L" then
            out[i] = line .. "\n"
        elseif math.type(f) == "integer" then
            out[i] = line:sub(1, f)
        else
            out[i] = line
        end
    end
    return table.unpack(out, 1, n)
end

file_methods.read = function(f, ...)
    if f == stdin then return read_formats(...) end
    return raw_read(f, ...)
end
file_methods.lines = function(f, ...)
    if f == stdin then
        local formats = table.pack(...)
        return function() return read_formats(table.unpack(formats, 1, formats.n)) end
    end
    return raw_lines(f, ...)
end
io.read = function(...)
    if io.input() == stdin then return read_formats(...) end
    return raw_io_read(...)
end
io.lines = function(name, ...)
    if name == nil and io.input() == stdin then return file_methods.lines(stdin, ...) end
    return raw_io_lines(name, ...)
end

-- ---- requests ---------------------------------------------------------------

-- Compile as the REPL does: an expression first ("return code;"), else a
-- statement. A cell of several lines whose last line is an expression
-- (and whose lines before it are whole statements) shows that line's
-- values, as a notebook's cell does; they come packed (not as a tail call,
-- so a traceback keeps the frames of that line's calls). Returns the
-- chunk and whether it packs, or nil, message.
function _G.__jupyter_pack(...) return table.pack(...) end

local function compile(code, name)
    local f = load("return " .. code .. ";", name, "t")
    if f then return f, false end
    local head, last = code:gsub("%s+$", ""):match("^(.*)\n([^\n]*)$")
    if head and last:find("%S") and load(head, name, "t") then
        f = load(head .. "\nreturn __jupyter_pack(" .. last .. "\n)", name, "t")
        if f then return f, true end
    end
    return load(code, name, "t")
end

local function error_text(e)
    if type(e) == "string" then return e end
    local mt = debug.getmetatable(e)
    if mt and mt.__tostring then
        local ok, s = pcall(tostring, e)
        if ok and type(s) == "string" then return s end
    end
    return ("(error object is a %s value)"):format(type(e))
end

-- The traceback of an error in a cell, without the frames of this file.
local function handler(e)
    local msg = error_text(e)
    local tb = debug.traceback("", 2)
    local keep = {}
    for line in tb:gmatch("[^\n]+") do
        if line:find("in function 'xpcall'", 1, true) or line:find("[kernel]", 1, true) then break end
        if line ~= "" then keep[#keep + 1] = line end
    end
    return {msg = msg, traceback = table.concat(keep, "\n")}
end

local function error_frames(kind, msg, traceback)
    return {{"error", msg, kind}, {"traceback", traceback or ""}}
end

-- Run a cell; returns the frames that end it (an error's), or nil. Its
-- values are sent as they are drawn (each __repr may take time).
local function run_cell(count, code, st)
    local f, packs = compile(code, ("=In[%s]"):format(count))
    if not f then return error_frames("syntax", packs) end
    local r = table.pack(xpcall(f, handler))
    st.ran = r[1] and r.n == 1 -- a statement that ran: nothing more to show
    if not r[1] then
        local e = r[2]
        return error_frames(e.msg:find("interrupted$") and "interrupted" or "runtime", e.msg, e.traceback)
    end
    if packs then r = table.pack(true, table.unpack(r[2], 1, r[2].n)) end
    -- a cell that is just `help` or `quit` calls it, as the REPL does
    local rp = repl()
    if r.n == 2 and (r[2] == _G.help or rp and (r[2] == rp.help or r[2] == rp.quit)) then
        local ok, e = xpcall(r[2], handler)
        if not ok then return error_frames("runtime", e.msg, e.traceback) end
        return nil
    end
    if r.n > 1 then
        _G._ = r[2]
        for i = 2, r.n do
            local ok, b = xpcall(bundle, handler, r[i])
            if not ok then
                return error_frames(b.msg:find("interrupted$") and "interrupted" or "display",
                    "error while displaying the value: " .. b.msg, b.traceback)
            end
            send_bundle(b, i == r.n and "result" or "display")
        end
    end
    return nil
end

-- The help entry for a name under the cursor ("mb.ai_match", "g:move",
-- "display"), or "".
local function inspect(name)
    if HELP[name] then return HELP[name] end
    local r = repl()
    if not r then return "" end
    local function lookup(path)
        local v = _G
        for part in path:gmatch("[^%.:]+") do
            local ok, nv = pcall(function() return v[part] end)
            if not ok or nv == nil then return nil end
            v = nv
        end
        return v
    end
    local queries = {}
    local value = lookup(name)
    if type(value) == "function" then queries[#queries + 1] = value end
    local head, sep, last = name:match("^(.-)([%.:])([%w_]+)$")
    if head and is_game(lookup(head)) then queries[#queries + 1] = "game:" .. last end
    queries[#queries + 1] = name
    if sep and head ~= "mb" then queries[#queries + 1] = last end
    for _, q in ipairs(queries) do
        local text = {}
        local write = io.write
        io.write = function(...)
            for i = 1, select("#", ...) do text[#text + 1] = tostring((select(i, ...))) end
        end
        local ok = pcall(r.help, q)
        io.write = write
        local s = table.concat(text)
        if ok and s ~= "" and not s:find("^help: ") then return (s:gsub("\n$", "")) end
    end
    return ""
end

local function is_complete(code)
    if load("return " .. code .. ";", "=cell", "t") or load(code, "=cell", "t") then return "complete" end
    local _, err = load(code, "=cell", "t")
    if err and err:find("<eof>$") then return "incomplete" end
    return "invalid"
end

-- Completions of `word`, the end of `line` (the line before the cursor):
-- the REPL's, without the kernel's own __ names.
local function complete(body)
    local word, line = body:match("^(.-)%z(.*)$")
    local r = repl()
    if not word or not r then return "" end
    local ok, found = pcall(r.complete, line, word)
    if not ok or type(found) ~= "table" then return "" end
    local keep = {}
    for _, name in ipairs(found) do
        if not name:find("^__jupyter") then keep[#keep + 1] = name end
    end
    return table.concat(keep, "\n")
end

-- One request, then wait for the next: the REPL runs this as a chunk for
-- each request. The request is read and the answer written by io_thread,
-- so an interrupt cannot lose either: a cell it stopped ends as an error.
function _G.__jupyter_step()
    local st = {}
    io_run("line", st)
    local ok = pcall(function()
        local kind, words, body = parse(st.line)
        st.kind = kind
        if kind == "run" then
            -- the cell alone takes interrupts (one held since the request
            -- came is given to it as it starts)
            guard(false)
            local ending = run_cell(words[2], body, st) or {}
            guard(true)
            ending[#ending + 1] = {"done", "", #ending == 0 and "ok" or "error"}
            st.answer = ending
        elseif kind == "complete" or kind == "inspect" or kind == "is_complete" then
            local f = kind == "complete" and complete or kind == "inspect" and inspect or is_complete
            local fine, text = pcall(f, body)
            st.answer = {{"reply", fine and text or ""}}
        end
    end)
    debug.sethook() -- an interrupt that came as the request ended
    if not ok and not st.answer then
        -- an interrupt as the request ended: a statement that ran is done
        if st.ran then
            st.answer = {{"done", "", "ok"}}
        elseif st.kind == "run" then
            st.answer = error_frames("interrupted", "interrupted")
            st.answer[3] = {"done", "", "error"}
        elseif st.kind then
            st.answer = {{"reply", ""}}
        end
    end
    if st.answer then io_run("send", st.answer) end
    -- an interrupt while waiting (the kernel's, just before this answer
    -- reached it) is dropped: it fires as the wait returns, in the pcall
    repeat until pcall(io_run, "wait")
    debug.sethook()
    guard(true) -- and one held back since the answer is dropped too
end

-- Outside its cells the driver runs with interrupts held back (repl.guard):
-- a hook fires at any instruction, and one firing in this file's own steps
-- (before its pcall, while it reads a request or sends an answer) would
-- end the step with no answer, and the kernel would wait for ever.
guard(true)
send("ready", "", mb.VERSION)
io_run("wait")
