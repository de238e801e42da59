-- hostile: string.rep of an empty string (and separator) math.maxinteger
-- times: Lua made n empty copies in one C loop, which no budget could stop.
-- It now gives "" at once; then a repetition longer than the memory cap,
-- which is refused before anything is allocated: "memory".
return function(game)
    assert(string.rep("", math.maxinteger) == "")
    assert(("").rep("", math.maxinteger, "") == "")
    local s = string.rep("x", 1 << 40, ",") -- 2 TiB
    return #s -- not reached
end
