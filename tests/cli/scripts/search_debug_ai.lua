-- An AI over ai_abs_dls with debug on: in the sandbox the search's debug
-- lines (mb.search_ai.root_answer) go through print, to stderr, so that
-- stdout stays the host's.
local dls = mb.ai("ai_abs_dls")
return function(game)
    return dls(game, {debug = true, rand = false})
end
