#!/bin/sh
# tests/tmux/interrupt.sh: Ctrl-C in a real terminal, driven through tmux,
# stops the engine's native calls, not just Lua loops. In the REPL, each of
# these is started, left to run a second, then stopped by Ctrl-C:
#   big = mb.Marubatsu{width=7,height=6,k=4}; big:move(24)
#   r = mb.search_iddfs(big, {timelimit = 1e6})           (αβ, iddfs)
#   mb.solve(mb.Marubatsu{width=8,height=8,k=5})           (the solver)
#   s = mb.mcts{}; s:search(b, {playouts = 1e9})           (MCTS, 9x9)
#   an AI calling mb.search_iddfs inside mb.ai_match       (a match)
# and each time the error "interrupted" appears (the time from the key to
# the screen is printed; asserted under 5 s, generous for a loaded
# machine: the engine's own latency is test_engine's interrupt/ suite),
# the next prompt still has the earlier variables, the game is as it was
# given (one move on 7x6), the REPL is alive. mb.ai_match and `marubatsu
# match` print the partial tables ("partial: interrupted (Ctrl-C) after
# ..."), never "did not play a legal move", and `match` exits 130. Two
# Ctrl-C in quick succession during a call leave the REPL running.
# Usage: sh tests/tmux/interrupt.sh PROGRAM      (prints "N passed, N failed")
set -u
prog=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
if ! command -v tmux >/dev/null 2>&1; then
    echo "tmux not installed: skipped"
    echo "0 passed, 0 failed"
    exit 0
fi
tmp=$(mktemp -d)
session="mbint$$"
sock="$tmp/tmux.sock"
t() { tmux -S "$sock" "$@"; }
trap 't kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home"
pass=0
fail=0

# the whole pane, history included
screen() { t capture-pane -t "$session" -p -J -S - 2>/dev/null; }
# how many lines end in the REPL's error "interrupted" (after an echoed ^C)
count_interrupted() { screen | grep -cE '^(\^C)?interrupted$'; }

