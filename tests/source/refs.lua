-- tests/source/refs.lua: every reference to a numbered section of one of the
-- project's documents resolves inside the repository. A reference is
-- "NAME.md §N" (also "docs/NAME.md §N", "spec NAME.md §N", a list such as
-- "ais.md §7.5, §7.6" or "game.md §6, §7 and §11", a range such as
-- "search.md §3-§4" or "ais.md §7.1–7.4", and a reference whose "§N" starts
-- the next comment line); it resolves when docs/NAME.md or
-- docs/series/NAME.md (or the path given, when it has a directory) has a
-- heading numbered N ("## 7.6 ...", "### 5.10 ...", "## 10. ..."); for a
-- range, both ends. Also fails on a path that points outside the
-- repository (into the machine's shared or work directories, or a spec
-- directory) and on the words "the" + "spec" naming no file (the series'
-- specification is docs/series/). Reads every text file git knows
-- (tracked or new, not ignored; without git, every file but build/ and
-- .git/). Then checks itself on made-up files: the dangling references and
-- the outside paths must be found, file:line, and nothing else.
-- Prints "N passed, N failed".
-- Usage: lua5.4 tests/source/refs.lua [ROOT]
local root = arg[1] or "."

local SECT = "\194\167" -- "§" in UTF-8
-- This file, which shows the forms it looks for, is not read.
local SELF = "tests/source/refs.lua"
local DASH = "\226\128\147" -- "–" (en dash) in UTF-8

local function read(path)
    local f = io.open(path, "rb")
    if not f then return nil end
    local text = f:read("a")
    f:close()
    return text
end

