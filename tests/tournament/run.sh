#!/bin/sh
# tests/tournament/run.sh: `marubatsu tournament`, `merge` and `replay
# JOURNAL N` end to end. Checks: --jobs 1 and --jobs 2 write identical
# results.json; a tournament killed (SIGKILL) mid-run and continued with
# --resume writes a results.json byte-identical to an uninterrupted run's,
# and its journal lost at most the games in flight; likewise after SIGINT
# (exit 1, a message saying how to resume); --shard 1/2 + 2/2 merged
# equal one run (also with a script player: "sandboxed" as in one run); ranking.svg is valid XML; --sprt stops a match with H1; replay shows a journal game; bad options exit 2 with a
# message; a journal of another tournament is refused with exit 1, also
# one of the other rule (--rule exact), whose games resume, merge and
# replay judge under it.
# Issue 16: hostile players (a spinning xpcall handler under the default
# budgets and under --instructions, 1,100-byte errors and returns, a failing main
# chunk, tampering) lose by forfeit and the journal reads back; print is
# capped per move and per game and escaped; long reasons
# are cut and escaped; too-long specs and directories fail at the start;
# hand-edited journals (winner, moves, players, seed, index, a false draw,
# an extra game, a duplicate) are refused with file:line by --resume, merge
# and replay; a full disk (tmpfs, else ulimit -f) and a full stdout exit 1
# naming the file; /dev/zero as a journal, game record, --openings or play
# input stops with a message (journals and records must be regular files;
# one without a line end stops at the line bound); 10^9 games per pairing
# run in 1 GB.
# Issue 24: a script that fails in its main chunk stops the run before any
# game (the pre-flight: exit 2, one line, no out directory); with
# --allow-forfeits it loses every game. Player names (name=, a script's
# file name) in the table, crosstable, results.json, report.html. Live
# output: a line per finished game on stderr (not a terminal), the
# standings every --rating-interval games; Ctrl-C writes the results of
# the games played and prints the command that resumes. A knockout of 8
# runs to a winner, resumes, and its journal's lines are checked against
# the bracket.
# Openings: Gomocup's relative format, --openings-order random (seeded, kept
# by --resume) and --openings-plies; bad lines refused.
# Issue 22: collections inside the budgets (a weak-keyed chain whose
# collections outlive a move, a budget's error unwound over 44 MB) finish
# well under a bound, every game lost on time.
# Usage: sh tests/tournament/run.sh PROGRAM
set -u
prog=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LUA_PATH='/nonexistent/?.lua' LUA_CPATH='/nonexistent/?.so'
unset MARUBATSU_PATH MARUBATSU_SCRIPTS
. "$(dirname "$0")/../checks.sh"
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

# killed three times in a row (each run resuming the last), then finished:
# still the uninterrupted run's results.json
for at in 200 500 900; do
    "$prog" tournament $players --seed 21 --no-progress --quiet --games $games --jobs 2 \
        --out "$tmp/kills" --resume &
    pid=$!
    n=0
    while [ "$n" -lt $at ] && kill -0 $pid 2>/dev/null; do
        n=$(cat "$tmp/kills/journal.tsv" 2>/dev/null | grep -c '^G')
    done
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
done
t --games $games --jobs 2 --out "$tmp/kills" --resume
check "killed three times, resumed: results.json identical" cmp -s "$tmp/full/results.json" "$tmp/kills/results.json"

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
    check "interrupted exits 130" test $rc -eq 130
    check "interrupted message" grep -q 'run the same command with --resume' "$tmp/int.err"
    # the command that continues it, and the results files of the games played
    check "interrupted: the resume command" grep -qxF \
        "  $prog tournament $players --seed 21 --no-progress --quiet --games $games --jobs 2 --out $tmp/int --resume" \
        "$tmp/int.err"
    check "interrupted: results.json counts the games played" \
        grep -q "^  \"games_played\": $(grep -c '^G' "$tmp/int/journal.tsv"),$" "$tmp/int/results.json"
    check "interrupted: report.html written" test -s "$tmp/int/report.html"
else # it finished before the signal came: nothing to check but the results
    check "finished before the interrupt" test $rc -eq 0
    check "finished before the interrupt (results)" test -f "$tmp/int/results.json"
fi
t --games $games --jobs 2 --out "$tmp/int" --resume
check "interrupted then resumed: results.json identical" cmp -s "$tmp/full/results.json" "$tmp/int/results.json"
# without --quiet: the partial table once on stdout (not again with the files)
"$prog" tournament $players --seed 21 --no-progress --games $games --jobs 2 --out "$tmp/int2" \
    >"$tmp/int2.out" 2>"$tmp/int2.err" &
pid=$!
n=0
while [ "$n" -lt 300 ] && kill -0 $pid 2>/dev/null; do
    n=$(cat "$tmp/int2/journal.tsv" 2>/dev/null | grep -c '^G')
done
kill -INT $pid 2>/dev/null
wait $pid
if grep -q 'interrupted after' "$tmp/int2.err"; then
    check "interrupted, not quiet: the partial table" grep -q '^partial: interrupted (Ctrl-C) after [0-9]* of' "$tmp/int2.out"
    check "interrupted, not quiet: one table" test "$(grep -c '^rank  player' "$tmp/int2.out")" -eq 1
fi

