#!/bin/sh
# tests/brain/run.sh: the Gomocup protocol both ways, end to end.
# Checks:
#   - `marubatsu brain` (the brain side): a scripted session (ABOUT, INFO,
#     START, BEGIN, TURN, TAKEBACK, RESTART, BOARD...DONE, RECTSTART, bad
#     and unknown commands, renju and exactly-five refused, END) answers
#     exactly tests/brain/cases/session.out; an AI that never answers still
#     gets a move out in time, the fallback, with a MESSAGE: killed at the
#     deadline (--no-sandbox) or stopped by the sandbox's budget (a file);
#     a command line over 4096 bytes is answered with ERROR, not the end;
#     usage errors exit 2, an unknown AI exits 1, --help exits 0;
#   - the manager side (`tournament` with brain:COMMAND players): our own
#     brain driven through tests/brain/recorder.sh gives the golden
#     transcript of commands and answers (the pre-flight's START, ABOUT and
#     END: the brain's name is its ABOUT name, or with name= none is asked,
#     or its file's when it does not answer; then BEGIN, TURN, and BOARD after an opening) (INFO time_left
#     values masked) and
#     the golden games; broken fake brains (tests/brain/fake_brain.sh) lose
#     every game with the exact reason: crash by signal and by exit status,
#     stall (timeout_turn), the game clock (timeout_match), garbage output,
#     an occupied and an off-board square, ERROR answers, START refused, a
#     line without end, a brain stopped by its memory limit (max_memory);
#     a brain that cannot be run, refuses START or is given k other than 5
#     stops the tournament before any game (the pre-flight: exit 2, one
#     line) and with --allow-forfeits loses every game; bad brain keys; MESSAGE,
#     DEBUG and empty lines are skipped; no brain process outlives its game;
#   - journals with brains: --resume after losing games, and shards 1/2 +
#     2/2 merged, give the same games as one run;
#   - game records of a journal game: `replay JOURNAL N --psq -` gives the
#     exact Piskvork record (1-based squares, names, -1), `--svg FILE` a
#     valid SVG with one numbered stone per move and the winning line
#     (over the stones, under the numbers);
#     --psq without a game number exits 2, a missing game exits 1;
#   - containment: hostile brains against their box (tests/brain/contain.sh).
# Usage: sh tests/brain/run.sh PROGRAM
set -u
prog=$1
here=tests/brain
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset MARUBATSU_PATH
. "$(dirname "$0")/../checks.sh"

# ---- the brain side ----
"$prog" brain ai1 --seed 1 <"$here/cases/session.in" >"$tmp/session.out" 2>"$tmp/session.err"
same "brain session transcript" "$here/cases/session.out" "$tmp/session.out"
check "brain session: nothing on stderr" test ! -s "$tmp/session.err"

# INFO rule 1 (exactly five): A5 would make six in a row, not a win; ai5
# takes the first square that wins, C5 under the exact rule, A5 under
# freestyle (INFO rule 0, the default); a rule given after START replays
# the game under it; --rule exact starts there; renju and bad --rule
board='BOARD
0,0,1
1,0,1
2,0,1
3,0,1
5,0,1
0,2,1
1,2,1
2,2,1
3,2,1
0,4,2
2,4,2
4,4,2
6,4,2
8,4,2
0,6,2
2,6,2
4,6,2
6,6,2
DONE'
printf 'INFO rule 1\nSTART 9\n%s\nEND\n' "$board" | "$prog" brain ai5 --seed 1 >"$tmp/exact.out"
printf 'OK\n4,2\n' >"$tmp/exact.want"
same "brain: INFO rule 1 plays the exact rule" "$tmp/exact.want" "$tmp/exact.out"
printf 'INFO rule 1\nINFO rule 0\nSTART 9\n%s\nEND\n' "$board" | "$prog" brain ai5 --seed 1 >"$tmp/free.out"
printf 'OK\n4,0\n' >"$tmp/free.want"
same "brain: INFO rule 0 plays freestyle" "$tmp/free.want" "$tmp/free.out"
printf 'START 9\n%s\nTAKEBACK 4,0\nTAKEBACK 6,6\nINFO rule 1\nTURN 6,6\nEND\n' "$board" |
    "$prog" brain ai5 --seed 1 >"$tmp/late.out"
