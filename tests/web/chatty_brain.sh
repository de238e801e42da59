#!/bin/sh
# tests/web/chatty_brain.sh [hostile]: a Gomocup brain for the web tests
# (api.mjs, browser.mjs) that says something before each move: a MESSAGE
# line holding HTML and a terminal escape (the messages panel must show it
# as text), and a DEBUG line; then it plays on the bottom row, at the column
# of the number of stones it was told of (A15 on an empty board, B15 after
# one stone, ...: the server starts it afresh for every move). With "hostile" it floods 400 MESSAGE lines of 400 bytes first
# (160 KB: a game keeps at most 256 lines or 32 KiB, then a note).
n=0
esc=$(printf '\033')
while IFS= read -r line; do
    line=$(printf '%s' "$line" | tr -d '\r')
    case $line in
    START*|RECTSTART*) echo OK ;;
    END) exit 0 ;;
    BOARD) n=0; counting=1 ;;
    [0-9]*,*) [ "${counting:-}" ] && n=$((n + 1)) ;;
    BEGIN|TURN*|DONE)
        case $line in TURN*) n=1 ;; BEGIN) n=0 ;; esac
        counting=
        if [ "${1:-}" = hostile ]; then
            long=$(head -c 400 /dev/zero | tr '\0' y)
            i=0
            while [ $i -lt 400 ]; do echo "MESSAGE $i $long"; i=$((i + 1)); done
        fi
        echo "MESSAGE move $n: <img src=x onerror=alert(1)> ${esc}[31mred"
        echo "DEBUG depth $n"
        echo "$n,14" ;;
    esac
done
