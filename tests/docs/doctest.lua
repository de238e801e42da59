-- tests/docs/doctest.lua: every example that README.md, docs/*.md and
-- docs/series/*.md show is run, and what they show is what the program
-- prints. An example is a fenced block or an indented (4 spaces) code
-- block; the conventions are in the README's Tests section:
--   $ COMMAND         run by sh; the lines after it are its standard output
--                     (none: only success is checked; a failing command:
--                     then its standard error and [N], its exit status);
--                     without any `$` line every line of a shell block is
--                     a command that must succeed
--   $ marubatsu + > lines   a REPL session: the `>` lines are its input, the
--                     rest its output (the banner a terminal shows is
--                     checked against --version)
--   ```lua            run by `marubatsu run` as the file named by its first
--                     line (`-- NAME.lua: ...`, else example.lua); its output
--                     is the ```text block right after it, or its `--> TEXT`
--                     comments (print's tabs and spaces alike; ` -- ` starts
--                     a note)
--   <!-- output of: COMMAND -->     the block is what COMMAND prints
--   <!-- smaller: OPTIONS -->       run with OPTIONS appended, only success
--   <!-- illustrative: REASON -->   not run
-- In shown output a line starting with `…` stands for any lines, and `…`
-- inside a line for any text. Each document runs in a fresh directory of
-- its own, its examples in order (a file one writes, the next may read),
-- with `marubatsu` and `build/marubatsu` the program under test, HOME
-- empty, LANG=C.UTF-8, each command cut off after 120 s.
-- Last, made-up documents with wrong examples must be rejected, naming
-- file:line. Prints "doc examples: N run, N illustrative" and then
-- "N passed, N failed".
-- Usage: lua5.4 tests/docs/doctest.lua PROGRAM [FILE.md ...]
local prog = assert(arg[1], "usage: doctest.lua PROGRAM [FILE.md ...]")
local cwd = os.getenv("PWD")
if not prog:match("^/") then prog = cwd .. "/" .. prog end
local progdir = prog:match("^(.*)/[^/]*$")
local ELLIPSIS = "\226\128\166" -- "…"
local LIMIT = 120 -- seconds a command may run

local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function read(path)
    local f = assert(io.open(path, "rb"))
    local text = f:read("a")
    f:close()
    return text
end

local function write(path, text)
    local f = assert(io.open(path, "wb"))
    f:write(text)
    f:close()
end

local function split_lines(text)
    local lines = {}
    for line in (text .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = line end
    if text:sub(-1) == "\n" then lines[#lines] = nil end
    return lines
end

local function trim_blank_end(t)
    while #t > 0 and t[#t]:match("^%s*$") do t[#t] = nil end
    return t
end

-- The CPU seconds of this process's finished children so far.
local function children_cpu()
    local f = io.open("/proc/self/stat")
    if not f then return 0 end
    local stat = f:read("a")
    f:close()
    local fields = {}
    for w in stat:match("%) (.*)$"):gmatch("%S+") do fields[#fields + 1] = w end
    return (tonumber(fields[14]) + tonumber(fields[15])) / 100
end

---------------------------------------------------------------------------
-- Reading a Markdown document into its code blocks.

local function comment_of(line) return line:match("^%s*<!%-%-%s*(.-)%s*%-%->%s*$") end

-- The marker of the block starting at line i: the HTML comments above it
-- (blank lines between allowed).
local function marker_of(lines, i)
    local m = {}
    local j = i - 1
    while j >= 1 do
        local l = lines[j]
        local c = comment_of(l)
        if c then
            local reason = c:match("^illustrative:?%s*(.*)$")
            if reason then m.illustrative = reason end
            m.output_of = m.output_of or c:match("^output of:%s*(.-)$")
            m.smaller = m.smaller or c:match("^smaller:%s*(.-)$")
        elseif not l:match("^%s*$") then
            break
        end
        j = j - 1
    end
    return m
end

-- {line =, last =, fenced =, info =, body = {lines}, marker =}
local function code_blocks(text)
    local lines = split_lines(text)
    local out = {}
    local i = 1
    while i <= #lines do
        local l = lines[i]
        local ind, fence, info = l:match("^( *)(```+)%s*(.-)%s*$")
        if not fence then ind, fence, info = l:match("^( *)(~~~+)%s*(.-)%s*$") end
        local prev = lines[i - 1]
        if fence and #ind <= 3 then
            local j, body = i + 1, {}
            local close = "^%s*" .. fence:sub(1, 1):rep(#fence) .. "%s*$"
            while lines[j] and not lines[j]:match(close) do
                local s = lines[j]
                local n = #s:match("^ *")
                body[#body + 1] = s:sub(math.min(n, #ind) + 1)
                j = j + 1
            end
            out[#out + 1] = {line = i, last = j, fenced = true, info = info:match("^%S*"),
                body = body, marker = marker_of(lines, i)}
            i = j + 1
        elseif l:match("^    +%S") and (i == 1 or prev:match("^%s*$") or comment_of(prev)) then
            local j = i
            while lines[j] and (lines[j]:match("^    ") or lines[j]:match("^%s*$")) do
                if lines[j]:match("^%s*$") then
                    local k = j
                    while lines[k] and lines[k]:match("^%s*$") do k = k + 1 end
                    if not (lines[k] and lines[k]:match("^    ")) then break end
                end
                j = j + 1
            end
            local body, n = {}, math.huge
            for k = i, j - 1 do
                if lines[k]:match("%S") then n = math.min(n, #lines[k]:match("^ *")) end
            end
            for k = i, j - 1 do body[#body + 1] = lines[k]:sub(n + 1) end
            out[#out + 1] = {line = i, last = j - 1, fenced = false, info = "",
                body = trim_blank_end(body), marker = marker_of(lines, i)}
            i = j
        else
            i = i + 1
        end
    end
    -- a ```lua block's output: the ```text block right after it (prose
    -- between, no heading, no marker on the output)
    for n, b in ipairs(out) do
        local nxt = out[n + 1]
        if b.info == "lua" and nxt and nxt.fenced and nxt.info == "text"
            and not next(nxt.marker) and not b.output then
            local heading = false
            for k = b.last + 1, nxt.line - 1 do
                if lines[k]:match("^#") then heading = true end
            end
            if not heading then
                b.output, b.output_first = nxt.body, nxt.line + 1
                nxt.output_of_line = b.line
            end
        end
    end
    return out
end

---------------------------------------------------------------------------
-- Comparing.

-- A shown line as a pattern: `…` is any text.
local function line_pattern(shown)
    local parts = {}
    for piece in (shown .. ELLIPSIS):gmatch("(.-)" .. ELLIPSIS) do
        parts[#parts + 1] = piece:gsub("[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0")
    end
    return "^" .. table.concat(parts, ".-") .. "$"
end

local function rtrim(s) return (s:gsub("%s+$", "")) end

local function line_matches(got, shown)
    got, shown = rtrim(got), rtrim(shown)
    if got == shown then return true end
    return shown:find(ELLIPSIS, 1, true) ~= nil and got:match(line_pattern(shown)) ~= nil
end

-- nil if `got` (lines) is what `want` (lines) shows, else what differs.
local function compare(want, got)
    want = trim_blank_end({table.unpack(want)})
    got = trim_blank_end({table.unpack(got)})
    local g = 1
    for w = 1, #want do
        if want[w]:sub(1, #ELLIPSIS) == ELLIPSIS then
            local nxt = want[w + 1]
            if not nxt then return nil end
            while got[g] and not line_matches(got[g], nxt) do g = g + 1 end
            if not got[g] then return ("never printed: %s"):format(nxt), w + 1 end
        else
            if not got[g] then return ("printed %d lines, shown more: %s"):format(#got, want[w]), w end
            if not line_matches(got[g], want[w]) then
                return ("output line %d: printed\n  %s\nshown\n  %s"):format(g, rtrim(got[g]), rtrim(want[w])), w
            end
            g = g + 1
        end
    end
    if got[g] then return ("printed more than shown, from line %d: %s"):format(g, got[g]), #want end
    return nil
end

---------------------------------------------------------------------------
-- Running.

local top = os.tmpname()
os.remove(top)
assert(os.execute("mkdir -p " .. q(top .. "/bin") .. " " .. q(top .. "/home")))
assert(os.execute(("ln -s %s %s"):format(q(prog), q(top .. "/bin/marubatsu"))))

-- A fresh directory for one document: build/marubatsu (and marubatsu.so
-- when the program's directory has one), and the repository's examples/,
-- scripts/, src/ and tests/ to read.
local ndirs = 0
local function new_dir()
    ndirs = ndirs + 1
    local dir = ("%s/doc%d"):format(top, ndirs)
    assert(os.execute("mkdir -p " .. q(dir .. "/build")))
    assert(os.execute(("ln -s %s %s"):format(q(prog), q(dir .. "/build/marubatsu"))))
    local so = progdir .. "/marubatsu.so"
    if not io.open(so) then so = cwd .. "/build/marubatsu.so" end
    if io.open(so) then os.execute(("ln -s %s %s"):format(q(so), q(dir .. "/build/marubatsu.so"))) end
    for _, d in ipairs{"examples", "scripts", "src", "tests"} do
        os.execute(("ln -s %s %s"):format(q(cwd .. "/" .. d), q(dir .. "/" .. d)))
    end
    return dir
end

-- Runs a shell command in dir: stdout lines, stderr lines, exit status.
local function sh(dir, cmd, input)
    write(top .. "/cmd.sh", cmd .. "\n")
    write(top .. "/in", input or "")
    local env = ("env -u LC_ALL -u LANGUAGE -u MARUBATSU_PATH -u MARUBATSU_INIT LANG=C.UTF-8 "
        .. "HOME=%s PATH=%s"):format(q(top .. "/home"), q(top .. "/bin:" .. os.getenv("PATH")))
    local ok, how, code = os.execute(("cd %s && %s timeout -k 5 %d sh %s <%s >%s 2>%s"):format(
        q(dir), env, LIMIT, q(top .. "/cmd.sh"), q(top .. "/in"), q(top .. "/out"), q(top .. "/err")))
    if ok then code = 0 elseif how == "signal" then code = 128 + code end
    return split_lines(read(top .. "/out")), split_lines(read(top .. "/err")), code
end

-- The document being checked, and the line numbers of a shown output.
local current_file
local function numbered(first, n)
    local t = {}
    for i = 1, n do t[i] = first + i - 1 end
    return t
end

-- Where a shown output differs: "FILE:LINE: what".
local function placed(lines, why, w)
    if why and w and lines and #lines > 0 then
        return ("%s:%d: %s"):format(current_file, lines[math.max(1, math.min(w, #lines))], why)
    end
    return why
end

-- One command: nil when it did what was shown, else what differs. `want`
-- nil: only success is checked; `lines`: where each shown line is.
-- `input`: the REPL's lines.
local function run_command(dir, cmd, want, input, lines)
    local out, err, code = sh(dir, cmd, input)
    if code == 124 or code == 137 then return ("cut off after %d s"):format(LIMIT) end
    local shown_code
    if want then
        want = trim_blank_end({table.unpack(want)})
        shown_code = want[#want] and tonumber(want[#want]:match("^%[(%d+)%]$"))
        if shown_code then want[#want] = nil end
    end
    if code ~= (shown_code or 0) then
        local msg = ("exit status %d%s"):format(code, shown_code and (", shown " .. shown_code) or "")
        if #err > 0 then msg = msg .. "; stderr:\n" .. table.concat(err, "\n", 1, math.min(#err, 10)) end
        return msg
    end
    if not want then return nil end
    if code ~= 0 then
        out = trim_blank_end(out)
        for _, l in ipairs(err) do out[#out + 1] = l end
    end
    return placed(lines, compare(want, out))
end

-- A `$` session: {{cmd =, want = {...}, line =}}; a REPL command gets
-- `input` (its `>` lines) and its banner line apart.
local function session(body, first)
    local cmds = {}
    local k = 1
    while k <= #body do
        local l = body[k]
        if l:match("^%$ ") then
            local cmd, line = l:sub(3), first + k - 1
            while cmd:match("\\%s*$") and body[k + 1] do
                k = k + 1
                cmd = cmd:gsub("\\%s*$", "") .. " " .. body[k]:match("^%s*(.-)$")
            end
            cmds[#cmds + 1] = {cmd = cmd, want = {}, lines = {}, line = line}
        elseif #cmds == 0 then
            if l:match("%S") then return nil, ("line %d: output before any `$ ` command"):format(first + k - 1) end
        else
            local c = cmds[#cmds]
            c.want[#c.want + 1] = l
            c.lines[#c.lines + 1] = first + k - 1
        end
        k = k + 1
    end
    for _, c in ipairs(cmds) do
        if not next(trim_blank_end(c.want)) then c.want = nil end -- nothing shown: success only
    end
    for _, c in ipairs(cmds) do
        local input = {}
        for _, l in ipairs(c.want or {}) do
            if l:match("^>>? ") or l == ">" then input[#input + 1] = l:match("^>>? ?(.*)$") end
        end
        if #input > 0 then
            local want, lines = {}, {}
            for i, l in ipairs(c.want) do
                if not (l:match("^>>? ") or l == ">") then
                    want[#want + 1] = l
                    lines[#lines + 1] = c.lines[i]
                end
            end
            if want[1] and want[1]:match("^marubatsu %S+ %(Lua") then
                c.banner = table.remove(want, 1)
                table.remove(lines, 1)
            end
            c.want, c.lines, c.input = want, lines, table.concat(input, "\n") .. "\n"
        end
    end
    return cmds
end

-- Commands without prompts, `\` continuing a line.
local function bare_commands(body, first)
    local cmds = {}
    local k = 1
    while k <= #body do
        local cmd, line = body[k], first + k - 1
        while cmd:match("\\%s*$") and body[k + 1] do
            k = k + 1
            cmd = cmd:gsub("\\%s*$", "") .. " " .. body[k]:match("^%s*(.-)$")
        end
        if cmd:match("%S") then cmds[#cmds + 1] = {cmd = cmd, line = line} end
        k = k + 1
    end
    return cmds
end

-- The `--> TEXT` comments of a Lua block (nil if none): what its lines
-- print, and the index in body of each.
local function arrow_comments(body)
    local want, at = {}, {}
    for i, l in ipairs(body) do
        local shown = l:match("%-%->%s*(.-)%s*$")
        if shown and not l:match("^%s*%-%->") then
            shown = shown:gsub("%s+%-%-%s.*$", "")
            want[#want + 1] = shown
            at[#at + 1] = i
        end
    end
    return #want > 0 and want or nil, at
end

local function squash(lines)
    local t = {}
    for i, l in ipairs(lines) do t[i] = l:gsub("%s+", " "):gsub("^ ", ""):gsub(" $", "") end
    return t
end

local SHELL = {[""] = true, sh = true, shell = true, console = true}

-- Checks one example; returns "run", "illustrative" and nil or what failed.
local function run_example(dir, b, version)
    local m = b.marker
    local first = b.fenced and b.line + 1 or b.line
    if m.illustrative then
        if not m.illustrative:match("%w") then return "illustrative", "illustrative, with no reason given" end
        return "illustrative"
    end
    if m.output_of then
        if m.output_of == "" then return "run", "`output of:` with no command" end
        return "run", run_command(dir, m.output_of, b.body, nil, numbered(first, #b.body))
    end
    if b.info == "lua" then
        local name = b.body[1] and b.body[1]:match("^%-%- ([%w_./-]+%.lua):") or "example.lua"
        os.execute(("mkdir -p %s"):format(q((dir .. "/" .. name):match("^(.*)/"))))
        write(dir .. "/" .. name, table.concat(b.body, "\n") .. "\n")
        if m.smaller then return "run", "`smaller:` is for shell commands" end
        local arrows, at = arrow_comments(b.body)
        if arrows and not b.output then
            local out, err, code = sh(dir, "marubatsu run " .. q(name))
            if code ~= 0 then return "run", ("exit status %d; stderr:\n%s"):format(code, table.concat(err, "\n")) end
            local why, w = compare(squash(arrows), squash(out))
            return "run", placed(numbered(first, #b.body), why, w and at[math.min(w, #at)])
        end
        return "run", run_command(dir, "marubatsu run " .. q(name), b.output, nil,
            b.output and numbered(b.output_first, #b.output))
    end
    if b.output_of_line then return "run" end -- checked with its Lua block
    if not SHELL[b.info] then
        return "run", ("a ```%s block: mark it `output of: COMMAND` or `illustrative: REASON`"):format(b.info)
    end
    local has_prompt = false
    for _, l in ipairs(b.body) do
        if l:match("^%$ ") then has_prompt = true end
    end
    local cmds, err
    if has_prompt then
        cmds, err = session(b.body, first)
        if not cmds then return "run", err end
    else
        cmds = bare_commands(b.body, first)
    end
    if #cmds == 0 then return "run", "no command" end
    for _, c in ipairs(cmds) do
        local cmd, want = c.cmd, c.want
        if m.smaller then cmd, want = cmd .. " " .. m.smaller, nil end
        if c.banner and not c.banner:match("^" .. version:gsub("%p", "%%%0") .. " %(Lua 5%.4") then
            return "run", ("line %d: the banner, shown\n  %s\nis not the program's (%s)"):format(c.line, c.banner,
                version)
        end
        local why = run_command(dir, cmd, want, c.input, c.lines)
        if why then return "run", ("line %d: %s%s\n%s"):format(c.line, has_prompt and "$ " or "", c.cmd, why) end
    end
    return "run"
end

-- Every example of one document: {{where =, what =, kind =, why =}}.
local function check_document(path, version, shown_as)
    local results = {}
    local dir = new_dir()
    current_file = shown_as or path
    for _, b in ipairs(code_blocks(read(path))) do
        local t0 = children_cpu()
        local kind, why = run_example(dir, b, version)
        local what = b.body[1] or ""
        if #what > 60 then what = what:sub(1, 57) .. "..." end
        results[#results + 1] = {where = ("%s:%d"):format(shown_as or path, b.line), what = what,
            kind = kind, why = why, cpu = children_cpu() - t0, output = b.output_of_line ~= nil}
    end
    return results
end

---------------------------------------------------------------------------

local pass, fail = 0, 0
local function check(ok, what, detail)
    if ok then
        pass = pass + 1
        print("ok " .. what)
    else
        fail = fail + 1
        print("not ok " .. what)
        if detail then print("  " .. detail:gsub("\n", "\n  ")) end
    end
end

local version = (io.popen(q(prog) .. " --version"):read("l") or "?")

local files = {}
for i = 2, #arg do files[#files + 1] = arg[i] end
if #files == 0 then
    files[1] = "README.md"
    local p = io.popen("ls docs/*.md docs/series/*.md")
    for f in p:lines() do files[#files + 1] = f end
    p:close()
end
local nrun, nill, cpu0 = 0, 0, children_cpu()
for _, file in ipairs(files) do
    for _, r in ipairs(check_document(file, version)) do
        if r.output then goto continue end
        if r.kind == "illustrative" and not r.why then
            nill = nill + 1
        else
            nrun = nrun + 1
            check(not r.why, ("%s: %s%s"):format(r.where, r.what,
                r.cpu >= 1 and (" (%.1f s CPU)"):format(r.cpu) or ""), r.why)
        end
        ::continue::
    end
end
local doc_cpu = children_cpu() - cpu0
check(#arg > 1 or (nrun >= 40 and nrun + nill >= 70),
    ("%d examples run, %d in all (40 and 70 or more: the documents' blocks are found)"):format(nrun, nrun + nill))

-- The check itself, on made-up documents: each wrong example must fail,
-- named by file:line, and the right ones pass.
local made_up = { -- {lines, the line of its block, what its failure says (nil: passes),
    -- the line it names, from the block's}
    {{"    $ echo one; echo two", "    one", "    three"}, 1, "output line 2: printed", 2},
    {{"    $ printf 'a\\nb\\nc\\n'", "    a", "    … b, c", "    d"}, 1, "never printed: d"},
    {{"    $ printf 'a\\nb\\nc\\n'", "    a", "    …", "    c"}, 1},
    {{"    $ echo 'took 1.25 s'", "    took … s"}, 1},
    {{"    $ sh -c 'echo oops >&2; exit 3'", "    oops", "    [3]"}, 1},
    {{"    $ false"}, 1, "exit status 1"},
    {{"    $ echo not shown", "    $ echo shown", "    shown"}, 1},
    {{"```lua", "print(1 + 1)  --> 2", "print('a', 'b')  --> a  c -- a note", "```"}, 1, "printed", 2},
    {{"```lua", "print(1 + 1)  --> 2 -- a note", "print('a', 'b')  --> a    b", "```"}, 1},
    {{"```lua", "-- f.lua: a file", "print(#arg)", "```", "", "Output:", "", "```text", "0", "```"}, 1},
    {{"```lua", "error('no')", "```"}, 1, "exit status 1"},
    {{"<!-- illustrative -->", "", "    $ exit 1"}, 3, "no reason"},
    {{"<!-- illustrative: a reason -->", "", "    $ exit 1"}, 3, nil},
    {{"```text", "data", "```"}, 1, "a ```text block"},
    {{"<!-- output of: echo 5 -->", "```", "6", "```"}, 2, "line 1: printed", 1},
    {{"```lua", "print(1)", "```", "", "```text", "1", "2", "```"}, 1, "shown more: 2", 6},
    {{"<!-- smaller: --x -->", "    $ echo big", "    small"}, 2},
    {{"    $ marubatsu", "    " .. version .. " (Lua 5.4.0): help", "    > 1 + 1", "    3"}, 1, "line 1: printed", 3},
    {{"    $ marubatsu", "    marubatsu 0.0 (Lua 5.4.0): help", "    > 1 + 1", "    2"}, 1, "the banner"},
}
local text, at = {"# made up", ""}, {}
for n, e in ipairs(made_up) do
    at[#text + e[2]] = n
    for _, l in ipairs(e[1]) do text[#text + 1] = l end
    text[#text + 1] = ""
    text[#text + 1] = "Some prose."
    text[#text + 1] = ""
end
local made = top .. "/made.md"
write(made, table.concat(text, "\n"))
local seen = {}
for _, r in ipairs(check_document(made, version, "made.md")) do
    local line = tonumber(r.where:match(":(%d+)$"))
    local n = at[line]
    if n then
        seen[n] = true
        local w, off = made_up[n][3], made_up[n][4]
        if w then
            local named = off and ("made.md:%d: "):format(line + off)
            check(r.why and r.why:find(w, 1, true) and (not named or r.why:find(named, 1, true)),
                ("made-up document: the wrong example at %s fails (%s%s)"):format(r.where, named or "", w),
                ("%s: %s"):format(r.where, r.why))
        else
            check(not r.why, ("made-up document: the example at %s passes"):format(r.where), r.why)
        end
    elseif not r.output then
        check(false, ("made-up document: an example found at %s"):format(r.where))
    end
end
for n in ipairs(made_up) do
    if not seen[n] then check(false, ("made-up document: example %d found"):format(n)) end
end

os.execute("rm -rf " .. q(top))
print(("doc examples: %d run, %d illustrative (%.1f s CPU)"):format(nrun, nill, doc_cpu))
print(("%d passed, %d failed"):format(pass, fail))
os.exit(fail == 0 and 0 or 1)