printf 'OK\n4,0\nOK\nOK\n4,2\n' >"$tmp/late.want"
same "brain: INFO rule 1 after START replays the game" "$tmp/late.want" "$tmp/late.out"
printf 'START 9\n%s\nEND\n' "$board" | "$prog" brain ai5 --seed 1 --rule exact >"$tmp/opt.out"
same "brain: --rule exact" "$tmp/exact.want" "$tmp/opt.out"
printf 'INFO rule 5\nINFO rule 2\nEND\n' | "$prog" brain ai5 >"$tmp/renju.out"
printf 'ERROR rule 5: renju%s forbidden moves are not supported (freestyle or exactly five)\nERROR rule 2: a continuous game is not supported\n' "'s" >"$tmp/renju.want"
same "brain: renju and continuous games refused" "$tmp/renju.want" "$tmp/renju.out"
"$prog" brain ai5 --rule renju </dev/null >"$tmp/bad.out" 2>"$tmp/bad.err"
check "brain --rule renju exits 2" test $? -eq 2
grep -q "renju rule is not supported.*freestyle or exact" "$tmp/bad.err"
check "brain --rule renju: the message names the rules" test $? -eq 0

"$prog" brain "$here/forever.lua" --no-sandbox <"$here/cases/fallback.in" >"$tmp/fb.out"
cat >"$tmp/fb.want" <<'OUT'
OK
MESSAGE forever did not answer within 270 ms: fallback move
4,4
MESSAGE forever did not answer within 270 ms: fallback move
4,3
OUT
same "late AI killed, fallback in time" "$tmp/fb.want" "$tmp/fb.out"
"$prog" brain "$here/forever.lua" <"$here/cases/fallback_sandbox.in" >"$tmp/fbs.out"
sed 's/did not answer within 270 ms/failed (instructions)/' "$tmp/fb.want" >"$tmp/fbs.want"
same "sandboxed AI out of budget, fallback" "$tmp/fbs.want" "$tmp/fbs.out"

# a command line longer than the protocol's limit: ERROR, and the brain goes on
{ echo "START 9"; head -c 10000 /dev/zero | tr '\0' x; echo; echo "BEGIN"; echo "END"; } |
    "$prog" brain ai1 --seed 1 >"$tmp/long.out"
printf 'OK\nERROR line longer than 4096 bytes\n0,0\n' >"$tmp/long.want"
same "brain: a line too long" "$tmp/long.want" "$tmp/long.out"

"$prog" brain --help >"$tmp/help" 2>&1
check "brain --help" grep -q "usage: marubatsu \[options\] brain AI" "$tmp/help"
"$prog" brain >/dev/null 2>"$tmp/err"
check "brain without an AI: exit 2" test $? -eq 2
check "brain without an AI: message" grep -q "an AI is needed" "$tmp/err"
"$prog" brain ai1 --margin x >/dev/null 2>&1
check "brain --margin x: exit 2" test $? -eq 2
"$prog" brain no_such_ai </dev/null >"$tmp/out" 2>"$tmp/err"
check "brain unknown AI: exit 1" test $? -eq 1
check "brain unknown AI: stdout empty" test ! -s "$tmp/out"

# ---- the manager side ----
tour() { "$prog" tournament --width 9 --height 9 --k 5 --jobs 1 --no-progress --quiet "$@"; }
export BRAIN_PROG="$prog"
spec="brain:$here/recorder.sh brain ai1 --seed 1:timeout_turn=5000,timeout_match=60000,max_memory=0,log=/dev/stderr"
tour "$spec" ai2 --games 2 --out "$tmp/rec" >/dev/null 2>>"$tmp/log"
tour "$spec" ai2 --games 2 --out "$tmp/rec2" --openings "$here/cases/openings.txt" >/dev/null 2>>"$tmp/log"
sed -n 's/^IN //p' "$tmp/log" | sed 's/^INFO time_left [0-9-]*$/INFO time_left */' >"$tmp/log.in.masked"
sed -n 's/^OUT //p' "$tmp/log" >"$tmp/log.out"
same "manager transcript: commands" "$here/golden/manager.in" "$tmp/log.in.masked"
same "manager transcript: answers" "$here/golden/manager.out" "$tmp/log.out"
cat "$tmp/rec/journal.tsv" "$tmp/rec2/journal.tsv" | grep '^G' | cut -f 2,8-10 >"$tmp/games"
same "manager transcript: games" "$here/golden/manager.games" "$tmp/games"
# a brain's name: its ABOUT answer's, asked once by the pre-flight; with
# name= none is asked (the transcript has no ABOUT)
check "brain name: from ABOUT" grep -q "^P	1	marubatsu-ai1	brain:" "$tmp/rec/journal.tsv"
tour "brain:$here/recorder.sh brain ai1 --seed 1:max_memory=0,log=/dev/stderr,name=Rec" ai2 --games 2 \
    --out "$tmp/rec3" >/dev/null 2>"$tmp/log3"
