#!/bin/sh
# tests/tmux/progress.sh: the progress bar of `match` and `tournament` in a
# real terminal (scripts/lib/progress.lua). In detached tmux panes 100 and
# 64 columns wide on a private server it starts a long match (default
# progress: stderr is a terminal), waits for the bar and checks that it is
# one line rewritten in place (a single bar line on the screen, however
# many redraws), as wide as the pane less one column (never wrapping), with
# the count, percent and the time left; Ctrl-C then ends the match with the
# partial table below the bar (exit status 130). A tournament shows its bar
# with games/s and, with --progress lines, a line per game instead.
# Every wait polls the pane with a timeout; the tmux server is always killed.
# Usage: sh tests/tmux/progress.sh [PROGRAM]      (default build/marubatsu)
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
export LC_ALL=C
unset TMUX
sock="marubatsu-progress-$$"
. tests/tmux/lib.sh

# the pane (no line joining: a wrapped line would show as two)
screen() { T capture-pane -p -S - -t "$1" 2>/dev/null; }
bars() { screen "$1" | grep -c '^ *[0-9]*%|'; }
has_bar() { [ "$(bars "$1")" -ge 1 ]; }
finished() { screen "$1" | grep -q '^\[exit status'; }
has() { screen "$1" | grep -q -- "$2"; }

for width in 100 64; do
    s=match$width
    T new-session -d -s "$s" -x "$width" -y 30 \
        "'$prog' match ai2 ai2 -n 100000000 --width 9 --height 9 --k 5 --seed 1; echo \"[exit status \$?]\"; sleep 3600"
    wait_until has_bar "$s"
    check "$width columns: the bar appears" $? "$(screen "$s" | grep -v '^$' | tail -n 5)"
    sleep 1.5 # several redraws
    [ "$(bars "$s")" = 1 ]
    check "$width columns: one bar line however many redraws" $? "$(screen "$s" | grep -v '^$')"
    line=$(screen "$s" | grep '^ *[0-9]*%|' | sed 's/ *$//')
    len=$(printf '%s' "$line" | wc -c | tr -d ' ')
    [ "$len" -le $((width - 1)) ] && [ "$len" -ge $((width - 20)) ]
    check "$width columns: the bar fits the width ($len of $width)" $? "$line"
    printf '%s\n' "$line" | grep -q '/100000000 ' && printf '%s\n' "$line" | grep -q ' left\| it/s'
    check "$width columns: count and time left on the bar" $? "$line"
    T send-keys -t "$s" C-c
    wait_until finished "$s"
    check "$width columns: Ctrl-C ends the match" $?
    has "$s" '^\[exit status 130\]' && has "$s" '^partial: interrupted' && has "$s" '^total '
    check "$width columns: the partial table below the bar, status 130" $? "$(screen "$s" | grep -v '^$' | tail -n 12)"
done

s=tour
T new-session -d -s "$s" -x 100 -y 30 \
    "'$prog' tournament ai2 ai1 --games 200000 --jobs 1 --width 9 --height 9 --k 5 --quiet --progress bar; echo \"[exit status \$?]\"; sleep 3600"
# --quiet silences the bar too: give the tournament a moment, then look
sleep 1
[ "$(bars "$s")" = 0 ]
check "tournament --quiet: no bar" $? "$(screen "$s" | grep -v '^$' | tail -n 3)"
T send-keys -t "$s" C-c
wait_until finished "$s"
T kill-session -t "$s"
T new-session -d -s "$s" -x 100 -y 30 \
    "'$prog' tournament ai2 ai1 --games 200000 --jobs 1 --width 9 --height 9 --k 5; echo \"[exit status \$?]\"; sleep 3600"
wait_until has_bar "$s"
check "tournament: the bar appears" $? "$(screen "$s" | grep -v '^$' | tail -n 5)"
sleep 1
[ "$(bars "$s")" = 1 ] && screen "$s" | grep '^ *[0-9]*%|' | grep -q 'games/s'
check "tournament: one bar line, in games/s" $? "$(screen "$s" | grep -v '^$' | tail -n 5)"
T send-keys -t "$s" C-c
wait_until finished "$s"
has "$s" '^\[exit status 130\]'
check "tournament: Ctrl-C ends it, status 130" $? "$(screen "$s" | grep -v '^$' | tail -n 5)"
T kill-session -t "$s"
T new-session -d -s "$s" -x 100 -y 30 \
    "'$prog' tournament ai2 ai1 --games 4 --jobs 1 --progress lines; echo \"[exit status \$?]\"; sleep 3600"
wait_until finished "$s"
[ "$(screen "$s" | grep -c '^Finished game')" = 4 ] && [ "$(bars "$s")" = 0 ]
check "tournament --progress lines on a terminal: a line per game, no bar" $? "$(screen "$s" | grep -v '^$' | head -n 8)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
