-- scripts/lib/play.lua: playing in the terminal (`marubatsu play`, the
-- series' play loop, game.md §5.11) and stepping through a saved game
-- (`marubatsu replay`). Embedded; runs once with mb as its argument and
-- defines mb.play_terminal{...} and mb.replay_terminal{...}, which the
-- program calls with string options and whose result is the exit status.
--
-- The game record file (written by `save`, read by `load` and `replay`):
--
--     # marubatsu game record        lines starting with # are comments
--     # board 3x3 k=3                optional header, before the moves: the
--                                    shape WxH and k (default 3x3; k = the
--                                    shorter side when "k=K" is left out)
--     A1,B2,C3                       the moves in order, Excel squares
--                                    (column letters, row from 1), separated
--                                    by commas and/or blanks and newlines
--
-- A "# board" line must be followed by a digit and be a valid header. Every
-- move is checked (a square, on the board, legal at that point) and an error
-- names the line. `save` writes the moves on one comma-separated line, which
-- `marubatsu show` also accepts.
local mb, private = ...

local RECORD_MAX = 1024 * 1024 -- bytes of a game record file
local INPUT_LINE_MAX = 4096 -- bytes of a line of play input

local EMPTY = mb.NO_PARAMS

-- ---- Messages ------------------------------------------------------------
-- play's messages in each language (`play --lang`; a new language is one
-- more table with the same keys). ja is the series' wording, byte for byte.
-- The default is the locale's: the first set of LC_ALL, LC_MESSAGES, LANG;
-- ja... is Japanese, anything else English. While play runs, mb.lang is
-- the language too, so the moves' messages (game:cmove) follow it. The
-- commands' own messages (undo, hint, save, load, result) are English.
local MESSAGES = {
    ja = {prompt = "x,y の形式で座標を入力して下さい。exit を入力すると終了します",
          not_xy = "x, y の形式ではありません", bye = "ゲームを終了します",
          ai_move = "%s (%s) は %s に着手しました"},
    en = {prompt = "Enter the coordinates as x,y. Type exit to quit",
          not_xy = "Not in the form x, y", bye = "Ending the game",
          ai_move = "%s (%s) plays %s"},
}
local LANGS = {"en", "ja"} -- the order of --lang's message
local function msg(key) return (MESSAGES[mb.lang] or MESSAGES.en)[key] end

-- The language of the locale: ja when the first set of LC_ALL,
-- LC_MESSAGES, LANG starts with "ja", else en.
local function locale_lang()
    for _, var in ipairs({"LC_ALL", "LC_MESSAGES", "LANG"}) do
        local v = os.getenv(var)
        if v and v ~= "" then return v:sub(1, 2) == "ja" and "ja" or "en" end
    end
    return "en"
end
local PROMPT_EXTRA = " (undo, hint, save FILE, load FILE): "

