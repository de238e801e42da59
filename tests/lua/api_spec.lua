-- api_spec.lua: the Lua API of the game object and the random stream:
-- construction and its errors, the series' operations with their exact text
-- forms and messages, read-only fields, the evaluator reads (count_markpats,
-- board_to_str, bits), argument checking that leaves a game unchanged, the
-- CPython-compatible streams (values computed with CPython 3.11), Excel
-- moves, and loading AIs by name and from user files. What a game does
-- (moves, judging, text forms, records, children, errors) is checked on
-- every back-end, with and without the line counters; what does not go
-- through the board (options, streams, AIs by name) once.
local mb = require "marubatsu"

local helpers = dofile("tests/lua/helpers.lua")
local snapshot = helpers.snapshot

describe("Marubatsu objects", function()
    it("start as the series' empty 3x3 game on the bitboard", function()
        local g = mb.Marubatsu()
        assert.are.equal(3, g.width)
        assert.are.equal(3, g.height)
        assert.are.equal(3, g.k)
        assert.are.equal("bitboard", g.board)
        assert.are.equal(false, g.count_linemark)
        assert.are.equal("playing", g.status)
        assert.are.equal("o", g.turn)
        assert.is_nil(g.last_turn)
        assert.are.equal(0, g.move_count)
        assert.are.equal(-1, g.last_move)
        assert.are.same({[0] = -1}, g.records)
        assert.are.equal("Turn o\n...\n...\n...\n", tostring(g))
    end)

    it("take every option", function()
        local g = mb.Marubatsu{width = 7, height = 6, k = 4, board = "list1d", count_linemark = true}
        assert.are.equal(7, g.width)
        assert.are.equal(6, g.height)
        assert.are.equal(4, g.k)
        assert.are.equal("list1d", g.board)
        assert.is_true(g.count_linemark)
        assert.are.equal(3, mb.Marubatsu{width = 5, height = 3}.k) -- min(width, height)
    end)

    it("reject bad options with clear errors", function()
        assert.has_error(function() mb.Marubatsu{width = 0} end,
            "bad option 'width' to 'Marubatsu' (0 is not in 1..32)")
        assert.has_error(function() mb.Marubatsu{width = "3"} end,
            "bad option 'width' to 'Marubatsu' (integer expected, got string)")
        assert.has_error(function() mb.Marubatsu{k = 4} end,
            "Marubatsu: k = 4 is not possible on a 3x3 board (1..3)")
        assert.has_error(function() mb.Marubatsu{board = "hex"} end,
            "bad option 'board' to 'Marubatsu' (list, list1d or bitboard expected, got hex)")
        assert.has_error(function() mb.Marubatsu{size = 3} end)
        assert.has_error(function() mb.Marubatsu(3) end)
    end)

    it("take the rule freestyle by default, and refuse renju and unknown rules", function()
        assert.are.equal("freestyle", mb.Marubatsu().rule)
        assert.are.equal("freestyle", mb.Marubatsu{rule = "freestyle"}.rule)
        assert.has_error(function() mb.Marubatsu{rule = "renju"} end,
            "bad option 'rule' to 'Marubatsu' (the renju rule is not supported (its forbidden moves are not "
            .. "implemented): the rules are freestyle or exact)")
        assert.has_error(function() mb.Marubatsu{rule = "Exact"} end,
            "bad option 'rule' to 'Marubatsu' (unknown rule 'Exact' (freestyle or exact))")
        assert.has_error(function() mb.Marubatsu{rule = true} end,
            "bad option 'rule' to 'Marubatsu' (freestyle or exact expected, got boolean)")
    end)
end)

