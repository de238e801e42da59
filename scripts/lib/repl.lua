-- scripts/lib/repl.lua: the Lua half of the REPL (src/lua/l_repl.c): how
-- results are printed, tab completion, help(), quit() and reload(). Loaded when
-- the REPL starts (not at module open, to keep start-up fast); returns
-- {show =, complete =, help =, ...} and sets the globals help, quit, reload
-- and _. repl.tty is true when the REPL reads and writes a terminal.
local mb = ...

local MAX_DEPTH = 3    -- nested tables shown before "{...}"
local MAX_ITEMS = 40   -- entries shown per table before "... (N more)"
local MAX_WIDTH = 78   -- a table fitting this width prints on one line

local repl = {}

-- ---- Printing -------------------------------------------------------------

local function is_game(v)
    return type(v) == "userdata" and tostring(debug.getmetatable(v) and
        debug.getmetatable(v).__name) == "marubatsu.Game"
end

local function is_identifier(k)
    return type(k) == "string" and k:match("^[%a_][%w_]*$") ~= nil
end

-- One value on one line: strings quoted, games and AIs summarised.
local function scalar(v)
    if type(v) == "string" then return ("%q"):format(v):gsub("\\\n", "\\n") end
    if is_game(v) then
        return ("<game %dx%d k=%d, %s, move %d>"):format(v.width, v.height, v.k,
            v.status == "playing" and "turn " .. v.turn or "winner " .. v.status, v.move_count)
    end
    if mb.is_ai(v) then return "<AI " .. v.name .. ">" end
    if type(v) == "function" then return "<function>" end
    return tostring(v)
end