# shards and merge
t --games 20 --jobs 1 --out "$tmp/one"
t --games 20 --jobs 1 --out "$tmp/s1" --shard 1/2
t --games 20 --jobs 2 --out "$tmp/s2" --shard 2/2
"$prog" merge "$tmp/s1" "$tmp/s2" --out "$tmp/merged" >"$tmp/merge.out" 2>&1
check "merge exit 0" test $? -eq 0
check "merged = one run" cmp -s "$tmp/one/results.json" "$tmp/merged/results.json"
check "merged table printed" grep -q '^rank  player' "$tmp/merge.out"
# with a script player: merge knows it was sandboxed (the journal's header
# names it, the results say so as one run's do)
sp="ai2 examples/my_first_ai.lua --games 10 --seed 5 --no-progress --quiet"
"$prog" tournament $sp --out "$tmp/sone" >/dev/null 2>&1
"$prog" tournament $sp --out "$tmp/ss1" --shard 1/2 >/dev/null 2>&1
"$prog" tournament $sp --out "$tmp/ss2" --shard 2/2 >/dev/null 2>&1
"$prog" merge "$tmp/ss1" "$tmp/ss2" --out "$tmp/smerged" >/dev/null 2>&1
check "merged = one run, with a script player" cmp -s "$tmp/sone/results.json" "$tmp/smerged/results.json"
check "merged: the script was sandboxed" grep -q '"sandboxed": true' "$tmp/smerged/results.json"

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
# the exact rule is a setting of the journal: resuming without it is
# refused, with it accepted (its games replayed and judged under it: four
# in a row does not win on 9x1 with k = 3); merge and replay read it
ex() { "$prog" tournament ai2 ai5 --games 40 --seed 5 --width 9 --height 1 --k 3 --no-progress --quiet "$@"; }
ex --rule exact --out "$tmp/exact"
check "exact tournament exit 0" test $? -eq 0
check "exact journal names the rule" grep -q "$(printf 'T\trule\texact')" "$tmp/exact/journal.tsv"
ex --out "$tmp/free"
check "freestyle journal has no rule line" test "$(grep -c "$(printf '^T\trule')" "$tmp/free/journal.tsv")" -eq 0
check "the rules give other games" test "$(grep '^G' "$tmp/exact/journal.tsv" | sort)" != "$(grep '^G' "$tmp/free/journal.tsv" | sort)"
ex --out "$tmp/exact" --resume 2>"$tmp/err"
check "freestyle resume of an exact journal exits 1" test $? -eq 1
check "rule mismatch message" grep -q 'the journal is of another tournament' "$tmp/err"
ex --out "$tmp/free" --resume --rule exact 2>"$tmp/err"
check "exact resume of a freestyle journal exits 1" test $? -eq 1
cp -r "$tmp/exact" "$tmp/exact2"
ex --rule exact --out "$tmp/exact2" --resume
check "exact resume of an exact journal exits 0" test $? -eq 0
check "exact resume: results.json identical" cmp -s "$tmp/exact/results.json" "$tmp/exact2/results.json"
"$prog" merge "$tmp/exact" --out "$tmp/exact_m" --quiet
check "merge of an exact journal exits 0" test $? -eq 0
"$prog" replay "$tmp/exact/journal.tsv" 1 >/dev/null
check "replay of an exact journal game exits 0" test $? -eq 0
"$prog" tournament ai1 ai2 --rule renju --quiet 2>"$tmp/err"
check "--rule renju exits 2" test $? -eq 2
check "--rule renju message" grep -q 'renju rule is not supported' "$tmp/err"

"$prog" tournament ai1 no_such_ai --games 2 --quiet 2>"$tmp/err"
check "unknown AI exits 2" test $? -eq 2
check "unknown AI message" grep -q "^marubatsu tournament: players\[2\]: AI script 'no_such_ai' not found" "$tmp/err"

# ---- player options (issue 24): a 4-player round robin with name= shows
# the names in the table, the crosstable, results.json and report.html (and
# the journal's P lines, beside the specs); a script without name= is
# named by its file name without .lua
"$prog" tournament "ai14s:name=Fourteen" "ai4:name=Four" "tests/cli/scripts/first_square.lua:name=First" \
    tests/cli/scripts/always_centre.lua --games 2 --seed 5 --jobs 1 --no-progress --out "$tmp/names" \
    >"$tmp/names.out" 2>"$tmp/names.err"
check "names: exit 0" test $? -eq 0
sed -n '/^crosstable/,/^by colour/p' "$tmp/names.out" >"$tmp/names.cross"
for n in Fourteen Four First always_centre; do
    check "names: $n in the ranking" grep -Eq "^ +[1-4]  $n +[0-9]" "$tmp/names.out"
    check "names: $n in the crosstable" grep -Eq "^ +[1-4]  $n +[-0-9]" "$tmp/names.cross"
    check "names: $n in results.json" grep -q "^      \"name\": \"$n\",$" "$tmp/names/results.json"
    check "names: $n in report.html" grep -q "\"name\": \"$n\"" "$tmp/names/report.html"
done
check "names: no path as a name in the table" test "$(grep -c 'tests/cli' "$tmp/names.out")" -eq 0
check "names: the journal's P line, name and spec" \
    grep -qx "$(printf 'P\t3\tFirst\ttests/cli/scripts/first_square.lua:name=First')" "$tmp/names/journal.tsv"
check "names: the G lines" test "$(grep -c "$(printf '^G\t.*\tFourteen\t')" "$tmp/names/journal.tsv")" -eq 6
"$prog" tournament ai2 "ai14s:nmae=x" --games 2 --quiet 2>"$tmp/err"
check "an unknown player option: exit 2" test $? -eq 2
check "an unknown player option: the known ones listed" grep -q "unknown parameter 'nmae' (known: .*); player options: name, st, tc$" "$tmp/err"

# ---- live output (issue 24): a line per finished game on stderr when it is
# not a terminal (each game once, agreeing with the journal), the standings
# every --rating-interval games, none with --no-progress or --quiet; a
# forfeit's line names who forfeited and why
"$prog" tournament ai1 ai2 ai4 --games 10 --seed 3 --jobs 2 --rating-interval 10 --out "$tmp/live" \
    >"$tmp/live.out" 2>"$tmp/live.err"
check "live: exit 0" test $? -eq 0
check "live: a line per game" test "$(grep -c '^Finished game ' "$tmp/live.err")" -eq 30
check "live: each game once" \
    test "$(sed -n 's/^Finished game \([0-9]*\) .*/\1/p' "$tmp/live.err" | sort -n | uniq | wc -l)" -eq 30
check "live: every line in its form" test "$(grep '^Finished' "$tmp/live.err" | grep -Evc \
    '^Finished game [0-9]+ \((ai1|ai2|ai4) vs (ai1|ai2|ai4)\): (1-0 \{three in a row\}|0-1 \{three in a row\}|1/2-1/2 \{board full\})$')" -eq 0
