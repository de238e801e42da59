-- scripts/lib/wrappers.lua: what an AI is, and the series' two wrappers
-- that turn a rule into an AI (ais.md §3): ai_by_candidate and ai_by_score.
-- Embedded in the program and in marubatsu.so; runs once with mb as its
-- argument and adds mb.make_ai, mb.is_ai, mb.ai_by_candidate, mb.ai_by_score.
--
-- An AI is a table {name =, fn = function(game, params) -> move, ...},
-- callable as ai(game, params). params is a table (nil means {}) with the
-- wrappers' options and the AI's own parameters:
--   rand (default true)  pick randomly among the best moves (one mb.choice,
--                        even over a single move) instead of taking the first
--   analyze              return {candidate =, score_by_move =, moves =}
--                        instead of a move, drawing nothing
--   debug                let the AI print what it thinks
--   calc_score           (ai_by_score) return the evaluation of the game itself
--   minimax              (ai_by_score, with calc_score) turn the mover-view
--                        score into 〇's view: negated when 〇 is to move
local mb, private = ...

local choice = mb.choice
-- The params of a call that gives none: shared, so read-only. The wrappers
-- take a fast path for it that reads none of its (absent) keys: a match
-- gives it to every move of an AI called without params.
local EMPTY = setmetatable({}, {__newindex = function() error("params are read-only", 2) end})
mb.NO_PARAMS = EMPTY

local AI = {} -- no __index: a sandboxed script must not reach this table
AI.__tostring = function(self) return "AI " .. self.name end

