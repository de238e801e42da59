#!/bin/sh
# tests/tmux/play.sh: `marubatsu play` in a real terminal. It starts
# `marubatsu play --lang ja --seed 3` (a person as o against ai14s) in a detached tmux
# session of 100x40 on a private tmux server, types a move, `undo`, then
# always the first empty square until the game ends, reading the board with
# `tmux capture-pane`, and checks that the board is drawn (with 〇/× on a
# UTF-8 terminal), that undo takes back two plies, and that the game reaches
# a final "winner ..." position, a result line and exit status 0.
# Then the hard line as a person meets it, with a sandboxed AI stuck inside
# one C call (tests/tournament/hostile/stuck_in_gc.lua: a collection that
# runs for tens of seconds, which no in-VM budget can stop): as 〇 it loses
# its first move on time with a message saying why, well within its budget
# (1 s) + the slack (0.5 s) + a margin (8.5 s), with exit status 1 and no
# process left behind; as the hint AI, `hint` answers with its reason in
# the same bound and the game goes on (a move is taken and answered, then
# `exit`); and Ctrl-C during a stuck hint ends play at once (status 130).
# Every wait polls the pane with a timeout; the tmux server is always killed.
# Usage: sh tests/tmux/play.sh [PROGRAM]      (default build/marubatsu)
# Ends with "N passed, N failed"; exit status 1 if anything failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
prog=${1:-build/marubatsu}
if ! command -v tmux >/dev/null 2>&1; then
    echo "tmux not installed: skipped"
    echo "0 passed, 0 failed"
    exit 0
