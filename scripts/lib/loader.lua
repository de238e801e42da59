-- scripts/lib/loader.lua: AIs by name (mb.ai, mb.reload), and the two
-- pieces every loader of AI scripts shares (private.as_ai,
-- private.resolve: the sandbox of scripts/lib/sandbox_env.lua and the
-- tournaments' players use them too). Embedded; runs once with mb and the
-- library's private table as its arguments.
--
-- mb.ai(spec) accepts an AI (returned as is), a function (game, params) ->
-- move (wrapped, named "function"), a table {name =, fn =} (made an AI),
-- a script name ("ai14s": looked up by
-- mb.loadscript in the built-in scripts, then mb.path) or a file path
-- ("my_ai.lua"). A script returns an AI, a function, or a table
-- {name =, fn =}. Loaded scripts are cached by spec; mb.reload forgets them.
local mb, private = ...

local loaded = {}

local function basename(spec)
    return ((spec:match("([^/]+)$") or spec):gsub("%.lua$", ""))
end
private.basename = basename

-- private.as_ai(value, spec) -> AI: what a script returned, made an AI (an
-- AI, a function, or a table {name =, fn =}), else an error naming spec.
local function as_ai(value, spec)
    if mb.is_ai(value) then return value end
    if type(value) == "function" then return mb.make_ai(basename(spec), value) end
    if type(value) == "table" and type(value.fn) == "function" then
        return mb.make_ai(value.name or basename(spec), value.fn, value)
    end
    error(("AI script '%s' returned %s; expected a function (game, params) -> move, "
        .. "or a table {name = ..., fn = ...}"):format(spec, type(value)), 0)
end
private.as_ai = as_ai

-- private.resolve(spec [, env]) -> chunk, where, origin | nil, message:
-- the one resolver of AI specs (mb.loadscript). origin is "built in" (the
-- built-in directory or the copy embedded in the binary), "path" (found
-- in a directory of mb.path) or "file" (a path given as such): whoever
-- decides trust decides it from origin.
local loadscript = mb.loadscript
function private.resolve(spec, env) return loadscript(spec, env) end

-- An error's text for a person: without a leading position inside the
-- program's own Lua (scripts/NAME.lua:N:, scripts/lib/NAME.lua:N:), which
-- names our code, not theirs; a position in the user's file stays
-- (/tmp/bad.lua:2: unexpected symbol near <eof>).
function private.message(err)
    return (tostring(err):gsub("^scripts/[%w_/]+%.lua:%d+: ", ""))
end

-- private.fail(msg [, level]): raise msg for whoever called the function
-- that calls fail (level 1, the default), or further up; level 0: the
-- message alone, without a position. The library files' one way to refuse.
function private.fail(msg, level) error(msg, level == 0 and 0 or (level or 1) + 1) end

-- private.is_builtin(spec) -> true when the script named spec is one of
-- the built-in AIs (so trusted by default).
function private.is_builtin(spec)
    local chunk, _, origin = loadscript(spec)
    return chunk ~= nil and origin == "built in"
end

-- AI specs that are not script names: an AI, a sandboxed player (from
-- mb.sandbox.load), a function, a table. -> AI | nil
function private.ai_of_value(spec)
    if mb.is_ai(spec) then return spec end
    -- a sandboxed player (mb.sandbox.load: not in a sandbox's own library)
    local sandbox_c = private.sandbox_c
    if sandbox_c and private.sandboxed_ai and getmetatable(spec) == sandbox_c.Player then
        return private.sandboxed_ai(spec)
    end
    if type(spec) == "function" then return mb.make_ai("function", spec) end
    if type(spec) == "table" and type(spec.fn) == "function" then
        return mb.make_ai(spec.name or "table", spec.fn, spec)
    end
end

-- mb.ai(spec) -> AI
function mb.ai(spec)
    local ai = private.ai_of_value(spec)
    if ai then return ai end
    if type(spec) ~= "string" then
        error(("bad argument #1 to 'ai' (AI name, file, function or AI expected, got %s)")
            :format(type(spec)), 2)
    end
    ai = loaded[spec]
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
