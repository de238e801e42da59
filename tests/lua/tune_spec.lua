-- tune_spec.lua: tunable parameters and host.tune (issue 27). Checks:
-- mb.make_ai's tune field (checked and copied: integer or real by the
-- Lua types; the names then taken as parameters; every kind of bad entry
-- refused with a message naming the AI, the parameter and the problem; at
-- most 256 parameters); a sandboxed script's declaration read out of its
-- state by player:tune (plain copies; a script whose declaration spins is
-- stopped by its budget, and one declaring too many parameters cannot
-- load); host.tune on the synthetic AI tests/tune/peak.lua (strongest at
-- x = 5): from 3 steps away it ends within 1 step for three seeds, the
-- same values with jobs = 1 and 2, start values from the player spec, --start and
-- start_scale, an integer parameter rounded when played; and its refusals
-- ({exit = 2}: no declaration, an unknown or repeated parameter, an
-- unknown SPSA constant, a player option in the player spec).
local mb = rawget(_G, "mb") or require "marubatsu"
local host = require "marubatsu.host"
local H = dofile("tests/lua/helpers.lua")

local PEAK = "tests/tune/peak.lua"
local function noop() return 1 end

local function tune(t)
    t.player = t.player or PEAK
    t.quiet = true
    t.jobs = t.jobs or 1
    if t.confirm_games == nil then t.confirm_games = 0 end
    return host.tune(t)
end

-- the {exit =, message =} error of f
local function refusal(f)
    local ok, err = pcall(f)
    assert.is_false(ok)
    assert.are.equal("table", type(err))
    return err.exit, err.message
end

describe("mb.make_ai's tune field", function()
    it("is checked and copied: integers and reals by their Lua types", function()
        local decl = {a = {default = 40, min = 0, max = 200, step = 8},
            b = {default = 0.5, min = 0, max = 1, step = 0.05}}
        local ai = mb.make_ai("t", noop, {params = {"depth"}, tune = decl})
        assert.are.same({default = 40, min = 0, max = 200, step = 8, integer = true}, ai.tune.a)
        assert.are.same({default = 0.5, min = 0, max = 1, step = 0.05, integer = false}, ai.tune.b)
        decl.a.default = 1 -- a copy: later changes to the script's table do not reach it
        assert.are.equal(40, ai.tune.a.default)
        -- the names are parameters the AI takes; others still refused
        assert.has_no.errors(function() mb.check_params(ai, {a = 3, b = 0.1, depth = 2}) end)
        assert.has_error(function() mb.check_params(ai, {c = 1}) end)
        assert.is_false(mb.make_ai("u", noop,
            {tune = {x = {default = 1.0, min = 0, max = 2, step = 1}}}).tune.x.integer)
    end)

    it("refuses bad entries, naming the AI, the parameter and the problem", function()
        local cases = {
            {{x = 5}, "tune.x: a table {default =, min =, max =, step =} expected"},
            {{x = {default = 1, min = 0, max = 2}}, "tune.x: 'step' must be a finite number, not nil"},
            {{x = {default = "1", min = 0, max = 2, step = 1}}, "'default' must be a finite number, not string"},
            {{x = {default = 0 / 0, min = 0, max = 2, step = 1}}, "'default' must be a finite number"},
            {{x = {default = 1, min = 0, max = math.huge, step = 1}}, "'max' must be a finite number, not inf"},
            {{x = {default = 1, min = 3, max = 2, step = 1}}, "tune.x: min 3 is above max 2"},
            {{x = {default = 5, min = 0, max = 2, step = 1}}, "tune.x: default 5 is outside [0, 2]"},
            {{x = {default = 1, min = 0, max = 2, step = 0}}, "tune.x: step must be above 0, not 0"},
            {{x = {default = 1, min = 0, max = 2, step = 1, colour = 1}}, "unknown key 'colour'"},
            {{["bad name"] = {default = 1, min = 0, max = 2, step = 1}}, "must be a Lua identifier, not 'bad name'"},
            {{[1] = {default = 1, min = 0, max = 2, step = 1}}, "must be a Lua identifier, not '1'"},
        }
        for _, c in ipairs(cases) do
            local ok, err = pcall(mb.make_ai, "my_ai", noop, {tune = c[1]})
            assert.is_false(ok)
            assert.truthy(tostring(err):find("make_ai: my_ai: ", 1, true), tostring(err))
            assert.truthy(tostring(err):find(c[2], 1, true), tostring(err) .. " lacks " .. c[2])
        end
        assert.has_error(function() mb.make_ai("my_ai", noop, {tune = 3}) end,
            "make_ai: my_ai: tune must be a table of parameters, not number")
        local many = {}
        for i = 1, 257 do many["p" .. i] = {default = 0, min = 0, max = 1, step = 1} end
        local ok, err = pcall(mb.make_ai, "my_ai", noop, {tune = many})
        assert.is_false(ok)
        assert.truthy(tostring(err):find("at most 256 parameters", 1, true))
    end)
end)

