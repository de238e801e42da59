-- hostile: a search whose Lua evaluator never returns, and catches the
-- budget's error with pcall at every leaf. The whole search runs in one
-- protected call, so the error of the budget ends it at the first leaf
-- after the budget ran out: the player's deadline stops it ("time"), or
-- an instruction budget ("instructions").
local mb = require "marubatsu"
return function(game)
    local g = mb.Marubatsu()
    mb.search_abs_dls(g, {maxdepth = 9, eval = function()
        while true do pcall(function() while true do end end) end
    end})
    return game:calc_legal_moves()[1]
end
