-- scripts/lib/report.lua: a tournament's report for the browser: the data
-- of its --out directory (results.json, and journal.tsv whose G lines are
-- the games), and report.html, the page that shows it with no server (the
-- style, the script and the data inlined; it loads nothing). The page is
-- web/report.html with web/style.css, web/common.js and web/report.js, the
-- same files `marubatsu serve --results DIR` uses.
--
-- Not run when the module opens: loaded on demand with
--     load(mb.embedded("lib/report"), "=scripts/lib/report.lua", "t")(mb, host)
-- (host: the host library) which returns the table below (results writing and serve.lua do that).
local mb, host = ...

local report = {}

-- A journal longer than this is cut (at a line end) in the report, and
-- the page says so: about 70 bytes a game, so some 450,000 games.
report.MAX_JOURNAL = 32 * 1024 * 1024

-- ---- JSON -------------------------------------------------------------------
-- Strings escape '<', '>' and '&' too, so that the text can sit inside an
-- HTML <script> element. Tables are arrays when they have an element 1 or
-- the ARRAY metatable (report.array), else objects with sorted keys.
local ARRAY = {}
function report.array(t) return setmetatable(t or {}, ARRAY) end

-- Strings are made valid UTF-8 first (host.utf8_fix: U+FFFD for each
-- ill-formed sequence), so that strict JSON parsers take them.
local ESC = {['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\t"] = "\\t", ["\r"] = "\\r"}
local utf8_fix = host.utf8_fix
local function jstr(s)
    return '"' .. utf8_fix(s):gsub('[%c"\\<>&]', function(c) return ESC[c] or ("\\u%04x"):format(c:byte()) end) .. '"'
end
report.json_string = jstr

local function encode(v, out)
    local t = type(v)
    if t == "string" then
        out[#out + 1] = jstr(v)
    elseif t == "number" then
        if math.type(v) == "integer" then
            out[#out + 1] = ("%d"):format(v)
        elseif v ~= v or v == math.huge or v == -math.huge then
            out[#out + 1] = "null"
        else
            out[#out + 1] = ("%.14g"):format(v)
        end
    elseif t == "boolean" then
        out[#out + 1] = tostring(v)
    elseif t == "nil" then
        out[#out + 1] = "null"
    elseif t == "table" then
        if v[1] ~= nil or getmetatable(v) == ARRAY then
            out[#out + 1] = "["
            for i = 1, #v do
                if i > 1 then out[#out + 1] = "," end
                encode(v[i], out)
            end
            out[#out + 1] = "]"
        else
            local keys = {}
            for k in pairs(v) do keys[#keys + 1] = tostring(k) end
            table.sort(keys)
            out[#out + 1] = "{"
            for i, k in ipairs(keys) do
                if i > 1 then out[#out + 1] = "," end
                out[#out + 1] = jstr(k) .. ":"
                local x = v[k]
                if x == nil then x = v[math.tointeger(tonumber(k)) or k] end
                encode(x, out)
            end
            out[#out + 1] = "}"
        end
    else
        error("report.json: cannot encode a " .. t, 2)
    end
    return out
end

-- report.json(value) -> text
function report.json(v) return table.concat(encode(v, {})) end

-- ---- The data ---------------------------------------------------------------
-- read(path [, max]) -> the first max bytes (default: all), the file's size
-- | nil, message, 2 when there is no such file. A file of the directory is
-- read only when it is a regular file, opened without blocking and not
-- through a link (host.open_file), so a FIFO or a link planted there
-- neither hangs nor redirects the reader.
local function read(path, max)
    local f, err, kind = host.open_file(path, "r")
    if not f then return nil, err, kind == "absent" and 2 or nil end
    local size = f:seek("end")
    f:seek("set")
    local n = size and math.min(size, max or size)
    local text = n and n > 0 and f:read(n) or (not n and f:read("a")) or ""
    f:close()
    return text, size or #text
end

-- report.data(dir [, read_file]) -> JSON text, journal text | nil, message:
-- {"results": <results.json>, "dir": DIR, "journal_bytes": N, "cut": bool}
-- and the journal's text (journal.tsv as written: its G lines are the games;
-- the page reads them, docs/journal.md), cut to MAX_JOURNAL at a line end.
-- read_file(path [, max]) reads the files (as read above; serve's refuses
-- anything but a regular file); a missing journal is an empty one.
-- Nothing is parsed here: a tournament's report costs a copy of its files.
function report.data(dir, read_file)
    read_file = read_file or read
    local results, err = read_file(dir .. "/results.json")
    if not results then return nil, ("no tournament results in %s (%s)"):format(dir, err) end
    local journal, size, code = read_file(dir .. "/journal.tsv", report.MAX_JOURNAL)
    if not journal then
        if code ~= 2 then return nil, ("cannot read the journal of %s (%s)"):format(dir, size) end
        journal, size = "", 0
    end
    local cut = false
    if size > report.MAX_JOURNAL then
        journal = journal:sub(1, report.MAX_JOURNAL):match("^.*\n") or ""
        cut = true
    end
    -- both as valid UTF-8 (files written by other programs or by hand
    -- may hold any bytes): U+FFFD for each ill-formed sequence
    results, journal = utf8_fix(results), utf8_fix(journal)
    -- results.json holds '<' only inside strings, where \u003c means the same
    local safe = results:gsub("<", "\\u003c"):gsub(">", "\\u003e"):gsub("&", "\\u0026")
    return ('{"results":%s,"dir":%s,"journal_bytes":%d,"cut":%s}'):format(safe, jstr(dir), size, tostring(cut)),
        journal
end

-- ---- The page -----------------------------------------------------------------
local function asset(name)
    local text = mb.embedded("web/" .. name)
    if not text then error("report: the built-in file web/" .. name .. " is missing", 0) end
    return text
end

-- report.html(dir) -> text | nil, message: the self-contained page.
function report.html(dir)
    local data, journal = report.data(dir)
    if not data then return nil, journal end
    local page = asset("report.html")
    -- the journal as the text of a <script> element: '<' (only ever in a
    -- name or a reason) becomes \x3c, an escape the journal itself never
    -- writes, so that no "</script" can end the element; the page turns it back
    local parts = {
        ["<!--STYLE-->"] = "<style>\n" .. asset("style.css") .. "</style>",
        ["<!--SCRIPT-->"] = "<script>\n" .. asset("common.js") .. "\n" .. asset("report.js") .. "</script>",
        ["<!--DATA-->"] = '<script type="application/json" id="report-data">' .. data .. "</script>\n"
            .. '<script type="text/plain" id="report-journal">'
                .. (journal:find("<", 1, true) and journal:gsub("<", "\\x3c") or journal) .. "</script>",
    }
    -- the scripts may hold "</" only where a string is split: checked here
    for key, text in pairs(parts) do
        if key ~= "<!--DATA-->" and text:sub(9, -10):find("</script", 1, true) then
            error("report: " .. key .. " holds </script", 0)
        end
    end
    return (page:gsub("<!%-%-[A-Z]+%-%->", function(k) return parts[k] end))
end

-- report.write(dir) -> true | nil, message (naming the file): dir/report.html
function report.write(dir)
    local page, err = report.html(dir)
    if not page then return nil, dir .. "/report.html: " .. err end
    -- through report.html.tmp, never through a link (host.write_file)
    return host.write_file(dir .. "/report.html", page)
end

return report
