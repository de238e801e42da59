#!/bin/sh
# tests/lua/run.sh: run the busted specs of tests/lua/ and print the
# project's "N passed, N failed" line (from busted's TAP output).
# Usage: sh tests/lua/run.sh so             stock lua5.4 + build/marubatsu.so
#        sh tests/lua/run.sh PROGRAM        busted inside PROGRAM ("run"), e.g.
#                                           build/asan/marubatsu
set -u
cd "$(dirname "$0")/../.." || exit 2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
specs=$(ls tests/lua/*_spec.lua)
if [ "$1" = so ]; then
    LUA_CPATH="build/?.so;;" lua5.4 /usr/bin/busted -o TAP $specs >"$out" 2>&1
else
    "$1" run /usr/bin/busted -o TAP $specs >"$out" 2>&1
fi
rc=$?
pass=$(grep -c '^ok ' "$out")
fail=$(grep -c '^not ok ' "$out")
if [ "$fail" -ne 0 ] || [ "$rc" -ne 0 ]; then
    grep -v '^ok ' "$out" | head -n 80
    [ "$fail" -eq 0 ] && fail=1
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
