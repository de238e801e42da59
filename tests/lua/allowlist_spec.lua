-- allowlist_spec.lua: what a sandboxed AI script can reach is exactly what
-- docs/lua-api.md §5.10 lists. mb.sandbox.inventory() walks a fresh player's
-- environment (every table reachable from it by indexing, what getmetatable
-- gives, the __index tables of the metatables of strings, games and AIs);
-- its entries, grouped by table, must equal the documented list between
-- the "sandbox inventory" markers, so a function added to mb later cannot
-- reach a sandbox unnoticed. Also: the host library is no field of mb, and
-- require "marubatsu.host" gives it to trusted code.
local mb = rawget(_G, "mb") or require "marubatsu"

-- "PARENT: key key ..." lines from inventory entries "PATH TYPE" / "PATH = OTHER"
local function grouped(entries)
    local groups = {}
    for _, e in ipairs(entries) do
        local path = e:match("^(.-) = ") or e:match("^(.*) [%a]+$")
        local parent, key = path:match("^(.*)(%.[^.%[%]()]+)$")
        if not parent then parent, key = path:match("^(.*)(%[[^%]]+%])$") end
        if e:match(" table$") then groups[path] = groups[path] or {} end
        if parent then
            groups[parent] = groups[parent] or {}
            table.insert(groups[parent], (key:gsub("^%.", "")))
        end
    end
    local lines = {}
    for parent, keys in pairs(groups) do
        table.sort(keys)
        lines[#lines + 1] = parent .. ":" .. (#keys > 0 and " " .. table.concat(keys, " ") or "")
    end
    table.sort(lines)
    return lines
end

local function documented()
    local f = assert(io.open("docs/lua-api.md", "r"))
    local text = f:read("a")
    f:close()
    local block = text:match("<!%-%- sandbox inventory begin %-%->\n```text\n(.-)```\n"
        .. "<!%-%- sandbox inventory end %-%->")
    assert(block, "docs/lua-api.md has no sandbox inventory block")
    local lines = {}
    for line in block:gmatch("[^\n]+") do lines[#lines + 1] = line end
    table.sort(lines)
    return lines
end

describe("the sandbox's allow-list", function()
    it("gives a script exactly what docs/lua-api.md lists", function()
        local found, doc = grouped(mb.sandbox.inventory()), documented()
        assert.are.same(doc, found)
    end)

    it("lists no host function, debug library, loader or stream object", function()
        local all = table.concat(mb.sandbox.inventory(), "\n")
        for _, name in ipairs {"tourney", "journal", "mkdir", "cpu_count", "_main", "draws", "Random",
            "stream", "seed\n", "loadscript", "sandbox", "path", "scripts_dir", "dump", "debug",
            "coroutine", "io", "package", "getenv", "execute", "searcher", "tree", "bestmoves",
            "embedded", "isatty", "list_scripts", "play", "ai_match", "__gc"} do
            assert.is_nil(all:find("%." .. name), name)
        end
    end)

    it("keeps the host library out of mb; require gives it to trusted code", function()
        local host = require "marubatsu.host"
        for _, k in ipairs {"tournament", "tourney_run", "journal_parse", "mkdir", "cpu_count",
            "tournament_main", "rating", "stream_copy"} do
            assert.is_not_nil(host[k], k)
            assert.is_nil(mb[k], k)
        end
    end)
end)
