-- An honest AI that keeps a large working set: params.live bytes in one
-- table that grows over its first moves and stays, and each move a search
-- tree of params.temp bytes that it drops after the move (dead data that
-- is old by the next move, which only a full collection frees), plus a
-- few big strings made by table.concat and string.rep (lauxlib's buffers,
-- which Lua's emergency collection does not retry). It plays the first
-- legal move. tests/lua/sandbox_spec.lua and tournament_spec.lua run it
-- under a memory cap a bit under twice live + temp: no move may be lost.
local keep, kept = {}, 0
local line = ("x"):rep(100)
return function(game, params)
    local live, temp = params.live, params.temp
    local grow = live // 3 + 1 -- the working set is built over three moves
    local target = math.min(live, kept + grow)
    while kept < target do
        keep[#keep + 1] = line .. #keep -- one string of about 150 bytes
        kept = kept + 150
    end
    local tree, bytes = {}, 0
    while bytes < temp do
        tree[#tree + 1] = {bytes, #tree, line .. bytes} -- about 250 bytes
        bytes = bytes + 250
        if #tree % 2000 == 0 then
            local parts = {}
            for i = 1, 100 do parts[i] = line end
            local text = table.concat(parts) .. ("y"):rep(10000)
            assert(#text == 20000)
        end
    end
    return game:calc_legal_moves()[1]
end
