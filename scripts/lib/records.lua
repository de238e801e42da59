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

-- mb.game_psq(game [, {o =, x =}]) -> text
function mb.game_psq(game, opts)
    local o, x = names_of(opts)
    local out = {("Piskvorky %dx%d, 11:11, 0"):format(game.width, game.height)}
    for i = 1, game.move_count do
        local cx, cy = game:move_to_xy(game.records[i])
        out[#out + 1] = ("%d,%d,0"):format(cx + 1, cy + 1)
    end
    out[#out + 1] = (o:gsub("[\r\n]", " "))
    out[#out + 1] = (x:gsub("[\r\n]", " "))
    out[#out + 1] = "-1"
    return table.concat(out, "\n") .. "\n"
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
-- last move's number in red, the winning line drawn through, columns A..
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
    local title = opts and opts.title or ("%s (black) vs %s (white): %s, %d moves"):format(o, x, result, game.move_count)
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
    for n = 1, game.move_count do
        local m = game.records[n]
        local i, j = game:move_to_xy(m)
        local black = n % 2 == 1
        out[#out + 1] = ('<circle cx="%g" cy="%g" r="%g" fill="%s" stroke="#000"/>')
            :format(cx(i), cy(j), cell * 0.45, black and "#111" or "#fafafa")
        local colour = n == game.move_count and "#d00" or (black and "#fff" or "#000")
        out[#out + 1] = ('<text x="%g" y="%g" font-size="%d" text-anchor="middle" fill="%s">%d</text>')
            :format(cx(i), cy(j) + 4, n >= 100 and 10 or 12, colour, n)
    end
    local ax, ay, bx, by = winning_run(game)
    if ax then
        out[#out + 1] = ('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#d00" stroke-width="3" '
            .. 'stroke-opacity="0.7"/>'):format(cx(ax), cy(ay), cx(bx), cy(by))
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
        if not g or g < 1 then error(("the game number must be an integer >= 1, not '%s'"):format(tostring(t.game)), 0) end
        local rec = host.journal_game(t.file, g)
        local game = mb.Marubatsu(rec.board)
        for sq in rec.moves:gmatch("[^,]+") do game:move(mb.move(sq, game)) end
        local names = {o = rec.o, x = rec.x}
        if rec.reason ~= "" then
            local loser = rec.result == "o" and rec.x or rec.o
            names.title = ("%s (black) vs %s (white): %s lost by forfeit (%s), %d moves"):format(rec.o, rec.x, loser,
                rec.reason, game.move_count)
        end
        if t.psq then write(t.psq, mb.game_psq(game, names)) end
        if t.svg then write(t.svg, mb.game_svg(game, names)) end
    end)
    if ok then return 0 end
    io.stderr:write(("marubatsu replay: %s\n"):format(private.message(err)))
    return 1
end
