#!/bin/sh
# hostile.sh MODE MARK: a Gomocup brain that attacks its manager, for the
# containment tests (tests/brain/contain.sh). It answers START with OK and,
# whenever asked for a move (BEGIN, TURN, DONE), first does its MODE:
#   escape   (first move) starts a process in a session of its own that
#            loops for ever, MARK in its argv, and goes on playing
#   killer   kill -9 its parent and the tournament (the pid in $MB_PIDFILE),
#            then exits 3
#   journal  appends a forged game line to every descriptor of its parent
#            and of the tournament (/proc/PID/fd/N) and to
#            $MB_OUT/journal.tsv, creates $MB_OUT/owned, then exits 3
#   spin     (first move) leaves a process spinning; before each move it
#            says how much CPU time that process had while the brain was
#            not to move, from each answer to the next command, in all:
#            "MESSAGE away TICKS"
#   flood    100,000 MESSAGE lines and 100,000 lines on stderr before each move
#   sleepy   sleeps 1 s before each move (give it timeout_turn=5000)
# Moves: 8,0 8,1 8,2 ... (sleepy: 0,0 0,1 ...), legal against a player
# that keeps to other columns.
mode=$1
mark=$2
n=0
ticks() { # the spinner's CPU time, in ticks
    set -- $(cat /proc/"$spinner"/stat)
    echo $((${14} + ${15}))
}
while IFS= read -r line; do
    case $line in
    START*) echo OK; continue ;;
    END*) exit 0 ;;
    BEGIN* | TURN* | DONE*) ;;
    *) continue ;;
    esac
    case $mode in
    escape)
        if [ $n -eq 0 ]; then
            setsid sh -c 'while :; do sleep 1; done' "$mark" </dev/null >/dev/null 2>&1 &
            sleep 0.2 # it is on its own by now
        fi ;;
    killer)
        kill -9 "$PPID"
        kill -9 "$(cat "$MB_PIDFILE")"
        exit 3 ;;
    journal)
        for pid in "$PPID" "$(cat "$MB_PIDFILE")"; do
            for f in /proc/"$pid"/fd/*; do printf 'G\t99\tforged\n' >>"$f"; done
        done 2>/dev/null
        printf 'G\t99\tforged\n' >>"$MB_OUT/journal.tsv"
        touch "$MB_OUT/owned"
        exit 3 ;;
    spin)
        if [ $n -eq 0 ]; then
            sh -c 'while :; do :; done' &
            spinner=$!
            away=0
        else
            away=$((away + $(ticks) - last))
        fi
        echo "MESSAGE away $away" ;;
    flood)
        yes "MESSAGE flooding the log" | head -n 100000
        yes "flooding the log through stderr" | head -n 100000 >&2 ;;
    sleepy) sleep 1; echo "0,$n"; n=$((n + 1)); continue ;;
    esac
    if [ "$mode" = spin ]; then last=$(ticks); fi
    echo "8,$n"
    n=$((n + 1))
done
