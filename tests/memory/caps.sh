#!/bin/sh
# tests/memory/caps.sh: every long search stays under its memory cap. Each
# of the calls the REPL could not stop before (issue 25) runs in its own
# process for a few seconds with a small `hash` (8 MB, so that the cap is
# reached quickly), and its peak resident memory (VmHWM of
# /proc/self/status, read by the process itself at the end) must stay under
# the cap + 32 MB; where the record can say so, it must say that the cap
# was reached (hash_full), so that the test does test the cap:
#   mb.search_iddfs on 7x6 k4 after D1 (two tables of half the cap each)
#   mb.solve on 8x8 k5 (stopped by its time limit)
#   mb.mcts{hash = 8}:search on 9x9 for a time
# and once with the default cap (64 MB), mb.search_iddfs for 12 s: under
# 96 MB. A release build only: a sanitizer's shadow memory is no measure.
# Usage: sh tests/memory/caps.sh PROGRAM      (prints "N passed, N failed")
set -u
prog=$1
pass=0
fail=0

# run NAME CAP_MB SECONDS CODE [full]: CODE (Lua, with SECONDS in `secs`)
# returns whether the cap was reached; check the run's peak against CAP_MB
# + 32 and, with `full`, that the cap was reached
run() {
    name=$1 cap=$2 secs=$3 code=$4 want=${5:-}
    out=$("$prog" -e "secs = $secs
local function peak() return tonumber(io.open('/proc/self/status'):read('a'):match('VmHWM:%s*(%d+)')) end
local full = (function() $code end)()
print(full and 'full' or '-', peak() // 1024)" 2>&1)
    set -- $out
    if [ $# -ne 2 ]; then
        fail=$((fail + 1))
        echo "FAIL $name: $out"
        return
    fi
    limit=$((cap + 32))
    if [ "$2" -lt "$limit" ]; then
        pass=$((pass + 1))
        echo "ok $name: peak $2 MB (cap $cap MB + 32)"
    else
        fail=$((fail + 1))
        echo "FAIL $name: peak $2 MB, over $limit MB"
    fi
    if [ "$want" = full ]; then
        if [ "$1" = full ]; then
            pass=$((pass + 1))
            echo "ok $name: the record says the cap was reached"
        else
            fail=$((fail + 1))
            echo "FAIL $name: the cap was not reached (hash_full missing): nothing tested"
        fi
    fi
}

run "search_iddfs 7x6, hash 8" 8 6 "
local big = mb.Marubatsu{width = 7, height = 6, k = 4}
big:move(24)
local r = mb.search_iddfs(big, {timelimit = secs, hash = 8, analyze = true})
for _, it in ipairs(r) do if it.hash_full then return true end end" full

run "solve 8x8 k5, hash 8" 8 6 "
local ok, err = pcall(mb.solve, mb.Marubatsu{width = 8, height = 8, k = 5}, {timelimit = secs, hash = 8})
assert(not ok and tostring(err):find('time limit'), err)"

run "mcts 9x9, hash 8" 8 6 "
local s = mb.mcts{hash = 8}
local _, info = s:search(mb.Marubatsu{width = 9, height = 9, k = 5}, {time = secs})
return info.hash_full" full

run "search_iddfs 7x6, the default hash (64)" 64 12 "
local big = mb.Marubatsu{width = 7, height = 6, k = 4}
big:move(24)
mb.search_iddfs(big, {timelimit = secs})"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