awk -F '\t' '$1 == "G" { print $2, $6, $7, ($9 == "o" ? "1-0" : $9 == "x" ? "0-1" : "1/2-1/2") }' \
    "$tmp/live/journal.tsv" | sort -n >"$tmp/live.journal"
sed -n 's/^Finished game \([0-9]*\) (\(.*\) vs \(.*\)): \([^ ]*\) .*/\1 \2 \3 \4/p' "$tmp/live.err" | sort -n >"$tmp/live.lines"
check "live: the lines agree with the journal" cmp -s "$tmp/live.journal" "$tmp/live.lines"
check "live: the standings every 10 games" test "$(grep -c '^standings: [0-9]* games of 30 ' "$tmp/live.err")" -eq 3
check "live: the standings' table" test "$(grep -c '^rank  player' "$tmp/live.err")" -eq 3
check "live: stdout unchanged (the table)" grep -q '^30 games of 30 ' "$tmp/live.out"
t --games 2 --jobs 1 --out "$tmp/live_q" 2>"$tmp/live_q.err"
check "live: none with --no-progress --quiet" test ! -s "$tmp/live_q.err"
"$prog" tournament ai1 ai2 --games 2 --jobs 1 --no-progress --out "$tmp/live_np" >/dev/null 2>"$tmp/live_np.err"
check "live: none with --no-progress" test ! -s "$tmp/live_np.err"
"$prog" tournament ai1 tests/hostile/illegal_move.lua --games 2 --jobs 1 --seed 3 >/dev/null 2>"$tmp/live_f.err"
check "live: a forfeit's line" grep -Eq \
    '^Finished game [12] \((ai1 vs illegal_move|illegal_move vs ai1)\): (1-0|0-1) \{illegal_move forfeits: illegal move: [0-9]+ \([A-C][1-3], occupied\)\}$' \
    "$tmp/live_f.err"

# ---- knockout (issue 24): 8 players run to a winner, the same with --jobs 1
# and 2 and after a cut journal resumed; a journal whose lines the bracket
# contradicts (a later round before its players are decided, a tie-break a
# decided match does not call for) is refused with file:line
ko() { "$prog" tournament ai14s ai6s ai5s ai4 ai3 ai2 ai1 ai2s --format knockout --games 2 --seed 3 --no-progress "$@"; }
ko --jobs 2 --out "$tmp/ko1" >"$tmp/ko1.out" 2>"$tmp/ko1.err"
check "knockout: exit 0" test $? -eq 0
check "knockout: runs to a winner" grep -qx '  winner: ai14s' "$tmp/ko1.out"
check "knockout: 7 matches in 3 rounds" test "$(grep -c '^  round [123], match [1-7]: ' "$tmp/ko1.out")" -eq 7
check "knockout: the final is match 7" grep -q '^  round 3, match 7: ai14s .*: ai14s$' "$tmp/ko1.out"
check "knockout: the first round by seeds (1-8, 4-5, 2-7, 3-6)" test "$(sed -n 's/^  round 1, match \([1-4]\): \([^ ]*\) .* \([^ ]*\) ([0-9]* games).*/\1 \2 \3/p' \
    "$tmp/ko1.out" | tr '\n' '|')" = "1 ai14s ai2s|2 ai4 ai3|3 ai6s ai1|4 ai5s ai2|"
check "knockout: results.json names the winner" grep -q '^    "winner": "ai14s"$' "$tmp/ko1/results.json"
check "knockout: the journal's tiebreak" grep -qx "$(printf 'T\ttiebreak\t1')" "$tmp/ko1/journal.tsv"
ko --jobs 1 --out "$tmp/ko2" --quiet
check "knockout: --jobs 1 = --jobs 2" cmp -s "$tmp/ko1/results.json" "$tmp/ko2/results.json"
mkdir -p "$tmp/ko3"
head -n 20 "$tmp/ko1/journal.tsv" >"$tmp/ko3/journal.tsv"
ko --jobs 2 --out "$tmp/ko3" --resume --quiet
check "knockout: a cut journal resumed: results.json identical" cmp -s "$tmp/ko1/results.json" "$tmp/ko3/results.json"
"$prog" merge "$tmp/ko1" --quiet
check "knockout: merge reads the journal back" test $? -eq 0
# the final's first game moved before every other game
hdr=$(grep -c -v '^[GC]' "$tmp/ko1/journal.tsv")
{ grep -v '^G' "$tmp/ko1/journal.tsv"; awk -F '\t' '$1 == "G" && $3 == 7' "$tmp/ko1/journal.tsv" | head -n 1;
    awk -F '\t' '$1 == "G" && $3 != 7' "$tmp/ko1/journal.tsv"; } >"$tmp/ko3/journal.tsv"
ko --jobs 1 --out "$tmp/ko3" --resume --quiet 2>"$tmp/err"
check "knockout: a final before its players: exit 1" test $? -eq 1
check "knockout: a final before its players: file:line" \
    grep -q "journal.tsv:$((hdr + 1)): game [0-9]*: match 7: its players are not decided by the games before it" "$tmp/err"
# match 1 (ai14s 2-0 ai2s) given a third game, as a tie-break
{ cat "$tmp/ko1/journal.tsv"; awk -F '\t' -v OFS='\t' '$1 == "G" && $2 == 2 { $2 = 3; $4 = 3; print }' \
    "$tmp/ko1/journal.tsv"; } >"$tmp/ko3/journal.tsv"
ko --jobs 1 --out "$tmp/ko3" --resume --quiet 2>"$tmp/err"
check "knockout: a tie-break not called for: exit 1" test $? -eq 1
check "knockout: a tie-break not called for: message" \
    grep -q "game 3: match 1: game 3 of the match is a tie-break the games before it do not call for" "$tmp/err"
"$prog" tournament ai1 ai2 --format knockout --shard 1/2 --quiet 2>"$tmp/err"
check "knockout with --shard: exit 1" test $? -eq 1
check "knockout with --shard: message" grep -q "a knockout cannot be combined with sprt or shards" "$tmp/err"
"$prog" tournament ai1 ai2 --tiebreak 2 --quiet 2>"$tmp/err"
check "--tiebreak without a knockout: exit 1" test $? -eq 1

