#!/bin/sh
# tests/timecontrol/run.sh: time controls (--move-time, --game-time) end to
# end. Checks:
#   - time forfeits: an AI that spins forever (tests/timecontrol/spin.lua),
#     in `play --move-time` too (the game ends, the result line says why),
#     sandboxed and trusted (--no-sandbox), loses every game of a
#     tournament with the exact reason under --move-time and under
#     --game-time; a sandbox budget (--time) shorter than the move time
#     still ends the move as "time", the default one (1 s) gives way to a
#     longer move time, --instructions still ends a move as "instructions";
#     the spinning scripts of tests/hostile/
#     (a loop under pcall, gsub and sort callbacks, a runaway native search
#     and solve) lose on the move time, sandboxed and, for the Lua-level
#     ones, trusted; in `match` a loss on time counts as a
#     lost game and the count follows the tables; in `play --move-time`
#     an AI stuck inside one C call (tests/tournament/hostile/stuck_in_gc.lua)
#     loses on time by the hard line, with the reason, exit 0, well within
#     the move time + the slack + a margin;
#   - what an AI sees (tests/timecontrol/seer.lua reports it in its forfeit
#     reason): time_left starts at the game time and decreases, timelimit
#     is the documented share (0.8 x 1/8 of the clock; 0.8 x the move time);
#     without a game clock there is no time_left;
#   - brains: without timeout keys they hear INFO timeout_turn, timeout_match
#     and time_left from the tournament's time control (a transcript through
#     tests/brain/recorder.sh), with their own keys those; a stalling fake
#     brain loses on the tournament's move time; a brain's own tc= gives its
#     timeouts; `marubatsu brain` hands its
#     AI time_left (INFO time_left) and timelimit by the same allocation rule
#     (tests/timecontrol/tell.lua reports them in its failure's MESSAGE);
#   - each timed game's C line (its clock use) right after its G line, read
#     back by replay, kept by merge and resume, a misplaced or malformed one
#     refused with file:line, none without a time control;
#   - the journal's T time_control line, results.json's time_control and the
#     table's title (none without a time control); --resume and merge refuse a journal
#     of another time control (or of none); replay shows the time control;
#   - bad --move-time / --game-time values exit 2 with a message naming
#     the option, in tournament and match.
# No check depends on the machine's speed: the spinning AIs never answer,
# the others answer at once.
# Usage: sh tests/timecontrol/run.sh PROGRAM
set -u
prog=$1
here=tests/timecontrol
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset MARUBATSU_PATH
. "$(dirname "$0")/../checks.sh"
tour() { "$prog" tournament --no-progress --quiet --jobs 1 "$@"; }

