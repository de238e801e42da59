-- scripts/lib/records.lua: game records for Gomoku programs and pictures:
-- Piskvork's .psq text (mb.game_psq) and an SVG of a position with move
-- numbers (mb.game_svg), and `marubatsu replay JOURNAL N --psq FILE
-- --svg FILE` (host.game_record_main). Embedded; runs once with mb and the
-- library's private table.
--
-- The .psq format, as Piskvork and the Gomocup tools write it: a first line
-- "Piskvorky WxH, 11:11, 0", one line "X,Y,MS" per move (1-based column
-- and row, then the thinking time in ms: 0 here, journals keep no times),
-- then the two players' names (the first player's first) and "-1".
local mb, private = ...
local host = private.host -- journals (the host library)

local function names_of(opts) return opts and opts.o or "o", opts and opts.x or "x" end

-- The .psq text of a game on a width x height board: xy = {{x, y}, ...}
-- (0-based column and row of each move, in order), the names of the
-- first player and the second.
local function psq_text(width, height, xy, o, x)
    local out = {("Piskvorky %dx%d, 11:11, 0"):format(width, height)}
    for i, c in ipairs(xy) do out[i + 1] = ("%d,%d,0"):format(c[1] + 1, c[2] + 1) end
    out[#out + 1] = (host.utf8_fix(o):gsub("[\r\n]", " "))
    out[#out + 1] = (host.utf8_fix(x):gsub("[\r\n]", " "))
    out[#out + 1] = "-1"
    return table.concat(out, "\n") .. "\n"
end

-- mb.game_psq(game [, {o =, x =}]) -> text
function mb.game_psq(game, opts)
    local o, x = names_of(opts)
    local xy = {}
    for i = 1, game.move_count do xy[i] = {game:move_to_xy(game.records[i])} end
    return psq_text(game.width, game.height, xy, o, x)
end

-- ---------------------------------------------------------------- a tournament's records
--
-- A tournament with --out writes every game in two formats other programs
-- read, from its journal's lines (no game is replayed: the squares of a
-- line are converted as they stand):
--   games.sgf          every game, one SGF (FF[4]) game tree each, in the
--                      journal's order: GM[4] (gomoku and renju), SZ, PB
--                      (〇's player, black, who moves first) and PW, RE
--                      (B+, W+, 0 for a draw; B+T / W+T a loss on time,
--                      B+F / W+F another forfeit, its reason in C[]), GN
--                      (the game's number), GC (board, k, rule), the moves;
--   games/NNNNN.psq    on boards with k = 5, each game as Piskvork's .psq
--                      (the game's number, five digits or more).
-- Both are written as games end (games.sgf is first rewritten from the
-- journal, so a resumed run's file holds every game, and written in blocks
-- of 1 MiB), never through a link (host.write_file; a link at games/ is
-- refused).
local REC = {}
private.records = REC

-- an Excel square "AB12" -> x, y (0-based column, row)
local function xy_of(sq)
    local letters, digits = sq:upper():match("^(%u+)(%d+)$")
    local col = 0
    for i = 1, #letters do col = col * 26 + (letters:byte(i) - 64) end
    return col - 1, tonumber(digits) - 1
end

local function sgf_coord(v) return v < 26 and string.char(97 + v) or string.char(65 + v - 26) end

-- an SGF SimpleText value: valid UTF-8, line breaks as blanks, ] and \ escaped
local function sgf_text(text)
    return (host.utf8_fix(tostring(text)):gsub("[\r\n]", " "):gsub("[%]\\]", "\\%0"))
end

-- Caches of what the games of a tournament repeat: SGF coordinates with
-- the closing bracket by Excel square ("B3" -> "bc]") and names as SGF
-- text (tens of thousands of 3x3 games a second go through here).
local coords = setmetatable({}, {__index = function(t, sq)
    local x, y = xy_of(sq)
    local c = sgf_coord(x) .. sgf_coord(y) .. "]"
    t[sq] = c
    return c
end})
local names = setmetatable({}, {__index = function(t, name)
    local text = sgf_text(name)
    t[name] = text
    return text
end})

-- REC.sgf_game(rec, shape) -> the SGF game tree of a journal record
-- (host.journal_parse) on a board {width, height, k, rule}
function REC.sgf_game(rec, shape)
    local re = "0"
    if rec.result ~= "draw" then
        re = (rec.result == "o" and "B" or "W") .. "+"
        if rec.reason == "time" or rec.reason:sub(1, 6) == "time: " then
            re = re .. "T"
        elseif rec.reason ~= "" and rec.reason:sub(1, 13) ~= "adjudicated: " then
            re = re .. "F"
        end
    end
    local size = shape.width == shape.height and tostring(shape.width) or ("%d:%d"):format(shape.width, shape.height)
    local out = {("(;FF[4]GM[4]CA[UTF-8]AP[marubatsu]SZ[%s]PB[%s]PW[%s]RE[%s]"
        .. "GN[game %d]GC[%dx%d, %d in a row, %s rule]")
        :format(size, names[rec.o], names[rec.x], re, rec.game, shape.width, shape.height, shape.k, shape.rule)}
    local n = 1
    if rec.reason ~= "" then
        n = n + 1
        out[n] = "C[" .. sgf_text(rec.reason) .. "]"
    end
    local black = true
    for sq in rec.moves:gmatch("[^,]+") do
        out[n + 1], out[n + 2] = black and ";B[" or ";W[", coords[sq]
        n, black = n + 2, not black
    end
    out[n + 1] = ")\n"
    return table.concat(out)
end

-- REC.psq_game(rec, shape) -> the .psq text of a journal record
function REC.psq_game(rec, shape)
    local xy = {}
    for sq in rec.moves:gmatch("[^,]+") do xy[#xy + 1] = {xy_of(sq)} end
    return psq_text(shape.width, shape.height, xy, rec.o, rec.x)
end

-- REC.open(dir, shape, lines) -> writer {add(text), close()}: the records
-- of a tournament writing to dir, starting from the G lines of `lines`
-- (the journal's games so far, in its order); add(text) appends the G
-- lines of text (a batch of the journal). Every write is checked (an error
-- names the file).
function REC.open(dir, shape, lines)
    local files = private.files
    local write_file = private.results.write_file
    local psq = shape.k == 5
    local gdir = dir .. "/games"
    if psq then
        local f, err, kind = host.open_file(gdir, "r")
        if f then
            f:close()
            error(("%s: not a directory"):format(gdir), 0)
        elseif kind == "link" then
            error(err, 0)
        elseif kind == "absent" then
            private.results.ensure_dir(gdir)
        elseif not tostring(err):find(": Is a directory$") then
            error(err, 0)
        end
    end
    local parse = host.journal_parse
    -- the records of the G lines of text: SGF appended to sgf, .psq written
    local function convert(text, sgf)
        for line in text:gmatch("[^\n]+") do
            if line:sub(1, 2) == "G\t" then
                local rec = assert(parse(line))
                sgf[#sgf + 1] = REC.sgf_game(rec, shape)
                if psq then write_file(("%s/%05d.psq"):format(gdir, rec.game), REC.psq_game(rec, shape)) end
            end
        end
        return sgf
    end
    local path = dir .. "/games.sgf"
    write_file(path, table.concat(convert(lines, {})))
    local f, err = host.open_file(path, "a")
    if not f then error("cannot write " .. err, 0) end
    -- written in blocks, not flushed after every batch as the journal is: a
    -- run killed outright may leave the last games out, which the next
    -- --resume writes again from the journal (a full disk still stops the
    -- run, at the block that does not fit or at the close)
    f:setvbuf("full", 1 << 20)
    local writer = {}
    function writer.add(text)
        local ok, werr = f:write(table.concat(convert(text, {})))
        if not ok then error(("cannot write %s: %s"):format(path, werr), 0) end
    end
    function writer.close() files.close_checked(f, path) end
    return writer
end

local function xml(s)
    return (tostring(s):gsub("[&<>\"]", {["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;"}))
end

-- The winning run through the last move (its two end squares), if any:
-- k or more in a row, exactly k under the exact rule.
local function winning_run(game)
    if game.status ~= "o" and game.status ~= "x" then return nil end
    local lx, ly = game:move_to_xy(game.last_move)
    local mark = game.status
    local function at(x, y)
        return x >= 0 and y >= 0 and x < game.width and y < game.height
            and game:getmark_by_move(game:xy_to_move(x, y)) == mark
    end
    for _, d in ipairs {{1, 0}, {0, 1}, {1, 1}, {1, -1}} do
        local ax, ay, bx, by = lx, ly, lx, ly
        while at(ax - d[1], ay - d[2]) do ax, ay = ax - d[1], ay - d[2] end
        while at(bx + d[1], by + d[2]) do bx, by = bx + d[1], by + d[2] end
        local len = math.max(math.abs(bx - ax), math.abs(by - ay)) + 1
        if len == game.k or (len > game.k and game.rule ~= "exact") then return ax, ay, bx, by end
    end
    return nil
end

-- mb.game_svg(game [, {o =, x =, title =}]) -> text: the board with each
-- stone numbered by its move (〇, who moves first, black; × white), the
-- last move's number in red, the winning line drawn through the stones
-- and under the numbers, columns A..
-- and rows 1.. as in Excel squares, and a title line.
function mb.game_svg(game, opts)
    local o, x = names_of(opts)
    local cell, margin, top = 32, 28, 28
    local w, h = game.width, game.height
    local W, H = margin * 2 + cell * w, top + margin + cell * h + 8
    local out = {('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
        .. 'font-family="sans-serif">'):format(W, H, W, H),
        ('<rect width="%d" height="%d" fill="#e8c27a"/>'):format(W, H)}
    local result = game.status == "draw" and "draw" or game.status == "playing" and "not finished"
        or (game.status == "o" and o or x) .. " won"
    local title = opts and opts.title
        or ("%s (black) vs %s (white): %s, %d moves"):format(o, x, result, game.move_count)
    out[#out + 1] = ('<text x="%d" y="18" font-size="14">%s</text>'):format(margin, xml(title))
    local function cx(i) return margin + cell * i + cell / 2 end
    local function cy(j) return top + cell * j + cell / 2 end
    for i = 0, w - 1 do
        out[#out + 1] = ('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#333" stroke-width="1"/>')
            :format(cx(i), cy(0), cx(i), cy(h - 1))
        local col = game:excel(game:xy_to_move(i, 0)):match("^%a+")
        out[#out + 1] = ('<text x="%g" y="%g" font-size="11" text-anchor="middle">%s</text>')
            :format(cx(i), top + cell * h + 12, col)
    end
    for j = 0, h - 1 do
        out[#out + 1] = ('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#333" stroke-width="1"/>')
            :format(cx(0), cy(j), cx(w - 1), cy(j))
        out[#out + 1] = ('<text x="%g" y="%g" font-size="11" text-anchor="end">%d</text>')
            :format(margin - 6, cy(j) + 4, j + 1)
    end
    -- the stones, then the winning line over them, then the move numbers
    -- over both (the line never hides a number)
    for n = 1, game.move_count do
        local i, j = game:move_to_xy(game.records[n])
        out[#out + 1] = ('<circle cx="%g" cy="%g" r="%g" fill="%s" stroke="#000"/>')
            :format(cx(i), cy(j), cell * 0.45, n % 2 == 1 and "#111" or "#fafafa")
    end
    local ax, ay, bx, by = winning_run(game)
    if ax then
        out[#out + 1] = ('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#d00" stroke-width="3" '
            .. 'stroke-opacity="0.7"/>'):format(cx(ax), cy(ay), cx(bx), cy(by))
    end
    for n = 1, game.move_count do
        local i, j = game:move_to_xy(game.records[n])
        local colour = n == game.move_count and "#d00" or (n % 2 == 1 and "#fff" or "#000")
        out[#out + 1] = ('<text x="%g" y="%g" font-size="%d" text-anchor="middle" fill="%s">%d</text>')
            :format(cx(i), cy(j) + 4, n >= 100 and 10 or 12, colour, n)
    end
    out[#out + 1] = "</svg>"
    return table.concat(out, "\n") .. "\n"
end

-- text to path ("-": stdout), every write checked (results.lua)
local function write(path, text)
    if path == "-" then
        private.files.write_checked(io.stdout, "standard output", text)
        return
    end
    private.results.write_file(path, text)
end

-- host.game_record_main{file =, game =, psq =, svg =} (strings, from
-- `marubatsu replay JOURNAL N --psq FILE --svg FILE`) -> exit status
function host.game_record_main(t)
    local ok, err = pcall(function()
        local g = math.tointeger(tonumber(t.game))
        if not g or g < 1 then
            error(("the game number must be an integer >= 1, not '%s'"):format(tostring(t.game)), 0)
        end
        local rec = host.journal_game(t.file, g)
        local game = mb.Marubatsu(rec.board)
        for sq in rec.moves:gmatch("[^,]+") do game:move(mb.move(sq, game)) end
        local who = {o = rec.o, x = rec.x}
        if rec.reason:sub(1, 13) == "adjudicated: " then
            who.title = ("%s (black) vs %s (white): %s, %d moves"):format(rec.o, rec.x, rec.reason, game.move_count)
        elseif rec.reason ~= "" then
            local loser = rec.result == "o" and rec.x or rec.o
            who.title = ("%s (black) vs %s (white): %s lost by forfeit (%s), %d moves"):format(rec.o, rec.x, loser,
                rec.reason, game.move_count)
        end
        if t.psq then write(t.psq, mb.game_psq(game, who)) end
        if t.svg then write(t.svg, mb.game_svg(game, who)) end
    end)
    if ok then return 0 end
    io.stderr:write(("marubatsu replay: %s\n"):format(private.message(err)))
    return 1
end