# ---- hostile players (issue 16): every game ends, with a reason
H=tests/tournament/hostile
# (long_load_error fails in its main chunk: the pre-flight refuses it, and
# with --allow-forfeits it loses every game)
for f in spin_in_handler long_error long_return long_load_error tamper; do
    timeout 120 "$prog" tournament ai1 "$H/$f.lua" --games 2 --jobs 1 --time 1 --instructions 1000000 \
        --no-progress --quiet --allow-forfeits --out "$tmp/h_$f" 2>"$tmp/h_$f.err"
    check "hostile $f: the tournament finishes (exit 0)" test $? -eq 0
    check "hostile $f: both games lost by forfeit" \
        test "$(grep -c "^G.*	$f	.*	[ox]	[a-z]" "$tmp/h_$f/journal.tsv")" -eq 2
    timeout 120 "$prog" tournament ai1 "$H/$f.lua" --games 2 --jobs 1 --time 1 --instructions 1000000 \
        --no-progress --quiet --allow-forfeits --out "$tmp/h_$f" --resume 2>>"$tmp/h_$f.err"
    check "hostile $f: --resume reads the journal back" test $? -eq 0
done
"$prog" tournament ai1 "$H/long_load_error.lua" --games 2 --jobs 1 --no-progress --out "$tmp/h_pf" >"$tmp/h_pf.out" \
    2>"$tmp/h_pf.err"
check "a failing main chunk: the pre-flight exits 2" test $? -eq 2
check "a failing main chunk: one line on stderr" test "$(wc -l <"$tmp/h_pf.err")" -eq 1
check "a failing main chunk: names the player and the reason, cut" \
    grep -q "^marubatsu tournament: players\[2\] $H/long_load_error.lua cannot load: zzzz*\\.\\.\\.$" "$tmp/h_pf.err"
check "a failing main chunk: nothing on stdout" test ! -s "$tmp/h_pf.out"
check "a failing main chunk: no out directory made" test ! -e "$tmp/h_pf"
check "spinning message handler, --instructions: stopped by the instruction budget" \
    test "$(grep -c '	instructions$' "$tmp/h_spin_in_handler/journal.tsv")" -eq 2
# the default budgets (time and memory: no instruction budget) stop it at
# its 1 s deadline
timeout 120 "$prog" tournament ai1 "$H/spin_in_handler.lua" --games 2 --jobs 2 \
    --no-progress --quiet --out "$tmp/h_spin_time"
check "spinning message handler, default budgets: stopped" test $? -eq 0
check "spinning message handler, default budgets: reason time" \
    test "$(grep -c '	time$' "$tmp/h_spin_time/journal.tsv")" -eq 2
# a 1,100-byte error with an escape sequence, a tab and a newline: cut to
# 1,000 bytes, one line, control characters escaped
reason=$(grep '^G' "$tmp/h_long_error/journal.tsv" | head -n 1 | cut -f 10)
check "long reason cut to 1000 bytes" test "$(printf '%s' "$reason" | sed 's/\\\\/\\/g' | wc -c)" -le 1000
check "long reason ends with ..." test "${reason%...}" != "$reason"
check "long reason: ESC shown as \\x1b" grep -q '^G.*error: \\\\x1b\[31mred\\\\txxx' "$tmp/h_long_error/journal.tsv"
check "no ESC byte in the journal" test "$(grep -c "$(printf '\033')" "$tmp/h_long_error/journal.tsv")" -eq 0
check "tampering is blamed on the script" grep -q '^G.*	tamper	.*	tampered$' "$tmp/h_tamper/journal.tsv"
"$prog" replay "$tmp/h_long_error/journal.tsv" 1 >"$tmp/replay_long.out" 2>&1
check "replay of a long reason: exit 0" test $? -eq 0
check "replay shows no raw ESC" test "$(grep -c "$(printf '\033')" "$tmp/replay_long.out")" -eq 0

# print: at most 4 KiB a move and 16 KiB a game, escapes shown escaped
# (print_flood.lua asks for 1 MB a move, with terminal escape sequences)
timeout 120 "$prog" tournament ai1 "$H/print_flood.lua" --games 4 --jobs 2 --no-progress --quiet \
    --out "$tmp/h_flood" 2>"$tmp/h_flood.err"
check "print flood: the tournament finishes" test $? -eq 0
moves=$(grep '^G' "$tmp/h_flood/journal.tsv" | cut -f 6-8 | awk -F '\t' '{ n = split($3, m, ","); c += ($1 ~ /flood/) ? int((n + 1) / 2) : int(n / 2) } END { print c }')
bytes=$(wc -c <"$tmp/h_flood.err")
echo "print flood: $bytes bytes of stderr for $moves moves"
check "print flood: at most 4 KiB (and a note) a move" test "$bytes" -le $((moves * (4096 + 60)))
check "print flood: cut with a note" grep -q '^(print: output cut at 4096 bytes a move, 16384 a game)$' "$tmp/h_flood.err"
check "print flood: no ESC or BEL reaches the terminal" test "$(tr -d -c '\033\007' <"$tmp/h_flood.err" | wc -c)" -eq 0
check "print flood: escapes shown as text" grep -q '^\\x1b\]0;owned\\x07\\x1b\[2Jppp' "$tmp/h_flood.err"

# ---- collections inside the budgets (issue 22). A weak-keyed chain whose
# every full collection is quadratic, 8,000 links more a move: the script's
# first move of each of 10 games loses on time, and a state whose call ran
# past its deadline is loaded anew, so the chain never outgrows one move's
# (before, it grew by each move, and the last games' collections took
# minutes, where no hook can stop them)
start=$(date +%s)
timeout 300 "$prog" tournament ai1 "tests/hostile/gc_weak_chain.lua:n=8000" --games 10 --jobs 1 --time 0.2 \
    --no-progress --quiet --out "$tmp/h_chain" 2>"$tmp/h_chain.err"
