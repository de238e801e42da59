-- ai2s: every position scores 0 (ais.md §4), so all legal moves tie and the
-- AI picks uniformly among them exactly like ai2 (one mb.choice per move).
local mb = require "marubatsu"

local function eval()
    return 0
end

return mb.ai_by_score(eval, "ai2s", {})
