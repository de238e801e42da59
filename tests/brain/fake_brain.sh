#!/bin/sh
# fake_brain.sh MODE [MARK]: a deliberately broken Gomocup brain for the manager's
# tests (tests/brain/run.sh). It answers START with OK (or ERROR in mode
# "refuse") and then, whenever asked for a move (BEGIN, TURN, DONE):
#   crash     dies of SIGSEGV          exit      exits with status 3
#   stall     never answers            garbage   prints a line that is no answer
#   occupied  plays the square the opponent just took (on BEGIN: 4,4)
#   offboard  plays 99,99              error     answers ERROR
#   slow      answers 1,4 then 2,4 ... after 0.6 s each (for the game clock)
#   flood     20,000 bytes without a line end, then silence
#   hog       allocates without end (awk doubling a string)
#   chatty    MESSAGE, DEBUG and empty lines, then 8,0 8,1 8,2 ... (legal
#             against ai1 on 9x9, which fills row 0 from the left)
# MARK is ignored: a test names its own processes with it.
mode=$1
n=0
while IFS= read -r line; do
    line=$(printf '%s' "$line" | tr -d '\r')
    case $line in
    START*|RECTSTART*)
        if [ "$mode" = refuse ]; then echo "ERROR this board is too big for me"; else echo OK; fi
        continue ;;
    END) exit 0 ;;
    BEGIN) last="4,4" ;;
    TURN*) last=${line#TURN } ;;
    DONE) last="4,4" ;;
    *) continue ;;
    esac
    n=$((n + 1))
    case $mode in
    crash) kill -SEGV $$ ;;
    exit) exit 3 ;;
    stall) sleep 30 ;;
    garbage) echo "I resign, said nobody" ;;
    occupied) if [ "$line" = BEGIN ]; then echo 4,4; else echo "$last"; fi ;;
    offboard) echo 99,99 ;;
    error) echo "ERROR out of ideas" ;;
    slow) sleep 0.6; echo "$n,4" ;;
    flood) head -c 20000 /dev/zero | tr '\0' x; sleep 30 ;;
    hog) awk 'BEGIN { s = "x"; while (1) s = s s }'; exit $? ;;
    chatty) echo "MESSAGE thinking hard"; echo "DEBUG depth 1"; echo ""; echo "8,$((n - 1))" ;;
    esac
done
