/* bare.h: the naive references of make bench: the same work as the
 * engine's rows with no generality (no back-ends, no game record, no
 * callbacks), timed in the same run so that the ratio survives a noisy
 * machine. Uses rng.h for the ai2 stream. */
#ifndef MB_BENCH_BARE_H
#define MB_BENCH_BARE_H

#include <stdint.h>

/* Perft of a w x h board with k in a row to `depth` plies from the empty
 * board on two bit masks: the total of nodes (the root included) and of
 * finished games. w*h <= 64. */
void bare_perft(int w, int h, int k, int depth, uint64_t *nodes, uint64_t *finished);
/* `pairs` iterations of ai2 VS ai2 on 3x3 (two random games each) from
 * seed 0 with the CPython-compatible stream; returns the stream's draws. */
uint64_t bare_pairs(int pairs);
/* The same stream and games with two tables and no line scan: the tight
 * loop that the engine's hot path is held within 2x of. */
uint64_t bare_pairs_tight(int pairs);
/* The series' ai_abs_dls benchmark call on 3x3 from the empty board: ai14s
 * written flat, fail-soft αβ to depth 8 below each root child in legal
 * order, one exact table for the call keyed by the position and storing
 * its bounds under its 8 symmetric images. Counts the nodes (1,175) and
 * the evaluations (235) into *nodes and *leaves. */
void bare_abs_dls(uint64_t *nodes, uint64_t *leaves);

#endif
