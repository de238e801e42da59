-- outfiles_spec.lua: the host library's files of an --out directory and
-- its UTF-8 repair (src/lua/l_files.c; issue 22). Checks: host.utf8_fix
-- keeps valid text (the same string) and replaces each ill-formed form
-- (the vectors of tests/c/test_utf8fix.c, seen from Lua); host.write_file
-- writes through neither a link planted as PATH.tmp nor a link at PATH
-- (the file outside unchanged, PATH a regular file, no .tmp left), removes
-- a FIFO planted as PATH.tmp without opening it, keeps the old file when
-- the directory is missing, and refuses a path ending in '/';
-- host.open_file opens regular files only (kinds "absent", "link",
-- "special" for a FIFO without blocking, a device, a directory), follows a
-- link only when asked, appends with "a" and refuses a bad mode;
-- host.lock_file refuses a link, holds the lock with its pid in the file,
-- and can be taken again after unlock and after a <close> variable ends;
-- the JSON of results.lua and report.lua (results.json, serve's replies)
-- parses as valid UTF-8 with U+FFFD for raw bytes in a forfeit reason and
-- a name (a tournament whose player's error() holds them).
local mb = rawget(_G, "mb") or require "marubatsu"
local host = require "marubatsu.host"

local helpers = dofile("tests/lua/helpers.lua")
local newdir = helpers.dir_maker()
local R = "\239\191\189" -- U+FFFD

local read, write = helpers.read_file, helpers.write_file

local function sh(cmd) assert(os.execute(cmd), cmd) end

local function kind_of(path) -- "link", "file", "fifo", "none" (without following)
    local p = io.popen(("stat -c %%F %q 2>/dev/null"):format(path))
    local t = p:read("a")
    p:close()
    if t:find("symbolic link") then return "link" end
    if t:find("fifo") then return "fifo" end
    if t:find("regular") then return "file" end
    return "none"
end

describe("host.utf8_fix", function()
    it("keeps valid UTF-8, the same string", function()
        for _, s in ipairs {"", "ai14s", "caf\195\169 \227\128\135\195\151", "\244\143\191\191", "a\0b"} do
            assert.are.equal(s, host.utf8_fix(s))
        end
    end)
    it("replaces each ill-formed sequence by U+FFFD", function()
        local cases = {
            {"\255\254 bad \192\175", R .. R .. " bad " .. R .. R},
            {"\237\160\128", R .. R .. R},                   -- a surrogate
            {"\224\128\175", R .. R .. R},                   -- overlong
            {"\244\144\128\128", R .. R .. R .. R},          -- above U+10FFFF
            {"x\226\130", "x" .. R},                         -- cut short at the end
            {"\226\130A", R .. "A"},                         -- cut short before ASCII
            {"\128", R},                                     -- a lone continuation
        }
        for _, c in ipairs(cases) do
            assert.are.equal(c[2], host.utf8_fix(c[1]))
            assert.is_truthy(utf8.len(host.utf8_fix(c[1])))
        end
    end)
end)

describe("host.write_file", function()
    it("writes through no link planted as PATH.tmp or at PATH", function()
        local d, out = newdir(), newdir()
        sh(("mkdir -p %q %q"):format(d, out))
        write(out .. "/a", "outside a\n")
        write(out .. "/b", "outside b\n")
        sh(("ln -s %q %q"):format(out .. "/a", d .. "/results.json.tmp"))
        sh(("ln -s %q %q"):format(out .. "/b", d .. "/results.json"))
        assert.is_true(host.write_file(d .. "/results.json", "{}\n"))
        assert.are.equal("outside a\n", read(out .. "/a"))
        assert.are.equal("outside b\n", read(out .. "/b"))
        assert.are.equal("file", kind_of(d .. "/results.json"))
        assert.are.equal("{}\n", read(d .. "/results.json"))
        assert.are.equal("none", kind_of(d .. "/results.json.tmp"))
    end)
    it("removes a FIFO planted as PATH.tmp without opening it", function()
        local d = newdir()
        sh(("mkdir -p %q && mkfifo %q"):format(d, d .. "/x.tmp"))
        assert.is_true(host.write_file(d .. "/x", "text"))
        assert.are.equal("text", read(d .. "/x"))
        assert.are.equal("none", kind_of(d .. "/x.tmp"))
    end)
    it("fails with a message, leaving the old file", function()
        local d = newdir()
        local ok, err = host.write_file(d .. "/missing/x", "text")
        assert.is_nil(ok)
        assert.matches("missing: No such file or directory", err, 1, true)
        sh(("mkdir -p %q"):format(d))
        write(d .. "/x", "old")
        sh(("mkdir %q"):format(d .. "/x.tmp")) -- a directory is not removed
        ok, err = host.write_file(d .. "/x", "new")
        assert.is_nil(ok)
        assert.matches("x.tmp: Is a directory", err, 1, true)
        assert.are.equal("old", read(d .. "/x"))
        ok, err = host.write_file(d .. "/", "new")
        assert.is_nil(ok)
        assert.matches("not a file name", err, 1, true)
    end)
end)

describe("host.open_file", function()
    it("opens regular files only, never blocking, following links only when asked", function()
        local d = newdir()
        sh(("mkdir -p %q"):format(d))
        write(d .. "/f", "line\n")
        local f = assert(host.open_file(d .. "/f", "r"))
        assert.are.equal("line", f:read("l"))
        f:close()
        local a = assert(host.open_file(d .. "/f", "a"))
        a:write("more\n")
        assert.is_true(a:close())
        assert.are.equal("line\nmore\n", read(d .. "/f"))
        local _, err, kind = host.open_file(d .. "/none", "r")
        assert.are.equal("absent", kind)
        assert.matches("none: No such file or directory", err, 1, true)
        sh(("ln -s f %q && mkfifo %q"):format(d .. "/l", d .. "/p"))
        _, err, kind = host.open_file(d .. "/l", "r")
        assert.are.equal("link", kind)
        assert.matches("l: a symbolic link, not a regular file", err, 1, true)
        f = assert(host.open_file(d .. "/l", "r", true))
        assert.are.equal("line", f:read("l"))
        f:close()
        for _, mode in ipairs {"r", "a"} do
            _, err, kind = host.open_file(d .. "/p", mode)
            assert.are.equal("special", kind)
            assert.matches("p: not a regular file (a FIFO)", err, 1, true)
        end
        _, err, kind = host.open_file("/dev/null", "r")
        assert.are.equal("special", kind)
        assert.matches("not a regular file (a character device)", err, 1, true)
        _, err, kind = host.open_file(d, "r")
        assert.are.equal("special", kind)
        assert.matches("Is a directory", err, 1, true)
        assert.has_error(function() host.open_file(d .. "/f", "w") end)
    end)
end)

describe("host.lock_file", function()
    it("holds a lock with its pid, refuses a link, and is taken again once released", function()
        local d = newdir()
        sh(("mkdir -p %q"):format(d))
        local lock = assert(host.lock_file(d .. "/journal.lock"))
        assert.matches("^%d+\n$", read(d .. "/journal.lock"))
        lock:unlock()
        lock:unlock() -- twice is harmless
        do
            local again <close> = assert(host.lock_file(d .. "/journal.lock"))
            assert.is_truthy(again)
        end
        assert.is_truthy(host.lock_file(d .. "/journal.lock"))
        sh(("ln -s /tmp %q"):format(d .. "/link.lock"))
        local ok, err = host.lock_file(d .. "/link.lock")
        assert.is_nil(ok)
        assert.matches("a symbolic link", err, 1, true)
    end)
end)

describe("valid UTF-8 JSON", function()
    it("results.json and serve's replies have U+FFFD for raw bytes in reasons and names", function()
        local d = newdir()
        local ai = function() error("\255\254 bad \192\175", 0) end
        host.tournament{players = {"ai1", {name = "n\255me", ai = ai}}, games = 2, jobs = 1, out = d,
            quiet = true, progress = false}
        local text = read(d .. "/results.json")
        assert.is_truthy(utf8.len(text))
        assert.matches('"reason": "error: ' .. R .. R .. ' bad ' .. R .. R .. '"', text, 1, true)
        assert.matches('"name": "n' .. R .. 'me"', text, 1, true)
        assert.is_truthy(utf8.len(read(d .. "/journal.tsv")))
        assert.is_truthy(utf8.len(read(d .. "/report.html")))
        local report = load(mb.embedded("lib/report"), "=report", "t")(mb, host)
        local reply = report.json({error = "raw \255 bytes", list = {"\192\175"}})
        assert.are.equal('{"error":"raw ' .. R .. ' bytes","list":["' .. R .. R .. '"]}', reply)
    end)
end)
