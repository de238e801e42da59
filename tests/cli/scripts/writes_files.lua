-- writes_files.lua: a user AI that tries to write a file, then plays the
-- first empty square; only trusted (--no-sandbox) does it get that far.
return function(g)
    local f = io.open("/dev/null", "w")
    f:write("x")
    f:close()
    return g:calc_legal_moves()[1]
end