local function shell_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- The files to read, as paths relative to root.
local function files_of(dir)
    local list = {}
    local q = shell_quote(dir)
    local p = io.popen("git -C " .. q .. " rev-parse --show-toplevel 2>/dev/null")
    local top = p:read("l")
    p:close()
    local cmd
    if top and top ~= "" then
        cmd = "git -C " .. q .. " ls-files --cached --others --exclude-standard"
    else
        cmd = "cd " .. q .. " && find . -path ./build -prune -o -path ./.git -prune -o -type f -print"
    end
    p = assert(io.popen(cmd))
    for name in p:lines() do
        name = name:gsub("^%./", "")
        list[#list + 1] = name
    end
    p:close()
    table.sort(list)
    return list
end

-- The section numbers of a Markdown file: {["7.6"] = true, ...}, or nil
-- when the file does not exist.
local heading_cache = {}
local function headings(path)
    if heading_cache[path] ~= nil then return heading_cache[path] or nil end
    local text = read(path)
    if not text then
        heading_cache[path] = false
        return nil
    end
    local set, fence = {}, false
    for line in (text .. "\n"):gmatch("(.-)\r?\n") do
        if line:match("^%s*```") then fence = not fence end
        local n = not fence and line:match("^#+%s+(%d[%d%.]*%l?)")
        if n then set[(n:gsub("%.+$", ""))] = true end
    end
    heading_cache[path] = set
    return set
end

-- A section number is "7", "7.6" or "5.5b" (a trailing "." ends a sentence).
local function valid_number(n)
    n = n:gsub("(%d)%l$", "%1")
    for part in (n .. "."):gmatch("(.-)%.") do
        if not part:match("^%d+$") then return false end
    end
    return true
end

-- What may join a further section to a reference: "§7.5, §7.6", "§3; §4",
-- "§9 and §11", "§3-§4", "§6-7", "§7.1–7.4" (en dash).
local CONTINUE = {
    "^%s*,%s*" .. SECT .. "%s*",
    "^%s*;%s*" .. SECT .. "%s*",
    "^%s*,?%s*and%s+" .. SECT .. "%s*",
    "^%s*,?%s*or%s+" .. SECT .. "%s*",
    "^%s*%-%s*" .. SECT .. "%s*",
    "^%s*%-%s*%f[%d]",
    "^%s*" .. DASH .. "%s*" .. SECT .. "%s*",
    "^%s*" .. DASH .. "%s*%f[%d]",
}

-- The references of one line: a list of {doc = "path/NAME.md", numbers =
-- {"7.5", "7.6"}, bad = "why"} (bad when a number is malformed).
local function refs_of_line(s)
    local out = {}
    if not s:find(SECT, 1, true) then return out end
    local init = 1
    while true do
        local a, b, doc = s:find("([%w_%./%-]*[%w_%-]%.md)%s*" .. SECT, init)
        if not a then break end
        local ref = {doc = doc, numbers = {}, text = nil}
        local pos = b + 1
        while true do
            local tok = s:match("^%d[%w%.]*", pos)
            if not tok then
                ref.bad = "a " .. SECT .. " with no section number"
                break
            end
            pos = pos + #tok
            local n = tok:gsub("%.+$", "")
            if not valid_number(n) then
                ref.bad = "'" .. SECT .. tok .. "' is not a section number"
                break
            end
            ref.numbers[#ref.numbers + 1] = n
            local rest = s:sub(pos)
            -- an item of a numbered list: "§13 #2"
            local item = rest:match("^%s*#%d+")
            if item then
                pos = pos + #item
                rest = s:sub(pos)
            end
            local cont
            for _, lead in ipairs(CONTINUE) do
                cont = cont or rest:match(lead)
            end
            if not cont then break end
            pos = pos + #cont
        end
        ref.text = s:sub(a, pos - 1):gsub("%.+$", "")
        out[#out + 1] = ref
        init = pos > b + 1 and pos or b + 1
    end
    return out
end

-- Where a reference to doc may resolve: the path itself when it names a
-- directory (from the root, or from the citing file's directory), else
-- docs/NAME.md and docs/series/NAME.md.
local function candidates(dir, file, doc)
    if doc:find("/") then
        local here = file:match("^(.*)/[^/]*$")
        local list = {dir .. "/" .. doc}
        if here then list[#list + 1] = dir .. "/" .. here .. "/" .. doc end
        return list
    end
    return {dir .. "/docs/" .. doc, dir .. "/docs/series/" .. doc}
end

-- What is wrong with one reference, or nil.
local function check_ref(dir, file, ref)
    if ref.bad then return ref.bad end
    local found = {}
    for _, path in ipairs(candidates(dir, file, ref.doc)) do
        local set = headings(path)
        if set then found[#found + 1] = {path = path, set = set} end
    end
    if #found == 0 then return "no document " .. ref.doc .. " in docs/ or docs/series/" end
    for _, n in ipairs(ref.numbers) do
        local ok = false
        for _, f in ipairs(found) do
            if f.set[n] then ok = true end
        end
        if not ok then
            local names = {}
            for _, f in ipairs(found) do names[#names + 1] = f.path:sub(#dir + 2) end
            return ("no heading numbered %s in %s"):format(n, table.concat(names, " or "))
        end
    end
    return nil
end

-- Paths and words that point outside the repository. Written so that this
-- file does not match them itself.
local outside = {
    {"%.%./shared", "a path into the shared directory, outside the repository"},
    {"%/work%/", "a path into the work directory, outside the repository"},
    {"shared%/spec", "a path into the shared spec directory, outside the repository"},
    {"%f[%w_]spec%/[%w_%-]+%.md", "a path into a spec directory (there is none here: docs/series/)"},
    {"%f[%w][Tt]he spec%f[^%w]", "a mention of a spec that names no file (name docs/series/NAME.md, " ..
        "or say 'player spec')"},
    {"%f[%w][Tt]he specification%f[^%w]", "a mention of a specification that names no file " ..
        "(name docs/series/NAME.md)"},
}

-- A line ending in "NAME.md" whose next line (past a comment's leader)
-- starts with "§": the reference is read as one line.
local function joined(lines, i)
    local s = lines[i]
    if s:match("[%w_%-]%.md%s*$") and lines[i + 1] then
        local nxt = lines[i + 1]:gsub("^%s*[%*%-/#;]*%s*", "")
        if nxt:sub(1, #SECT) == SECT then return s:gsub("%s*$", "") .. " " .. nxt end
    end
    return s
end

-- ---- Markdown links: [text](path.md#anchor) ----

-- Does a heading's anchor keep this code point? GitHub keeps letters,
-- digits, "_", "-" and blanks (which become "-") and drops the rest; here:
-- ASCII, Latin and Greek letters, kana and CJK (〇 included), full-width
-- letters and digits.
local function anchor_keeps(cp)
    if cp < 128 then return string.char(cp):match("[%w_%- ]") ~= nil end
    if cp == 0x3007 or (cp >= 0x3040 and cp <= 0x9FFF) or (cp >= 0xFF10 and cp <= 0xFF5A) then
        return true
    end
    return (cp >= 0xC0 and cp <= 0x24F and cp ~= 0xD7 and cp ~= 0xF7) or (cp >= 0x370 and cp <= 0x3FF)
end

local function slug(heading)
    local out = {}
    for _, cp in utf8.codes(heading:lower()) do
        if anchor_keeps(cp) then out[#out + 1] = utf8.char(cp) end
    end
    return (table.concat(out):gsub(" ", "-"))
end

-- The anchors of a Markdown file (a repeated heading gets "-1", "-2", ...),
-- or nil when it cannot be read.
local anchor_cache = {}
local function anchors(path)
    if anchor_cache[path] ~= nil then return anchor_cache[path] or nil end
    local text = read(path)
    if not text then
        anchor_cache[path] = false
        return nil
    end
    local set, seen, fence = {}, {}, false
    for line in (text .. "\n"):gmatch("(.-)\r?\n") do
        if line:match("^%s*```") then
            fence = not fence
        elseif not fence then
            local h = line:match("^#+%s+(.-)%s*$")
            if h then
                local a = slug(h)
                if seen[a] then
                    seen[a] = seen[a] + 1
                    a = a .. "-" .. (seen[a] - 1)
                else
                    seen[a] = 1
                end
                set[a] = true
            end
        end
    end
    anchor_cache[path] = set
    return set
end

-- The broken relative links of the Markdown file `file` (lines of text):
-- "file:line: ..." for a missing file or a missing anchor of a .md file.
local function link_problems(dir, file, lines)
    local out = {}
    local here = file:match("^(.*)/") or ""
    local fence = false
    for i, line in ipairs(lines) do
        if line:match("^%s*```") then fence = not fence end
        for target in (fence and "" or line):gmatch("%]%(([^)%s]+)%)") do
            if not target:match("^%a[%w+.-]*:") then
                local path, frag = target:match("^([^#]*)#?(.*)$")
                local full = path == "" and (dir .. "/" .. file) or
                    (dir .. "/" .. (here ~= "" and here .. "/" or "") .. path)
                local f = io.open(full, "rb")
                if f then f:close() end
                if not f then
                    out[#out + 1] = ("%s:%d: a link to %s: no such file"):format(file, i, target)
                elseif frag ~= "" and full:match("%.md$") and not (anchors(full) or {})[frag] then
                    out[#out + 1] = ("%s:%d: a link to %s: no such heading"):format(file, i, target)
                end
            end
        end
    end
    return out
end

-- The problems of the tree at dir: a sorted list of "file:line: ...".
local function problems(dir)
    local out = {}
    for _, file in ipairs(files_of(dir)) do
        local text = file ~= SELF and read(dir .. "/" .. file)
        if text and not text:find("\0", 1, true) then
            local lines = {}
            for line in (text .. "\n"):gmatch("(.-)\r?\n") do lines[#lines + 1] = line end
            for i = 1, #lines do
                local s = joined(lines, i)
                for _, ref in ipairs(refs_of_line(s)) do
                    local why = check_ref(dir, file, ref)
                    if why then out[#out + 1] = ("%s:%d: '%s': %s"):format(file, i, ref.text, why) end
                end
                if lines[i]:find("shared", 1, true) or lines[i]:find("work", 1, true) or
                    lines[i]:find("spec", 1, true) then
                    for _, o in ipairs(outside) do
                        if lines[i]:find(o[1]) then out[#out + 1] = ("%s:%d: %s"):format(file, i, o[2]) end
                    end
                end
            end
            if file:match("%.md$") then
                for _, p in ipairs(link_problems(dir, file, lines)) do out[#out + 1] = p end
            end
        end
    end
    table.sort(out)
    return out
end

-- Every (document, section) the tree cites, for the report: "ais.md §7.6".
local function cited(dir)
    local set = {}
    for _, file in ipairs(files_of(dir)) do
        local text = file ~= SELF and read(dir .. "/" .. file)
        if text and not text:find("\0", 1, true) then
            local lines = {}
            for line in (text .. "\n"):gmatch("(.-)\r?\n") do lines[#lines + 1] = line end
            for i = 1, #lines do
                for _, ref in ipairs(refs_of_line(joined(lines, i))) do
                    for _, n in ipairs(ref.numbers) do
                        set[(ref.doc:match("[^/]*$")) .. " " .. SECT .. n] = true
                    end
                end
            end
        end
    end
    local list = {}
    for k in pairs(set) do list[#list + 1] = k end
    table.sort(list)
    return list
end

if os.getenv("REFS_LIST") then
    for _, c in ipairs(cited(root)) do print(c) end
    os.exit(0)
end

local pass, fail = 0, 0
local function check(ok, what)
    if ok then
        pass = pass + 1
        print("ok " .. what)
    else
        fail = fail + 1
        print("not ok " .. what)
    end
end

local found = problems(root)
for _, p in ipairs(found) do print("  " .. p) end
check(#found == 0, "every NAME.md " .. SECT .. "N reference resolves inside the repository, and no path or " ..
    "'the spec' points outside it (" .. #found .. " problems)")
local ncited = #cited(root)
check(ncited > 0, "the repository cites numbered sections (" .. ncited .. ")")
for _, doc in ipairs({"ais", "game", "search", "tree", "matches", "rng"}) do
    check(headings(root .. "/docs/series/" .. doc .. ".md") ~= nil, "docs/series/" .. doc .. ".md exists")
end

-- ---- the check itself, on made-up files ----
local tmp = os.tmpname()
os.remove(tmp)
assert(os.execute("mkdir -p " .. shell_quote(tmp .. "/docs/series") .. " " .. shell_quote(tmp .. "/src")))
local function write(name, text)
    local f = assert(io.open(tmp .. "/" .. name, "w"))
    f:write(text)
    f:close()
end
write("docs/series/ais.md", "# ais\n\n## 4. Rules\n\n### 7.5 dls\n\n### 7.6 pvs\n\n## 13. Quirks\n")
write("docs/lua-api.md", "# api\n\n### 5.5b Shared\n\n### 5.10 The sandbox\n\n## 10. Fast\n")
local S = SECT
write("src/good.c", table.concat({
    "/* ais.md " .. S .. "7.5, " .. S .. "7.6 and ais.md " .. S .. "4. */",
    "/* (spec ais.md " .. S .. "7.5-" .. S .. "7.6; docs/lua-api.md " .. S .. "5.10) */",
    "/* ais.md " .. S .. "4, " .. S .. "13 #2, lua-api.md " .. S .. "5.5b, lua-api.md " .. S .. "10. */",
    "/* ais.md " .. S .. "7.5" .. DASH .. "7.6, docs/series/ais.md " .. S .. "13 */",
    "/* the series' search (spec ais.md",
    " * " .. S .. "7.6) */",
    "-- the specs of the players; a player spec; specification-free",
}, "\n") .. "\n")
write("src/bad.c", table.concat({
    "/* line 1 is fine: ais.md " .. S .. "4 */",
    "/* a dangling one: ais.md " .. S .. "7.9 */",
    "/* the second of a list: ais.md " .. S .. "7.5, " .. S .. "7.7 */",
    "/* the end of a range: ais.md " .. S .. "7.5" .. DASH .. "7.8 */",
    "/* a placeholder: docs/lua-api.md " .. S .. "5.x */",
    "/* no such document: nowhere.md " .. S .. "1 */",
    "/* split over two lines: ais.md",
    " * " .. S .. "8.1 */",
    "/* outside: ../" .. "shared/spec/ais.md, /wo" .. "rk/shared/spec, spe" .. "c/rng.md */",
    "/* T" .. "he spec says so. */",
    "/* wrong directory: docs/ais.md " .. S .. "4 */",
}, "\n") .. "\n")
write("docs/series/README.md", table.concat({
    "# The series",
    "",
    "See [dls](ais.md#75-dls), [quirks](ais.md#13-quirks), [the API](../lua-api.md#510-the-sandbox),",
    "[this page](#the-series), [a site](https://example.org/x.md#y) and [the code](../../src/good.c).",
    "A heading that is gone: [pvs](ais.md#76-gone); a file that is not: [x](nowhere.md).",
    "```",
    "[in a code block](missing.md)",
    "## 99 not a heading",
    "```",
    "A section inside a code block is no heading: ais.md " .. S .. "99.",
}, "\n") .. "\n")
local bad = problems(tmp)
for _, p in ipairs(bad) do print("  (made up) " .. p) end
local want = {
    "src/bad.c:2: 'ais.md " .. S .. "7.9': no heading numbered 7.9",
    "src/bad.c:3: 'ais.md " .. S .. "7.5, " .. S .. "7.7': no heading numbered 7.7",
    "src/bad.c:4: 'ais.md " .. S .. "7.5" .. DASH .. "7.8': no heading numbered 7.8",
    "src/bad.c:5: 'docs/lua-api.md " .. S .. "5.x': '" .. S .. "5.x' is not a section number",
    "src/bad.c:6: 'nowhere.md " .. S .. "1': no document nowhere.md",
    "src/bad.c:7: 'ais.md " .. S .. "8.1': no heading numbered 8.1",
    "src/bad.c:9: " .. outside[1][2],
    "src/bad.c:9: " .. outside[2][2],
    "src/bad.c:9: " .. outside[3][2],
    "src/bad.c:9: " .. outside[4][2],
    "src/bad.c:10: " .. outside[5][2],
    "src/bad.c:11: 'docs/ais.md " .. S .. "4': no document docs/ais.md",
    "docs/series/README.md:5: a link to ais.md#76-gone: no such heading",
    "docs/series/README.md:5: a link to nowhere.md: no such file",
    "docs/series/README.md:10: 'ais.md " .. S .. "99': no heading numbered 99",
}
local function has(list, prefix)
    for _, p in ipairs(list) do
        if p:sub(1, #prefix) == prefix then return true end
    end
    return false
end
for _, w in ipairs(want) do check(has(bad, w), "made-up files: found " .. w) end
check(#bad == #want, ("made-up files: nothing else is reported (%d problems, %d expected)"):format(#bad, #want))
os.execute("rm -r " .. shell_quote(tmp))

print(("%d passed, %d failed"):format(pass, fail))
os.exit(fail == 0 and 0 or 1)
