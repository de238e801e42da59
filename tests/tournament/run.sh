#!/bin/sh
# tests/tournament/run.sh: `marubatsu tournament`, `merge` and `replay
# JOURNAL N` end to end. Checks: --jobs 1 and --jobs 2 write identical
# results.json; a tournament killed (SIGKILL) mid-run and continued with
# --resume writes a results.json byte-identical to an uninterrupted run's,
# and its journal lost at most the games in flight; likewise after SIGINT
# (exit 1, a message saying how to resume); --shard 1/2 + 2/2 merged
# equal one run; ranking.svg is valid XML; --sprt stops a match with H1; replay shows a journal game; bad options exit 2 with a
# message; a journal of another tournament is refused with exit 1.
# Usage: sh tests/tournament/run.sh PROGRAM
set -u
prog=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LUA_PATH='/nonexistent/?.lua' LUA_CPATH='/nonexistent/?.so'
unset MARUBATSU_PATH MARUBATSU_SCRIPTS
pass=0
fail=0
check() { # check NAME COMMAND...: passes when the command succeeds
    name=$1
    shift
    if "$@"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "not ok: $name"
    fi
}
players="ai1 ai2 ai3 ai4 ai14s"
t() { "$prog" tournament $players --seed 21 --no-progress --quiet "$@"; }

# --jobs 1 and --jobs 2
t --games 40 --jobs 1 --out "$tmp/j1"
t --games 40 --jobs 2 --out "$tmp/j2"
check "jobs 1 = jobs 2" cmp -s "$tmp/j1/results.json" "$tmp/j2/results.json"
check "jobs csv" cmp -s "$tmp/j1/results.csv" "$tmp/j2/results.csv"

# killed mid-run, then resumed
games=2000
t --games $games --jobs 2 --out "$tmp/full"
"$prog" tournament $players --seed 21 --no-progress --quiet --games $games --jobs 2 \
    --out "$tmp/killed" &
pid=$!
n=0
while [ "$n" -lt 300 ] && kill -0 $pid 2>/dev/null; do
    n=$(cat "$tmp/killed/journal.tsv" 2>/dev/null | grep -c '^G')
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
before=$(grep -c '^G' "$tmp/killed/journal.tsv")
total=$(grep -c '^G' "$tmp/full/journal.tsv")
echo "killed after $before of $total games"
check "killed before the end" test "$before" -lt "$total"
t --games $games --jobs 2 --out "$tmp/killed" --resume
check "resumed results.json identical" cmp -s "$tmp/full/results.json" "$tmp/killed/results.json"
after=$(grep -c '^G' "$tmp/killed/journal.tsv")
check "resumed journal complete ($after)" test "$after" -eq "$total"

# interrupted (SIGINT, as Ctrl-C sends it), then resumed
"$prog" tournament $players --seed 21 --no-progress --quiet --games $games --jobs 2 \
    --out "$tmp/int" 2>"$tmp/int.err" &
pid=$!
n=0
while [ "$n" -lt 300 ] && kill -0 $pid 2>/dev/null; do
    n=$(cat "$tmp/int/journal.tsv" 2>/dev/null | grep -c '^G')
done
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
if grep -q 'interrupted after' "$tmp/int.err"; then
    check "interrupted exits 1" test $rc -eq 1
    check "interrupted message" grep -q 'run the same command with --resume' "$tmp/int.err"
else # it finished before the signal came: nothing to check but the results
    check "finished before the interrupt" test $rc -eq 0
    check "finished before the interrupt (results)" test -f "$tmp/int/results.json"
fi
t --games $games --jobs 2 --out "$tmp/int" --resume
check "interrupted then resumed: results.json identical" cmp -s "$tmp/full/results.json" "$tmp/int/results.json"

# shards and merge
t --games 20 --jobs 1 --out "$tmp/one"
t --games 20 --jobs 1 --out "$tmp/s1" --shard 1/2
t --games 20 --jobs 2 --out "$tmp/s2" --shard 2/2
"$prog" merge "$tmp/s1" "$tmp/s2" --out "$tmp/merged" >"$tmp/merge.out" 2>&1
check "merge exit 0" test $? -eq 0
check "merged = one run" cmp -s "$tmp/one/results.json" "$tmp/merged/results.json"
check "merged table printed" grep -q '^rank  player' "$tmp/merge.out"

# replay a journal game
"$prog" replay "$tmp/one/journal.tsv" 3 >"$tmp/replay.out" 2>&1
check "replay exit 0" test $? -eq 0
check "replay header" grep -q '^game 3: ai1 (〇) vs ai3 (×), pairing 2 game 1, seed ' "$tmp/replay.out"
"$prog" replay "$tmp/one/journal.tsv" 9999 >"$tmp/replay.out" 2>&1
check "replay of a missing game exits 1" test $? -eq 1
check "replay message" grep -q 'no game 9999 in this journal' "$tmp/replay.out"

# the files: ranking.svg is well-formed SVG, results.csv has a row per player
check "ranking.svg is XML" xmllint --noout "$tmp/one/ranking.svg"
check "ranking.svg has a dot per player" test "$(grep -c '<circle' "$tmp/one/ranking.svg")" -eq 5
check "results.csv rows" test "$(wc -l <"$tmp/one/results.csv")" -eq 6
check "results.json has the ranking" grep -q '"ranking": \[' "$tmp/one/results.json"

# SPRT: a two-player match stops with the decision
"$prog" tournament ai14s ai2 --games 2000 --jobs 2 --sprt elo0=0,elo1=20,alpha=0.05,beta=0.05 \
    --out "$tmp/sprt" --no-progress >"$tmp/sprt.out" 2>&1
check "sprt exit 0" test $? -eq 0
check "sprt accepted H1" grep -q 'H1 accepted (elo1)' "$tmp/sprt.out"
check "sprt stopped early" grep -q '^[0-9]* games of 2000 ' "$tmp/sprt.out"
check "sprt stopped early (json)" grep -q '"decision": "H1"' "$tmp/sprt/results.json"

# errors
"$prog" tournament ai1 ai2 --games 3 >/dev/null 2>"$tmp/err"
check "odd --games exits 2" test $? -eq 2
"$prog" tournament ai1 --games 2 >/dev/null 2>"$tmp/err"
check "one player exits 2" test $? -eq 2
"$prog" tournament ai1 ai2 --shard 0/2 >/dev/null 2>"$tmp/err"
check "bad shard exits 2" test $? -eq 2
"$prog" tournament ai1 ai3 --games 20 --seed 21 --out "$tmp/one" --resume --quiet 2>"$tmp/err"
check "another tournament's journal exits 1" test $? -eq 1
check "another tournament's message" grep -q 'the journal is of another tournament' "$tmp/err"
"$prog" tournament ai1 no_such_ai --games 2 --quiet 2>"$tmp/err"
check "unknown AI exits 2" test $? -eq 2
check "unknown AI message" grep -q "^marubatsu tournament: players\[2\]: AI script 'no_such_ai' not found" "$tmp/err"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
