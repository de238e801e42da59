-- tests/docs/doctest.lua: the examples the README and docs/*.md show
-- with their output are what the program prints. An example is an
-- indented (4 spaces) block right after a line `<!-- doctest -->`; each
-- `$ COMMAND` line in it is run by sh in a fresh temporary directory, with
-- `build/marubatsu` replaced by the program under test, and its standard
-- output must equal the lines that follow it up to the next `$` line or
-- the end of the block (a `$` line after a blank line starts another,
-- unchecked example). A line starting with `...` stands for any number of
-- lines (up to the next line shown, or to the end); a command line ending
-- in `\` continues on the next; trailing blank lines do not count. Blocks without the marker are illustrative (a
-- game in a terminal, timed runs, files the reader would have): not run.
-- Last, the comparison is run on a made-up document whose output is
-- wrong, which it must reject (so it can fail). Prints "N passed, N failed".
-- Usage: lua5.4 tests/docs/doctest.lua PROGRAM [FILE.md ...]
local prog = assert(arg[1], "usage: doctest.lua PROGRAM [FILE.md ...]")
if not prog:match("^/") then prog = os.getenv("PWD") .. "/" .. prog end

local function read(path)
    local f = assert(io.open(path, "rb"))
    local text = f:read("a")
    f:close()
    return text
end

-- The examples of a Markdown text: {line =, commands = {{cmd =, want = {...}}}}
local function examples(text)
    local lines = {}
    for line in (text .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = line end
    local out = {}
    local i = 1
    while i <= #lines do
        if lines[i]:match("^<!%-%- doctest %-%->%s*$") then
            local j = i + 1
            while lines[j] == "" do j = j + 1 end
            local ex = {line = j, commands = {}}
            local current
            while lines[j] and (lines[j]:match("^    ") or lines[j] == "") do
                local l = lines[j]:sub(5)
                if l:match("^%$ ") and lines[j - 1] == "" and #ex.commands > 0 then
                    break -- a command after a blank line: another example
                elseif l:match("^%$ ") then
                    local cmd = l:sub(3)
                    while cmd:match("\\%s*$") and lines[j + 1] do
                        j = j + 1
                        cmd = cmd:gsub("\\%s*$", "") .. " " .. lines[j]:match("^%s*(.-)$")
                    end
                    current = {cmd = cmd, want = {}}
                    ex.commands[#ex.commands + 1] = current
                elseif current then
                    current.want[#current.want + 1] = l
                end
                j = j + 1
            end
            for _, c in ipairs(ex.commands) do -- the blank lines that end the block
                while c.want[#c.want] == "" do c.want[#c.want] = nil end
            end
            out[#out + 1] = ex
            i = j
        else
            i = i + 1
        end
    end
    return out
end

-- nil if `got` (lines) matches `want` (lines, with "..." wildcards), else
-- what differs.
local function compare(want, got)
    local g = 1
    for w = 1, #want do
        if want[w]:match("^%.%.%.") then
            local next_line = want[w + 1]
            if not next_line then return nil end
            while got[g] and got[g]:gsub("%s+$", "") ~= next_line:gsub("%s+$", "") do g = g + 1 end
            if not got[g] then return ("never printed: %s"):format(next_line) end
        else
            local a, b = (got[g] or "<end of output>"):gsub("%s+$", ""), want[w]:gsub("%s+$", "")
            if a ~= b then return ("line %d: printed\n  %s\nshown\n  %s"):format(g, a, b) end
            g = g + 1
        end
    end
    while got[#got] == "" and #got >= g do got[#got] = nil end
    if got[g] then return ("printed more than shown, from line %d: %s"):format(g, got[g]) end
    return nil
end

local function run(cmd)
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute(("mkdir '%s'"):format(dir)))
    cmd = cmd:gsub("^build/marubatsu", prog):gsub("([%s|;(])build/marubatsu", "%1" .. prog)
    local p = assert(io.popen(("cd '%s' && %s 2>/dev/null"):format(dir, cmd)))
    local text = p:read("a")
    p:close()
    os.execute(("rm -rf '%s'"):format(dir))
    local got = {}
    for line in text:gmatch("([^\n]*)\n") do got[#got + 1] = line end
    return got
end

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

local files = {}
for i = 2, #arg do files[#files + 1] = arg[i] end
if #files == 0 then
    files[1] = "README.md"
    local p = io.popen("ls docs/*.md")
    for f in p:lines() do files[#files + 1] = f end
    p:close()
end
local total = 0
for _, file in ipairs(files) do
    for _, ex in ipairs(examples(read(file))) do
        for _, c in ipairs(ex.commands) do
            total = total + 1
            local why = compare(c.want, run(c.cmd))
            check(not why, ("%s:%d: $ %s"):format(file, ex.line, c.cmd), why)
        end
    end
end
check(total >= 3, ("%d examples found (3 or more)"):format(total))

-- the check itself: a wrong output and a missing line must be found
local bad = examples(table.concat({
    "<!-- doctest -->", "", "    $ echo one; echo two", "    one", "    three", "",
    "<!-- doctest -->", "    $ printf 'a\\nb\\nc\\n'", "    a", "    ...", "    d", "",
    "<!-- doctest -->", "    $ printf 'a\\nb\\nc\\n'", "    a", "    ...", "    c", ""}, "\n"))
check(#bad == 3, "made-up document: three examples found")
check(compare(bad[1].commands[1].want, run(bad[1].commands[1].cmd)) ~= nil,
    "made-up document: a wrong line is found")
check(compare(bad[2].commands[1].want, run(bad[2].commands[1].cmd)) ~= nil,
    "made-up document: a line never printed after ... is found")
check(compare(bad[3].commands[1].want, run(bad[3].commands[1].cmd)) == nil,
    "made-up document: ... skips lines")

print(("%d passed, %d failed"):format(pass, fail))
os.exit(fail == 0 and 0 or 1)
