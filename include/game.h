/* game.h: the game record: a board plus whose turn it is, the moves so far and
 * the result, with the series' operations and their exact semantics.
 *
 * Decisions (spec game.md §4, §5, §14):
 * - last_turn is MARK_EMPTY ("none") whenever move_count == 0, after restart
 *   and after unmoving back to the start.
 * - records[0] is the sentinel MOVE_NONE, which converts to (-1, -1).
 * - game_unmove while replaying (after game_change_step) first drops the
 *   recorded future, then undoes the current last move.
 * - game_move is the unchecked fast path (the series' move); game_play checks
 *   a move first; game_place_mark/game_cmove validate like the series and also
 *   refuse a move once the game is over (MB_EOVER).
 * - judge: nobody can win before move 2k-1 (a board of fewer squares is a
 *   draw once full); a win on the last empty square is
 *   a win, not a draw; a full board is a draw.
 * Uses board.h (and so geometry.h). */
#ifndef MB_GAME_H
#define MB_GAME_H

#include <stdbool.h>

#include "board.h"

typedef uint8_t Status;
enum { STATUS_PLAYING = 0, STATUS_O = MARK_O, STATUS_X = MARK_X, STATUS_DRAW = 3 };

typedef struct GameOptions {
    int width, height; /* 0: 3 */
    int k;             /* 0: min(width, height) */
    BoardKind board;
    bool count_linemark;
    bool exact; /* the rule: false freestyle (k or more wins, the
                          default), true exactly k (geometry.h) */
} GameOptions;

typedef struct Game {
    Board board;
    Mark turn;      /* side to move: MARK_O first */
    Mark last_turn; /* side that moved last; MARK_EMPTY at move 0 */
    Status status;
    int move_count;
    int last_move; /* MOVE_NONE at move 0 */
    int *records;  /* records[0] = MOVE_NONE, records[i] = i-th move */
    int nrecords;  /* >= move_count + 1; more while replaying */
    bool edited;   /* marks were written outside move() (place_mark,
                       remove_mark), so the record may not match the board */
} Game;

/* ---- Life cycle ---- */

/* Default options: 3x3, k = 3, the bitboard, no counters. */
GameOptions game_default_options(void);
/* Start a game. MB_OK, MB_ESIZE (bad shape, message in err), MB_EINVAL
 * (unknown back-end) or MB_ENOMEM; on failure g is left freeable. */
int game_init(Game *g, const GameOptions *opt, char *err, size_t errlen);
/* Start a game on an existing shape (takes its own reference), so games of
 * one shape can share it: MB_OK, MB_EINVAL or MB_ENOMEM. */
int game_init_geometry(Game *g, Geometry *geo, BoardKind kind, bool count_linemark);
/* Release a game (a zeroed or freed game is fine). */
void game_free(Game *g);
/* Make dst (not initialised) an independent copy of src. */
int game_copy(Game *dst, const Game *src);
/* The options src was created with. */
GameOptions game_options(const Game *g);

/* ---- The series' operations ---- */

/* Back to the start position (restart). */
void game_restart(Game *g);
/* Play m for the side to move without any check (move): m must be an empty
 * square and the game still playing. Judges and records the move. */
void game_move(Game *g, int m);
/* game_move after checking: MB_ERANGE, MB_EOCCUPIED or MB_EOVER. */
int game_play(Game *g, int m);
/* Put `mark` on (x, y) after the series' checks, in order: range, then
 * occupancy (place_mark). MB_OK, MB_ERANGE or MB_EOCCUPIED; nothing changes
 * on failure. Does not touch turn or records. */
int game_place_mark(Game *g, int x, int y, Mark mark);
/* The checked move for people (cmove): MB_EOVER once the game is over, then
 * place_mark's checks, then the move. Nothing changes on failure. */
int game_cmove(Game *g, int x, int y);
/* Clear (x, y) only (remove_mark): MB_ERANGE, MB_EEMPTY or MB_OK. */
int game_remove_mark(Game *g, int x, int y);
/* Take back the last move (unmove); a no-op at move 0. */
void game_unmove(Game *g);
/* Legal moves in normative order into out (capacity ncells); none once the
 * game is over. Returns how many. */
int game_legal_moves(const Game *g, int *out);
/* The result after the last move (judge). */
Status game_judge(const Game *g);
/* Replay the record up to `step` (clamped), keeping the recorded future. */
void game_change_step(Game *g, int step);

/* ---- Leaving a game as found ---- */

/* What a walk of the tree must give back besides the marks: the move count
 * and the whole record, including a replayed future (game_change_step),
 * which game_move overwrites and game_unmove drops. */
typedef struct GameMark {
    int move_count, nrecords;
    int records[MB_MAX_CELLS + 1];
} GameMark;

/* Remember g's record before moving on it (copies nrecords ints). */
void game_mark(const Game *g, GameMark *mark);
/* Take back every move played since game_mark (g->move_count must not be
 * below the mark's), then put the record back exactly as it was. */
void game_rewind(Game *g, const GameMark *mark);

/* ---- Reading ---- */

/* The mark on move m. */
static inline Mark game_get(const Game *g, int m) { return board_get(&g->board, m); }
/* The game's shape. */
static inline const Geometry *game_geom(const Game *g) { return g->board.geom; }
/* The other side. */
static inline Mark mark_other(Mark m) { return (Mark)(MARK_O + MARK_X - m); }
/* "o", "x", "draw" or "playing". */
const char *status_name(Status s);
/* True if every derived field agrees with the marks and the record (turn,
 * counts, counters, key, status); the invariant checked in debug builds. */
bool game_ok(const Game *g);

#endif