check "weak-keyed chain: the tournament finishes (exit 0)" test $? -eq 0
took=$(($(date +%s) - start))
echo "weak-keyed chain: 10 games in $took s"
check "weak-keyed chain: every game lost on time" test "$(grep -c '^G.*	time$' "$tmp/h_chain/journal.tsv")" -eq 10
check "weak-keyed chain: well under 120 s" test "$took" -lt 120
# a budget's error unwound through 150 pcalls and __close over 44 MB of live
# data (loaded under --time 30; 1 s a move): no emergency collection per
# level (12 s a game before, on the loaded development VM)
start=$(date +%s)
timeout 300 "$prog" tournament ai1 tests/hostile/unwind_at_cap.lua --games 2 --jobs 1 --time 30 --move-time 1 \
    --no-progress --quiet --out "$tmp/h_unwind" 2>"$tmp/h_unwind.err"
check "unwind over 44 MB: the tournament finishes (exit 0)" test $? -eq 0
took=$(($(date +%s) - start))
echo "unwind over 44 MB: 2 games in $took s"
check "unwind over 44 MB: both games lost on time" \
    test "$(grep -c '^G.*	time: no move within 1 s (move time)$' "$tmp/h_unwind/journal.tsv")" -eq 2
check "unwind over 44 MB: well under 60 s" test "$took" -lt 60

# a player name (its spec) too long for a journal fails before any game
long=$(printf 'v%.0s' $(seq 1 250))
"$prog" tournament ai1 "ai2:rand=$long" --games 2 --quiet 2>"$tmp/err"
check "spec of 259 bytes exits 2" test $? -eq 2
check "spec of 259 bytes: message" grep -q 'players\[2\]: the name .* is 259 bytes long; a journal holds names of at most 255 bytes' "$tmp/err"
"$prog" tournament ai1 "ai2:mode=${long}vvvvvvv" --games 2 --quiet 2>"$tmp/err"
check "parameter value over 255 bytes exits 2" test $? -eq 2
check "parameter value over 255 bytes: message" grep -q 'the value is longer than 255 bytes' "$tmp/err"
"$prog" tournament ai1 "$tmp" --games 2 --quiet 2>"$tmp/err"
check "a directory as a player exits 2" test $? -eq 2
check "a directory as a player: message" grep -q "players\[2\]: $tmp: Is a directory" "$tmp/err"

# ---- hand-edited journals: refused with file:line, or accepted when true
t --games 10 --jobs 1 --out "$tmp/edit"
cp "$tmp/edit/journal.tsv" "$tmp/edit.orig"
first=$(grep -n '^G' "$tmp/edit.orig" | head -n 1 | cut -d: -f1)
# edit AWK-PROGRAM NAME EXPECTED: apply the edit to the first game line,
# then --resume must exit 1 naming journal.tsv:LINE and EXPECTED
edit() {
    awk -F '\t' -v OFS='\t' -v n="$first" "NR == n { $1 } { print }" "$tmp/edit.orig" >"$tmp/edit/journal.tsv"
    t --games 10 --jobs 1 --out "$tmp/edit" --resume 2>"$tmp/err"
    check "edited journal ($2) exits 1" test $? -eq 1
    check "edited journal ($2): message" grep -q "journal.tsv:$first: game [0-9]*: $3" "$tmp/err"
}
edit '$9 = ($9 == "o") ? "x" : "o"; $10 = ""' "winner flipped" "its moves end in"
edit '$8 = "A1,A1,A1"' "moves A1,A1,A1" "move 2 (A1) is on an occupied square"
edit 'x = $6; $6 = $7; $7 = x' "players swapped" "the schedule has ai1 as 〇 and ai2 as ×"
edit '$5 = 12345' "seed changed" "the schedule gives it seed"
edit '$2 = $2 + 1' "index changed" "the schedule has it as game"
edit '$8 = "B2"; $9 = "draw"; $10 = ""' "B2 as a draw" "the game is not over after its moves"
edit '$2 = 999999' "game 999999" "not in the schedule, which has 100 games"
cp "$tmp/edit.orig" "$tmp/edit/journal.tsv"
grep '^G' "$tmp/edit.orig" | head -n 1 >>"$tmp/edit/journal.tsv"
t --games 10 --jobs 1 --out "$tmp/edit" --resume 2>"$tmp/err"
check "a game appended twice exits 1" test $? -eq 1
check "a game appended twice: message" grep -q "game [0-9]* appears twice (also at line $first)" "$tmp/err"
cp "$tmp/edit.orig" "$tmp/edit/journal.tsv"
t --games 10 --jobs 1 --out "$tmp/edit" --resume 2>"$tmp/err"
check "the untouched journal resumes (exit 0)" test $? -eq 0
# merge checks the same
awk -F '\t' -v OFS='\t' -v n="$first" 'NR == n { $9 = ($9 == "o") ? "x" : "o"; $10 = "" } { print }' \
    "$tmp/edit.orig" >"$tmp/edit/journal.tsv"
"$prog" merge "$tmp/edit" --quiet 2>"$tmp/err"
check "merge of an edited journal exits 1" test $? -eq 1
check "merge of an edited journal: file:line" grep -q "journal.tsv:$first: game" "$tmp/err"
"$prog" replay "$tmp/edit/journal.tsv" 1 >/dev/null 2>"$tmp/err"
check "replay of an edited journal exits 1" test $? -eq 1

# ---- a full disk: a tmpfs of 64 KiB where mount works, else a file-size limit
mkdir -p "$tmp/small"
if mount -t tmpfs -o size=64k tmpfs "$tmp/small" 2>/dev/null; then
    trap 'umount "$tmp/small" 2>/dev/null; rm -rf "$tmp"' EXIT
    "$prog" tournament $players --seed 21 --no-progress --quiet --games 400 --jobs 2 --out "$tmp/small/run" \
        2>"$tmp/err"
    check "full disk: exit 1" test $? -eq 1
    check "full disk: the journal named" grep -q "cannot write $tmp/small/run/journal.tsv: No space left on device" "$tmp/err"
    check "full disk: says how to go on" grep -q 'run the same command with --resume' "$tmp/err"
    # the journal fits, the results files do not
    rm -rf "$tmp/small/run"
    mkdir "$tmp/small/run"
    t --games 10 --jobs 1 --out "$tmp/fits"
    cp "$tmp/fits/journal.tsv" "$tmp/small/run/"
    dd if=/dev/zero of="$tmp/small/filler" bs=1k count=100 2>/dev/null
    t --games 10 --jobs 1 --out "$tmp/small/run" --resume 2>"$tmp/err"
    check "full disk, results files: exit 1" test $? -eq 1
    # (the first to be written: games.sgf, the records rewritten from the
    # journal before the games, or results.json)
    check "full disk, results files: named" \
        grep -Eq "cannot write $tmp/small/run/(games.sgf|results.json): No space left" "$tmp/err"
    check "full disk, results files: no empty file left" \
        test ! -e "$tmp/small/run/results.json" -a ! -e "$tmp/small/run/games.sgf"
    umount "$tmp/small"
