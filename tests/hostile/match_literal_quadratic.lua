-- hostile: string.match with a long pattern without magic characters (1 MB
-- of "a" then "b") on 2 MB of "a": the matcher compares up to #s * #p
-- bytes in C (here 2e12); the pattern bound counted such a pattern as
-- #s + 1 steps and let it run. It now counts (#s + 1) * (#p + 1): refused
-- before it runs, "error: match: the pattern's worst case ...".
return function(game)
    local s = ("a"):rep(2000000)
    local p = ("a"):rep(1000000) .. "b"
    return s:match(p) or game:calc_legal_moves()[1]
end