# wait_for TEXT [TENTHS]: poll until a line contains TEXT (10 s by default)
wait_for() {
    i=0
    while [ $i -lt "${2:-100}" ]; do
        if screen | grep -qF -- "$1"; then return 0; fi
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

ok() {
    pass=$((pass + 1))
    echo "ok $1"
}
bad() {
    fail=$((fail + 1))
    echo "FAIL $1"
    screen | grep -v '^$' | tail -n 25 | sed 's/^/    | /'
}
check() { # NAME TEXT: the screen shows TEXT
    if wait_for "$2"; then ok "$1"; else bad "$1: the screen never showed '$2'"; fi
}
check_re() { # NAME REGEX: a line matches the extended REGEX
    i=0
    while [ $i -lt 100 ]; do
        if screen | grep -qE -- "$2"; then
            ok "$1"
            return
        fi
        sleep 0.1
        i=$((i + 1))
    done
    bad "$1: no line matches '$2'"
}
check_not() { # NAME TEXT: the screen does not show TEXT
    if screen | grep -qF -- "$2"; then bad "$1: the screen shows '$2'"; else ok "$1"; fi
}

now_ms() { date +%s%3N; }

# interrupt NAME: Ctrl-C, then wait for one more "interrupted" line (the
# REPL's error) and print the time it took to show
interrupt() {
    before=$(count_interrupted)
    t0=$(now_ms)
    t send-keys -t "$session" C-c
    while [ "$(count_interrupted)" -le "$before" ] && [ $(($(now_ms) - t0)) -lt 10000 ]; do
        sleep 0.01
    done
    ms=$(($(now_ms) - t0))
    if [ "$(count_interrupted)" -gt "$before" ] && [ "$ms" -lt 5000 ]; then
        ok "$1: stopped by Ctrl-C in $ms ms (key to screen)"
    else
        bad "$1: no 'interrupted' within 5 s of Ctrl-C ($ms ms)"
    fi
}

# start_running CODE MARK: type CODE, which prints MARK first (so the test
# knows the call is under way), and give it a second
start_running() {
    t send-keys -t "$session" "$1" Enter
    wait_for "$2" 100 || true
    sleep 1
}

t new-session -d -s "$session" -x 120 -y 50 \
    "HOME='$tmp/home' MARUBATSU_HISTORY='$tmp/history' '$prog' -E; echo REPL-EXITED \$?; sleep 60"
wait_for "help() for the API" || true

# ---- search_iddfs on 7x6 ---------------------------------------------------
t send-keys -t "$session" 'x = 42; big = mb.Marubatsu{width=7,height=6,k=4}; big:move(24)' Enter
start_running 'print("go1"); r = mb.search_iddfs(big, {timelimit = 1e6})' go1
interrupt "search_iddfs 7x6"
t send-keys -t "$session" 'print("after1 " .. x .. " " .. big.move_count .. " " .. tostring(r))' Enter
check "search_iddfs: variables kept, game as given" "after1 42 1 nil"

# ---- the solver on 8x8 k5 ----------------------------------------------------
start_running 'print("go2"); v = mb.solve(mb.Marubatsu{width=8,height=8,k=5})' go2
interrupt "solve 8x8 k5"
t send-keys -t "$session" 'print("after2 " .. x .. " " .. tostring(v) .. " " .. big.move_count)' Enter
check "solve: variables kept" "after2 42 nil 1"

# ---- MCTS on 9x9 -------------------------------------------------------------
t send-keys -t "$session" 'b = mb.Marubatsu{width=9,height=9,k=5}' Enter
start_running 'print("go3"); s = mb.mcts{}; s:search(b, {playouts = 1e9})' go3
interrupt "mcts 9x9, 1e9 playouts"
t send-keys -t "$session" 'print("after3 " .. x .. " " .. type(s) .. " " .. b.move_count)' Enter
check "mcts: variables kept" "after3 42 userdata 0"

# ---- mb.ai_match with an AI deep in a native search --------------------------
t send-keys -t "$session" 'slow = mb.make_ai("slow", function(g) return mb.search_iddfs(g, {timelimit = 1e6}) end)' Enter
start_running 'print("go4"); mb.ai_match{ai = {slow, "ai2"}, match_num = 3, mbparams = {width=7,height=6,k=4}}' go4
interrupt "ai_match, the AI in a native search"
check "ai_match: the partial tables" "partial: interrupted (Ctrl-C) after 0 of 6 games"
check_re "ai_match: the tables follow" '^total +0 +0 +0$'
check_not "ai_match: no AI blamed" "did not play a legal move"

# ---- mb.ai_match of Lua AIs: a partial table with games ------------------------
start_running 'print("go5"); mb.ai_match{ai = {"ai14s", "ai2"}, match_num = 10000000}' go5
interrupt "ai_match, Lua AIs"
if screen | grep -q 'partial: interrupted (Ctrl-C) after [1-9][0-9]* of 20000000 games$'; then
    ok "ai_match: a partial table of the games played"
else
    bad "ai_match: no partial table with games"
fi
check_not "ai_match (Lua AIs): no AI blamed" "did not play a legal move"

# ---- two Ctrl-C in quick succession --------------------------------------------
start_running 'print("go6"); r2 = mb.search_iddfs(big, {timelimit = 1e6})' go6
t send-keys -t "$session" C-c
sleep 0.2
t send-keys -t "$session" C-c
sleep 0.5
t send-keys -t "$session" 'print("after6 " .. x .. " " .. big.move_count)' Enter
check "two Ctrl-C: the REPL goes on, variables kept" "after6 42 1"
t send-keys -t "$session" C-d
check "Ctrl-D still quits" "REPL-EXITED 0"
t kill-session -t "$session"

# ---- marubatsu match: partial tables, exit 130 ----------------------------------
t new-session -d -s "$session" -x 120 -y 50 \
    "HOME='$tmp/home' '$prog' match ai14s ai2 -n 10000000 --no-progress; echo MATCH-EXITED \$?; sleep 60"
wait_for "ai14s VS ai2" 100 || true
sleep 1.5
t send-keys -t "$session" C-c
check "match: exit 130" "MATCH-EXITED 130"
if screen | grep -q 'partial: interrupted (Ctrl-C) after [1-9][0-9]* of 20000000 games$'; then
    ok "match: partial tables"
else
    bad "match: no partial table"
fi
check_re "match: the ratio table" '^total +[0-9]+\.[0-9]% +0\.0% +[0-9]+\.[0-9]%$'
check_not "match: no AI blamed" "did not play a legal move"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