else
    (
        trap '' XFSZ
        ulimit -f 64
        "$prog" tournament $players --seed 21 --no-progress --quiet --games 400 --jobs 2 --out "$tmp/small/run" \
            2>"$tmp/err"
    )
    check "file-size limit: exit 1" test $? -eq 1
    check "file-size limit: the journal named" grep -q "cannot write $tmp/small/run/journal.tsv: File too large" "$tmp/err"
fi
"$prog" tournament ai1 ai2 --games 2 --jobs 1 --no-progress >/dev/full 2>"$tmp/err"
check "stdout on a full device: exit 1" test $? -eq 1
check "stdout on a full device: message" grep -q 'cannot write standard output: No space left on device' "$tmp/err"
"$prog" match ai2 ai2 -n 10 --seed 0 >/dev/full 2>"$tmp/err"
check "match, stdout on a full device: exit 1" test $? -eq 1
check "match, stdout on a full device: message" grep -q '^marubatsu match: cannot write standard output: No space left on device$' "$tmp/err"

# ---- bounded inputs
# journals and game records are read back only from regular files
# (tests/tournament/out.sh has FIFOs and links): /dev/zero is refused at
# once, and a regular file without a line end stops at the line bound
timeout 60 "$prog" replay /dev/zero 1 >/dev/null 2>"$tmp/err"
check "replay /dev/zero 1: exit 1" test $? -eq 1
check "replay /dev/zero 1: message" grep -q '/dev/zero: not a regular file (a character device)' "$tmp/err"
timeout 60 "$prog" replay /dev/zero >/dev/null 2>"$tmp/err"
check "replay /dev/zero: exit 1" test $? -eq 1
check "replay /dev/zero: message" grep -q '/dev/zero: not a regular file (a character device)' "$tmp/err"
head -c 34000000 /dev/zero | tr '\0' 'A' >"$tmp/no_newline" # journals: header lines up to 32 MiB
timeout 60 "$prog" replay "$tmp/no_newline" 1 >/dev/null 2>"$tmp/err"
check "replay of a journal without a line end: exit 1" test $? -eq 1
check "replay of a journal without a line end: message" grep -q 'no_newline:1: a line longer than' "$tmp/err"
timeout 60 "$prog" replay "$tmp/no_newline" >/dev/null 2>"$tmp/err"
check "replay of a record without a line end: exit 1" test $? -eq 1
check "replay of a record without a line end: message" grep -q 'no_newline:1: a line longer than 65536 bytes' "$tmp/err"
timeout 60 "$prog" play --input /dev/zero >/dev/null 2>"$tmp/err"
check "play --input /dev/zero: exit 1" test $? -eq 1
check "play --input /dev/zero: message" grep -q 'the input has a line longer than 4096 bytes' "$tmp/err"
timeout 60 "$prog" tournament ai1 ai2 --games 2 --openings /dev/zero --quiet 2>"$tmp/err"
check "--openings /dev/zero: exit 1" test $? -eq 1
check "--openings /dev/zero: message" grep -q 'openings: /dev/zero:1: a line longer than 8192 bytes' "$tmp/err"
"$prog" tournament ai1 ai2 --games 2 --openings "$tmp" --quiet 2>"$tmp/err"
check "--openings DIR: exit 1" test $? -eq 1
check "--openings DIR: the name in the message" grep -q "openings: $tmp: Is a directory" "$tmp/err"
# the schedule is made lazily: 10^9 games per pairing, stopped by SPRT after
# a few, in little memory (ulimit -v: 1 GB; the whole schedule took 4 GB)
(
    case "$prog" in *asan*) ;; *) ulimit -v 1000000 ;; esac # ASan reserves terabytes of address space
    timeout 120 "$prog" tournament ai14s ai1 --games 1000000000 --jobs 1 --no-progress \
        --sprt elo0=0,elo1=50,alpha=0.05,beta=0.05 >"$tmp/huge.out" 2>&1
)
check "10^9 games, SPRT: exit 0 in 1 GB" test $? -eq 0
check "10^9 games, SPRT: stopped early" grep -q '^[0-9]* games of 1000000000 ' "$tmp/huge.out"


