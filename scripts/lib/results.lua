-- scripts/lib/results.lua: the results of tournaments: statistics from
-- journal lines (crosstable, W/L/D by colour, pentanomial pairs, the
-- Bradley-Terry Elo fit, LOS, SPRT) and their files (the text table,
-- results.json, results.csv, ranking.svg). Embedded; runs once with mb and
-- the library's private table, where it leaves `results` for
-- scripts/lib/tournament.lua (schedule, players, journal, workers).
local mb, private = ...
local host = private.host

local fail = private.fail

-- Text from players, scripts or files (any bytes) as valid UTF-8: each
-- ill-formed sequence replaced by U+FFFD (host.utf8_fix, src/utf8fix.c);
-- valid text is the same string. Every string that leaves for a journal,
-- JSON, HTML or the terminal goes through it (printable, json_string,
-- report.lua's JSON and page).
local utf8_fix = host.utf8_fix

-- Text from players, scripts or files as it may be shown on a terminal:
-- valid UTF-8 (utf8_fix), control characters (C0, DEL and C1) escaped as
-- \n, \t, \r or \xHH (C1 as \u0080 ...), so that no escape sequence
-- reaches the terminal; cut to at most `max` bytes (at a UTF-8 character
-- boundary, ending in "...") when max is given.
local NAMED = {["\n"] = "\\n", ["\t"] = "\\t", ["\r"] = "\\r"}
local function printable(s, max)
    s = utf8_fix(tostring(s))
    if s:find("[%c\127\194]") then
        s = s:gsub("[%c\127]", function(c) return NAMED[c] or ("\\x%02x"):format(c:byte()) end)
            :gsub("\194([\128-\159])", function(c) return ("\\u%04x"):format(c:byte()) end)
    end
    if max and #s > max then
        local n = max - 3
        while n > 0 and (s:byte(n + 1) or 0) & 0xC0 == 0x80 do n = n - 1 end
        s = s:sub(1, n) .. "..."
    end
    return s
end

-- ---------------------------------------------------------------- results

local function new_wld() return {w = 0, l = 0, d = 0} end

local function fmt(x, digits) return ("%." .. (digits or 1) .. "f"):format(x) end

-- A tally of games as their lines arrive, so that a long tournament need
-- not keep its lines: add(text [, cutoff]) counts the G lines of text
-- (games after cutoff left out), finish() -> the statistics. Each game
-- counts once (the first time its number appears), unless `unique` says
-- the caller never adds a game twice (then no set of game numbers is kept).
local function new_tally(players, unique)
    local n = #players
    local index = {}
    for i, p in ipairs(players) do index[p.name] = i end
    local st, cross = {}, {}
    for i = 1, n do
        st[i] = {all = new_wld(), o = new_wld(), x = new_wld(), forfeits = {}, penta = {0, 0, 0, 0, 0}}
        cross[i] = {}
        for j = 1, n do cross[i][j] = {all = new_wld(), o = new_wld(), x = new_wld()} end
    end
    local first_of_pair = {} -- pair key -> the first game's (o, result)
    local first_result = {}
    local forfeits = {}
    local seen, count, adjudicated = {}, 0, 0
    local W, L, D = "w", "l", "d"
    local fields = host.journal_fields
    local function add(text, cutoff)
        -- a timed game's C line (its clock use) follows its G line: left out
        if text:find("\nC\t", 1, true) or text:sub(1, 2) == "C\t" then
            text = ("\n" .. text):gsub("\nC\t[^\n]*", ""):sub(2)
        end
        for line in text:gmatch("[^\n]+") do
            local g, pairing, gindex, o, x, result, reason = fields(line)
            if not g then fail(("bad journal line: %s"):format(pairing), 0) end
            if not (cutoff and g > cutoff) and (unique or not seen[g]) then
                if not unique then seen[g] = true end
                count = count + 1
                local io_, ix = index[o], index[x]
                if not io_ or not ix then fail(("game %d: unknown player '%s'"):format(g, index[o] and x or o), 0) end
                local ro, rx = D, D
                if result == "o" then ro, rx = W, L elseif result == "x" then ro, rx = L, W end
                local so, sx = st[io_], st[ix]
                so.all[ro] = so.all[ro] + 1
                so.o[ro] = so.o[ro] + 1
                sx.all[rx] = sx.all[rx] + 1
                sx.x[rx] = sx.x[rx] + 1
                local c = cross[io_][ix]
                c.all[ro] = c.all[ro] + 1
                c.o[ro] = c.o[ro] + 1
                c = cross[ix][io_]
                c.all[rx] = c.all[rx] + 1
                c.x[rx] = c.x[rx] + 1
                if reason:sub(1, 13) == "adjudicated: " then
                    adjudicated = adjudicated + 1 -- ended by adjudication: no forfeit
                elseif reason ~= "" then
                    local loser = result == "o" and ix or io_
                    local key = reason:match("^(error):") or reason:match("^(illegal move):") or reason
                    st[loser].forfeits[key] = (st[loser].forfeits[key] or 0) + 1
                    forfeits[#forfeits + 1] = {game = g, player = players[loser].name, reason = reason}
                end
                -- pairs: the two games of one pair of one pairing (colours
                -- swapped); each player's points over both do not depend on
                -- which game comes first
                local key = pairing * 4294967296 + (gindex + 1) // 2
                local prev_o = first_of_pair[key]
                if prev_o then
                    local prev_result = first_result[key]
                    first_of_pair[key], first_result[key] = nil, nil
                    -- half points of the player who has 〇 in this game
                    local k = (result == "o" and 2 or result == "draw" and 1 or 0)
                        + (prev_result == "x" and 2 or prev_result == "draw" and 1 or 0)
                    if prev_o == x then
                        so.penta[k + 1] = so.penta[k + 1] + 1
                        sx.penta[5 - k] = sx.penta[5 - k] + 1
                    end
                else
                    first_of_pair[key], first_result[key] = o, result
                end
            end
        end
    end
    local function finish()
        table.sort(forfeits, function(a, b) return a.game < b.game end)
        -- Bradley-Terry fit over the crosstable
        local score, games = {}, {}
        for i = 1, n do
            for j = 1, n do
                local c = cross[i][j].all
                score[(i - 1) * n + j] = c.w + 0.5 * c.d
                games[(i - 1) * n + j] = c.w + c.l + c.d
            end
        end
        local fit = host.rating.fit(n, score, games)
        local rows = {}
        for i, p in ipairs(players) do
            local a = st[i].all
            local tri = host.rating.trinomial(a.w, a.l, a.d)
            local pen = host.rating.pentanomial(st[i].penta)
            local npairs = 0
            for k = 1, 5 do npairs = npairs + st[i].penta[k] end
            rows[i] = {index = i, name = p.name, spec = p.spec, games = a.w + a.l + a.d, w = a.w, l = a.l, d = a.d,
                o = st[i].o, x = st[i].x, score = tri.score, elo = fit[i].elo, error = fit[i].error,
                perf = tri, pairs = npairs, penta = st[i].penta, pair_stats = pen, forfeits = st[i].forfeits}
        end
        local ranking = {}
        for i = 1, n do ranking[i] = rows[i] end
        -- by Elo (to 1e-6: equal records tie exactly), then score, then order
        local function key(r) return math.floor(r.elo * 1e6 + 0.5) end
        table.sort(ranking, function(a, b)
            if key(a) ~= key(b) then return key(a) > key(b) end
            if a.score ~= b.score then return a.score > b.score end
            return a.index < b.index
        end)
        -- likelihood of superiority over the next one down, from the fitted
        -- Elo and its error (all games count, not only their head-to-head ones,
        -- which the crosstable shows)
        for r = 1, n - 1 do
            local a, b = ranking[r], ranking[r + 1]
            local sa, sb = a.error / 1.959963984540054, b.error / 1.959963984540054
            local sd = math.sqrt(sa * sa + sb * sb)
            a.los = sd > 0 and host.rating.phi((a.elo - b.elo) / sd) or 0.5
        end
        for r, row in ipairs(ranking) do row.rank = r end
        return {players = rows, ranking = ranking, cross = cross, forfeits = forfeits, games = count,
            adjudicated = adjudicated}
    end
    return {add = add, finish = finish}
end

-- The statistics of the games in `sources` (texts of G lines), each game
-- once, games after `cutoff` left out.
local function compute(players, sources, cutoff)
    local tally = new_tally(players)
    for _, text in ipairs(sources) do tally.add(text, cutoff) end
    return tally.finish()
end

-- the SPRT of a two-player run over complete pairs, player 1's view
local function sprt_state(res, sprt)
    local p = res.players[1]
    local out = host.rating.sprt{elo0 = sprt.elo0, elo1 = sprt.elo1, alpha = sprt.alpha, beta = sprt.beta,
        pairs = p.penta}
    out.elo0, out.elo1, out.alpha, out.beta = sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
    return out
end

-- ---------------------------------------------------------------- output

local function wld(t) return ("%d-%d-%d"):format(t.w, t.l, t.d) end

local function pad(text, w, right)
    local len = utf8.len(text) or #text
    if len >= w then return text end
    return right and (" "):rep(w - len) .. text or text .. (" "):rep(w - len)
end

local function signed(x) return (x >= 0 and "+" or "") .. fmt(x) end

-- The title and the ranking table of the text report, appended to out;
-- the names as shown (by player index) and the width of their column.
local function standings_lines(res, s, total, out)
    local namew = 6
    local shown = {} -- names as shown: no control characters reach the terminal
    for _, r in ipairs(res.ranking) do
        shown[r.index] = printable(r.name)
        namew = math.max(namew, utf8.len(shown[r.index]) or #shown[r.index])
    end
    if s.format == "knockout" then -- its tie-breaks make the count of games open
        out[#out + 1] = ("%d games (knockout, %d per match, tie-break %d pair%s, seed %d%s)"):format(res.games, s.games,
            s.tiebreak, s.tiebreak == 1 and "" or "s", s.seed, s.tc and ", time control "
                .. private.timecontrol.text(s.tc) or "")
    else
        out[#out + 1] = ("%d games of %d (%s, %d per pairing, seed %d%s)"):format(res.games, total, s.format, s.games,
            s.seed, s.tc and ", time control " .. private.timecontrol.text(s.tc) or "")
    end
    out[#out + 1] = ""
    out[#out + 1] = ("%s  %s %6s %6s %6s %6s %7s %8s %7s %6s %15s"):format("rank", pad("player", namew), "games",
        "win", "loss", "draw", "score%", "Elo", "+-95%", "LOS", "pairs Elo +-")
    for _, r in ipairs(res.ranking) do
        out[#out + 1] = ("%4d  %s %6d %6d %6d %6d %7s %8s %7s %6s %15s"):format(r.rank, pad(shown[r.index], namew),
            r.games,
            r.w, r.l, r.d, fmt(100 * r.score), signed(r.elo), fmt(r.error), r.los and fmt(100 * r.los) .. "%" or "",
            r.pairs > 0 and (signed(r.pair_stats.elo) .. " " .. fmt((r.pair_stats.elo_hi - r.pair_stats.elo_lo) / 2))
                or "-")
    end
    return shown, namew
end

-- The standings so far: the text report's title and ranking table.
local function standings_text(res, s, total)
    local out = {}
    standings_lines(res, s, total, out)
    return table.concat(out, "\n") .. "\n"
end

local function text_report(res, s, total)
    local out = {}
    local shown, namew = standings_lines(res, s, total, out)
    out[#out + 1] = ""
    out[#out + 1] = "crosstable: the row's win-loss-draw against the column (by rank), as 〇 / as ×"
    local cells, cw = {}, 1
    for _, r in ipairs(res.ranking) do
        cells[r.index] = {}
        for _, c in ipairs(res.ranking) do
            local x = res.cross[r.index][c.index]
            local text = r.index == c.index and "-" or ""
            if x.all.w + x.all.l + x.all.d > 0 then text = wld(x.o) .. " / " .. wld(x.x) end
            cells[r.index][c.index] = text
            cw = math.max(cw, #text)
        end
    end
    local line = {pad("", namew + 6)}
    for _, c in ipairs(res.ranking) do line[#line + 1] = pad(tostring(c.rank), cw, true) end
    out[#out + 1] = table.concat(line, "  ")
    for _, r in ipairs(res.ranking) do
        line = {("%4d  %s"):format(r.rank, pad(shown[r.index], namew))}
        for _, c in ipairs(res.ranking) do line[#line + 1] = pad(cells[r.index][c.index], cw, true) end
        out[#out + 1] = table.concat(line, "  ")
    end
    out[#out + 1] = ""
    out[#out + 1] = "by colour and pairs"
    for _, r in ipairs(res.ranking) do
        out[#out + 1] = ("  %s  as 〇 %s  as × %s  pairs (0, .5, 1, 1.5, 2 points) %s"):format(pad(shown[r.index],
            namew),
            wld(r.o), wld(r.x), table.concat(r.penta, " "))
    end
    if #res.forfeits > 0 then
        out[#out + 1] = ""
        out[#out + 1] = ("forfeits (%d)"):format(#res.forfeits)
        for _, r in ipairs(res.ranking) do
            local keys = {}
            for k in pairs(r.forfeits) do keys[#keys + 1] = k end
            table.sort(keys)
            for _, k in ipairs(keys) do
                out[#out + 1] = ("  %s  %s: %d"):format(pad(shown[r.index], namew), printable(k, 200), r.forfeits[k])
            end
        end
        local listed = math.min(#res.forfeits, 10)
        for i = 1, listed do
            local f = res.forfeits[i]
            out[#out + 1] = ("  game %d, %s: %s"):format(f.game, printable(f.player), printable(f.reason, 200))
        end
        if #res.forfeits > listed then
            out[#out + 1] = ("  ... %d more in results.json"):format(#res.forfeits - listed)
        end
    end
    if s.adjudicate or s.max_moves then
        out[#out + 1] = ""
        local how = {}
        if s.adjudicate then how[#how + 1] = "proven results" end
        if s.max_moves then how[#how + 1] = ("a draw at %d stones"):format(s.max_moves) end
        out[#out + 1] = ("adjudicated: %d of %d games (%s)"):format(res.adjudicated, res.games, table.concat(how, ", "))
    end
    if res.knockout then
        local ko = res.knockout
        local function pts(x) return x == math.floor(x) and ("%d"):format(x) or ("%.1f"):format(x) end
        out[#out + 1] = ""
        out[#out + 1] = "knockout: the matches by round (a tie after the tie-breaks: the better seed goes on)"
        for r, matches in ipairs(ko.rounds) do
            for _, m in ipairs(matches) do
                local text
                if m.a and m.b then
                    text = ("%s %s-%s %s"):format(printable(m.a), pts(m.points[1]), pts(m.points[2]), printable(m.b))
                    if m.decided then
                        text = text .. (" (%d games): %s%s"):format(m.games, printable(m.winner),
                            m.by_seed and " by seed" or "")
                    else
                        text = text .. (" (%d games so far)"):format(m.games)
                    end
                elseif m.a or m.b then
                    text = ("%s: a bye"):format(printable(m.a or m.b))
                elseif m.decided == false and m.winner == nil then
                    text = "(waiting for its players)"
                end
                if text then out[#out + 1] = ("  round %d, match %d: %s"):format(r, m.number, text) end
            end
        end
        out[#out + 1] = ("  winner: %s"):format(ko.winner and printable(ko.winner) or "(not decided yet)")
    end
    if res.sprt then
        local q = res.sprt
        out[#out + 1] = ""
        out[#out + 1] = ("SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.3f (bounds %.3f, %.3f): %s"):format(q.elo0,
            q.elo1,
            q.alpha, q.beta, q.llr, q.lower, q.upper,
            q.decision == "H1" and "H1 accepted (elo1)" or q.decision == "H0" and "H0 accepted (elo0)"
                or "no decision yet")
    end
    return table.concat(out, "\n") .. "\n"
end

-- JSON, by hand: fixed key order and number formats, so equal results are
-- equal bytes.
local function json_string(s)
    return '"' .. utf8_fix(s):gsub('[%c"\\]', function(c)
        local named = {['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\t"] = "\\t", ["\r"] = "\\r"}
        return named[c] or ("\\u%04x"):format(c:byte())
    end) .. '"'
end

local function json_value(v, indent)
    local t = type(v)
    if t == "string" then return json_string(v) end
    if t == "boolean" then return tostring(v) end
    if t == "nil" then return "null" end
    if t == "number" then
        if math.type(v) == "integer" then return tostring(v) end
        if v ~= v or v == math.huge or v == -math.huge then return "null" end
        return ("%.4f"):format(v)
    end
    -- tables: arrays, or {__keys = {...}} ordered objects
    local inner = indent .. "  "
    local items = {}
    if v.__keys then
        for _, k in ipairs(v.__keys) do
            if v[k] ~= nil then items[#items + 1] = inner .. json_string(k) .. ": " .. json_value(v[k], inner) end
        end
        if #items == 0 then return "{}" end
        return "{\n" .. table.concat(items, ",\n") .. "\n" .. indent .. "}"
    end
    for i = 1, #v do items[i] = inner .. json_value(v[i], inner) end
    if #items == 0 then return "[]" end
    return "[\n" .. table.concat(items, ",\n") .. "\n" .. indent .. "]"
end

local function obj(keys, t)
    t.__keys = keys
    return t
end

local function wld_obj(t) return obj({"win", "loss", "draw"}, {win = t.w, loss = t.l, draw = t.d}) end

local function json_report(res, s, players, total)
    local ps = {}
    for _, r in ipairs(res.ranking) do
        local fk = {}
        for k in pairs(r.forfeits) do fk[#fk + 1] = k end
        table.sort(fk)
        local f = obj(fk, {})
        for _, k in ipairs(fk) do f[k] = r.forfeits[k] end
        local vs = {}
        for _, c in ipairs(res.ranking) do
            local x = res.cross[r.index][c.index]
            if c.index ~= r.index and x.all.w + x.all.l + x.all.d > 0 then
                vs[#vs + 1] = obj({"opponent", "total", "as_o", "as_x"},
                    {opponent = c.name, total = wld_obj(x.all), as_o = wld_obj(x.o), as_x = wld_obj(x.x)})
            end
        end
        ps[#ps + 1] = obj({"rank", "name", "spec", "games", "win", "loss", "draw", "score", "elo", "elo_error",
            "los_next", "performance", "as_o", "as_x", "pairs", "forfeits", "crosstable"}, {
            rank = r.rank, name = r.name, spec = r.spec, games = r.games, win = r.w, loss = r.l, draw = r.d,
            score = r.score, elo = r.elo, elo_error = r.error, los_next = r.los,
            performance = obj({"elo", "elo_low", "elo_high"},
                {elo = r.perf.elo, elo_low = r.perf.elo_lo, elo_high = r.perf.elo_hi}),
            as_o = wld_obj(r.o), as_x = wld_obj(r.x),
            pairs = obj({"count", "pentanomial", "elo", "elo_low", "elo_high"}, {count = r.pairs, pentanomial = r.penta,
                elo = r.pair_stats.elo, elo_low = r.pair_stats.elo_lo, elo_high = r.pair_stats.elo_hi}),
            forfeits = f, crosstable = vs,
        })
    end
    local ff = {}
    for i, f in ipairs(res.forfeits) do ff[i] = obj({"game", "player", "reason"}, f) end
    local shape = mb.Marubatsu(s.mbparams)
    local knockout
    if res.knockout then
        local rounds = {}
        for r, matches in ipairs(res.knockout.rounds) do
            local list = {}
            for i, m in ipairs(matches) do
                list[i] = obj({"match", "a", "b", "points_a", "points_b", "games", "winner", "by_seed"},
                    {match = m.number,
                    a = m.a, b = m.b, points_a = m.a and m.b and m.points[1] + 0.0 or nil,
                    points_b = m.a and m.b and m.points[2] + 0.0 or nil, games = m.games,
                    winner = m.decided and m.winner or nil, by_seed = m.by_seed})
            end
            rounds[r] = list
        end
        knockout = obj({"tiebreak_pairs", "rounds", "winner"}, {tiebreak_pairs = res.knockout.tiebreak, rounds = rounds,
            winner = res.knockout.winner})
    end
    local doc = obj({"format", "games_per_pairing", "seed", "board", "players", "games_played", "games_scheduled",
        "time_control", "adjudication", "sprt", "knockout", "ranking", "forfeits"}, {
        knockout = knockout,
        adjudication = (s.adjudicate or s.max_moves)
            and obj({"proven", "max_moves", "games"}, {proven = s.adjudicate or false,
            max_moves = s.max_moves, games = res.adjudicated}) or nil,
        format = s.format, games_per_pairing = s.games, seed = s.seed,
        board = obj({"width", "height", "k", "rule"}, {width = shape.width, height = shape.height, k = shape.k,
            rule = shape.rule}),
        players = (function()
            local l = {}
            for i, p in ipairs(players) do
                -- a player read from a journal's header (merge) says so itself
                local sandboxed = p.sandboxed
                if sandboxed == nil then sandboxed = p.sandbox ~= nil or p.broken ~= nil end
                l[i] = obj({"name", "spec", "sandboxed"}, {name = p.name, spec = p.spec, sandboxed = sandboxed})
            end
            return l
        end)(),
        games_played = res.games, games_scheduled = total,
        time_control = s.tc and private.timecontrol.text(s.tc) or nil,
        sprt = res.sprt and obj({"elo0", "elo1", "alpha", "beta", "llr", "lower", "upper", "decision"}, res.sprt)
            or nil,
        ranking = ps, forfeits = ff,
    })
    return json_value(doc, "") .. "\n"
end

local function csv_field(v)
    v = utf8_fix(tostring(v))
    if v:find('[,"\n]') then return '"' .. v:gsub('"', '""') .. '"' end
    return v
end

local function csv_report(res)
    local out = {"rank,name,spec,games,win,loss,draw,score,elo,elo_error,los_next,"
        .. "win_as_o,loss_as_o,draw_as_o,win_as_x,loss_as_x,draw_as_x,pairs,pairs_0,pairs_1,pairs_2,pairs_3,pairs_4,"
        .. "pairs_elo,pairs_elo_low,pairs_elo_high,forfeits"}
    for _, r in ipairs(res.ranking) do
        local nf = 0
        for _, c in pairs(r.forfeits) do nf = nf + c end
        local f = {r.rank, csv_field(r.name), csv_field(r.spec), r.games, r.w, r.l, r.d, fmt(r.score, 4), fmt(r.elo, 2),
            fmt(r.error, 2), r.los and fmt(r.los, 4) or "", r.o.w, r.o.l, r.o.d, r.x.w, r.x.l, r.x.d, r.pairs,
            r.penta[1], r.penta[2], r.penta[3], r.penta[4], r.penta[5], fmt(r.pair_stats.elo, 2),
            fmt(r.pair_stats.elo_lo, 2), fmt(r.pair_stats.elo_hi, 2), nf}
        out[#out + 1] = table.concat(f, ",")
    end
    return table.concat(out, "\n") .. "\n"
end

local function xml(s) return (s:gsub("[&<>\"]",
    {["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;"})) end

-- ranking.svg: one row per player, the Elo as a dot with its 95% bar
local function svg_report(res)
    local lo, hi = -100, 100
    for _, r in ipairs(res.ranking) do
        lo = math.min(lo, r.elo - r.error)
        hi = math.max(hi, r.elo + r.error)
    end
    local step = 50
    while (hi - lo) / step > 12 do step = step * 2 end
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
    local namew = 60
    for _, r in ipairs(res.ranking) do namew = math.max(namew, 7 * #r.name + 16) end
    local left, plotw, rowh, top = namew + 10, 480, 28, 40
    local h = top + rowh * #res.ranking + 40
    local w = left + plotw + 150
    local function X(e) return left + (e - lo) / (hi - lo) * plotw end
    local o = {}
    o[#o + 1] = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
        .. 'font-family="sans-serif" font-size="13">'):format(w, h, w, h)
    o[#o + 1] = ('<rect width="%d" height="%d" fill="white"/>'):format(w, h)
    o[#o + 1] = ('<text x="%d" y="22" font-size="15" font-weight="bold">'
        .. 'Ranking: Elo with 95%% intervals (%d games)</text>')
        :format(left, res.games)
    for e = lo, hi, step do
        o[#o + 1] = ('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"/>'):format(X(e), top - 6, X(e), h - 34,
            e == 0 and "#888" or "#ddd")
        o[#o + 1] = ('<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%d</text>'):format(X(e), h - 18, e)
    end
    for i, r in ipairs(res.ranking) do
        local y = top + rowh * (i - 1) + rowh / 2
        o[#o + 1] = ('<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%d. %s</text>')
            :format(left - 8, y, r.rank, xml(printable(r.name)))
        o[#o + 1] = ('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#36c" stroke-width="3"/>')
            :format(X(r.elo - r.error), y, X(r.elo + r.error), y)
        o[#o + 1] = ('<circle cx="%.1f" cy="%.1f" r="5" fill="#135"/>'):format(X(r.elo), y)
        o[#o + 1] = ('<text x="%d" y="%.1f" dominant-baseline="middle">%s ± %s (%s%%)</text>'):format(left + plotw + 10,
            y,
            signed(r.elo), fmt(r.error), fmt(100 * r.score))
    end
    o[#o + 1] = "</svg>"
    return table.concat(o, "\n") .. "\n"
end

-- ---------------------------------------------------------------- files
-- Shown text, bounded reads and checked writes, for the whole library
-- (private.files): tournaments, merge, replay, openings and play --input.

-- Open `path` for reading, refusing directories (which open but do not
-- read) with the file's name in the message.
local function open_input(path)
    local f, err = io.open(path, "rb")
    if not f then fail(err, 0) end
    local ok, rerr = f:read(0)
    if ok == nil and rerr then
        f:close()
        fail(("%s: %s"):format(path, rerr), 0)
    end
    return f
end

-- Open a file the program wrote (a journal, results, a game record) to
-- read it back: a regular file only, opened without blocking (a FIFO is
-- refused, not waited on) and, unless `follow`, not through a symbolic
-- link (host.open_file). -> file | nil when absent and `absent_ok`; else an
-- error naming the file.
local function open_regular(path, follow, absent_ok)
    local f, err, kind = host.open_file(path, "r", follow)
    if f then return f end
    if absent_ok and kind == "absent" then return nil end
    fail(err, 0)
end

local READ_BLOCK = 65536

-- An iterator over the lines of the open file f (named path in messages):
-- line, number, cut (true for a last line without its newline). A line
-- longer than max_line bytes, or more than max_total bytes in all (when
-- given), is an error naming the file and line: /dev/zero or a file
-- without newlines cannot fill the memory.
local function bounded_lines(f, path, max_line, max_total)
    local buf, pos, n, total = "", 1, 0, 0
    local parts, plen = {}, 0 -- the start of a line that spans blocks
    local function too_long(at)
        fail(("%s:%d: a line longer than %d bytes"):format(path, at, max_line), 0)
    end
    return function()
        while true do
            local nl = buf:find("\n", pos, true)
            if nl then
                n = n + 1
                if plen + nl - pos > max_line then too_long(n) end
                local line = buf:sub(pos, nl - 1)
                if plen > 0 then
                    parts[#parts + 1] = line
                    line = table.concat(parts)
                    parts, plen = {}, 0
                end
                pos = nl + 1
                return line, n, false
            end
            if pos <= #buf then
                parts[#parts + 1] = buf:sub(pos)
                plen = plen + #buf - pos + 1
            end
            buf, pos = "", 1
            if plen > max_line then too_long(n + 1) end
            local block, err = f:read(READ_BLOCK)
            if not block then
                if err then fail(("%s: %s"):format(path, err), 0) end
                if plen == 0 then return nil end
                local line = table.concat(parts)
                parts, plen, n = {}, 0, n + 1
                return line, n, true
            end
            total = total + #block
            if max_total and total > max_total then
                fail(("%s: larger than %d bytes"):format(path, max_total), 0)
            end
            buf = block
        end
    end
end

-- Write text to the open file f (named path) and flush it: an error naming
-- the file when the disk is full or the write fails. `note` is added to
-- the message (what the failure leaves behind).
local function write_checked(f, path, text, note)
    local ok, err = f:write(text)
    if ok then ok, err = f:flush() end
    if not ok then fail(("cannot write %s: %s%s"):format(path, err, note or ""), 0) end
end

local function close_checked(f, path, note)
    local ok, err = f:close()
    if not ok then fail(("cannot write %s: %s%s"):format(path, err, note or ""), 0) end
end

-- Write a whole file: into path.tmp, created new and never through a
-- link, then renamed over path (a link there is replaced, not followed),
-- so a failed write leaves the old file (or none) and an error naming it,
-- and nothing outside the directory is written (host.write_file).
local function write_file(path, text)
    local ok, err = host.write_file(path, text)
    if not ok then fail("cannot write " .. err, 0) end
end

local function ensure_dir(dir)
    local ok, err = host.mkdir(dir)
    if not ok then fail(("cannot create directory %s: %s"):format(dir, err), 0) end
end

-- The lock of an out directory (its file journal.lock): one tournament or
-- merge writes there at a time; a second one is refused, naming the
-- process that holds it. -> the lock (released by lock:unlock(), or when a
-- <close> variable holding it goes out of scope), or nil with a note on
-- stderr (unless quiet) on a file system without locks (some network disks)
local LOCK = "journal.lock"
local function lock_out(dir, quiet)
    local path = dir .. "/" .. LOCK
    local lock, err, pid = host.lock_file(path)
    if lock then return lock end
    if lock == false then
        if not quiet then
            io.stderr:write(("%s (nothing keeps a second run from writing there at the same time)\n"):format(err))
        end
        return nil
    end
    if pid then
        fail(("%s is in use: process %d is writing to it (it holds %s); wait for it to finish, or choose"
            .. " another out directory"):format(dir, pid, path), 0)
    end
    fail("cannot lock " .. err, 0)
end

-- results of the games in sources (texts of G lines), games <= cutoff
local function results_of(players, s, sources, cutoff)
    local res = compute(players, sources, cutoff)
    if s.sprt then res.sprt = sprt_state(res, s.sprt) end
    return res
end

-- the G lines of games (game -> line) as one text
local function text_of(games)
    local list = {}
    for _, line in pairs(games) do list[#list + 1] = line end
    return table.concat(list)
end

local function write_outputs(res, s, players, total)
    if s.out then
        write_file(s.out .. "/results.json", json_report(res, s, players, total))
        write_file(s.out .. "/results.csv", csv_report(res))
        write_file(s.out .. "/ranking.svg", svg_report(res))
        local ok, err = load(mb.embedded("lib/report"), "=scripts/lib/report.lua", "t")(mb, host).write(s.out)
        if not ok then fail("cannot write " .. tostring(err), 0) end
    end
    if not s.quiet then write_checked(io.stdout, "standard output", text_report(res, s, total)) end
end

private.files = {
    printable = printable,
    open_input = open_input,
    open_regular = open_regular,
    utf8_fix = utf8_fix,
    bounded_lines = bounded_lines,
    write_checked = write_checked,
    close_checked = close_checked,
    write_file = write_file,
}

private.results = {
    new_tally = new_tally,
    finish_results = function(tally, s)
        local res = tally.finish()
        if s.sprt then res.sprt = sprt_state(res, s.sprt) end
        return res
    end,
    results_of = results_of,
    standings_text = standings_text,
    text_of = text_of,
    write_outputs = write_outputs,
    text_report = text_report,
    write_file = write_file,
    ensure_dir = ensure_dir,
    lock_out = lock_out,
    json_value = json_value,
    obj = obj,
}
