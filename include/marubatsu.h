/* marubatsu.h: the whole engine in one include: shapes, boards, games,
 * notation, journal lines and player specs, mark patterns, symmetries,
 * win-check variants, perft, line features, Zobrist keys, candidate moves
 * and the CPython-compatible random stream.
 * Link with -lmarubatsu (pkg-config marubatsu). */
#ifndef MB_MARUBATSU_H
#define MB_MARUBATSU_H

#include "board.h"
#include "brainproc.h"
#include "candidates.h"
#include "eval14.h"
#include "eval_lines.h"
#include "game.h"
#include "geometry.h"
#include "gomocup.h"
#include "interrupt.h"
#include "journal.h"
#include "linefeat.h"
#include "markpats.h"
#include "mcts.h"
#include "mberror.h"
#include "notation.h"
#include "perft.h"
#include "rating.h"
#include "rng.h"
#include "clock.h"
#include "search.h"
#include "solve.h"
#include "fulldepth.h"
#include "symmetry.h"
#include "tree.h"
#include "tt.h"
#include "utf8fix.h"
#include "vcf.h"
#include "wincheck.h"
#include "zobrist.h"

#endif