# ---- the hard line (issue 22): a sandboxed move stuck inside one C call,
# where no budget of the Lua VM reaches (a quadratic garbage collection, a
# quadratic compilation by load: tests/tournament/hostile/stuck_in_*.lua),
# is ended from outside at its deadline + the slack (0.5 s): the process
# playing it is killed, the game is lost on time by that player, a new
# worker plays on. With --jobs 1 and --jobs 2 (the same results.json),
# under a time control (the C line charges the killed move), Ctrl-C with
# --jobs 1 while a player is stuck, the program killed outright (its
# worker dies with it), and `match` (timed: the games lost on time;
# untimed: the match stops on it). Each run must finish well within
# 30 s (the stuck calls alone take minutes), leave no process behind, and
# its journal must read back with --resume. (--allow-forfeits: under a
# heavy load a collection in stuck_in_gc's main chunk may outlast its 1 s
# budget, which the pre-flight would refuse; its games are then lost on
# time all the same.)
hl="$tmp/hl"
mkdir -p "$hl"
cp "$H/stuck_in_gc.lua" "$H/stuck_in_load.lua" "$hl/"
gcp="$hl/stuck_in_gc.lua"
ldp="$hl/stuck_in_load.lua"
# timed COMMAND...: run it under a 120 s guard; rc and secs (wall seconds)
timed() {
    s0=$(date +%s)
    timeout 120 "$@"
    rc=$?
    secs=$(($(date +%s) - s0))
}
# none_left: no process whose command line names $hl (the programs and
# their workers) is still running
none_left() { ! pgrep -f "$hl" >/dev/null; }
# lost_on_time FILE PLAYER REASON: games where PLAYER lost with REASON
lost_on_time() {
    awk -F '\t' -v p="$2" -v r="$3" '$1 == "G" && $10 == r && (($9 == "o" && $7 == p) || ($9 == "x" && $6 == p)) { n++ }
        END { print n + 0 }' "$1/journal.tsv"
}
for j in 1 2; do
    timed "$prog" tournament ai1 "$gcp" --games 4 --jobs $j --seed 3 --no-progress --quiet --allow-forfeits --out "$hl/gc$j" \
        2>"$hl/gc$j.err"
    check "hard line, --jobs $j: the tournament ends (exit 0)" test $rc -eq 0
    check "hard line, --jobs $j: well within the bound ($secs s)" test $secs -lt 30
    check "hard line, --jobs $j: the stuck player lost its 4 games on time" \
        test "$(lost_on_time "$hl/gc$j" stuck_in_gc time)" -eq 4
    check "hard line, --jobs $j: no process left" none_left
    timed "$prog" tournament ai1 "$gcp" --games 4 --jobs $j --seed 3 --no-progress --quiet --allow-forfeits --out "$hl/gc$j" --resume
    check "hard line, --jobs $j: --resume reads the journal back" test $rc -eq 0
done
check "hard line: --jobs 1 and --jobs 2 give the same results.json" cmp -s "$hl/gc1/results.json" "$hl/gc2/results.json"
# a time control: the reason of the move time, the C line charges the killed
# move its seconds (never less than the limit and the slack); the games of
# the other players go on (3 players: 6 games, 4 of them lost on time)
timed "$prog" tournament ai1 "$ldp" ai2 --games 2 --jobs 2 --move-time 1 --seed 3 --no-progress --quiet --allow-forfeits \
    --out "$hl/ld" 2>"$hl/ld.err"
check "hard line, --move-time 1: the tournament ends (exit 0)" test $rc -eq 0
check "hard line, --move-time 1: well within the bound ($secs s)" test $secs -lt 30
check "hard line, --move-time 1: 4 games lost on time with the move time's reason" \
    test "$(lost_on_time "$hl/ld" stuck_in_load 'time: no move within 1 s (move time)')" -eq 4
check "hard line, --move-time 1: ai1 vs ai2 played both games" \
    test "$(awk -F '\t' '$1 == "G" && $10 == "" { n++ } END { print n + 0 }' "$hl/ld/journal.tsv")" -eq 2
check "hard line, --move-time 1: a C line per game" test "$(grep -c '^C' "$hl/ld/journal.tsv")" -eq 6
check "hard line, --move-time 1: killed past the limit + the slack (C lines)" \
    test "$(awk -F '\t' '$1 == "C" && ($3 >= 1.5 || $4 >= 1.5) { n++ } END { print n + 0 }' "$hl/ld/journal.tsv")" -eq 4
check "hard line, --move-time 1: no process left" none_left
timed "$prog" tournament ai1 "$ldp" ai2 --games 2 --jobs 2 --move-time 1 --seed 3 --no-progress --quiet --allow-forfeits \
    --out "$hl/ld" --resume
check "hard line, --move-time 1: --resume reads the journal back" test $rc -eq 0
# Ctrl-C with --jobs 1 while the player is stuck (a slack of 30 s: only
# the signal can end it in time): exit 130 at once, a journal to resume
"$prog" tournament ai1 "$gcp" --games 4 --jobs 1 --seed 3 --slack 30 --no-progress --quiet --allow-forfeits \
    --out "$hl/int" 2>"$hl/int.err" &
pid=$!
n=0
while [ ! -s "$hl/int/journal.tsv" ] && [ $n -lt 600 ] && kill -0 $pid 2>/dev/null; do
    sleep 0.1
    n=$((n + 1))
done
sleep 1 # the first game's stuck move is under way
s0=$(date +%s)
kill -INT $pid
wait $pid
rc=$?
secs=$(($(date +%s) - s0))
check "Ctrl-C, --jobs 1, a player stuck in C: exit 130" test $rc -eq 130
check "Ctrl-C, --jobs 1, a player stuck in C: at once ($secs s)" test $secs -lt 10
check "Ctrl-C, --jobs 1, a player stuck in C: how to resume" grep -q 'interrupted after .*run the same command with --resume' "$hl/int.err"
check "Ctrl-C, --jobs 1, a player stuck in C: no process left" none_left
timed "$prog" tournament ai1 "$gcp" --games 4 --jobs 1 --seed 3 --no-progress --quiet --allow-forfeits --out "$hl/int" --resume
check "Ctrl-C, --jobs 1: resumed (exit 0)" test $rc -eq 0
check "Ctrl-C, --jobs 1: resumed results.json identical" cmp -s "$hl/gc1/results.json" "$hl/int/results.json"
# the program killed outright (SIGKILL) while its worker is stuck: the
# worker dies with it (no process left to run on for minutes)
"$prog" tournament ai1 "$gcp" --games 4 --jobs 1 --seed 3 --slack 30 --no-progress --quiet --allow-forfeits \
    --out "$hl/kill9" 2>/dev/null &
pid=$!
n=0
while [ ! -s "$hl/kill9/journal.tsv" ] && [ $n -lt 600 ] && kill -0 $pid 2>/dev/null; do
    sleep 0.1
    n=$((n + 1))
done
sleep 1
kill -9 $pid
wait $pid 2>/dev/null
n=0
while ! none_left && [ $n -lt 50 ]; do
    sleep 0.1
    n=$((n + 1))
