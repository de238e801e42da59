#!/bin/sh
# recorder.sh ARGS...: run "$BRAIN_PROG ARGS..." as a brain, appending what
# the manager sends it to $BRAIN_LOG.in and what it answers to
# $BRAIN_LOG.out (tests/brain/run.sh compares them with golden
# transcripts; the environment keeps the player's name, and so the game
# seeds, the same whichever program and directory are used).
tee -a "$BRAIN_LOG.in" | "$BRAIN_PROG" "$@" | tee -a "$BRAIN_LOG.out"
