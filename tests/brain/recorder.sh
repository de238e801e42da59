#!/bin/sh
# recorder.sh ARGS...: run "$BRAIN_PROG ARGS..." as a brain, copying each
# line the manager sends it to stderr as "IN LINE" and each line it answers
# as "OUT LINE". A brain's box lets it write nowhere but its own /tmp, so
# the transcript leaves through stderr: the tests give the player the key
# log=/dev/stderr and read the tournament's stderr (tests/brain/run.sh and
# tests/timecontrol/run.sh compare it with golden transcripts; the
# environment keeps the player's name, and so the game seeds, the same
# whichever program and directory are used).
relay() { # relay PREFIX: stdin to stdout, and each line with PREFIX to stderr
    while IFS= read -r line; do
        printf '%s\n' "$line"
        printf '%s %s\n' "$1" "$line" >&2
    done
}
relay IN | "$BRAIN_PROG" "$@" | relay OUT