done
check "killed outright while its worker is stuck: no process left" none_left
# match: timed, both games lost on time; untimed, the match stops on it
timed "$prog" match "$gcp" ai1 -n 1 --move-time 1 --no-progress >"$hl/m.out" 2>"$hl/m.err"
check "hard line, match --move-time 1: exit 0" test $rc -eq 0
check "hard line, match --move-time 1: well within the bound ($secs s)" test $secs -lt 30
check "hard line, match --move-time 1: both games lost on time" grep -q 'lost on time: stuck_in_gc 2, ai1 0$' "$hl/m.out"
check "hard line, match --move-time 1: no process left" none_left
timed "$prog" match "$ldp" ai1 -n 1 --no-progress >"$hl/m.out" 2>"$hl/m.err"
check "hard line, untimed match: exit 1" test $rc -eq 1
check "hard line, untimed match: well within the bound ($secs s)" test $secs -lt 30
check "hard line, untimed match: the AI named" grep -q '^marubatsu match: stuck_in_load (o) did not play a legal move in position$' "$hl/m.err"
check "hard line, untimed match: lost on time" test "$(tail -n 1 "$hl/m.err")" = time
check "hard line, untimed match: no process left" none_left
"$prog" tournament ai1 ai2 --slack -1 --quiet 2>"$tmp/err"
check "--slack -1 exits 2" test $? -eq 2
check "--slack -1: message" grep -q -- '--slack must be a number >= 0' "$tmp/err"
"$prog" match ai1 ai2 --slack x 2>"$tmp/err"
check "match --slack x exits 2" test $? -eq 2

# Openings (issue 24, point 7): Gomocup's relative format (offset pairs
# from the centre) reads to the same squares as Excel notation; the header
# holds the openings as played; --openings-plies cuts each; --openings-order
# random is a permutation fixed by --seed (the same list on a second run and
# on --resume; another seed, another order for this file); bad lines,
# offsets off the board and a bad order are refused with a message.
printf '0,0, 1,0, 1,1\n# a comment\n-7,-7\n0, 1, 0, 2\nH8 I9 H10 J9\n-1,-1\n' >"$tmp/rel.txt"
ot() { "$prog" tournament ai1 ai2 --width 15 --height 15 --k 5 --games 12 --jobs 1 --no-progress --quiet "$@"; }
header() { sed -n 's/^T\topenings\t//p' "$1/journal.tsv"; }
ot --openings "$tmp/rel.txt" --out "$tmp/op_seq"
echo "H8,I8,I9 A1 H9,H10 H8,I9,H10,J9 G7" >"$tmp/op.want"
header "$tmp/op_seq" >"$tmp/op.got"
same "relative openings: the squares, in the file's order" "$tmp/op.want" "$tmp/op.got"
check "relative openings: game 1 starts with them" sh -c "grep '^G	1	' '$tmp/op_seq/journal.tsv' | grep -q '	H8,I8,I9,'"
ot --openings "$tmp/rel.txt" --openings-plies 2 --out "$tmp/op_plies"
echo "H8,I8 A1 H9,H10 H8,I9 G7" >"$tmp/op.want"
header "$tmp/op_plies" >"$tmp/op.got"
same "--openings-plies 2 cuts each opening" "$tmp/op.want" "$tmp/op.got"
ot --openings "$tmp/rel.txt" --openings-order random --seed 4 --out "$tmp/op_r1"
ot --openings "$tmp/rel.txt" --openings-order random --seed 4 --out "$tmp/op_r2"
ot --openings "$tmp/rel.txt" --openings-order random --seed 5 --out "$tmp/op_r3"
header "$tmp/op_r1" >"$tmp/r1"
header "$tmp/op_r2" >"$tmp/r2"
header "$tmp/op_r3" >"$tmp/r3"
same "--openings-order random: the same order for the same seed" "$tmp/r1" "$tmp/r2"
check "--openings-order random: another seed, another order" sh -c "! cmp -s '$tmp/r1' '$tmp/r3'"
check "--openings-order random: not the file's order" sh -c "! cmp -s '$tmp/r1' '$tmp/op.got'"
tr ' ' '\n' <"$tmp/r1" | sort >"$tmp/r1.sorted"
echo "H8,I8,I9 A1 H9,H10 H8,I9,H10,J9 G7" | tr ' ' '\n' | sort >"$tmp/all.sorted"
same "--openings-order random: a permutation of the openings" "$tmp/all.sorted" "$tmp/r1.sorted"
cp "$tmp/op_r1/results.json" "$tmp/r1.json"
sed -i '$d' "$tmp/op_r1/journal.tsv" # the last game lost: resume plays it again
ot --openings "$tmp/rel.txt" --openings-order random --seed 4 --out "$tmp/op_r1" --resume
check "--openings-order random: --resume gives the same results" cmp -s "$tmp/r1.json" "$tmp/op_r1/results.json"
printf '0,0, 1\n' >"$tmp/odd.txt"
ot --openings "$tmp/odd.txt" 2>"$tmp/err"
check "an odd count of offsets: exit 1" test $? -eq 1
check "an odd count of offsets: message" grep -q "odd.txt:1: a relative opening is pairs of offsets dx, dy from the centre; this line has 3 numbers" "$tmp/err"
printf '0,0, 8,0\n' >"$tmp/off.txt"
ot --openings "$tmp/off.txt" 2>"$tmp/err"
check "an offset off the board: exit 1" test $? -eq 1
check "an offset off the board: message" grep -q "off.txt:1: the offset 8,0 from the centre is off this 15x15 board" "$tmp/err"
ot --openings "$tmp/rel.txt" --openings-order sideways 2>"$tmp/err"
check "--openings-order sideways: exit 2" test $? -eq 2
check "--openings-order sideways: message" grep -q "openings-order must be sequential or random, not 'sideways'" "$tmp/err"
ot --openings-plies 2 2>"$tmp/err"
check "--openings-plies without --openings: exit 2" test $? -eq 2
check "--openings-plies without --openings: message" grep -q "openings-order and --openings-plies need --openings FILE" "$tmp/err"

# --adjudicate on a board the exact solver does not take (9x8: 72 squares):
# games that reach 12 empty squares go on (VCF only), no error
"$prog" tournament ai2 ai2 --width 9 --height 8 --k 9 --games 2 --adjudicate --quiet --out "$tmp/adj72" 2>"$tmp/err"
check "--adjudicate on 9x8: exit 0" test $? -eq 0
check "--adjudicate on 9x8: both games, played out" test "$(grep -c '^G.*	draw	$' "$tmp/adj72/journal.tsv")" -eq 2

summary
