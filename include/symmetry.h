/* symmetry.h: the symmetries of a board, and canonical keys.
 *
 * A square board has 8 symmetries, numbered as the series' table (spec
 * game.md §10): 0 identity, 1 rotate 90° clockwise, 2 rotate 180°, 3 rotate
 * 90° counter-clockwise, 4 mirror left-right, 5 flip top-bottom, 6 reflect in
 * the anti-diagonal, 7 transpose. A non-square board keeps the 4 that map it
 * onto itself: 0, 2, 4, 5.
 *
 * Transform t defines the new board by "new square (x, y) reads old square
 * S_t(x, y)". The image of a move is derived from that same map, as its
 * inverse, so a position and its moves always transform together:
 * image(p + m) == image(p) + image(m). (The series had a back-end where the
 * two disagreed; see game.md §10.) Uses game.h. */
#ifndef MB_SYMMETRY_H
#define MB_SYMMETRY_H

#include <stdbool.h>

#include "game.h"

#define SYM_COUNT 8

/* ---- Which transforms ---- */

/* The transforms of this shape, in table order, into ids; returns 8 or 4. */
int symmetry_list(const Geometry *g, int ids[SYM_COUNT]);
/* True if transform t maps this shape onto itself. */
bool symmetry_applies(const Geometry *g, int t);
/* A short English name ("rotate 90° clockwise"). */
const char *symmetry_name(int t);

/* ---- Squares and moves ---- */

/* The old square that new square (x, y) reads under t: S_t(x, y). */
void symmetry_source(const Geometry *g, int t, int x, int y, int *sx, int *sy);
/* Where move m lands under t (the inverse of S_t); MOVE_NONE stays. */
int symmetry_move(const Geometry *g, int t, int m);

/* ---- Positions ---- */

/* The key of the position transformed by t (buf: ncells + 1 bytes). */
void symmetry_key(const Game *g, int t, char *buf);
/* The canonical key: the smallest key over every transform; returns the
 * transform that produced it (the first one in table order). */
int symmetry_canonical_key(const Game *g, char *buf);
/* Make dst (initialised, same shape) the image of src under t, move for
 * move, so its records, turn and status follow. MB_OK or MB_EINVAL. */
int symmetry_apply(const Game *src, int t, Game *dst);

#endif
