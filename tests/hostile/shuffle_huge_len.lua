-- hostile: mb.shuffle of a table whose __len says 2^50: 2^50 draws and
-- swaps in one C loop; in a sandbox its steps count against the budgets:
-- "time", or "instructions".
local mb = require "marubatsu"
return function(game)
    mb.shuffle(setmetatable({}, {__len = function() return 1 << 50 end}))
    return game:calc_legal_moves()[1]
end
