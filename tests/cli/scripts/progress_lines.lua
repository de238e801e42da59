-- tests/cli/scripts/progress_lines.lua: mb.ai_match's progress lines with
-- progress_interval = 0 (a line after every iteration), written to a
-- stand-in for io.stderr and printed on stdout with the times in brackets
-- as [T]; then what a bad progress mode and interval say.
local real = io.stderr
local lines = {}
io.stderr = {write = function(self, ...)
    for _, v in ipairs({...}) do lines[#lines + 1] = v end
    return self
end}
local ok, err = pcall(mb.ai_match, {ai = {"ai2", "ai4"}, match_num = 4, seed = 0, progress = "lines",
    progress_interval = 0, quiet = true})
io.stderr = real
assert(ok, err)
for line in table.concat(lines):gmatch("[^\n]+") do print((line:gsub(" %[[^]]*%]$", " [T]"))) end
print(select(2, pcall(mb.ai_match, {ai = {"ai2", "ai2"}, match_num = 1, progress = "bars"})))
print(select(2, pcall(mb.ai_match, {ai = {"ai2", "ai2"}, match_num = 1, progress = "lines", progress_interval = -1})))
