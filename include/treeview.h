/* treeview.h: pictures of a subtree of the 3x3 game tree (tree.h), as the
 * series' tree viewer draws them, restated for files and a terminal:
 *
 * - SVG: every node a small 3x3 grid with its marks, filled by its score
 *   (o wins: red shades, draw: grey, x wins: blue shades), the square of
 *   its last move highlighted (yellow), its score below it; edges from a
 *   node to its children labelled with the move ("B2"), edges of best
 *   moves thicker, and the principal line (from the start node, always the
 *   first best move) drawn in dark red with the boards on it outlined.
 *   Each board is one <g class="board" ...> element, so they can be
 *   counted.
 * - DOT (Graphviz): one node per board, labelled with the three rows of
 *   its board ("o.x") and its score, filled like the SVG; edges labelled
 *   with the move, best-move edges bold, the principal line red.
 * - text: each child indented by its depth below the start node, its move
 *   in Excel notation, its score, and " *" on best moves.
 *
 * The tree must be scored (tree_score). `depth` counts the levels drawn
 * below the start node (0: the start node alone) and is clamped to what
 * exists; node numbers in the DOT output are the tree's node indices, so
 * the output is deterministic. Nothing is allocated. Uses tree.h. */
#ifndef MB_TREEVIEW_H
#define MB_TREEVIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tree.h"

#define TREEVIEW_MAX_DEPTH 9

/* Nodes drawn: the start node and its descendants down to `depth` levels. */
int64_t treeview_count(const Tree *t, int32_t start, int depth);
/* Write the SVG / DOT picture to f. MB_OK, MB_EINVAL (tree not scored, bad
 * node or depth outside 0..TREEVIEW_MAX_DEPTH) or MB_EIO (the stream
 * reported an error). Scores print as tree_format_score with float_style. */
int treeview_write_svg(const Tree *t, int32_t start, int depth, bool float_style, FILE *f);
int treeview_write_dot(const Tree *t, int32_t start, int depth, bool float_style, FILE *f);
/* The text view: a first line "score S, o to move" ("x to move", "game
 * over"), then one line per descendant down to `depth`: two spaces per
 * level below the first, "MOVE SCORE", " *" on a best move of its parent.
 * Same return values. */
int treeview_write_text(const Tree *t, int32_t start, int depth, bool float_style, FILE *f);

#endif
