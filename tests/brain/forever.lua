-- forever.lua: an AI that never answers (tests/brain/run.sh): `marubatsu
-- brain` must still send a move in time, the fallback, with a MESSAGE.
return function(game)
    local n = 0
    while true do n = n + 1 end
end
