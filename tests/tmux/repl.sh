#!/bin/sh
# tests/tmux/repl.sh: the REPL in a real terminal, driven through tmux as a
# person would: history kept across restarts, tab completion of a method
# name, Ctrl-C stopping `while true do end` with the REPL alive and its
# variables intact, a second Ctrl-C on an empty line quitting.
# Usage: sh tests/tmux/repl.sh PROGRAM      (prints "N passed, N failed")
set -u
prog=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
if ! command -v tmux >/dev/null 2>&1; then
    echo "tmux not installed: skipped"
    echo "0 passed, 0 failed"
    exit 0
fi
tmp=$(mktemp -d)
session="mbrepl$$"
sock="$tmp/tmux.sock"
t() { tmux -S "$sock" "$@"; }
trap 't kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home"
pass=0
fail=0

screen() { t capture-pane -t "$session" -p; }

# wait_for TEXT: poll the screen until a line contains TEXT (10 s at most)
wait_for() {
    i=0
    while [ $i -lt 100 ]; do
        if screen | grep -qF -- "$1"; then return 0; fi
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

check() { # NAME TEXT: the screen shows TEXT
    if wait_for "$2"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $1: the screen never showed '$2'; it shows:"
        screen | sed 's/^/    | /'
    fi
}

start() {
    t new-session -d -s "$session" -x 100 -y 30 \
        "HOME='$tmp/home' MARUBATSU_HISTORY='$tmp/history' '$prog' -E; echo REPL-EXITED \$?; sleep 60"
    wait_for "help() for the API" || true
}

# Step 1. variables, completion, Ctrl-C
start
t send-keys -t "$session" 'answer = 41' Enter
t send-keys -t "$session" 'g = mb.Marubatsu()' Enter
t send-keys -t "$session" 'g:calc_le' Tab
check completion 'g:calc_legal_moves'
t send-keys -t "$session" '()' Enter
check completion_runs '{0, 3, 6, 1, 4, 7, 2, 5, 8}'
t send-keys -t "$session" 'while true do end' Enter
sleep 0.5
t send-keys -t "$session" C-c
check interrupted 'interrupted'
t send-keys -t "$session" 'answer + 1' Enter
check state_intact '42'
t send-keys -t "$session" C-c
check first_ctrl_c 'Ctrl-C again on an empty line'
t send-keys -t "$session" C-c
check second_ctrl_c_quits 'REPL-EXITED 0'
t kill-session -t "$session"

# Step 2. the history survives a restart: Up brings back the last line
start
t send-keys -t "$session" Up
check history 'answer + 1'
t send-keys -t "$session" C-u C-d
check ctrl_d_quits 'REPL-EXITED 0'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