-- The keys of t in display order, at most `limit` of them, and how many
-- keys there are in all: the sequence 1..n, then the others sorted
-- (numbers, then strings, then the rest by their text). Huge tables are
-- not sorted (their first keys are shown in table order), so printing
-- costs what the limit allows, not what the table holds.
local function ordered_keys(t, limit)
    local keys, n = {}, 0
    while rawget(t, n + 1) ~= nil do
        n = n + 1
        if n <= limit then keys[n] = n end
    end
    local rest, total = {}, n
    for k in pairs(t) do
        if not (math.type(k) == "integer" and k >= 1 and k <= n) then
            total = total + 1
            if #rest < 4 * limit then rest[#rest + 1] = k end
        end
    end
    if total - n <= 4 * limit then
        table.sort(rest, function(a, b)
            local ta, tb = type(a), type(b)
            if ta ~= tb then return ta < tb end
            if ta == "number" or ta == "string" then return a < b end
            return tostring(a) < tostring(b)
        end)
    end
    for _, k in ipairs(rest) do
        if #keys >= limit then break end
        keys[#keys + 1] = k
    end
    return keys, n, total
end

-- A table as text: depth and item limits, cycles marked as <cycle>.
local function render(t, depth, seen, indent)
    if seen[t] then return "<cycle>" end
    if depth > MAX_DEPTH then return "{...}" end
    seen[t] = true
    local keys, n, total = ordered_keys(t, MAX_ITEMS)
    local parts, multiline = {}, false
    for _, k in ipairs(keys) do
        local v = rawget(t, k)
        local text = type(v) == "table" and not mb.is_ai(v)
            and render(v, depth + 1, seen, indent .. "  ") or scalar(v)
        multiline = multiline or text:find("\n") ~= nil
        if math.type(k) == "integer" and k >= 1 and k <= n then
            parts[#parts + 1] = text
        elseif is_identifier(k) then
            parts[#parts + 1] = k .. " = " .. text
        else
            parts[#parts + 1] = "[" .. scalar(k) .. "] = " .. text
        end
    end
    if total > #keys then parts[#parts + 1] = ("... (%d more)"):format(total - #keys) end
    seen[t] = nil
    if #parts == 0 then return "{}" end
    local flat = "{" .. table.concat(parts, ", ") .. "}"
    if #flat + #indent <= MAX_WIDTH and not multiline then return flat end
    -- several short items per line when they fit, else one per line
    local lines, line = {}, ""
    for i, part in ipairs(parts) do
        local piece = part .. (i < #parts and "," or "")
        if multiline or line == "" or #indent + 2 + #line + 1 + #piece > MAX_WIDTH then
            if line ~= "" then lines[#lines + 1] = line end
            line = piece
        else
            line = line .. " " .. piece
        end
    end
    lines[#lines + 1] = line
    local pad = indent .. "  "
    return "{\n" .. pad .. table.concat(lines, "\n" .. pad) .. "\n" .. indent .. "}"
end

-- An AI's analysis ({candidate, score_by_move, moves, ...}) for people:
-- squares as Excel names (on its board: height, 3 without one), scores in
-- the order of moves (legal order, or best first: gomoku, mcts).
local function analysis(t)
    local height = t.height or 3
    local function sq(m) return ("%s%d"):format(string.char(65 + m // height), m % height + 1) end
    local out = {}
    local cand = {}
    for i, m in ipairs(t.candidate) do cand[i] = sq(m) end
    out[1] = "candidate: " .. table.concat(cand, " ")
    if t.moves and t.score_by_move then
        local scores = {}
        for i, m in ipairs(t.moves) do scores[i] = ("%s %s"):format(sq(m), tostring(t.score_by_move[m])) end
        out[2] = "scores:    " .. table.concat(scores, ", ")
    end
    if t.score ~= nil then out[#out + 1] = "best:      " .. tostring(t.score) end
    return table.concat(out, "\n")
end

-- The text of one result.
function repl.format(v)
    if type(v) == "table" and not mb.is_ai(v) then
        if type(v.candidate) == "table" and math.type(v.candidate[1]) == "integer" then
            return analysis(v)
        end
        return render(v, 1, {}, "")
    end
    if is_game(v) then return (tostring(v):gsub("\n$", "")) end
    if type(v) == "string" then return v end
    return scalar(v)
end

-- Print the results of a chunk, one per line; _ becomes the first. A
-- chunk that is just `help` or `quit` calls it (as Python's REPL answers
-- a bare `help`), instead of printing <function>.
function repl.show(...)
    local n = select("#", ...)
    local first = ...
    if n == 1 and (first == repl.help or first == repl.quit) then return first() end
    _G._ = first
    for i = 1, n do
        io.write(repl.format((select(i, ...))), "\n")
    end
end

-- ---- Completion -----------------------------------------------------------

-- The table behind a value for completion: a table itself, or the fields
-- and methods of a userdata (through its metatable's __index chain).
local function fields_of(v)
    local out = {}
    local guard = 0
    while v ~= nil and guard < 4 do
        guard = guard + 1
        if type(v) == "table" then
            for k in pairs(v) do if type(k) == "string" then out[k] = rawget(v, k) end end
        end
        local mt = debug.getmetatable(v)
        local index = mt and rawget(mt, "__index")
        v = type(index) == "table" and index or nil
    end
    return out
end

-- repl.complete(line, word) -> the candidates for `word`, the end of the
-- line before the cursor: globals, fields after ".", methods after ":",
-- AI names inside mb.ai(" or mb.reload(".
function repl.complete(line, word)
    local found = {}
    local function offer(name)
        if name:sub(1, #word) == word then found[#found + 1] = name end
    end
    if line:match("mb%.ai%s*%(%s*[\"'][%w_%-%./]*$") or line:match("reload%s*%(%s*[\"'][%w_%-%./]*$") then
        for _, name in ipairs(mb.list_scripts()) do offer(name) end
        table.sort(found)
        return found
    end
    local path, sep = line:match("([%a_][%w_%.:]*)([%.:])[%w_]*$")
    local names
    if path then
        local v = _G
        for part in path:gmatch("[^%.:]+") do
            local ok, nv = pcall(function() return v[part] end)
            if not ok or nv == nil then return {} end
            v = nv
        end
        local fields = fields_of(v)
        names = {}
        for k, fv in pairs(fields) do
            if is_identifier(k) and not k:match("^__") and (sep == "." or type(fv) == "function") then
                names[#names + 1] = k
            end
        end
    else
        names = {}
        for k in pairs(_G) do if is_identifier(k) then names[#names + 1] = k end end
        for _, kw in ipairs({"and", "break", "do", "else", "elseif", "end", "false", "for",
            "function", "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return",
            "then", "true", "until", "while"}) do names[#names + 1] = kw end
    end
    for _, name in ipairs(names) do offer(name) end
    table.sort(found)
    return found
end

-- ---- help() -----------------------------------------------------------------

-- docs/lua-api.md, carried in the binary: help reads the reference itself.
local doc = mb.embedded("docs/lua-api.md") or ""

-- Its lines, without the doc test's markers (a line that is one HTML
-- comment, <!-- illustrative: ... -->: not for people reading help).
local function doc_lines()
    local lines = {}
    for line in (doc .. "\n"):gmatch("(.-)\n") do
        if not line:match("^%s*<!%-%-.*%-%->%s*$") then lines[#lines + 1] = line end
    end
    return lines
end

-- The name a function has in mb, in the game methods, or in the globals.
local function name_of(f)
    for k, v in pairs(mb) do if v == f then return "mb." .. k end end
    local methods = fields_of(mb.Marubatsu())
    for k, v in pairs(methods) do if v == f then return "game:" .. k end end
    for k, v in pairs(_G) do if v == f then return k end end
    return nil
end

-- The section of the reference whose heading names `query`, or the table
-- rows that do; nil if nothing matches.
local function find_doc(query)
    local lines = doc_lines()
    local short = query:gsub("^mb%.", ""):gsub("^game:", "")
    local patterns = {"`mb%." .. short:gsub("%p", "%%%0") .. "[%(`%s{%[]",
                      "`game:" .. short:gsub("%p", "%%%0") .. "[%(`%s]",
                      "`" .. short:gsub("%p", "%%%0") .. "[%(`]"}
    local function names(line)
        for _, p in ipairs(patterns) do if line:find(p) then return true end end
        return false
    end
    for i, line in ipairs(lines) do
        local level = line:match("^(#+) ")
        if level and #level >= 3 and names(line) then
            local out = {(line:gsub("^#+ ", ""))}
            for j = i + 1, #lines do
                local l2 = lines[j]:match("^(#+) ")
                if l2 and #l2 <= #level then break end
                out[#out + 1] = lines[j]
            end
            while out[#out] == "" do out[#out] = nil end
            return table.concat(out, "\n")
        end
    end
    local rows = {}
    for _, line in ipairs(lines) do
        if line:match("^|") and names(line) then rows[#rows + 1] = line end
    end
    if #rows > 0 then return table.concat(rows, "\n") end
    return nil
end

-- ---- Markdown for a terminal ---------------------------------------------

-- Columns a text takes on a terminal: East Asian wide characters (the
-- series' Japanese messages, 〇 and ×'s full-width forms) take two.
local function columns(text)
    local n = 0
    for _, c in utf8.codes(text, true) do
        local wide = (c >= 0x1100 and c <= 0x115F) or (c >= 0x2E80 and c <= 0xA4CF) or
            (c >= 0xAC00 and c <= 0xD7A3) or (c >= 0xF900 and c <= 0xFAFF) or
            (c >= 0xFE30 and c <= 0xFE4F) or (c >= 0xFF00 and c <= 0xFF60) or
            (c >= 0xFFE0 and c <= 0xFFE6)
        n = n + (wide and 2 or 1)
    end
    return n
end

-- Inline Markdown: `code` and **bold** (bold on a terminal), [text](link)
-- as its text.
local function inline(line, ansi)
    local bold, plain = ansi and "\27[1m" or "", ansi and "\27[0m" or ""
    line = line:gsub("%[([^%]]+)%]%([^%)]*%)", "%1")
    line = line:gsub("%*%*(.-)%*%*", bold .. "%1" .. plain)
    line = line:gsub("`([^`]+)`", "%1")
    return line
end

-- A Markdown table's rows as aligned columns (the |---| line dropped).
local function table_rows(rows, ansi)
    local cells, width = {}, {}
    for _, row in ipairs(rows) do
        if not row:match("^|[%s%-:|]+|%s*$") then
            local r = {}
            for cell in row:gsub("^|", ""):gsub("|%s*$", ""):gmatch("([^|]*)") do
                r[#r + 1] = inline(cell:match("^%s*(.-)%s*$"), false)
            end
            for i, c in ipairs(r) do width[i] = math.max(width[i] or 0, columns(c)) end
            cells[#cells + 1] = r
        end
    end
    local out = {}
    for k, r in ipairs(cells) do
        local parts = {}
        for i, c in ipairs(r) do
            parts[i] = i < #r and c .. (" "):rep(width[i] - columns(c)) or c
        end
        local line = "  " .. table.concat(parts, "  ")
        if k == 1 and ansi then line = "\27[1m" .. line .. "\27[0m" end
        out[#out + 1] = line
    end
    return out
end

-- The reference's Markdown as text for a terminal: headings without their
-- #s (bold with ansi), code blocks indented without their fences, tables
-- aligned, `code` without backticks, links as their text.
function repl.render_markdown(text, ansi)
    local out, rows, fenced = {}, nil, false
    local function flush()
        if rows then
            for _, l in ipairs(table_rows(rows, ansi)) do out[#out + 1] = l end
            rows = nil
        end
    end
    for line in (text .. "\n"):gmatch("(.-)\n") do
        if line:match("^```") then
            flush()
            fenced = not fenced
        elseif fenced then
            out[#out + 1] = "    " .. line
        elseif line:match("^|") then
            rows = rows or {}
            rows[#rows + 1] = line
        else
            flush()
            local heading = line:match("^#+%s+(.*)")
            if heading then
                heading = inline(heading, false)
                out[#out + 1] = ansi and "\27[1m" .. heading .. "\27[0m" or heading
            else
                out[#out + 1] = inline(line, ansi)
            end
        end
    end
    flush()
    while out[#out] == "" do out[#out] = nil end
    return table.concat(out, "\n")
end

-- Write text, through the pager ($PAGER, else less) on a terminal when it
-- is longer than the screen.
local function page(text)
    local rows = tonumber(os.getenv("LINES") or "") or 24
    local _, lines = text:gsub("\n", "")
    if repl.tty and lines + 1 >= rows then
        local pager = os.getenv("PAGER")
        if not pager or pager == "" then pager = "less -RFX" end
        local p = io.popen(pager, "w")
        if p then
            p:write(text, "\n")
            p:close()
            return
        end
    end
    io.write(text, "\n")
end

-- help() lists the API by topic; help(f) or help "name" shows one entry.
function repl.help(what)
    if what == nil then
        local out = {"The marubatsu Lua API (docs/lua-api.md); help \"name\" or help(f) for one entry.", ""}
        local section
        for _, line in ipairs(doc_lines()) do
            local h2 = line:match("^## (%d+%. .*)")
            local h = line:match("^###+ (.*)")
            if h2 then
                section = h2
                out[#out + 1] = h2
            elseif h and section and not section:match("Costs") and not section:match("Quick") then
                out[#out + 1] = "  " .. (h:gsub("`", ""))
            end
        end
        io.write(table.concat(out, "\n"), "\n")
        return
    end
    local query = type(what) == "string" and what or (type(what) == "function" and name_of(what))
    if not query then
        io.write(("help: no entry for this %s; try help() for the list\n"):format(type(what)))
        return
    end
    local text = find_doc(query)
    if not text then
        io.write(("help: nothing about '%s'; try help() for the list\n"):format(query))
        return
    end
    page(repl.render_markdown(text, repl.tty))
end

-- quit([status]): leave the REPL (as Ctrl-D does), with the exit status
-- given (default 0).
function repl.quit(status)
    os.exit(status == nil and 0 or status, true)
end

-- ---- Globals of the REPL ----------------------------------------------------

_G.help = repl.help
_G.quit = repl.quit
_G.reload = mb.reload

return repl
