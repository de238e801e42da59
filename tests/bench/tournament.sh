#!/bin/sh
# tests/bench/tournament.sh: tournament throughput of `marubatsu tournament`
# (games/s, whole command, one process per run as a user runs it) between
# rule-based Lua AIs with --jobs 1 and --jobs 2, and the cost of the
# sandbox: the same AIs loaded as script files, sandboxed with the default
# budgets (time and memory) and with --no-sandbox, and sandboxed with the
# opt-in instruction budget as well (--instructions 10000000, the old
# default: its count hook makes Lua stop at every VM instruction). The runs
# alternate so both sides of each ratio see the same machine load; medians
# of REPS runs (the overheads: medians of each round's ratio), per wall
# second and per CPU second (user + sys of the
# command and its workers, from the shell's `times`, to 10 ms: steadier
# than wall time on a shared machine).
# Usage: sh tests/bench/tournament.sh PROGRAM [REPS] [GAMES_PER_PAIRING]
set -u
prog=$1
reps=${2:-5}
games=${3:-4000}
players="ai14s ai6s ai4 ai3"
dir=$("$prog" -e 'io.write(mb.scripts_dir)')
files=""
for p in $players; do files="$files $dir/$p.lua"; done
npairings=6
total=$((games * npairings))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s%N; }
# children_cpu: the CPU seconds (user + sys) of this shell's finished
# children, from `times` run by this shell (in a command substitution it
# would speak of the subshell)
children_cpu() {
    awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.2f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$tmp/times"
}
# run NAME ARGS...: one timed run, its games per wall second appended to
# $tmp/NAME, per CPU second to $tmp/NAME.cpu
run() {
    name=$1
    shift
    times >"$tmp/times"
    c0=$(children_cpu)
    t0=$(now)
    "$prog" tournament "$@" --games "$games" --seed 1 --quiet --no-progress || exit 1
    t1=$(now)
    times >"$tmp/times"
    c1=$(children_cpu)
    echo "$total $t0 $t1" | awk '{ printf "%.0f\n", $1 / (($3 - $2) / 1e9) }' >>"$tmp/$name"
    echo "$total $c0 $c1" | awk '{ printf "%.0f\n", $1 / ($3 - $2 > 0 ? $3 - $2 : 0.01) }' >>"$tmp/$name.cpu"
}
median() { sort -n "$tmp/$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# overhead A B: how much longer B's games take than A's (files of games/s),
# in %: the median over the rounds of the two runs' ratio in each round,
# seconds apart, so that a change of the machine's load between rounds
# cancels out
overhead() {
    paste "$tmp/$1" "$tmp/$2" | awk '{ print 100 * ($1 / $2 - 1) }' | sort -n |
        awk '{ a[NR] = $1 } END { printf "%+.1f%%", a[int((NR + 1) / 2)] }'
}

i=0
while [ $i -lt "$reps" ]; do
    run jobs1 $players --jobs 1
    run jobs2 $players --jobs 2
    run sandboxed $files --jobs 1
    run trusted $files --jobs 1 --no-sandbox
    run instr $files --jobs 1 --instructions 10000000
    i=$((i + 1))
done
j1=$(median jobs1)
j2=$(median jobs2)
on=$(median sandboxed)
off=$(median trusted)
instr=$(median instr)
on_cpu=$(median sandboxed.cpu)
off_cpu=$(median trusted.cpu)
instr_cpu=$(median instr.cpu)
echo "tournament of $players, $games games per pairing ($total games), whole command, median of $reps runs:"
echo "  --jobs 1: $j1 games/s"
echo "  --jobs 2: $j2 games/s   scaling x$(echo "$j2 $j1" | awk '{ printf "%.2f", $1 / $2 }') ($(nproc) cores)"
echo "  script files, --no-sandbox: $off games/s ($off_cpu per CPU second)"
echo "  sandboxed (default budgets: time, memory): $on games/s ($on_cpu per CPU second)   sandbox overhead $(overhead trusted sandboxed) ($(overhead trusted.cpu sandboxed.cpu) CPU)"
echo "  sandboxed with the instruction budget too (--instructions 10000000): $instr games/s ($instr_cpu per CPU second)   overhead $(overhead trusted instr) ($(overhead trusted.cpu instr.cpu) CPU)"