fi
case "$prog" in /*) ;; *) prog="$(pwd)/$prog" ;; esac
# byte-wise text tools; the program gets a UTF-8 locale of its own below
export LC_ALL=C
unset TMUX # a private server, also when run inside tmux
sock="marubatsu-test-$$"
session=mbtest
PROMPT_TEXT='exit を入力すると終了します'
O='〇'
WAIT_TENTHS=150 # wait_until: at most 15 s
. tests/tmux/lib.sh

# the whole pane, history included, wrapped lines joined
screen() { T capture-pane -p -J -S - -t "$session" 2>/dev/null; }
prompts() { screen | grep -c -F "$PROMPT_TEXT"; }
prompts_en() { screen | grep -c -F 'Type exit to quit'; }
more_prompts_en_than() { [ "$(prompts_en)" -gt "$1" ]; }

more_prompts_than() { [ "$(prompts)" -gt "$1" ]; }
finished() { screen | grep -q '^\[exit status'; }
prompt_or_end() { more_prompts_than "$1" || finished; }

# The last board on the screen: its rows, one line each, with the marks
# as o, x and . separated by blanks (the row numbers removed).
last_board() {
    screen | awk -v o="$O" '
        /^(Turn|winner) / { n = 0; rows = ""; inside = 1; next }
        inside && /^ *[A-Z]/ && n == 0 { next }          # the column letters
        inside && /^ *[0-9]+ / {
            line = ""
            for (i = 2; i <= NF; i++) {
                c = $i == "." ? "." : ($i == o ? "o" : "x")
                line = line (i > 2 ? " " : "") c
            }
            rows = rows line "\n"; n++; next
        }
        { inside = 0 }
        END { printf "%s", rows }'
}
marks() { last_board | tr -cd 'ox' | wc -c | tr -d ' '; }
# the first empty square of the last board, as "x,y" (0-based)
first_empty() {
    last_board | awk '{ for (i = 1; i <= NF; i++) if ($i == ".") { print (i - 1) "," (NR - 1); exit } }'
}

# ---- start the game ----------------------------------------------------------
T new-session -d -s "$session" -x 100 -y 40 \
    "env LC_ALL=C.UTF-8 LANG=C.UTF-8 TERM=xterm-256color '$prog' play --lang ja --seed 3; echo \"[exit status \$?]\"; sleep 3600"
wait_until more_prompts_than 0
check "the first prompt appears" $?
if [ "$fail" -ne 0 ]; then # nothing else can work: show why and stop
    screen | grep -v '^$' | tail -n 20
    echo "$pass passed, $fail failed"
    exit 1
fi
screen | grep -q "^Turn $O\$"
check "the board header shows 〇 (UTF-8 terminal)" $?
screen | grep -q '^ *A  B  C'
check "the column letters are shown" $?
[ "$(last_board | wc -l | tr -d ' ')" = 3 ] && [ "$(marks)" = 0 ]
check "an empty 3x3 board is drawn" $? "$(last_board)"

# ---- a move, then undo ------------------------------------------------------------
n=$(prompts)
T send-keys -t "$session" B2 Enter
wait_until more_prompts_than "$n"
check "after B2 the prompt comes back" $?
[ "$(marks)" = 2 ] && last_board | sed -n 2p | grep -q '^\. o \.$'
check "B2 and the AI's reply are on the board" $? "$(last_board)"

n=$(prompts)
T send-keys -t "$session" undo Enter
wait_until more_prompts_than "$n"
screen | grep -q '^undo: took back 2 moves (B2, '
check "undo reports two moves taken back" $?
[ "$(marks)" = 0 ]
check "undo takes back two plies (the board is empty again)" $? "$(last_board)"

# ---- play the first empty square until the game ends ----------------------------
moves=0
while ! finished && [ $moves -lt 9 ]; do
    n=$(prompts)
    sq=$(first_empty)
    [ -n "$sq" ] || break
    T send-keys -t "$session" "$sq" Enter
    wait_until prompt_or_end "$n" || break
    moves=$((moves + 1))
done
wait_until finished
check "the game ends and the program exits" $?
screen | grep -q '^winner '
check "the final position has a 'winner ...' line" $?
screen | grep -q '^result: '
check "the result line is printed" $?
screen | grep -q '^\[exit status 0\]'
check "exit status 0" $?

if [ "$fail" -ne 0 ] || [ -n "${MB_TMUX_SHOW:-}" ]; then
    echo "--- the pane:"
    screen | grep -v '^$' | tail -n 40
fi

# ---- the hard line: a sandboxed AI stuck inside one C call ------------------------
tmp=$(mktemp -d)
trap 'cleanup; rm -rf "$tmp"' EXIT
# a copy under a name of its own, so that its processes can be found
stuck="$tmp/stuck_in_gc.lua"
cp tests/tournament/hostile/stuck_in_gc.lua "$stuck"
BOUND=10 # seconds from the move's start: budget 1 + slack 0.5 + a generous margin

now() { date +%s.%N; }
# seconds between two now()s
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
within() { awk -v t="$1" -v max="$2" 'BEGIN { exit !(t < max) }'; }
shows() { screen | grep -q -F -- "$1"; }
# the program's processes (the worker too, a fork) still playing the stuck AI
left_behind() { ps -eo args= | awk -v p="$prog" -v s="$stuck" 'index($0, p) == 1 && index($0, s)'; }
nothing_left() { [ -z "$(left_behind)" ]; }

start_play() { # start_play SESSION ARGS...: a new game in its own session
    session=$1
    shift
    T new-session -d -s "$session" -x 200 -y 40 \
        "env LC_ALL=C.UTF-8 LANG=C.UTF-8 TERM=xterm-256color '$prog' play --lang en $*; echo \"[exit status \$?]\"; sleep 3600"
}

# the stuck AI as o: its first move is lost, the game ends with the reason
start_play stuck_o --o "'$stuck'" --x ai2 --seed 3
wait_until shows "Turn $O"
t0=$(now)
wait_until finished
t1=$(now)
took=$(elapsed "$t0" "$t1")
screen | grep -q '^marubatsu play: stuck_in_gc (o) did not play a legal move: time (killed after [0-9.]* s: stuck inside one call past its 1 s budget)$'
check "a stuck move: play says it was lost on time and why" $? "$(screen | grep -v '^$' | tail -n 3)"
within "$took" "$BOUND"
check "a stuck move: play ends it within $BOUND s (took $took s)" $?
screen | grep -q '^\[exit status 1\]'
check "a stuck move: exit status 1, as for a move its budget stops" $?
wait_until nothing_left
check "a stuck move: no process left behind" $? "$(left_behind)"

# the stuck AI as the hint: the hint gives its reason, the game goes on
start_play stuck_hint --x ai2 --hint "'$stuck'" --seed 3
wait_until more_prompts_en_than 0
n=$(prompts_en)
t0=$(now)
T send-keys -t "$session" hint Enter
wait_until more_prompts_en_than "$n"
t1=$(now)
took=$(elapsed "$t0" "$t1")
screen | grep -q '^hint: stuck_in_gc did not play a legal move: time (killed after [0-9.]* s: stuck inside one call past its 1 s budget); the game goes on$'
check "a stuck hint: play says why it has no hint" $? "$(screen | grep -v '^$' | tail -n 3)"
within "$took" "$BOUND"
check "a stuck hint: the prompt is back within $BOUND s (took $took s)" $?
n=$(prompts_en)
T send-keys -t "$session" B2 Enter
wait_until more_prompts_en_than "$n"
[ "$(marks)" = 2 ] && [ "$(last_board | awk 'NR == 2 { print $2 }')" = o ]
check "a stuck hint: the game goes on (B2 and the AI's reply)" $? "$(last_board)"
T send-keys -t "$session" exit Enter
wait_until finished
screen | grep -q '^\[exit status 0\]'
check "a stuck hint: exit ends the game, status 0" $?

# Ctrl-C while the hint is stuck: play stops at once
start_play stuck_ctrl_c --x ai2 --hint "'$stuck'" --seed 3
wait_until more_prompts_en_than 0
T send-keys -t "$session" hint Enter
sleep 0.3
t0=$(now)
T send-keys -t "$session" C-c
wait_until finished
t1=$(now)
took=$(elapsed "$t0" "$t1")
screen | grep -q 'marubatsu play: interrupted$' && screen | grep -q '^\[exit status 130\]'
check "Ctrl-C during a stuck hint: 'interrupted', status 130" $? "$(screen | grep -v '^$' | tail -n 3)"
within "$took" 5
check "Ctrl-C during a stuck hint: play stops at once (took $took s)" $?
wait_until nothing_left
check "Ctrl-C during a stuck hint: no process left behind" $? "$(left_behind)"

if [ "$fail" -ne 0 ] || [ -n "${MB_TMUX_SHOW:-}" ]; then
    echo "--- the pane of $session:"
    screen | grep -v '^$' | tail -n 20
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
