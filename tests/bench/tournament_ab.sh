#!/bin/sh
# tests/bench/tournament_ab.sh: two builds of the program side by side on the
# configurations of tests/bench/tournament.sh (ai14s ai6s ai4 ai3, 24,000
# games: --jobs 1, --jobs 2, script files sandboxed, --no-sandbox), their
# runs alternating so both see the same machine load; medians of games per
# CPU second (user+sys of the command and its workers: steadier than wall
# time on a shared machine) and per wall second, and new/base.
# Usage: sh tests/bench/tournament_ab.sh BASE_PROGRAM NEW_PROGRAM [REPS]
# e.g. a build of main in /tmp/base (git archive main | tar -x -C /tmp/base;
# make -C /tmp/base build/marubatsu) against build/marubatsu.
set -u
base=$1; new=$2; reps=${3:-7}; games=4000
players="ai14s ai6s ai4 ai3"
tmp=$(mktemp -d)
run() { name=$1; prog=$2; shift 2
  dir=$("$prog" -e 'io.write(mb.scripts_dir)'); files=""; for q in $players; do files="$files $dir/$q.lua"; done
  case "$1" in files) shift; set -- $files "$@";; names) shift; set -- $players "$@";; esac
  /usr/bin/time -f "%U %S %e" -o "$tmp/t" "$prog" tournament "$@" --games $games --seed 1 --quiet --no-progress || exit 1
  awk '{ printf "%.0f\n", 24000 / ($1 + $2) }' "$tmp/t" >>"$tmp/$name.cpu"
  awk '{ printf "%.0f\n", 24000 / $3 }' "$tmp/t" >>"$tmp/$name.wall"; }
median() { sort -n "$tmp/$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
i=0
while [ $i -lt $reps ]; do
  for v in base new; do eval prog=\$$v
    run ${v}_j1 $prog names --jobs 1
    run ${v}_j2 $prog names --jobs 2
    run ${v}_sb $prog files --jobs 1
    run ${v}_tr $prog files --jobs 1 --no-sandbox
  done
  i=$((i+1))
done
for c in j1 j2 sb tr; do for m in cpu wall; do b=$(median base_$c.$m); n=$(median new_$c.$m); echo "$c $m: base $b new $n games/s, new/base $(echo $n $b | awk '{printf "%.3f", $1/$2}')"; done; done
rm -rf "$tmp"