check "brain name: name= wins" grep -q "^P	1	Rec	brain:" "$tmp/rec3/journal.tsv"
check "brain name: name= asks no ABOUT" test "$(grep -c '^IN ABOUT' "$tmp/log3")" -eq 0

# broken brains: every game lost with this reason
# (the second word marks this run's brains, for the process check below)
# (a brain that refuses START fails the pre-flight: --allow-forfeits plays it)
forfeit() { # forfeit MODE KEYS REASON
    rm -rf "$tmp/f"
    allow=
    [ "$1" = refuse ] && allow=--allow-forfeits
    tour "brain:$here/fake_brain.sh $1 run$$:$2" ai1 --games 2 --out "$tmp/f" $allow >/dev/null 2>&1
    got=$(grep '^G' "$tmp/f/journal.tsv" | cut -f 9,10 | sort -u | tr '\t\n' '| ')
    want="o|$3 x|$3 "
    if [ "$got" = "$want" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "not ok: fake brain $1: got '$got', expected '$want'"
    fi
}
forfeit crash timeout_turn=2000 "crash: killed by signal 11 (SIGSEGV)"
forfeit exit timeout_turn=2000 "crash: exit status 3"
forfeit stall timeout_turn=300 "time: no move within 300 ms (timeout_turn)"
forfeit slow "timeout_turn=5000,timeout_match=1000" "time: the game clock of 1000 ms ran out (timeout_match)"
forfeit garbage timeout_turn=2000 'unreadable output: "I resign, said nobody" (neither a move X,Y nor OK, ERROR, UNKNOWN, MESSAGE, DEBUG, SUGGEST)'
forfeit occupied timeout_turn=2000 "illegal move: 0,0 (A1, occupied)"
forfeit offboard timeout_turn=2000 "illegal move: 99,99 (off the board)"
forfeit error timeout_turn=2000 "error: the brain answered ERROR out of ideas"
forfeit refuse timeout_turn=2000 "error: START refused: this board is too big for me"
forfeit flood timeout_turn=2000 "unreadable output: a line too long"
# max_memory: a brain that allocates without end is ended past its limit
forfeit hog "timeout_turn=5000,max_memory=67108864" "memory: over its limit of 64 MiB (max_memory)"
check "no brain process left" test -z "$(ps -eo args | grep "[f]ake_brain.sh .* run$$")"

rm -rf "$tmp/f"
tour "brain:$here/fake_brain.sh chatty:timeout_turn=5000" ai1 --games 2 --out "$tmp/f" >/dev/null 2>&1
grep '^G' "$tmp/f/journal.tsv" | cut -f 8-10 >"$tmp/chatty"
printf 'I1,A1,I2,B1,I3,C1,I4,D1,I5\to\t\nA1,I1,B1,I2,C1,I3,D1,I4,E1\to\t\n' >"$tmp/chatty.want"
same "MESSAGE/DEBUG/empty lines skipped" "$tmp/chatty.want" "$tmp/chatty"
check "brain name: no ABOUT answer, the program's file name" grep -q "^P	1	fake_brain.sh	brain:" "$tmp/f/journal.tsv"

# the pre-flight: a brain that cannot run, refuses START or plays k=5 only
# stops the tournament before any game (exit 2, one line); with
# --allow-forfeits it loses every game with the reason
rm -rf "$tmp/f"
tour "brain:/nonexistent/brain" ai1 --games 2 --out "$tmp/f" >/dev/null 2>"$tmp/err"
check "pre-flight: brain that cannot run: exit 2" test $? -eq 2
check "pre-flight: brain that cannot run: message" grep -qx \
    "marubatsu tournament: players\[1\] brain:/nonexistent/brain cannot start: cannot run /nonexistent/brain: No such file or directory" "$tmp/err"
check "pre-flight: brain that cannot run: no game played" test ! -e "$tmp/f"
tour "brain:$here/fake_brain.sh refuse" ai1 --games 2 --out "$tmp/f" >/dev/null 2>"$tmp/err"
check "pre-flight: START refused: exit 2" test $? -eq 2
check "pre-flight: START refused: message" grep -q \
    "^marubatsu tournament: players\[1\] brain:.*fake_brain.sh refuse failed the Gomocup handshake: START refused: this board is too big for me$" "$tmp/err"
tour "brain:/nonexistent/brain" ai1 --games 2 --out "$tmp/f" --allow-forfeits >/dev/null 2>&1
check "brain that cannot run" test "$(grep -c 'error: cannot run /nonexistent/brain: No such file or directory' "$tmp/f/journal.tsv")" -eq 2
rm -rf "$tmp/f"
"$prog" tournament "brain:$here/fake_brain.sh chatty" ai1 --games 2 --out "$tmp/f" --quiet >/dev/null 2>"$tmp/err"
check "pre-flight: k=3 refused for brains: exit 2" test $? -eq 2
check "pre-flight: k=3 refused for brains: message" grep -q \
    "cannot play this board (3x3, k=3): Gomocup brains play five in a row, this board has k=3$" "$tmp/err"
"$prog" tournament "brain:$here/fake_brain.sh chatty" ai1 --games 2 --out "$tmp/f" --quiet --allow-forfeits >/dev/null 2>&1
check "k=3 refused for brains" test "$(grep -c 'error: Gomocup brains play five in a row, this board has k=3' "$tmp/f/journal.tsv")" -eq 2
tour "brain:$here/fake_brain.sh chatty:speed=3" ai1 --games 2 >/dev/null 2>"$tmp/err"
check "unknown brain key: exit 2" test $? -eq 2
check "unknown brain key: message" grep -q "unknown brain key 'speed' (timeout_turn, timeout_match, max_memory, tolerance, ponder, log; player options: name, st, tc)$" "$tmp/err"

# journals: resume and shards with brains
b="brain:$prog brain ai1 --seed 1:timeout_turn=5000,max_memory=0"
tour "$b" ai2 ai3 --games 4 --seed 5 --out "$tmp/one" >/dev/null
grep '^G' "$tmp/one/journal.tsv" | sort -n -k2 >"$tmp/one.games"
head -n 12 "$tmp/one/journal.tsv" >"$tmp/cut.tsv" # header (8 lines) and 4 games
mkdir -p "$tmp/res" && cp "$tmp/cut.tsv" "$tmp/res/journal.tsv"
tour "$b" ai2 ai3 --games 4 --seed 5 --out "$tmp/res" --resume >/dev/null
grep '^G' "$tmp/res/journal.tsv" | sort -n -k2 >"$tmp/res.games"
same "resume with brains" "$tmp/one.games" "$tmp/res.games"
tour "$b" ai2 ai3 --games 4 --seed 5 --out "$tmp/s1" --shard 1/2 >/dev/null
tour "$b" ai2 ai3 --games 4 --seed 5 --out "$tmp/s2" --shard 2/2 >/dev/null
"$prog" merge "$tmp/s1" "$tmp/s2" --out "$tmp/m" --quiet >/dev/null
grep '^G' "$tmp/m/journal.tsv" | sort -n -k2 >"$tmp/m.games"
same "shards merged with brains" "$tmp/one.games" "$tmp/m.games"

# game records
"$prog" replay "$tmp/rec/journal.tsv" 1 --psq - >"$tmp/g1.psq"
cat >"$tmp/g1.want" <<'PSQ'
Piskvorky 9x9, 11:11, 0
1,1,0
5,6,0
2,1,0
2,6,0
3,1,0
6,1,0
4,1,0
2,8,0
5,1,0
marubatsu-ai1
ai2
-1
PSQ
same "replay --psq" "$tmp/g1.want" "$tmp/g1.psq"
"$prog" replay "$tmp/rec/journal.tsv" 1 --svg "$tmp/g1.svg"
check "replay --svg: valid XML" xmllint --noout "$tmp/g1.svg"
check "replay --svg: 9 stones" test "$(grep -c '<circle' "$tmp/g1.svg")" -eq 9
check "replay --svg: move 9 in red" grep -q 'fill="#d00">9</text>' "$tmp/g1.svg"
check "replay --svg: the winning line" grep -q 'stroke="#d00" stroke-width="3"' "$tmp/g1.svg"
# drawn over the stones and under the move numbers (each element a line)
line_at=$(grep -n 'stroke-width="3"' "$tmp/g1.svg" | cut -d: -f1)
check "replay --svg: the winning line over the last stone" test "$line_at" -gt "$(grep -n '<circle' "$tmp/g1.svg" | tail -1 | cut -d: -f1)"
check "replay --svg: the winning line under the first number" test "$line_at" -lt "$(grep -n 'fill="#fff">1</text>' "$tmp/g1.svg" | cut -d: -f1)"
"$prog" replay "$tmp/rec/journal.tsv" --psq - >/dev/null 2>&1
check "replay --psq without a game: exit 2" test $? -eq 2
"$prog" replay "$tmp/rec/journal.tsv" 7 --psq - >/dev/null 2>"$tmp/err"
check "replay --psq of a missing game: exit 1" test $? -eq 1
check "replay --psq of a missing game: message" grep -q "no game 7 in this journal" "$tmp/err"

. "$(dirname "$0")/contain.sh"

summary