-- mb.check_params(ai, params [, level]) -> params: an AI that lists its
-- parameters (ai.params, a set: every built-in AI does) refuses any other
-- key with "AI NAME: unknown parameter 'KEY' (known: ...)"; an AI without
-- a list takes anything. Called by ai(game, params), the matches and the
-- tournaments (once per player), not by ai.fn itself. The two keys a time
-- control gives every AI (timelimit, time_left: scripts/lib/timecontrol.lua)
-- are always taken, so that an AI handing its params on to another one
-- keeps working in a timed game.
local TIME_KEYS = {timelimit = true, time_left = true}
function mb.check_params(ai, params, level)
    local known = ai.params
    if known == nil or params == nil or params == EMPTY then return params end
    for k in pairs(params) do
        if not known[k] and not TIME_KEYS[k] then
            local list = {}
            for name in pairs(known) do list[#list + 1] = name end
            table.sort(list)
            error(("AI %s: unknown parameter '%s' (known: %s)"):format(ai.name, tostring(k),
                #list > 0 and table.concat(list, ", ") or "none"), (level or 1) + 1)
        end
    end
    return params
end
local check_params = mb.check_params

AI.__call = function(self, game, params)
    if params ~= nil and self.params ~= nil then check_params(self, params, 2) end
    return self.fn(game, params or EMPTY)
end

-- a list of names, or a set, as a set
local function as_set(list)
    local set = {}
    for k, v in pairs(list) do
        if type(k) == "number" then set[v] = true else set[k] = true end
    end
    return set
end

-- The tunable parameters an AI declares (fields.tune of make_ai, read by
-- `marubatsu tune`): {NAME = {default =, min =, max =, step =}, ...},
-- checked and copied into plain tables (each entry also gets integer =
-- true when default, min and max are all Lua integers). NAME is a Lua
-- identifier; min <= default <= max, all finite; step > 0 is the size of
-- the perturbation at the end of a tuning run (docs/lua-api.md §5.15).
local TUNE_MAX = 256 -- tunable parameters an AI may declare
local function tune_entry(ai_name, name, e)
    local function bad(what)
        error(("make_ai: %s: tune.%s: %s"):format(ai_name, name, what), 4)
    end
    if type(e) ~= "table" then bad("a table {default =, min =, max =, step =} expected") end
    local out = {}
    for _, key in ipairs{"default", "min", "max", "step"} do
        local v = e[key]
        if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge then
            bad(("'%s' must be a finite number, not %s"):format(key, type(v) == "number" and tostring(v) or type(v)))
        end
        out[key] = v
    end
    for key in pairs(e) do
        if out[key] == nil then
            bad(("unknown key '%s' (known: default, min, max, step)"):format(tostring(key)))
        end
    end
    if out.min > out.max then bad(("min %s is above max %s"):format(out.min, out.max)) end
    if out.default < out.min or out.default > out.max then
        bad(("default %s is outside [%s, %s]"):format(out.default, out.min, out.max))
    end
    if out.step <= 0 then bad(("step must be above 0, not %s"):format(out.step)) end
    out.integer = math.type(out.default) == "integer" and math.type(out.min) == "integer"
        and math.type(out.max) == "integer"
    return out
end

local function tune_of(ai_name, tune)
    if type(tune) ~= "table" then
        error(("make_ai: %s: tune must be a table of parameters, not %s"):format(ai_name, type(tune)), 3)
    end
    local out, n = {}, 0
    for name, e in pairs(tune) do
        n = n + 1
        if n > TUNE_MAX then error(("make_ai: %s: tune: at most %d parameters"):format(ai_name, TUNE_MAX), 3) end
        if type(name) ~= "string" or not name:match("^[%a_][%w_]*$") then
            error(("make_ai: %s: tune: a parameter name must be a Lua identifier, not '%s'")
                :format(ai_name, tostring(name)), 3)
        end
        out[name] = tune_entry(ai_name, name, e)
    end
    return out
end

-- mb.make_ai(name, fn [, fields]) -> AI: fn(game, params) -> move becomes an
-- AI named name; fields (kind, eval, candidate, defaults, ...) are copied in.
-- fields.params (a list of names) makes the AI refuse other parameters
-- (mb.check_params); fields.tune declares tunable parameters (above),
-- which it then also takes.
function mb.make_ai(name, fn, fields)
    assert(type(name) == "string", "make_ai: the name must be a string")
    assert(type(fn) == "function", "make_ai: fn must be a function (game, params) -> move")
    local ai = {name = name, fn = fn}
    for k, v in pairs(fields or {}) do
        if ai[k] == nil then ai[k] = v end
    end
    if type(ai.params) == "table" then ai.params = as_set(ai.params) end
    if ai.tune ~= nil then
        ai.tune = tune_of(name, ai.tune)
        if ai.params then
            for k in pairs(ai.tune) do ai.params[k] = true end
        end
    end
    return setmetatable(ai, AI)
end

-- the wrappers' own parameters, taken by every AI they make
local CANDIDATE_PARAMS = {"rand", "analyze", "debug"}
local SCORE_PARAMS = {"rand", "analyze", "debug", "calc_score", "minimax"}

-- the wrapper's parameters and the rule's own (nil: take anything)
local function params_of(common, own)
    if own == nil then return nil end
    local set = as_set(own)
    for _, k in ipairs(common) do set[k] = true end
    return set
end

-- mb.is_ai(x) -> true if x is an AI made by make_ai.
function mb.is_ai(x) return getmetatable(x) == AI end

-- With params.debug the wrappers show their work on stdout: the position,
-- then the candidates (or every move's score) and the best moves.
local function squares(game, moves)
    local out = {}
    for i, m in ipairs(moves) do out[i] = game:excel(m) end
    return table.concat(out, " ")
end

local function debug_candidates(name, game, candidate)
    io.write(tostring(game), name, " candidates: ", squares(game, candidate), "\n")
end

local function debug_scores(name, game, moves, score_by_move, bestlist)
    io.write(tostring(game))
    for _, m in ipairs(moves) do
        io.write(("%s %s score %s\n"):format(name, game:excel(m), tostring(score_by_move[m])))
    end
    io.write(name, " best: ", squares(game, bestlist), "\n")
end

-- mb.ai_by_candidate(func, name [, params]) -> AI (ais.md §3.1).
-- func(game, params) returns the candidate moves, in legal order; the AI
-- picks one. func may return a table it reuses from call to call: the AI
-- only reads it, and the analysis gets a copy. params lists the rule's own
-- parameter names: with it the AI refuses any key but those and rand,
-- analyze, debug.
function mb.ai_by_candidate(func, name, own)
    local function fn(game, params)
        if params == nil or params == EMPTY then
            local candidate = func(game, EMPTY)
            return choice(candidate)
        end
        local candidate = func(game, params)
        if params.debug then debug_candidates(name, game, candidate) end
        -- a copy: the rule may hand back a table it reuses (ai2 does)
        if params.analyze then return {candidate = table.move(candidate, 1, #candidate, 1, {})} end
        if params.rand == false then return candidate[1] end
        return choice(candidate)
    end
    return mb.make_ai(name, fn, {kind = "candidate", candidate = func,
        params = params_of(CANDIDATE_PARAMS, own)})
end

-- Score every legal move of game by eval (mover-view, on the child), in
-- legal order; returns the best score and the moves that reach it, in legal
-- order. It is this loop, in C (l_game.c), which costs a child less than a
-- Lua loop over game:children() does:
--   local best, bestlist, n = -huge, {}, 0
--   for m in game:children() do
--       local s = eval(game, params)
--       if score_by_move then score_by_move[m] = s end
--       if s > best then best, n = s, 1; bestlist = {m}
--       elseif s == best then n = n + 1; bestlist[n] = m end
--   end
--   return best, bestlist
-- with the same restoring of the game at the end, also when eval raises.
-- A fifth argument is a table to refill as bestlist instead of a new one.
local score_moves = private.score_children

-- The function of every AI made by ai_by_score -> its eval (weak keys): a
-- search given such an AI (or its function) as eval_func calls the eval
-- at its leaves itself, with the calc_score branch's minimax done in C
-- (l_search.c), which scores the same without a second Lua call per leaf.
private.score_evals = setmetatable({}, {__mode = "k"})

-- mb.ai_by_score(eval, name [, params]) -> AI (ais.md §3.2). eval(game,
-- params) scores the position after the AI's move from the AI's point of
-- view (higher is better for the side that just moved); the AI plays a
-- best-scoring move. An error in eval leaves the game as it was before the
-- decision (the children() loop closes on errors too). params lists the
-- evaluator's own parameter names: with it the AI refuses any key but
-- those and rand, analyze, debug, calc_score, minimax.
function mb.ai_by_score(eval, name, own)
    -- the best moves of a plain decision, refilled on every call: only
    -- choice reads them, before any other decision can run
    local best_moves = {}
    local function fn(game, params)
        if params == nil or params == EMPTY then
            local _, bestlist = score_moves(eval, game, EMPTY, nil, best_moves)
            return choice(bestlist)
        end
        if params.calc_score then
            local s = eval(game, params)
            if params.minimax and game.turn == "o" then s = -s end
            return s
        end
        if params.analyze or params.debug then
            local score_by_move = {}
            local best, bestlist = score_moves(eval, game, params, score_by_move)
            local moves = game:calc_legal_moves()
            if params.debug then debug_scores(name, game, moves, score_by_move, bestlist) end
            if params.analyze then
                return {candidate = bestlist, score_by_move = score_by_move, moves = moves,
                    score = best}
            end
            if params.rand == false then return bestlist[1] end
            return choice(bestlist)
        end
        local _, bestlist = score_moves(eval, game, params, nil, best_moves)
        if params.rand == false then return bestlist[1] end
        return choice(bestlist)
    end
    private.score_evals[fn] = eval
    return mb.make_ai(name, fn, {kind = "score", eval = eval, params = params_of(SCORE_PARAMS, own)})
end
