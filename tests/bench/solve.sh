#!/bin/sh
# solve.sh: make bench's timings of the game tree and the solver (issue 7):
# the full tree built, scored and tabled (`marubatsu tree --time`), and the
# published m,n,k values solved, each with its nodes and time.
# Usage: sh tests/bench/solve.sh PROGRAM
set -u
prog=$1
echo "game tree (build + score + best-move table, one process):"
"$prog" tree --quiet --time 2>&1 >/dev/null | sed 's/^/  /'
echo "solver (m,n,k): value, nodes, time"
for b in "3 3 3" "4 4 4" "5 4 4" "5 5 4" "6 4 4" "6 5 4"; do
    set -- $b
    "$prog" solve --width "$1" --height "$2" --k "$3" |
        awk -v b="($1,$2,$3)" -F': ' '/^value/ {v = $2} /^nodes/ {n = $2} /^time/ {t = $2}
            END {printf "  %-8s %-20s %12s nodes  %s\n", b, v, n, t}'
done