helpers.each_backend(function(bk)
    describe("a game on " .. bk.label, function()
        local game_of = bk.game_of

        it("plays the exact rule: a run longer than k is no win", function()
            -- 1x9, k = 3: x's A6 A7 A8 A9 is four in a row, and o's A1 to A5 five
            local moves = "A1,A7,A2,A9,A4,A6,A5,A8"
            local free = game_of(moves, {width = 1, height = 9, k = 3})
            local exact = game_of(moves, {width = 1, height = 9, k = 3, rule = "exact"})
            assert.are.equal(bk.board, exact.board)
            assert.are.equal(bk.count_linemark, exact.count_linemark)
            assert.are.equal("x", free.status)
            assert.are.equal("exact", exact.rule)
            assert.are.equal("playing", exact.status)
            assert.is_false(exact:is_winner("x", exact:xy_to_move(0, 7)))
            assert.is_true(free:is_winner("x", free:xy_to_move(0, 7)))
            assert.is_false(exact:wins_with(exact:xy_to_move(0, 2), "o"))
            assert.are.equal("exact", exact:copy().rule)
            exact:move(exact:xy_to_move(0, 2))
            assert.are.equal("draw", exact.status)
        end)

        it("plays, prints and undoes as the series' demos (game.md §13)", function()
            local g = bk.new()
            g:move(g:xy_to_move(0, 0))
            assert.are.equal("Turn x\nO..\n...\n...\n", tostring(g))
            g:move(g:xy_to_move(1, 0))
            assert.are.equal("Turn o\noX.\n...\n...\n", tostring(g))
            g:move(g:xy_to_move(2, 0))
            g:move(g:xy_to_move(0, 1))
            g:move(g:xy_to_move(1, 1))
            local seen = {}
            for i = 1, 5 do
                g:unmove()
                seen[i] = tostring(g)
            end
            assert.are.same({"Turn o\noxo\nX..\n...\n", "Turn x\noxO\n...\n...\n",
                "Turn o\noX.\n...\n...\n", "Turn x\nO..\n...\n...\n",
                "Turn o\n...\n...\n...\n"}, seen)
            assert.is_nil(g.last_turn)
            g:unmove() -- a no-op at the start
            assert.are.equal(0, g.move_count)
        end)

        it("prints the worked example and counts its mark patterns (game.md §7.3)", function()
            local g = game_of("A1,B1,A2,C1,B3,B2,A3")
            assert.are.equal("winner o\noxx\nox.\nOo.\n", tostring(g))
            assert.are.equal("oooxxox..", g:board_to_str())
            assert.are.equal("o", g.status)
            assert.are.equal("o", g:judge())
            local mp = g:count_markpats()
            assert.are.same({["0,0,3"] = 0, ["0,1,2"] = 1, ["0,2,1"] = 0, ["0,3,0"] = 0,
                ["1,0,2"] = 0, ["1,1,1"] = 2, ["1,2,0"] = 3, ["2,0,1"] = 1, ["2,1,0"] = 0,
                ["3,0,0"] = 1}, mp)
            local reuse = {}
            assert.are.equal(reuse, g:count_markpats(reuse))
            assert.are.same(mp, reuse)
        end)

        it("lists legal moves in the normative order, into a reused table", function()
            local g = bk.new()
            g:move(0)
            g:move(1)
            -- (1,0) (2,0) (1,1) (2,1) (0,2) (1,2) (2,2) as y + 3x
            assert.are.same({3, 6, 4, 7, 2, 5, 8}, g:calc_legal_moves())
            local t = {99, 99, 99, 99, 99, 99, 99, 99, 99, 99}
            g:calc_legal_moves(t)
            assert.are.same({3, 6, 4, 7, 2, 5, 8}, t)
            local over = game_of("A1,A2,B1,B2,C1")
            assert.are.same({}, over:calc_legal_moves())
            -- a board of more than 64 squares (two words a bit plane)
            local wide = game_of("A1,I9,E5", {width = 9, height = 9, k = 5})
            local legal = wide:calc_legal_moves()
            assert.are.equal(78, #legal)
            assert.are.same({9, 18, 27}, {legal[1], legal[2], legal[3]})
            assert.are.equal(71, legal[#legal])
        end)

        it("keeps the record, replays it and truncates it", function()
            local g = bk.new()
            for _, m in ipairs({4, 0, 8, 2}) do g:move(m) end
            assert.are.same({[0] = -1, 4, 0, 8, 2}, g.records)
            g:change_step(2)
            assert.are.equal(2, g.move_count)
            assert.are.equal("x...o....", g:board_to_str())
            assert.are.same({[0] = -1, 4, 0, 8, 2}, g.records)
            g:change_step(4)
            assert.are.equal("x.x.o...o", g:board_to_str())
            g:change_step(2)
            g:move(6)
            assert.are.same({[0] = -1, 4, 0, 6}, g.records)
            g:restart()
            assert.are.same({[0] = -1}, g.records)
            assert.are.equal(".........", g:board_to_str())
        end)

        it("shares the records list like the series: in place until restart", function()
            local g = bk.new()
            local r = g.records
            g:move(4)
            g:move(0)
            assert.are.same({[0] = -1, 4, 0}, r) -- moves append in place
            g:unmove()
            assert.are.same({[0] = -1, 4}, r) -- unmove pops in place
            g:restart()
            assert.are.same({[0] = -1, 4}, r) -- restart makes a new list
            assert.are_not.equal(r, g.records)
            g:move(8)
            assert.are.same({[0] = -1, 4}, r)
            assert.are.same({[0] = -1, 8}, g.records)
        end)

        it("visits children and restores the game after a loop, a break or an error", function()
            local g = game_of("B2")
            local seen = {}
            for m in g:children() do
                seen[#seen + 1] = m .. ":" .. g:board_to_str() .. ":" .. g.turn .. ":" .. g.move_count
            end
            assert.are.equal(8, #seen)
            assert.are.equal("0:x...o....:o:2", seen[1])
            assert.are.equal("Turn x\n...\n.O.\n...\n", tostring(g))
            for m in g:children() do
                if m == 6 then break end
            end
            assert.are.equal(1, g.move_count)
            assert.has_error(function()
                for m in g:children() do
                    if m == 3 then error("boom") end
                end
            end)
            assert.are.same({[0] = -1, 4}, g.records)
            assert.are.equal("x", g.turn)
            -- the body may not take the child back (the loop holds the game there)
            local ok, err = pcall(function()
                for _ in g:children() do g:unmove() end
            end)
            assert.is_false(ok)
            assert.matches("unmove: the game is in use by a search, a scorer or a children%(%) loop "
                .. "that holds it at move 2", err)
            -- nor leave it anywhere but at the child
            assert.has_error(function()
                for _ in g:children() do g:move(g:calc_legal_moves()[1]) end
            end, "children: the game was changed inside the loop (restore it before the next iteration)")
            local over = game_of("A1,A2,B1,B2,C1")
            local n = 0
            for _ in over:children() do n = n + 1 end
            assert.are.equal(0, n)
            -- a loop kept after a break and stepped once the game moved on is
            -- refused: its next move could land on a mark
            local kept = bk.new()
            local it, st, ctl, cl = kept:children()
            for _ in it, st, ctl, cl do break end
            kept:move(0)
            assert.has_error(function() it(st) end,
                "children: the game is no longer at the position where the loop started")
            assert.are.equal("o........", kept:board_to_str())
        end)

        it("answers the coordinate helpers", function()
            local g = bk.new{width = 4, height = 3}
            assert.are.equal(3 * 2 + 1, g:xy_to_move(2, 1))
            assert.are.same({2, 1}, {g:move_to_xy(7)})
            assert.are.same({-1, -1}, {g:move_to_xy(-1)})
            assert.are.equal("C2", g:excel(7))
            g:move(7)
            g:move(0)
            assert.are.equal("o", g:getmark(2, 1))
            assert.are.equal("x", g:getmark(0, 0))
            assert.are.equal(".", g:getmark_by_move(1))
            assert.are.equal("x", g:getmark_by_move(0))
            local o, x = g:bits()
            assert.are.equal(1 << (2 + 1 * 4), o)
            assert.are.equal(1, x)
        end)

        it("judges wins with k in a row, in every direction and at every edge", function()
            local g = game_of("D6,A1,E6,A2,F6,A3,G6", {width = 7, height = 6, k = 4})
            assert.are.equal("o", g.status)
            assert.is_true(g:is_winner("o", mb.move("G6", g)))
            local h = game_of("A1,A2,B1")
            assert.is_true(h:wins_with(mb.move("C1"), "o"))
            assert.is_false(h:wins_with(mb.move("C1"))) -- x to move
            assert.are.equal("A1,A2,B1", table.concat({h:excel(0), h:excel(1), h:excel(3)}, ","))
            -- each line of 3x3, its squares played in every order of the last
            -- move: a win exactly when the line is full
            local lines = {"A1,B1,C1", "A2,B2,C2", "A3,B3,C3", "A1,A2,A3", "B1,B2,B3", "C1,C2,C3",
                "A1,B2,C3", "C1,B2,A3"}
            for _, line in ipairs(lines) do
                local sq = {}
                for s in line:gmatch("[^,]+") do sq[#sq + 1] = s end
                local others = {}
                for _, s in ipairs({"A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"}) do
                    if not line:find(s, 1, true) then others[#others + 1] = s end
                end
                for last = 1, 3 do
                    local a, b = sq[last % 3 + 1], sq[(last + 1) % 3 + 1]
                    -- o plays a and b, x two squares off the line that make no line of x
                    local w = game_of(table.concat({a, others[1], b, others[2]}, ","))
                    if w.status == "playing" then
                        assert.is_true(w:wins_with(mb.move(sq[last]), "o"), line .. " by " .. sq[last])
                        w:move(mb.move(sq[last]))
                        assert.are.equal("o", w.status, line .. " by " .. sq[last])
                        assert.is_true(w:is_winner("o", mb.move(sq[last])))
                        assert.is_false(w:is_winner("x", mb.move(sq[last])))
                    end
                end
            end
            -- no win short of k, nor by a line broken by the other mark
            local broken = game_of("A1,B1,C1,B2,A2,C2,B3,A3,C3")
            assert.are.equal("draw", broken.status)
        end)

        it("copies into an independent game", function()
            local a = game_of("B2")
            local b = a:copy()
            assert.are.equal(bk.board, b.board)
            assert.are.equal(bk.count_linemark, b.count_linemark)
            b:move(0)
            assert.are.equal(1, a.move_count)
            assert.are.equal(2, b.move_count)
            assert.are.equal("Turn x\n...\n.O.\n...\n", tostring(a))
            assert.are.equal("Turn o\nX..\n.o.\n...\n", tostring(b))
        end)

        it("fills every markpats entry, impossible patterns as 0", function()
            local t = bk.new():markpats()
            assert.are.equal(16, #t)
            assert.are.equal(8, t[mb.markpat_index(0, 0, 3)])
            assert.are.same({8, 0}, {bk.new():markpats(mb.markpat_index(0, 0, 3), 16)})
            local g = game_of("A1,B1,A2,C1,B3,B2")
            local mp = g:count_markpats()
            for o = 0, 3 do
                for x = 0, 3 - o do
                    assert.are.equal(mp[("%d,%d,%d"):format(o, x, 3 - o - x)],
                        g:markpats(mb.markpat_index(o, x, 3)), o .. "," .. x)
                end
            end
            assert.has_error(function() bk.new():markpats(17) end,
                "bad argument #1 to 'markpats' (pattern index 17 out of range 1..16)")
            assert.has_error(function() bk.new():markpats(1, 1.5) end,
                "bad argument #2 to 'markpats' (number has no integer representation)")
            assert.has_error(function() bk.new():markpats(1, "a") end,
                "bad argument #2 to 'markpats' (number expected, got string)")
            assert.are.same({8, 8}, {bk.new():markpats(1, "1")})
        end)

        it("shares one shape between games", function()
            local a = bk.new{width = 5, height = 5, k = 4}
            local b = bk.new{width = 5, height = 5, k = 4}
            a:move(12)
            assert.are.equal(0, b.move_count)
            assert.are.equal(".", b:getmark(2, 2))
            collectgarbage()
            assert.are.equal("o", a:getmark(2, 2))
        end)

        it("raises errors naming the argument and changes nothing", function()
            local g = game_of("A1,B2")
            local before = snapshot(g)
            assert.has_error(function() g:move(9) end, "bad argument #1 to 'move' (square 9 out of range 0..8)")
            assert.has_error(function() g:move(-1) end)
            assert.has_error(function() g:move("B3") end)
            assert.has_error(function() g:move(1.5) end)
            assert.has_error(function() g:move() end)
            assert.has_error(function() g:move(0) end, "bad argument #1 to 'move' (square 0 is occupied)")
            assert.has_error(function() g:getmark(3, 0) end, "bad argument #1 to 'getmark' (x 3 out of range 0..2)")
            assert.has_error(function() g:xy_to_move(0, "a") end)
            assert.has_error(function() g:calc_legal_moves(5) end)
            assert.has_error(function() g.move(5, 1) end)
            assert.has_error(function() g.turn = "x" end,
                "game fields are read-only (use the methods to change a game)")
            assert.are.equal(before, snapshot(g))
            local over = game_of("A1,A2,B1,B2,C1")
            assert.has_error(function() over:move(8) end, "move: the game is over (o)")
        end)

        it("returns the series' messages from cmove, in Japanese or English", function()
            local g = bk.new()
            assert.is_true(g:cmove(0, 0))
            assert.is_true(g:cmove("1", " 0 "))
            local before = snapshot(g)
            assert.are.same({false, "( 0 , 0 ) のマスにはマークが配置済です"}, {g:cmove(0, 0)})
            assert.are.same({false, "( 3 , 5 ) はゲーム盤の範囲外の座標です"}, {g:cmove("3", "5")})
            assert.are.same({false, "整数の座標を入力して下さい"}, {g:cmove("a", "b")})
            assert.are.same({false, "整数の座標を入力して下さい"}, {g:cmove({}, 1)})
            mb.lang = "en"
            assert.are.same({false, "( 0 , 0 ) is already occupied"}, {g:cmove(0, 0)})
            assert.are.same({false, "( -1 , 2 ) is outside the board"}, {g:cmove(-1, 2)})
            mb.lang = "ja"
            assert.are.equal(before, snapshot(g))
            assert.are.same({false, "( 1 , 1 ) のマスにはマークがありません"}, {g:remove_mark(1, 1)})
        end)
    end)
end)

describe("mb.move", function()
    it("parses Excel squares for a board", function()
        assert.are.equal(4, mb.move("B2"))
        assert.are.equal(4, mb.move("b2"))
        assert.are.equal(26 * 12 + 9, mb.move("AA10", mb.Marubatsu{width = 30, height = 12, k = 5}))
        assert.are.equal(1 + 5 * 1, mb.move("B2", 5)) -- on a 5x5 board
        assert.has_error(function() mb.move("F1", 5) end)
        assert.has_error(function() mb.move("2B") end, "bad argument #1 to 'move' ('2B' is not a square like A1)")
        assert.has_error(function() mb.move("D1") end, "bad argument #1 to 'move' ('D1' is off the 3x3 board "
            .. "(3x3 when no game or size is given: mb.move(text, game) for another board))")
        assert.has_error(function() mb.move("Q8", mb.Marubatsu{width = 15, height = 15, k = 5}) end,
            "bad argument #1 to 'move' ('Q8' is off the 15x15 board)")
        assert.has_error(function() mb.move("F1", 5) end, "bad argument #1 to 'move' ('F1' is off the 5x5 board)")
        assert.has_error(function() mb.move(5) end)
    end)
end)

describe("random streams", function()
    it("are CPython's random, seeded like random.seed", function()
        mb.seed(0)
        assert.are.same({3626764237, 1654615998, 3255389356},
            {mb.getrandbits(32), mb.getrandbits(32), mb.getrandbits(32)})
        mb.seed(0)
        local picks = {}
        local range9 = {0, 1, 2, 3, 4, 5, 6, 7, 8}
        for i = 1, 10 do picks[i] = mb.choice(range9) end
        assert.are.same({6, 6, 0, 4, 8, 7, 6, 4, 7, 5}, picks)
        mb.seed(0)
        assert.are.equal(0.8444218515250481, mb.random())
        assert.are.equal(0.7579544029403025, mb.random())
        mb.seed(42)
        local l = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
        mb.shuffle(l)
        assert.are.same({8, 4, 3, 9, 6, 7, 10, 5, 1, 2}, l)
        mb.seed(7)
        local dice = {}
        for i = 1, 10 do dice[i] = mb.randint(1, 6) end
        assert.are.same({3, 2, 4, 6, 1, 1, 5, 1, 3, 5}, dice)
        mb.seed("12345678901234567890123")
        assert.are.equal(678764485, mb.getrandbits(32))
        mb.seed(-5)
        assert.are.equal(2675342405, mb.getrandbits(32))
        mb.seed(3)
        assert.are.equal("97b750923ceb3ffd", ("%x"):format(mb.getrandbits(64)))
    end)

    it("count draws, including the draws of a one-item choice", function()
        mb.seed(0)
        local costs = {}
        for i = 1, 10 do
            local before = mb.draws()
            assert.are.equal("only", mb.choice({"only"}))
            costs[i] = mb.draws() - before
        end
        assert.are.same({2, 3, 1, 1, 3, 1, 4, 2, 1, 4}, costs)
    end)

    it("come as independent objects", function()
        local a, b = mb.Random(0), mb.Random(0)
        assert.are.equal(3626764237, a:getrandbits(32))
        mb.seed(99)
        assert.are.equal(3626764237, b:getrandbits(32))
        assert.are.equal(1654615998, a:getrandbits(32))
        assert.are.equal(1, a:draws() - 1)
        assert.truthy(tostring(a):find("Random"))
    end)

    it("reject bad arguments", function()
        assert.has_error(function() mb.choice({}) end, "choice: cannot choose from an empty sequence")
        assert.has_error(function() mb.randbelow(0) end)
        assert.has_error(function() mb.seed("12x") end)
        assert.has_error(function() mb.seed(1.5) end)
        assert.has_error(function() mb.getrandbits(65) end)
        assert.has_error(function() mb.randint(3, 1) end)
    end)
end)

describe("AIs by name", function()
    it("load the built-in scripts", function()
        local ai2 = mb.ai("ai2")
        assert.are.equal("ai2", ai2.name)
        assert.are.equal(ai2, mb.ai("ai2")) -- cached
        local g = mb.Marubatsu()
        mb.seed(0)
        assert.are.equal(2, ai2(g)) -- index 6 of the legal moves 0 3 6 1 4 7 2 5 8
        assert.are.same({candidate = g:calc_legal_moves()}, ai2(g, {analyze = true}))
        assert.are.equal(0, ai2(g, {rand = false}))
    end)

    it("load user scripts from mb.path and from files", function()
        local dir = os.tmpname()
        os.remove(dir)
        os.execute("mkdir -p " .. dir)
        local f = io.open(dir .. "/corner_first.lua", "w")
        f:write("return function(game) return game:calc_legal_moves()[1] end\n")
        f:close()
        f = io.open(dir .. "/named.lua", "w")
        f:write("return {name = 'Named AI', fn = function(game) return 8 end}\n")
        f:close()
        f = io.open(dir .. "/broken.lua", "w")
        f:write("return 42\n")
        f:close()
        f = io.open(dir .. "/syntax.lua", "w")
        f:write("return function(\n")
        f:close()
        assert.has_error(function() mb.ai("corner_first") end)
        table.insert(mb.path, dir)
        local ai = mb.ai("corner_first")
        assert.are.equal("corner_first", ai.name)
        assert.are.equal(0, ai(mb.Marubatsu()))
        assert.are.equal("Named AI", mb.ai(dir .. "/named.lua").name)
        assert.has_error(function() mb.ai("broken") end,
            "AI script 'broken' returned number; expected a function (game, params) -> move, "
            .. "or a table {name = ..., fn = ...}")
        assert.has_error(function() mb.ai("syntax") end)
        assert.has_error(function() mb.ai("no_such_ai") end,
            "AI script 'no_such_ai' not found (looked in the built-in scripts and in mb.path; "
            .. "add a directory with -I DIR or MARUBATSU_PATH)")
        assert.has_error(function() mb.ai(42) end)
        table.remove(mb.path)
        os.execute("rm -rf " .. dir)
    end)

    it("refuse binary chunks", function()
        local path = os.tmpname() .. ".lua"
        local f = io.open(path, "wb")
        f:write(string.dump(function() return function() return 0 end end))
        f:close()
        assert.has_error(function() mb.ai(path) end)
        os.remove(path)
    end)
end)

describe("edge cases of the API", function()
    it("refuse a mark pattern that cannot be", function()
        assert.has_error(function() mb.markpat_index(2, 2, 3) end)
    end)

    it("accept integral floats, refuse fractions", function()
        assert.are.equal(3, mb.Marubatsu{width = 3.0}.width)
        assert.has_error(function() mb.Marubatsu{width = 3.5} end,
            "bad option 'width' to 'Marubatsu' (integer expected, got 3.5)")
        assert.has_error(function() mb.Marubatsu{height = 1 / 0} end,
            "bad option 'height' to 'Marubatsu' (integer expected, got inf)")
        assert.has_error(function() mb.Marubatsu{k = 1e20} end,
            "bad option 'k' to 'Marubatsu' (integer expected, got 1e+20)")
        assert.has_error(function() mb.Marubatsu{width = 0 / 0} end,
            "bad option 'width' to 'Marubatsu' (integer expected, got nan)")
        mb.seed(2.0)
        local a = mb.getrandbits(32)
        mb.seed(2)
        assert.are.equal(a, mb.getrandbits(32))
    end)

    it("make unseeded streams", function()
        local r = mb.Random()
        local v = r:random()
        assert.is_true(v >= 0 and v < 1)
        assert.are.equal(2, r:draws())
    end)

    it("take AIs as tables and calls without params", function()
        local ai = mb.ai({name = "first", fn = function(g) return g:calc_legal_moves()[1] end})
        assert.are.equal("first", ai.name)
        assert.are.equal(0, ai(mb.Marubatsu()))
        local ai3 = mb.ai("ai3")
        assert.are.equal(4, ai3.fn(mb.Marubatsu())) -- nil params, straight to fn
        assert.has_error(function() mb.NO_PARAMS.rand = false end)
    end)

    it("name the AI and the position when a match meets an illegal move", function()
        local centre = mb.make_ai("centre", function() return 4 end)
        local ok, err = pcall(mb.ai_match, {ai = {centre, "ai2"}, match_num = 1, quiet = true})
        assert.is_false(ok)
        assert.truthy(err:find("centre %(o%) did not play a legal move in position"))
        assert.truthy(err:find("square 4 is occupied"))
        assert.has_error(function() mb.play{} end, "bad argument #1 to 'play' (table {ai = {A, B}, ...} expected)")
        assert.has_error(function() mb.ai_match{ai = {"ai2"}} end)
    end)

end)

describe("analyses", function()
    it("are not changed by later calls of the AI", function()
        local g = mb.Marubatsu()
        local ai2 = mb.ai("ai2")
        local a = ai2(g, {analyze = true})
        g:move(4)
        assert.are.equal(0, ai2(g, {rand = false}))
        assert.are.equal(9, #a.candidate)
        assert.are.same({0, 3, 6, 1, 4, 7, 2, 5, 8}, a.candidate)
    end)
end)
