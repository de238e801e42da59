#!/bin/sh
# startup.sh: start-up time of `marubatsu -e ''` (median of 31 runs), and the
# REPL's cost of printing a 10,000-item table against a 10-item one (the
# printer is bounded by its item limit). Part of make bench.
# Usage: sh tests/bench/startup.sh PROGRAM
set -u
prog=$1
now() { date +%s%N; }
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
# time_us CMD...: the median over 31 runs of CMD, in microseconds, minus
# the same measurement of /bin/true (the cost of timing from the shell)
runs() {
    i=0
    while [ $i -lt 31 ]; do
        t0=$(now)
        "$@" </dev/null
        t1=$(now)
        echo $(( (t1 - t0) / 1000 ))
        i=$((i + 1))
    done | median
}
base=$(runs true)
mb=$(runs "$prog" -E -e '')
echo "$mb $base" | awk '{printf "start-up of marubatsu -e %s: %.2f ms (median of 31, minus %.2f ms for timing /bin/true)\n", "'"''"'", ($1 - $2) / 1000, $2 / 1000}'
for n in 10 10000; do
    i=0
    while [ $i -lt 11 ]; do
        t0=$(now)
        printf 't = {} for i = 1, %d do t[i] = i end\nt\n' "$n" | "$prog" -E >/dev/null
        t1=$(now)
        echo $(( (t1 - t0) / 1000 ))
        i=$((i + 1))
    done | median | awk '{printf "REPL printing a %d-item table: %.2f ms (median of 11, process included)\n", '"$n"', $1 / 1000}'
done
