-- hostile: a pattern with catastrophic backtracking (string.find runs in C,
-- where no budget can stop it): refused before it runs, also as a string
-- method and through gmatch/gsub/match: "error: ... worst case ...".
return function(game)
    local s = ("a"):rep(20000)
    for _, f in ipairs {
        function() return s:find(".-.-.-.-b") end,
        function() return string.match(s, "(a*)*b") end,
        function() for _ in s:gmatch("a-a-a-b") do end end,
        function() return s:gsub("(.-)%1b", "") end,
    } do
        local ok, err = pcall(f)
        if ok then return -1 end -- a sign the bound failed: an illegal move
        if not tostring(err):find("worst case", 1, true) then error(err, 0) end
    end
    s:find(".-.-.-.-b") -- unprotected: the error ends the move
end