describe("player:tune (a sandboxed script's declaration)", function()
    local dir = H.dir_maker()
    it("copies the declaration out of the script's state", function()
        local p = assert(mb.sandbox.load(PEAK))
        assert.are.same({x = {default = 0.0, min = -10.0, max = 20.0, step = 1.0, integer = false}}, p:tune())
        p:close()
        local path = dir() .. ".lua"
        H.write_file(path, 'return mb.make_ai("plain", function(g) return g:calc_legal_moves()[1] end)')
        p = assert(mb.sandbox.load(path))
        assert.are.same({}, p:tune())
        p:close()
    end)

    it("cannot be made to spin or to declare too much", function()
        -- a declaration that spins in make_ai's check: the load's budget stops it
        local path = dir() .. ".lua"
        H.write_file(path, [[
            local spin = setmetatable({}, {__index = function() while true do end end})
            return mb.make_ai("spin", function() end, {tune = {x = spin}})]])
        local p, msg = mb.sandbox.load(path, {time = 1})
        assert.is_nil(p)
        assert.truthy(tostring(msg):find("time", 1, true), tostring(msg))
        path = dir() .. ".lua"
        H.write_file(path, [[
            local t = {}
            for i = 1, 300 do t["p" .. i] = {default = 0, min = 0, max = 1, step = 1} end
            return mb.make_ai("many", function() end, {tune = t})]])
        p, msg = mb.sandbox.load(path)
        assert.is_nil(p)
        assert.truthy(tostring(msg):find("at most 256 parameters", 1, true), tostring(msg))
    end)
end)

describe("host.tune", function()
    it("finds the synthetic AI's peak from 3 steps away, for three seeds", function()
        for _, seed in ipairs{1, 2, 3} do
            local res = tune{start = "x=2", iterations = 40, pairs = 16, seed = seed}
            assert.is_true(math.abs(res.theta.x - 5) <= 1, ("seed %d ended at %s"):format(seed, res.theta.x))
            assert.are.equal(40, res.iterations)
            assert.are.equal(40 * 32, res.games)
        end
        local res = tune{start = "x=8", iterations = 40, pairs = 16, seed = 4}
        assert.is_true(math.abs(res.theta.x - 5) <= 1, "from above: " .. res.theta.x)
    end)

    it("gives the same values with jobs = 1 and jobs = 2", function()
        local a = tune{start = "x=2", iterations = 6, pairs = 8, jobs = 1}
        local b = tune{start = "x=2", iterations = 6, pairs = 8, jobs = 2}
        assert.are.equal(a.theta.x, b.theta.x)
        assert.are.equal(a.spec, b.spec)
    end)

    it("starts from the player spec value, --start or start_scale", function()
        assert.are.equal(3, tune{player = PEAK .. ":x=3", iterations = 1, pairs = 1}.start.x)
        assert.are.equal(-4, tune{start = "x=-4", iterations = 1, pairs = 1}.start.x)
        -- clipped into the declared range
        assert.are.equal(20, tune{start = {x = 99}, iterations = 1, pairs = 1}.start.x)
        assert.are.equal(0, tune{start_scale = 0.5, iterations = 1, pairs = 1}.start.x)
    end)

    it("rounds an integer parameter when it is played", function()
        local path = H.dir_maker()() .. ".lua"
        H.write_file(path, [[
            return mb.make_ai("int", function(game, params)
                assert(math.type(params.n) == "integer", "n is " .. tostring(params.n))
                return game:calc_legal_moves()[1]
            end, {params = {}, tune = {n = {default = 10, min = 0, max = 20, step = 3}}})]])
        local res = tune{player = path, iterations = 3, pairs = 2}
        assert.are.equal("integer", math.type(res.theta.n))
        assert.truthy(res.spec:match(":n=%d+$"), res.spec)
    end)

    it("keeps a fixed parameter of the player spec in every game and in the journal", function()
        local path = H.dir_maker()() .. ".lua"
        H.write_file(path, [[
            return mb.make_ai("fixed", function(game, params)
                assert(params.depth == 2, "depth is " .. tostring(params.depth))
                return game:calc_legal_moves()[1]
            end, {params = {"depth"}, tune = {n = {default = 10, min = 0, max = 20, step = 3}}})]])
        local out = H.dir_maker()()
        local res = tune{player = path .. ":depth=2", iterations = 2, pairs = 2, out = out}
        assert.truthy(res.spec:find(":depth=2,n=%d+$"), res.spec)
        assert.truthy(H.read_file(out .. "/tune.tsv"):find("H\tplayer\t" .. path .. ":depth=2\n", 1, true))
    end)

    it("refuses what it cannot tune, with exit status 2", function()
        local cases = {
            {{player = "ai2"}, "ai2 declares no tunable parameters"},
            {{params = "x,y"}, "has no tunable parameter 'y' (it has: x)"},
            {{params = "x,x"}, "parameter 'x' given twice"},
            {{start = "y=1"}, "--start names 'y', which is not tuned"},
            {{start = "x=big"}, "start: 'x=big' is not NAME=NUMBER"},
            {{spsa = "q=1"}, "unknown constant 'q' (known: r, c, A, alpha, gamma)"},
            {{spsa = "r=0"}, "r and c must be above 0"},
            {{player = PEAK .. ":name=me"}, "'name' is a tournament's player option"},
            {{player = "no_such_ai"}, "no_such_ai"},
            {{iterations = 0}, "iterations must be an integer from 1"},
            {{resume = true}, "resume needs out = DIR"},
            {{colour = 1}, "unknown option 'colour'"},
        }
        for _, c in ipairs(cases) do
            local status, msg = refusal(function() tune(c[1]) end)
            assert.are.equal(2, status, msg)
            assert.truthy(msg:find(c[2], 1, true), msg .. " lacks " .. c[2])
        end
    end)
end)
