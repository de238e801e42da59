-- scripts/lib/loader.lua: AIs by name (mb.ai, mb.reload). Embedded; runs
-- once with mb as its argument.
--
-- mb.ai(spec) accepts an AI (returned as is), a function (game, params) ->
-- move (wrapped, named "function"), a table {name =, fn =} (made an AI),
-- a script name ("ai14s": looked up by
-- mb.loadscript in the built-in scripts, then mb.path) or a file path
-- ("my_ai.lua"). A script returns an AI, a function, or a table
-- {name =, fn =}. Loaded scripts are cached by spec; mb.reload forgets them.
local mb = ...

local loaded = {}

local function basename(spec)
    return (spec:match("([^/]+)$") or spec):gsub("%.lua$", "")
end

local function as_ai(value, spec)
    if mb.is_ai(value) then return value end
    if type(value) == "function" then return mb.make_ai(basename(spec), value) end
    if type(value) == "table" and type(value.fn) == "function" then
        return mb.make_ai(value.name or basename(spec), value.fn, value)
    end
    error(("AI script '%s' returned %s; expected a function (game, params) -> move, "
        .. "or a table {name = ..., fn = ...}"):format(spec, type(value)), 0)
end

-- mb.ai(spec) -> AI
function mb.ai(spec)
    if mb.is_ai(spec) then return spec end
    if type(spec) == "function" then return mb.make_ai("function", spec) end
    if type(spec) == "table" and type(spec.fn) == "function" then
        return mb.make_ai(spec.name or "table", spec.fn, spec)
    end
    if type(spec) ~= "string" then
        error(("bad argument #1 to 'ai' (AI name, file, function or AI expected, got %s)")
            :format(type(spec)), 2)
    end
    local ai = loaded[spec]
    if ai then return ai end
    local chunk, where = mb.loadscript(spec)
    if not chunk then error(where, 0) end
    ai = as_ai(chunk(spec, where), spec)
    loaded[spec] = ai
    return ai
end

-- mb.reload([spec]) -> AI | nil: read an edited script again (all of them
-- without an argument; they load again on next use).
function mb.reload(spec)
    if spec == nil then
        loaded = {}
        return
    end
    loaded[spec] = nil
    return mb.ai(spec)
end