-- a line for the terminal: valid UTF-8 (an AI's reasons may hold any bytes)
local function say(text) io.write(private.files.utf8_fix(text), "\n") end
local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end

-- ---- Showing a position --------------------------------------------------
-- Plain: the series' text form (tostring), followed by an empty line as the
-- series' print(game) gives. Fancy (a UTF-8 colour terminal): 〇 and × in
-- colour, the last move in reverse video, column letters and row numbers.
local GLYPH = {o = "〇", x = "×"}
local COLOUR = {o = "1;31", x = "1;34"}

-- Can stdout show colour and 〇/×? A terminal, TERM not "dumb", and a UTF-8
-- locale (the first set of LC_ALL, LC_CTYPE, LANG).
local function fancy_terminal()
    if not mb.isatty(1) then return false end
    local term = os.getenv("TERM")
    if term == nil or term == "" or term == "dumb" then return false end
    for _, var in ipairs({"LC_ALL", "LC_CTYPE", "LANG"}) do
        local v = os.getenv(var)
        if v and v ~= "" then return v:upper():gsub("-", ""):find("UTF8") ~= nil end
    end
    return false
end

local function column_name(game, x) return (game:excel(game:xy_to_move(x, 0)):gsub("%d+$", "")) end
local function mark_name(mark, fancy) return fancy and GLYPH[mark] or mark end

local function render_fancy(game)
    local out = {}
    if game.status == "playing" then
        out[1] = "Turn " .. GLYPH[game.turn]
    else
        out[1] = "winner " .. (GLYPH[game.status] or game.status)
    end
    local lw = #tostring(game.height)
    local head = {(" "):rep(lw)}
    for x = 0, game.width - 1 do head[#head + 1] = ("%-2s"):format(column_name(game, x)) end
    out[2] = table.concat(head, " ")
    for y = 0, game.height - 1 do
        local row = {("%" .. lw .. "d"):format(y + 1)}
        for x = 0, game.width - 1 do
            local m = game:xy_to_move(x, y)
            local mark = game:getmark(x, y)
            if mark == "." then
                row[#row + 1] = "\27[2m.\27[0m "
            else
                local sgr = COLOUR[mark] .. (m == game.last_move and ";7" or "")
                local pad = mark == "x" and " " or "" -- × is one column wide, 〇 two
                row[#row + 1] = ("\27[%sm%s\27[0m%s"):format(sgr, GLYPH[mark], pad)
            end
        end
        out[#out + 1] = table.concat(row, " ")
    end
    return table.concat(out, "\n") .. "\n"
end

local function show(s)
    io.write(s.fancy and render_fancy(s.game) or tostring(s.game), "\n")
end

-- The number as the series' scores read: -2, -2.5, inf.
local function fmt_score(v)
    if type(v) ~= "number" then return tostring(v) end
    if v == math.floor(v) and math.abs(v) < 1e15 then return ("%d"):format(v) end
    return ("%g"):format(v)
end

local function result_line(game, players, fancy)
    if game.status == "draw" then return "result: draw" end
    local p = players and players[game.status == "o" and 1 or 2]
    local who = p and (" (" .. p.label .. ")") or ""
    return ("result: %s wins%s"):format(mark_name(game.status, fancy), who)
end

-- ---- Game records --------------------------------------------------------
-- read_record(path, mbparams) -> game | nil, message. The game is new, of
-- the file's shape (plus mbparams' back-end options), with every move
-- played; the message names the file and the line.
-- parse_record(lines, path, mbparams): the same from the lines of a
-- record (path names it in messages).
local function parse_record(lines, path, mbparams)
    local files = private.files
    local shape, moves = nil, {}
    local function fail(line, text_) return nil, ("%s: line %d: %s"):format(path, line, text_) end
    for n, line in ipairs(lines) do
        line = line:gsub("\r", "")
        local spec = line:match("^#%s*board%s+(%d.-)%s*$")
        if spec then
            if shape then return fail(n, "a second board header") end
            if #moves > 0 then return fail(n, "the board header must come before the moves") end
            local w, h, k, rule = spec:match("^(%d+)x(%d+)%s+k=(%d+)%s+rule=(%S+)$")
            if not w then w, h, k = spec:match("^(%d+)x(%d+)%s+k=(%d+)$") end
            if not w then w, h = spec:match("^(%d+)x(%d+)$") end
            if not w then
                return fail(n, ("bad board header '%s' (expected '# board WxH k=K [rule=RULE]')")
                    :format(files.printable(line, 80)))
            end
            shape = {width = tonumber(w), height = tonumber(h), k = tonumber(k), rule = rule, line = n}
        elseif not line:match("^#") then
            for item in line:gmatch("[^,%s]+") do moves[#moves + 1] = {text = item, line = n} end
        end
    end
    shape = shape or {width = 3, height = 3}
    local options = {width = shape.width, height = shape.height, k = shape.k, rule = shape.rule}
    for key, v in pairs(mbparams or {}) do options[key] = v end
    options.rule = shape.rule -- the record's own rule (freestyle when it names none)
    local ok, game = pcall(mb.Marubatsu, options)
    if not ok then
        return fail(shape.line, "bad board header: " .. tostring(game):gsub("^Marubatsu: ", ""))
    end
    for i, item in ipairs(moves) do
        local good, m = pcall(mb.move, item.text, game)
        if not good then
            local why = item.text:match("^%a+%d+$") and "is off the %dx%d board"
                or "is not a square like A1"
            return fail(item.line, ("move %d '%s' " .. why):format(i, files.printable(item.text, 40), game.width,
                game.height))
        elseif game.status ~= "playing" then
            return fail(item.line, ("move %d (%s) is illegal: the game is already over (%s)")
                :format(i, item.text:upper(), game.status == "draw" and "a draw" or game.status .. " won"))
        elseif game:getmark_by_move(m) ~= "." then
            return fail(item.line, ("move %d (%s) is illegal: the square is occupied")
                :format(i, item.text:upper()))
        end
        game:move(m)
    end
    return game
end

local function read_record(path, mbparams)
    local files = private.files
    local lines = {}
    local ok, err = pcall(function()
        local f = files.open_regular(path, true) -- a regular file: a FIFO is refused, not waited on
        for line in files.bounded_lines(f, path, 64 * 1024, RECORD_MAX) do lines[#lines + 1] = line end
        f:close()
    end)
    if not ok then return nil, tostring(err) end
    return parse_record(lines, path, mbparams)
end

-- format_record(game) -> the text of its record
local function format_record(game)
    local squares = {}
    for i = 1, game.move_count do squares[i] = game:excel(game.records[i]) end
    local rule = game.rule == "freestyle" and "" or " rule=" .. game.rule
    return "# marubatsu game record\n" .. ("# board %dx%d k=%d%s\n"):format(game.width, game.height, game.k, rule)
        .. table.concat(squares, ",") .. "\n"
end

-- mb.parse_game_record(text [, name [, options]]) -> game | nil, message:
-- a game record's text (the format above) as a new game with every move
-- played; the message names `name` (default "game record") and the line.
-- options: the back-end options (board =, count_linemark =).
function mb.parse_game_record(text, name, options)
    if type(text) ~= "string" then error("parse_game_record: the text of a record expected", 2) end
    if #text > RECORD_MAX then
        return nil, ("%s: longer than %d bytes"):format(name or "game record", RECORD_MAX)
    end
    local lines = {}
    for line in text:gmatch("([^\n]*)\n?") do lines[#lines + 1] = line end
    if lines[#lines] == "" then lines[#lines] = nil end
    return parse_record(lines, name or "game record", options)
end

-- mb.format_game_record(game) -> text: the record that `play`'s save writes.
mb.format_game_record = format_record

-- write_record(game, path) -> true | nil, message
local function write_record(game, path)
    local f, err = io.open(path, "wb")
    if not f then return nil, err end
    f:write(format_record(game))
    local ok, werr = f:close()
    if not ok then return nil, werr end
    return true
end

-- ---- Sandboxed moves under the hard line -----------------------------------
local host = private.host -- the host library (watch_move, tourney_run)

-- A sandboxed AI's move (player: from mb.sandbox.load) -> move | nil,
-- reason. In the worker process that plays a game with a sandboxed AI
-- (supervised_play below) the move runs under the hard line: past its time
-- budget and the slack the worker is killed. What is on the screen is
-- written out first, so that a killed worker loses none of it.
local function watched_move(player, game)
    local hard = player.limits.time
    io.stdout:flush()
    if hard then host.watch_move(hard, game) end
    local m, why = player:move(game, EMPTY)
    if hard then host.watch_done() end
    return m, why
end

-- ---- The commands typed at the prompt -------------------------------------
local commands = {}

-- undo: take back moves up to and including the last one a person made, so
-- that it is a person's turn again (their move and the AI's reply).
function commands.undo(s)
    local game = s.game
    local i = game.move_count
    while i >= 1 and s.players[(i - 1) % 2 + 1].ai do i = i - 1 end -- move i made by o if odd
    if i == 0 then return say("undo: no move of yours to take back") end
    local taken = {}
    for j = i, game.move_count do taken[#taken + 1] = game:excel(game.records[j]) end
    for _ = i, game.move_count do game:unmove() end
    say(("undo: took back %d move%s (%s)")
        :format(#taken, #taken > 1 and "s" or "", table.concat(taken, ", ")))
end

-- hint: the hint AI's analysis (ai(game, {analyze = true})): its best moves
-- and, for a score AI, the score of every move on a grid of the board.
function commands.hint(s)
    local game, ai = s.game, s.hint.ai
    if s.hint.sandbox then -- a sandboxed AI gives a move, not its analysis
        local m, why = watched_move(s.hint.sandbox, game)
        if m == nil then return say(("hint: %s did not play a legal move: %s"):format(ai.name, why)) end
        return say(("hint from %s: %s (a sandboxed AI gives only its move; --no-sandbox shows its analysis)")
            :format(ai.name, game:excel(m)))
    end
    local ok, a = pcall(ai, game, {analyze = true})
    if not ok then return say("hint: " .. tostring(a)) end
    if math.type(a) == "integer" then -- an AI without analysis: just its move
        return say(("hint from %s: %s"):format(ai.name, game:excel(a)))
    end
    if type(a) ~= "table" or type(a.candidate) ~= "table" then
        return say(("hint from %s: no analysis (it returned %s)"):format(ai.name, tostring(a)))
    end
    local best = {}
    for i, m in ipairs(a.candidate) do best[i] = game:excel(m) end
    if not a.score_by_move then
        return say(("hint from %s: %s (its candidate moves; it gives no scores)")
            :format(ai.name, table.concat(best, " ")))
    end
    say(("hint from %s: %s (best score %s)")
        :format(ai.name, table.concat(best, " "), fmt_score(a.score)))
    local label = type(a.score_label) == "string" and a.score_label:sub(1, 40) or "score"
    say(("its %s of each move (higher is better for %s):"):format(label, mark_name(game.turn, s.fancy)))
    local cells, w = {}, 2
    for y = 0, game.height - 1 do
        for x = 0, game.width - 1 do
            local m = game:xy_to_move(x, y)
            local mark = game:getmark(x, y)
            local score = a.score_by_move[m]
            local text = mark ~= "." and mark or score and fmt_score(score) or "-"
            cells[m] = text
            w = math.max(w, #text)
        end
    end
    local lw, cell = #tostring(game.height), "%" .. w .. "s"
    local line = {(" "):rep(lw)}
    for x = 0, game.width - 1 do line[#line + 1] = cell:format(column_name(game, x)) end
    say(table.concat(line, "  "))
    for y = 0, game.height - 1 do
        line = {("%" .. lw .. "d"):format(y + 1)}
        for x = 0, game.width - 1 do line[#line + 1] = cell:format(cells[game:xy_to_move(x, y)]) end
        say(table.concat(line, "  "))
    end
end

function commands.save(s, path)
    if path == "" then return say("save: a file name is needed: save FILE") end
    local ok, err = write_record(s.game, path)
    if not ok then return say("save: " .. err) end
    say(("saved %d moves to %s"):format(s.game.move_count, path))
end

function commands.load(s, path)
    if path == "" then return say("load: a file name is needed: load FILE") end
    local game, err = read_record(path, s.mbparams)
    if not game then return say("load: " .. err .. " (the game goes on unchanged)") end
    s.game = game
    say(("loaded %d moves from %s (board %dx%d k=%d)")
        :format(game.move_count, path, game.width, game.height, game.k))
end

-- ---- Reading what the person types -----------------------------------------
-- One line of input (without its newline), nil at the end; a line longer
-- than INPUT_LINE_MAX bytes ends the input with a message (s.input_error),
-- so that /dev/zero cannot fill the memory. Read a byte at a time: a
-- terminal answers a line at a time, and people type short lines.
local function read_line(s)
    local f, parts = s.input, {}
    for i = 1, INPUT_LINE_MAX + 1 do
        local c = f:read(1)
        if c == nil then
            if i == 1 then return nil end
            break
        end
        if c == "\n" then return table.concat(parts) end
        parts[i] = c
    end
    if #parts > INPUT_LINE_MAX then
        s.input_error = ("the input has a line longer than %d bytes"):format(INPUT_LINE_MAX)
        return nil
    end
    return table.concat(parts)
end

-- The next line, or nil at the end of input. Lines that do not come from a
-- terminal are echoed after the prompt, so that a transcript reads well.
local function ask(s, prompt)
    io.write(prompt)
    io.stdout:flush()
    local line = read_line(s)
    if line == nil then io.write("\n") return nil end
    line = line:gsub("\r$", "")
    if s.echo then io.write(line, "\n") end
    return line
end

-- A typed move: "B2" (Excel) -> x, y as integers; "x,y" -> the two halves
-- as typed (cmove converts them); anything else -> nil.
local function parse_move(line)
    local letters, digits = trim(line):match("^(%a%a?%a?)(%d%d?%d?%d?)$")
    if letters then
        local x = 0
        for c in letters:upper():gmatch(".") do x = x * 26 + (c:byte() - 64) end
        return x - 1, tonumber(digits) - 1
    end
    local parts = {}
    -- the series' coord.split(","): exactly two parts, or not the x,y form
    for part in (line .. ","):gmatch("([^,]*),") do parts[#parts + 1] = part end
    if #parts == 2 then return parts[1], parts[2] end
    return nil
end

-- ---- The play loop (game.md §5.11) ------------------------------------------
-- A sandboxed AI's move, or an error naming it and the reason.
local function sandboxed_move(player, game)
    local m, why = watched_move(player.sandbox, game)
    if m == nil then error(("%s (%s) did not play a legal move: %s"):format(player.ai.name, game.turn, why), 0) end
    return m
end

-- The end of a game lost on time by `player` (the side to move) for the
-- reason why (after "time: ") -> the winner.
local function lost_on_time(s, player, why)
    local game = s.game
    local winner = game.turn == "o" and "x" or "o"
    local other = s.players[winner == "o" and 1 or 2]
    show(s)
    say(("result: %s wins (%s): %s (%s) lost on time (%s)"):format(mark_name(winner, s.fancy), other.label,
        player.ai.name, mark_name(game.turn, s.fancy), why))
    return winner
end

-- Returns the final status, or nil when the person quits.
local function play_loop(s)
    while s.game.status == "playing" do
        local game = s.game
        local index = game.turn == "o" and 1 or 2
        show(s) -- the position before every move
        local player = s.players[index]
        if player.ai and s.tc then
            -- a time control (--move-time): timed, a loss on time ends the
            -- game (a sandboxed move runs under the hard line: the screen
            -- is written out first)
            io.stdout:flush()
            local m, why = private.timecontrol.move(player, game, EMPTY, s.tc, nil)
            if not m and why:sub(1, 6) == "time: " then return lost_on_time(s, player, why:sub(7)) end
            if not m then error(("%s (%s) %s"):format(player.ai.name, game.turn, why), 0) end
            game:move(m)
        elseif player.sandbox then
            game:move(sandboxed_move(player, game))
        elseif player.ai then
            local ok, m = pcall(player.ai, game, EMPTY)
            if not ok then error(("%s (%s) failed: %s"):format(player.ai.name, game.turn, tostring(m)), 0) end
            local why
            if math.type(m) ~= "integer" then
                why = ("returned %s, not a move"):format(tostring(m))
            elseif m < 0 or m >= game.width * game.height then
                why = ("played square %d, off the board (0..%d)")
                    :format(m, game.width * game.height - 1)
            elseif game:getmark_by_move(m) ~= "." then
                why = ("played %s (square %d), which is occupied"):format(game:excel(m), m)
            end
            if why then error(("%s (%s) %s"):format(player.ai.name, game.turn, why), 0) end
            game:move(m)
        end
        if player.ai then -- the AI's move, announced as text
            say(msg("ai_move"):format(player.ai.name, mark_name(game.turn == "o" and "x" or "o", s.fancy),
                game:excel(game.records[game.move_count])))
        else
            local line = ask(s, msg("prompt") .. PROMPT_EXTRA)
            local word, rest = trim(line or "exit"):match("^(%S*)%s*(.-)$")
            if word == "exit" and rest == "" then
                say(msg("bye"))
                return nil
            elseif commands[word] and (rest == "" or word == "save" or word == "load") then
                commands[word](s, rest)
            else
                local x, y = parse_move(line)
                if x == nil then
                    say(msg("not_xy")) -- and ask again
                else
                    local ok, err = game:cmove(x, y)
                    if not ok then say(err) end
                end
            end
        end
    end
    show(s) -- the final position
    say(result_line(s.game, s.players, s.fancy))
    return s.game.status
end

-- ---- The hard line: a game with a sandboxed AI in a worker process ---------
-- A sandboxed AI's budgets act between its Lua instructions, so a move
-- stuck inside one C call (a collection, a compilation) would hang play
-- for good. With a sandboxed AI (a player or the hint AI) the whole game,
-- prompts included, is therefore played in a worker process, as `match`
-- plays its games (host.tourney_run with one game): its sandboxed moves
-- are armed (watched_move, the time control's TC.move), and this process
-- kills the worker once one runs past its time budget + the slack. Then:
--   a player's move: the move is lost on time as its budget would have
--     lost it (the game ends with the reason; exit status 1 without a time
--     control, the result line and 0 with one);
--   the hint: the hint gives its reason and the game goes on from the same
--     position in a new worker (a copy of this process as it was before
--     the game: the AIs' own streams and data start again from there).
-- A worker that dies otherwise ends play with a message: a game a person
-- typed cannot be played again.

-- The note on a move the hard line ended (info: the pool's forfeit info).
local function killed_note(info)
    return ("killed after %.1f s: stuck inside one call past its %s s budget"):format(info.used,
        fmt_score(info.seconds))
end

-- The game of the killed worker's move, rebuilt in this process.
local function killed_game(s, info)
    local shape = info.shape
    local g = mb.Marubatsu{width = shape.width, height = shape.height, k = shape.k, rule = shape.rule,
        board = s.mbparams.board, count_linemark = s.mbparams.count_linemark}
    for _, m in ipairs(info.moves) do g:move(m) end
    return g
end

-- Play s's game in worker processes under the hard line (slack: seconds
-- a move may run past its budget). -> the game's end as play_loop gives
-- it (raises its message), and "interrupted" after Ctrl-C.
local function supervised_play(s, slack)
    local escape = host.journal_escape
    -- in the worker: the game, and one line for this process
    local function session()
        local ok, why = pcall(play_loop, s)
        io.stdout:flush()
        if not ok then return "!" .. escape(tostring(why)) .. "\n" end
        if s.input_error then return "!" .. escape(s.input_error) .. "\n" end
        return "end\n"
    end
    while true do
        local line, killed
        local function done(lines)
            line = lines
            return false
        end
        local function forfeit(_, info)
            killed = info
            s.game = killed_game(s, info)
            return "killed\n"
        end
        local ok, err = private.in_workers(true, host.tourney_run, 1, 1, session, done,
            {isolate = true, once = true, slack = slack, forfeit = forfeit})
        if not ok then
            if err == "interrupted" then return "interrupted" end
            error((err:gsub("^game 1: its worker", "the process playing the game")), 0)
        end
        if not killed then
            if line:sub(1, 1) == "!" then error(host.journal_split(line:sub(2, -2))[1], 0) end
            return
        end
        local game = s.game
        local player = s.players[game.turn == "o" and 1 or 2]
        local note = killed_note(killed)
        if not player.ai then -- a person's turn: it was the hint; the game goes on
            say(("hint: %s did not play a legal move: time (%s); the game goes on"):format(s.hint.ai.name, note))
        elseif s.tc and killed.kind ~= "budget" and killed.seconds >= killed.limit then
            local why = private.timecontrol.reason(s.tc, killed.kind, killed.limit)
            return lost_on_time(s, player, ("%s; %s"):format(why:sub(7), note))
        else
            error(("%s (%s) did not play a legal move: time (%s)"):format(player.ai.name, game.turn, note), 0)
        end
    end
end

-- Load the AI of a command-line option, as `marubatsu match` does: a
-- built-in AI as it is, any other script in the sandbox with `limits`
-- unless t.sandbox is "0"; i: its place (1 o, 2 x, 3 the hint AI), for
-- the seed of a sandboxed AI's own stream. nil and the message on failure.
local function load_ai(t, spec, i, limits, tc)
    local why = private.command.script_problem(spec)
    if why then return nil, why end
    local seed = t.seed ~= nil and math.tointeger(tonumber(t.seed)) or nil
    return private.command.ai(spec, i, seed, t.sandbox ~= "0", limits, tc)
end

-- mb.play_terminal{o =, x =, seed =, hint =, ascii =, input =, width =,
--                  height =, k =, rule =, board =, count_linemark =, move_time =} -> exit status
-- The options are strings, as given on the command line ("human" or an AI
-- name or file for o and x).
function mb.play_terminal(t)
    local function fail(text)
        io.stderr:write("marubatsu play: ", private.files.utf8_fix(text), "\n")
        return 1
    end
    local s = {players = {}, fancy = not t.ascii and fancy_terminal()}
    local lang = t.lang or locale_lang()
    if not MESSAGES[lang] then
        io.stderr:write(("marubatsu play: --lang must be %s, not '%s'\n"):format(table.concat(LANGS, " or "),
            private.files.printable(lang, 40)))
        return 2
    end
    if not private.command.check_time_control("play", {move_time = t.move_time}) then return 2 end
    s.tc = private.timecontrol.of{move_time = t.move_time}
    local slack_ok, slack = pcall(private.timecontrol.slack_of, t.slack)
    if not slack_ok then
        io.stderr:write("marubatsu play: ", (private.message(slack):gsub("^slack", "--slack")), "\n")
        return 2
    end
    local limits = private.command.limits(t)
    -- a sandboxed AI without a fixed seed draws its stream's seed from the
    -- host's, seeded here first and again before the game, so the trusted
    -- AIs see the same stream with or without sandboxed ones
    if t.seed then mb.seed(t.seed) end
    for i, mark in ipairs({"o", "x"}) do
        local spec = t[mark] or (mark == "o" and "human" or "ai14s")
        if spec:lower() == "human" then
            s.players[i] = {label = "human"}
        else
            local ai, err = load_ai(t, spec, i, limits, s.tc)
            if not ai then return fail(err) + (err:find("not found", 1, true) and 1 or 0) end
            -- sandbox, sandbox_time: a sandboxed AI moves as its sandbox
            -- (timecontrol.lua's TC.move)
            s.players[i] = {ai = ai, label = ai.name, sandbox = ai.sandbox_player, sandbox_time = ai.sandbox_time}
        end
    end
    local hint, err = load_ai(t, t.hint or "ai14s", 3, limits, s.tc)
    if not hint then return fail(err) + (err:find("not found", 1, true) and 1 or 0) end
    s.hint = {ai = hint, sandbox = hint.sandbox_player}
    s.mbparams = {board = t.board, count_linemark = t.count_linemark and true or nil}
    local function num(v) return v ~= nil and tonumber(v) or nil end
    local options = {width = num(t.width), height = num(t.height), k = num(t.k), rule = t.rule,
                     board = t.board, count_linemark = s.mbparams.count_linemark}
    local ok, game = pcall(mb.Marubatsu, options)
    if not ok then return fail(game) end
    s.game = game
    -- the pre-flight: a player that cannot play this board (a brain off
    -- k = 5 or failing its handshake, ai7 on an even board) stops play
    -- before the first move, exit 2
    for i, spec in ipairs({t.o or "human", t.x or "ai14s", t.hint or "ai14s"}) do
        local ai = i == 3 and s.hint.ai or s.players[i].ai
        local problem = ai and private.command.preflight(ai, spec, game)
        if problem then
            io.stderr:write("marubatsu play: ", problem, "\n")
            return 2
        end
        if ai and i < 3 then s.players[i].label = ai.name end
    end
    if t.input then
        local opened
        opened, s.input = pcall(private.files.open_input, t.input)
        if not opened then return fail("cannot read the input: " .. tostring(s.input)) end
        s.echo = true
    else
        s.input, s.echo = io.stdin, not mb.isatty(0)
    end
    if t.seed then mb.seed(t.seed) end
    local saved_lang = mb.lang
    mb.lang = lang
    local played, why
    if s.players[1].sandbox or s.players[2].sandbox or s.hint.sandbox then
        -- the game in a worker process, under the hard line: the worker
        -- reads the input unbuffered, so that what a killed one did not
        -- read is left for the next
        s.input:setvbuf("no")
        played, why = pcall(supervised_play, s, slack)
        if played and why == "interrupted" then
            io.stderr:write("marubatsu play: interrupted\n")
            return 130
        end
    else
        played, why = pcall(play_loop, s)
    end
    mb.lang = saved_lang
    if s.input ~= io.stdin then s.input:close() end
    private.command.end_brains(s.hint.ai, s.players[1].ai or s.hint.ai, s.players[2].ai or s.hint.ai)
    if not played then return fail(tostring(why)) end
    if s.input_error then return fail(s.input_error) end
    return 0
end

-- mb.replay_terminal{file =, all =, ascii =} -> exit status
-- Print the start position and the position after each move of a saved
-- game; on a terminal (stdin), wait for Enter between moves unless all.
function mb.replay_terminal(t)
    local final, err = read_record(t.file)
    if not final then
        io.stderr:write("marubatsu replay: ", err, "\n")
        return 1
    end
    local s = {fancy = not t.ascii and fancy_terminal(), input = io.stdin, echo = false}
    local wait = not t.all and mb.isatty(0)
    local records, n = final.records, final.move_count
    s.game = mb.Marubatsu{width = final.width, height = final.height, k = final.k, rule = final.rule}
    say(("%s: %d move%s, board %dx%d k=%d%s")
        :format(t.file, n, n == 1 and "" or "s", final.width, final.height, final.k,
            final.rule == "exact" and " (exact)" or ""))
    show(s)
    for i = 1, n do
        if wait then
            local line = ask(s, ("[Enter] move %d of %d, q quits: "):format(i, n))
            if line == nil or trim(line) == "q" then return 0 end
        end
        local mark = s.game.turn
        s.game:move(records[i])
        say(("move %d/%d: %s %s"):format(i, n, mark_name(mark, s.fancy), s.game:excel(records[i])))
        show(s)
    end
    if final.status == "playing" then
        say(("result: not finished (%s to move)"):format(mark_name(final.turn, s.fancy)))
    else
        say(result_line(final, nil, s.fancy))
    end
    return 0
end
