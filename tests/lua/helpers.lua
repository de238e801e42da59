-- helpers.lua: pieces several busted specs share (not a spec itself; a
-- spec loads it with dofile("tests/lua/helpers.lua"), the specs running
-- from the repository's root as tests/lua/run.sh has them):
--   game_of(list [, opts])  a game made from opts with the moves of the
--                           comma-separated list ("B2,A1") played
--   random_moves(g, n)      play up to n random legal moves on g from the
--                           default stream (mb.randint), stopping at the end
--                           of the game; returns g
--   play_out(g, o, x)       play g to its end, the AI o moving for 〇 and x
--                           for ×; returns g
--   snapshot(g)             everything a caller can see of a game (board,
--                           status, turn, last turn, move count, last move,
--                           the records), as one string to compare
--   backends                every back-end setting: each board of the
--                           engine's list of back-ends (read from the error
--                           that names them), without and with the line
--                           counters; one setting is a table
--                             {board =, count_linemark =, label =,
--                              opts = fn(t), new = fn(t), game_of = fn(list, t)}
--                           where opts(t) is a copy of the options t (or {})
--                           with the setting's board and count_linemark, and
--                           new / game_of make a game with those options
--   each_backend(body)      body(setting) for every setting, in order: a
--                           spec declares its describe blocks in it (busted's
--                           describe is not seen from here), named with
--                           setting.label, so that a broken back-end fails
--                           under its own name
--   backend(i)              the settings taken in turn (i = 1, 2, ...: the
--                           first, the second, ..., round again), for long
--                           families of cases where each case runs on one
--                           setting and every setting gets some
--   dir_maker()             a function returning a new, not yet existing
--                           directory path under a fresh temporary root
--   read_file(path)         the bytes of a file (an error if it is missing)
--   write_file(path, text)  write a file whole
--   fields(line)            the tab-separated fields of a journal line,
--                           empty fields kept
local mb = rawget(_G, "mb") or require "marubatsu"

local helpers = {}

function helpers.game_of(list, opts)
    local g = mb.Marubatsu(opts)
    for sq in list:gmatch("[^,]+") do g:move(mb.move(sq, g)) end
    return g
end

function helpers.random_moves(g, n)
    for _ = 1, n do
        if g.status ~= "playing" then break end
        local legal = g:calc_legal_moves()
        g:move(legal[mb.randint(1, #legal)])
    end
    return g
end

function helpers.play_out(g, o, x)
    while g.status == "playing" do g:move((g.turn == "o" and o or x)(g)) end
    return g
end

function helpers.snapshot(g)
    local r = g.records
    return table.concat({g:board_to_str(), g.status, g.turn, tostring(g.last_turn), g.move_count,
        g.last_move, #r, table.concat(r, ",", 0, #r)}, "|")
end

-- The boards the engine has, in its order: the error for an unknown board
-- lists them ("list, list1d or bitboard expected"), so a back-end added to
-- the engine is tested here without a change.
local function board_names()
    local ok, err = pcall(mb.Marubatsu, {board = "?"})
    local list = not ok and tostring(err):match("%(([%w, ]+) expected, got %?%)")
    assert(list, "helpers.lua: cannot read the back-ends from: " .. tostring(err))
    local names = {}
    for name in list:gsub(" or ", ", "):gmatch("[^, ]+") do names[#names + 1] = name end
    assert(#names >= 3, "helpers.lua: fewer back-ends than expected: " .. list)
    return names
end

local function setting(board, counters)
    local s = {board = board, count_linemark = counters,
        label = board .. (counters and " with counters" or "")}
    function s.opts(t)
        local o = {}
        for k, v in pairs(t or {}) do o[k] = v end
        o.board, o.count_linemark = board, counters
        return o
    end
    function s.new(t) return mb.Marubatsu(s.opts(t)) end
    function s.game_of(list, t) return helpers.game_of(list, s.opts(t)) end
    return s
end

helpers.backends = {}
for _, board in ipairs(board_names()) do
    for _, counters in ipairs({false, true}) do
        helpers.backends[#helpers.backends + 1] = setting(board, counters)
    end
end

function helpers.each_backend(body)
    for _, s in ipairs(helpers.backends) do body(s) end
end

function helpers.backend(i)
    return helpers.backends[(i - 1) % #helpers.backends + 1]
end

function helpers.dir_maker()
    local root = os.tmpname()
    os.remove(root)
    assert(os.execute("mkdir -p " .. root))
    local n = 0
    return function()
        n = n + 1
        return ("%s/t%d"):format(root, n)
    end
end

function helpers.read_file(path)
    local f = assert(io.open(path, "rb"))
    local s = f:read("a")
    f:close()
    return s
end

function helpers.write_file(path, text)
    local f = assert(io.open(path, "wb"))
    f:write(text)
    f:close()
end

function helpers.fields(line)
    local f = {}
    for v in (line .. "\t"):gmatch("([^\t]*)\t") do f[#f + 1] = v end
    return f
end

return helpers