# reasons REASON DIR: every game of the journal in DIR lost by spin with REASON
reasons() {
    got=$(grep '^G' "$2/journal.tsv" | cut -f 6,7,9,10 | tr '\t' '|' | sort -u | tr '\n' ' ')
    want=$(printf '%s\n' "spin|ai2|x|$1" "ai2|spin|o|$1" | sort | tr '\n' ' ')
    if [ "$got" = "$want" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "not ok: $3: got '$got', expected '$want'"
    fi
}

# ---- time forfeits ----
tour ai1 ai2 --games 2 --out "$tmp/r0"
tour "$here/spin.lua" ai2 --games 2 --move-time 0.2 --instructions 0 --out "$tmp/s1"
reasons "time: no move within 0.2 s (move time)" "$tmp/s1" "sandboxed spin, --move-time"
tour "$here/spin.lua" ai2 --games 2 --game-time 0.3+0.1 --instructions 0 --out "$tmp/s2"
reasons "time: the game clock of 0.3 s ran out (game time)" "$tmp/s2" "sandboxed spin, --game-time"
tour "$here/spin.lua" ai2 --games 2 --move-time 0.2 --no-sandbox --out "$tmp/t1"
reasons "time: no move within 0.2 s (move time)" "$tmp/t1" "trusted spin, --move-time"
"$prog" tournament "$here/spin.lua" ai2 --games 2 --move-time 0.2 --no-sandbox --jobs 2 --no-progress --quiet \
    --out "$tmp/t1j"
reasons "time: no move within 0.2 s (move time)" "$tmp/t1j" "trusted spin, --move-time, in worker processes (--jobs 2)"
tour "$here/spin.lua" ai2 --games 2 --game-time 0.3 --no-sandbox --out "$tmp/t2"
reasons "time: the game clock of 0.3 s ran out (game time)" "$tmp/t2" "trusted spin, --game-time"
tour "$here/spin.lua" ai2 --games 2 --move-time 0.5 --game-time 0.2 --no-sandbox --out "$tmp/t3"
reasons "time: the game clock of 0.2 s ran out (game time)" "$tmp/t3" "trusted spin, the clock binds before the move time"
tour "$here/spin.lua" ai2 --games 2 --move-time 5 --time 0.1 --instructions 0 --out "$tmp/s3"
reasons "time" "$tmp/s3" "sandboxed spin, --time shorter than --move-time"
# the default time budget (1 s) gives way to a longer move time; an
# instruction budget asked for still ends the move first
tour "$here/spin.lua" ai2 --games 2 --move-time 1.5 --out "$tmp/s4"
reasons "time: no move within 1.5 s (move time)" "$tmp/s4" "sandboxed spin, default budgets, --move-time over 1 s"
tour "$here/spin.lua" ai2 --games 2 --move-time 5 --instructions 100000 --out "$tmp/s5"
reasons "instructions" "$tmp/s5" "sandboxed spin, --instructions under --move-time"
# the hostile scripts that spin (tests/hostile/): under a move time each
# move ends at the deadline, sandboxed (with the default budgets, and with
# --instructions 0 said) and, for those that spin in Lua, trusted
hostile() { # hostile SCRIPT FLAGS...
    h=$1
    shift
    rm -rf "$tmp/h"
    tour "tests/hostile/$h.lua" ai2 --games 2 --move-time 0.3 "$@" --out "$tmp/h" 2>/dev/null
    got=$(grep '^G' "$tmp/h/journal.tsv" | cut -f 10 | sort | uniq -c | tr -s ' ')
    if [ "$got" = " 2 time: no move within 0.3 s (move time)" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "not ok: hostile $h $*: got '$got'"
    fi
}
for h in infinite_loop infinite_loop_pcall gsub_callback_spin sort_comparator_spin search_runaway solve_runaway; do
    hostile $h
done
hostile infinite_loop --instructions 0
for h in infinite_loop_pcall gsub_callback_spin sort_comparator_spin; do
    hostile $h --no-sandbox
done
check "journal: T time_control" grep -q "^T	time_control	move=0.2$" "$tmp/s1/journal.tsv"
check "journal: T time_control with increment" grep -q "^T	time_control	game=0.3+0.1$" "$tmp/s2/journal.tsv"
check "journal: both" grep -q "^T	time_control	move=0.5 game=0.2$" "$tmp/t3/journal.tsv"
check "results.json: the time control" grep -q '^  "time_control": "game=0.3+0.1",$' "$tmp/s2/results.json"
check "untimed results.json: none" test "$(grep -c time_control "$tmp/r0/results.json")" -eq 0
"$prog" tournament "$here/spin.lua" ai2 --games 2 --move-time 0.2 --instructions 0 --no-progress --jobs 1 >"$tmp/s1.txt"
check "the table's title" grep -qx "2 games of 2 (round_robin, 2 per pairing, seed 1, time control move=0.2)" "$tmp/s1.txt"
"$prog" replay "$tmp/s1/journal.tsv" 1 >"$tmp/replay"
check "replay shows the time control" grep -q "^time control: move=0.2$" "$tmp/replay"

"$prog" match "$here/spin.lua" ai2 -n 1 --move-time 0.1 --instructions 0 --no-progress >"$tmp/m1" 2>&1
check "match: a loss on time is a lost game (exit 0)" test $? -eq 0
check "match: the count" grep -q "^time control move=0.1: lost on time: spin 2, ai2 0$" "$tmp/m1"
check "match: the table" grep -q "^total       0       2       0$" "$tmp/m1"
"$prog" match ai2 "$here/spin.lua" -n 1 --game-time 0.1 --no-sandbox --no-progress >"$tmp/m2" 2>&1
check "match trusted: the count" grep -q "^time control game=0.1: lost on time: ai2 0, spin 2$" "$tmp/m2"

"$prog" play --o "$here/spin.lua" --x ai2 --move-time 0.1 --ascii >"$tmp/p1" 2>&1
check "play: an AI that spins loses on time (exit 0)" test $? -eq 0
check "play: the result line" grep -qx "result: x wins (ai2): spin (o) lost on time (no move within 0.1 s (move time))" "$tmp/p1"
t0=$(date +%s)
"$prog" play --o tests/tournament/hostile/stuck_in_gc.lua --x ai2 --move-time 1 --slack 0.2 --ascii >"$tmp/p2" 2>&1
check "play: an AI stuck in C loses on time by the hard line (exit 0)" test $? -eq 0
check "play: ... within 15 s (without the hard line: about 30 s)" test $(($(date +%s) - t0)) -lt 15
check "play: ... the result line says why" grep -qx "result: x wins (ai2): stuck_in_gc (o) lost on time (no move within 1 s (move time); killed after [0-9.]* s: stuck inside one call past its 1 s budget)" "$tmp/p2"
"$prog" play --o ai2 --x ai2 --move-time -1 >/dev/null 2>"$tmp/err"
check "play --move-time -1: exit 2" test $? -eq 2
check "play --move-time -1: message" grep -qx "marubatsu play: --move-time must be a number of seconds > 0 (at most 1e+07), not '-1'" "$tmp/err"

# ---- what an AI sees ----
# seen FIELD DIR GAME: the seer's reason in game GAME, field 3.. of "seen L1 L2 L3 / T1 T2 T3"
seen() { grep "^G	$2	" "$1/journal.tsv" | cut -f 10 | sed 's/^error: seen //'; }
for mode in sandbox no-sandbox; do
    flag=""
    [ "$mode" = no-sandbox ] && flag=--no-sandbox
    rm -rf "$tmp/seer"
    tour "$here/seer.lua" ai2 --games 2 --game-time 5 $flag --out "$tmp/seer"
    for g in 1 2; do
        s=$(seen "$tmp/seer" $g)
        check "$mode game $g: time_left 5 then decreasing, timelimit 0.8 x 5/8 then less ($s)" \
            awk -v s="$s" 'BEGIN { split(s, v, " "); exit !(v[1] == 5 && v[2] < v[1] && v[3] < v[2] && v[3] > 4 \
                && v[5] == 0.5 && v[6] < 0.5 && v[7] < v[6] && v[7] > 0.4) }'
    done
done
rm -rf "$tmp/seer"
tour "$here/seer.lua" ai2 --games 2 --move-time 2 --out "$tmp/seer"
check "move time only: no time_left, timelimit 1.6" test "$(seen "$tmp/seer" 1)" = \
    "-1.000000000 -1.000000000 -1.000000000 / 1.600000000 1.600000000 1.600000000"
rm -rf "$tmp/seer"
tour "$here/seer.lua:timelimit=0.25" ai2 --games 2 --move-time 2 --out "$tmp/seer"
check "a timelimit in the player spec wins" test "$(seen "$tmp/seer" 1)" = \
    "-1.000000000 -1.000000000 -1.000000000 / 0.250000000 0.250000000 0.250000000"

# ---- brains ----
export BRAIN_PROG="$prog"
btour() { tour --width 9 --height 9 --k 5 "$@"; }
# transcript: the recorder's IN/OUT lines on the tournament's stderr (log=/dev/stderr)
transcript() {
    sed -n 's/^IN //p' "$tmp/log" >"$tmp/log.in"
    sed -n 's/^OUT //p' "$tmp/log" >"$tmp/log.out"
}
btour "brain:tests/brain/recorder.sh brain ai1 --seed 1:max_memory=0,log=/dev/stderr" ai2 --games 2 --move-time 2 \
    --game-time 30+0.5 --out "$tmp/b1" 2>>"$tmp/log"
transcript
# the pre-flight's session (START on the board, ABOUT, END), then the games'
head -n 8 "$tmp/log.in" >"$tmp/b1.pre"
printf 'INFO timeout_turn 2000\nINFO timeout_match 30000\nINFO max_memory 0\nINFO rule 0\nINFO game_type 1\nSTART 9\nABOUT\nEND\n' \
    >"$tmp/b1.prewant"
same "brain: the pre-flight's INFO lines from --move-time and --game-time" "$tmp/b1.prewant" "$tmp/b1.pre"
sed '1,8d' "$tmp/log.in" | head -n 7 >"$tmp/b1.head"
printf 'INFO timeout_turn 2000\nINFO timeout_match 30000\nINFO max_memory 0\nINFO rule 0\nINFO game_type 1\nSTART 9\nINFO time_left 30000\n' \
    >"$tmp/b1.want"
same "brain: INFO lines from --move-time and --game-time" "$tmp/b1.want" "$tmp/b1.head"
check "brain: time_left before every move" test "$(grep -c '^INFO time_left' "$tmp/log.in")" -eq \
    "$(grep -c '^[0-9]*,[0-9]*$' "$tmp/log.out")"
check "brain: time_left never above the game time plus increments" \
    awk '/^INFO time_left/ { n++; if ($3 > 30000 + 500 * n) bad = 1 } END { exit bad }' "$tmp/log.in"
check "brain: games played to their end" test "$(grep '^G' "$tmp/b1/journal.tsv" | cut -f 10 | sort -u)" = ""
rm -f "$tmp/log" "$tmp/log.in" "$tmp/log.out"
btour "brain:tests/brain/recorder.sh brain ai1 --seed 1:timeout_turn=5000,max_memory=0,log=/dev/stderr" ai2 --games 2 \
    --move-time 2 --out "$tmp/b2" 2>>"$tmp/log"
transcript
check "brain: its own timeout_turn wins" test "$(head -n 2 "$tmp/log.in" | tr '\n' '|')" = \
    "INFO timeout_turn 5000|INFO timeout_match 0|"
# a brain's own tc= (a player option) is its time control: timeout_turn
# and timeout_match from it, in a tournament with none
rm -f "$tmp/log" "$tmp/log.in" "$tmp/log.out"
btour "brain:tests/brain/recorder.sh brain ai1 --seed 1:max_memory=0,log=/dev/stderr,tc=20+0.5" ai2 --games 2 \
    --out "$tmp/b4" 2>>"$tmp/log"
transcript
check "brain: tc= gives the timeouts" test "$(head -n 2 "$tmp/log.in" | tr '\n' '|')" = \
    "INFO timeout_turn 20000|INFO timeout_match 20000|"
check "brain: tc=, the clock told before its moves" test "$(grep -c '^INFO time_left' "$tmp/log.in")" -gt 0
check "brain: tc=, C lines in an untimed tournament" test "$(grep -c '^C' "$tmp/b4/journal.tsv")" -eq 2
check "brain: tc=, no T time_control line" test "$(grep -c '^T	time_control' "$tmp/b4/journal.tsv")" -eq 0
btour "brain:tests/brain/fake_brain.sh stall" ai1 --games 2 --move-time 0.3 --out "$tmp/b3" 2>/dev/null
check "stalling brain: lost on the move time" test "$(grep -c '	time: no move within 300 ms (timeout_turn)$' "$tmp/b3/journal.tsv")" -eq 2

# marubatsu brain: its AI sees time_left from INFO time_left and timelimit by
# the allocation rule: 0.8 x (min(1000, 12000 / max(8, 225 // 4)) - 30 ms margin)
printf 'INFO timeout_turn 1000\nINFO timeout_match 20000\nINFO time_left 12000\nSTART 15\nBEGIN\nEND\n' |
    "$prog" brain "$here/tell.lua" >"$tmp/tell" 2>/dev/null
check "brain: the AI sees time_left and its share" grep -qx \
    "MESSAGE tell failed (error: time_left=12.000 timelimit=0.147): fallback move" "$tmp/tell"
printf 'INFO timeout_turn 1000\nSTART 15\nBEGIN\nEND\n' | "$prog" brain "$here/tell.lua" >"$tmp/tell" 2>/dev/null
check "brain untimed: no time_left, 0.8 x (1000 - 30) ms" grep -qx \
    "MESSAGE tell failed (error: time_left=-1.000 timelimit=0.776): fallback move" "$tmp/tell"

# ---- clock use: a C line after each timed game's G line ----
check "C lines: one per game, right after its G line" awk -F'\t' '
    $1 == "G" { if (want) bad = 1; want = $2; n++ }
    $1 == "C" { if ($2 != want || $3 !~ /^[0-9]+\.[0-9][0-9][0-9]$/ || $4 !~ /^[0-9]+\.[0-9][0-9][0-9]$/) bad = 1; want = ""; c++ }
    END { exit bad || want != "" || n != 2 || c != 2 }' "$tmp/s1/journal.tsv"
check "C lines: the spinner used its move time (0.2 s, or a little more)" awk -F'\t' '
    $1 == "G" { spin = ($6 ~ /spin/) ? 3 : 4 }
    $1 == "C" { if ($spin < 0.2) bad = 1 }
    END { exit bad }' "$tmp/s1/journal.tsv"
check "untimed: no C lines" test "$(grep -c '^C' "$tmp/r0/journal.tsv")" -eq 0
check "replay: the time used" grep -q "^time used: 〇 [0-9.]* s, × [0-9.]* s$" "$tmp/replay"
cp -r "$tmp/s1" "$tmp/c1"
awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "C" && !done { $2 = $2 + 1; done = 1 } { print }' "$tmp/s1/journal.tsv" \
    >"$tmp/c1/journal.tsv"
"$prog" replay "$tmp/c1/journal.tsv" 1 >/dev/null 2>"$tmp/err"
check "a C line of another game: refused" grep -q "journal.tsv:11: the clock line of game 2 belongs right after that game's G line, once" "$tmp/err"
sed 's/^C\t\([0-9]*\)\t[0-9.]*/C\t\1\t1.5/' "$tmp/s1/journal.tsv" >"$tmp/c1/journal.tsv"
"$prog" replay "$tmp/c1/journal.tsv" 1 >/dev/null 2>"$tmp/err"
check "a malformed C line: refused" grep -q "journal.tsv:11: a clock line is C, the game number and the seconds" "$tmp/err"
rm -rf "$tmp/c2"
tour "$here/spin.lua" ai2 --games 4 --move-time 0.2 --instructions 0 --shard 1/2 --out "$tmp/c2"
tour "$here/spin.lua" ai2 --games 4 --move-time 0.2 --instructions 0 --shard 2/2 --out "$tmp/c3"
"$prog" merge "$tmp/c2" "$tmp/c3" --out "$tmp/c4" --quiet
check "merge keeps the C lines" test "$(grep -c '^C' "$tmp/c4/journal.tsv")" -eq 4
tour "$here/spin.lua" ai2 --games 4 --move-time 0.2 --instructions 0 --out "$tmp/c4" --resume
check "resume after merge: exit 0, the C lines kept" test "$(grep -c '^C' "$tmp/c4/journal.tsv")" -eq 4

# ---- journals of another time control ----
tour ai1 ai2 --games 4 --move-time 1 --out "$tmp/r"
tour ai1 ai2 --games 4 --move-time 2 --out "$tmp/r" --resume 2>"$tmp/err"
check "resume with another --move-time: exit 1" test $? -eq 1
check "resume with another --move-time: message" grep -q "journal is of another tournament" "$tmp/err"
check "the message shows the line" grep -q "T time_control move=1" "$tmp/err"
tour ai1 ai2 --games 4 --out "$tmp/r" --resume 2>"$tmp/err"
check "resume without a time control: exit 1" test $? -eq 1
tour ai1 ai2 --games 4 --move-time 1 --out "$tmp/r" --resume
check "resume with the same time control: exit 0" test $? -eq 0
tour ai1 ai2 --games 4 --game-time 10 --shard 1/2 --out "$tmp/h1"
tour ai1 ai2 --games 4 --game-time 10+1 --shard 2/2 --out "$tmp/h2"
"$prog" merge "$tmp/h1" "$tmp/h2" --quiet 2>"$tmp/err"
check "merge of two time controls: exit 1" test $? -eq 1
check "merge of two time controls: message" grep -q "is of another tournament" "$tmp/err"

# ---- bad options ----
bad() { # bad COMMAND OPTION VALUE MESSAGE
    if [ "$1" = tournament ]; then
        "$prog" tournament ai1 ai2 --games 2 --quiet "$2" "$3" >/dev/null 2>"$tmp/err"
    else
        "$prog" match ai1 ai2 -n 1 "$2" "$3" >/dev/null 2>"$tmp/err"
    fi
    rc=$?
    if [ $rc -eq 2 ] && grep -qF -- "$4" "$tmp/err"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "not ok: $1 $2 '$3': exit $rc, $(cat "$tmp/err")"
    fi
}
for cmd in tournament match; do
    bad $cmd --move-time -1 "marubatsu $cmd: --move-time must be a number of seconds > 0 (at most 1e+07), not '-1'"
    bad $cmd --move-time 0 "--move-time must be a number of seconds > 0"
    bad $cmd --move-time abc "--move-time must be a number of seconds > 0 (at most 1e+07), not 'abc'"
    bad $cmd --move-time 1e9 "--move-time must be a number of seconds > 0 (at most 1e+07), not '1e9'"
    bad $cmd --game-time nan "--game-time must be a number of seconds > 0 (at most 1e+07), not 'nan'"
    bad $cmd --game-time 5+x "the increment of --game-time must be a number of seconds >= 0 (at most 1e+07), not 'x'"
    bad $cmd --game-time 5+ "the increment of --game-time must be a number of seconds >= 0"
    bad $cmd --game-time +5 "--game-time must be a number of seconds > 0"
    bad $cmd --game-time 5+-1 "the increment of --game-time must be a number of seconds >= 0"
done

summary
