-- ai4: the centre if it is empty; otherwise the first empty corner in the
-- order (0,0), (2,0), (0,2), (2,2); otherwise any legal move (ais.md §4).
-- Generalised: the centre is the middle square when width and height are
-- odd (an error otherwise), the corners are (0,0), (w-1,0), (0,h-1),
-- (w-1,h-1) in that order.
local mb = require "marubatsu"

local function candidates(game)
    local w, h = game.width, game.height
    if w % 2 == 0 or h % 2 == 0 then
        error(("ai4: the centre rule needs odd width and height (board is %dx%d)")
            :format(w, h), 0)
    end
    local c = game:xy_to_move(w // 2, h // 2)
    if game:getmark_by_move(c) == "." then return {c} end
    local corners = {{0, 0}, {w - 1, 0}, {0, h - 1}, {w - 1, h - 1}}
    for _, xy in ipairs(corners) do
        if game:getmark(xy[1], xy[2]) == "." then return {game:xy_to_move(xy[1], xy[2])} end
    end
    return game:calc_legal_moves()
end

return mb.ai_by_candidate(candidates, "ai4")
