-- hostile: the host library (directories, worker processes, journals,
-- the CPU count) is not reachable: neither require "marubatsu.host" nor
-- mb.mkdir exists. Nothing appears on the host ("error: ...").
local mb = require "marubatsu"
return function(game)
    pcall(require, "marubatsu.host")
    for _, f in ipairs {"mkdir", "tourney_run", "cpu_count", "journal_format", "tournament_main"} do
        if mb[f] ~= nil then return -1 end -- exposed: an illegal move says so
    end
    mb.mkdir("/tmp/marubatsu_sandbox_escaped_dir")
    return game:calc_legal_moves()[1]
end
