-- hostile: reaches for C modules: require "io" and package.loadlib must
-- fail; then require "lpeg", unprotected: "error: ... 'lpeg' ...".
return function(game, params)
    if pcall(require, "io") then return -1 end
    if pcall(function() return package.loadlib("liblua5.4.so", "luaopen_io") end) then return -1 end
    require "lpeg"
    return game:calc_legal_moves()[1]
end
