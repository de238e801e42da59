/* tree.h: the full 3x3 game tree of the series (spec tree.md), its minimax
 * scores in three schemes, best moves per node, and the best-move tables by
 * board with their JSON form.
 *
 * Owns a tree of every move sequence from the empty board (549,946 nodes,
 * the root included), built breadth-first or depth-first, in flat arrays:
 * one 16-byte TreeNode per node in creation order (the series' nodelist)
 * and one int per child link. The rules come from the engine (game.h): a
 * first walk with game_move/game_unmove records, for each of the 5,478
 * reachable boards, its status, side to move and legal moves; the tree is
 * then built from that per-board record, so a node costs a few stores.
 *
 * Boards are numbered by a "code": the sum over moves m of mark(m) * 3^m
 * (MARK_EMPTY 0, MARK_O 1, MARK_X 2), m the engine's move number y + 3x,
 * which is also the position of the square in the board key. Moves are the
 * engine's move numbers; sets of best moves are 9-bit masks with bit x + 3y
 * (TREE_BIT), so that ascending bits are the legal-move order (row by row).
 *
 * Scores are stored as twice their value (half points, int8_t): the draw
 * rewrite of sv_rd uses +-0.5. Display (tree.md §5): the
 * series' own, integers for the old scheme (1, 0, -1) and one decimal for
 * the shortest-victory schemes (3.0, -0.5) except that 0 prints as 0;
 * tree_format_score does it, and the JSON files use it byte for byte.
 *
 * The series' other per-node maps are not kept: nodelist_by_score and
 * score_index only animate its GUI, and nodelist_by_mb / bestmoves_by_mb
 * (keyed by move history) are tree_find plus the node's best moves.
 *
 * Nothing here prints, except the breadth-first progress lines, written to
 * the FILE the caller passes to tree_build. Uses game.h. */
#ifndef MB_TREE_H
#define MB_TREE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"

#define TREE_CELLS     9     /* 3x3 only */
#define TREE_NCODES    19683 /* 3^9 board codes */
#define TREE_DEPTHS    11    /* depth lists 0 .. 10 (depth 10 is always empty) */
#define TREE_NO_MOVE   0xff  /* TreeNode.move of the root */
#define TREE_BIT(x, y) (1u << ((x) + 3 * (y)))
#define TREE_SCORE_LEN 12 /* bytes of a formatted score */

typedef enum TreeOrder { TREE_BF, TREE_DF } TreeOrder;

/* SCORING_OLD: 〇 win 1, × win -1, draw 0 (spec tree.md §5).
 * SCORING_SV: shortest victory, (11 - d)/2 for a 〇 win at depth d and
 * (d - 10)/2 for a × win.
 * SCORING_SV_RD: sv, then the draw rewrite of spec ais.md §10: a node
 * scoring 0 becomes 0.5 if × is to move and 〇 wins somewhere below it,
 * -0.5 if 〇 is to move and × wins somewhere below it; not propagated up.
 * Its best moves are the children with the best rewritten score. */
typedef enum Scoring { SCORING_OLD, SCORING_SV, SCORING_SV_RD } Scoring;

typedef struct TreeNode {
    int32_t parent; /* -1 for the root */
    int32_t kids;   /* its children are kids[kids .. kids + nkids) of the Tree */
    uint16_t code;  /* the board */
    uint16_t best;  /* best moves (TREE_BIT mask); 0 until scored, 0 if finished */
    int8_t score;   /* twice the score; valid once scored */
    uint8_t move;   /* the move that made it; TREE_NO_MOVE at the root */
    uint8_t depth;  /* moves made */
    uint8_t nkids;  /* children (0: a finished game) */
} TreeNode;

/* What the engine says about one reachable board. */
typedef struct TreeBoard {
    uint8_t known;             /* reachable (the other fields are valid) */
    uint8_t status;            /* Status */
    uint8_t turn;              /* side to move */
    uint8_t nmoves;            /* legal moves, none once finished */
    uint8_t moves[TREE_CELLS]; /* in legal-move order */
    int32_t nodes;             /* in the subtree of a node holding this board, itself included */
} TreeBoard;

typedef struct Tree {
    TreeOrder order;
    int32_t n;                        /* nodes, root included */
    TreeNode *node;                   /* nodelist: node[0] is the root, creation order */
    int32_t *kids;                    /* child links, n - 1 of them */
    int ndepths;                      /* lists of the series' nodelist_by_depth: 11 bf, 10 df */
    int32_t depth_count[TREE_DEPTHS]; /* nodes per depth */
    TreeBoard *board;                 /* TREE_NCODES, indexed by code */
    bool scored;
    Scoring scoring;
} Tree;

/* One row of a board table. */
typedef struct TreeEntry {
    uint16_t code; /* the board */
    uint16_t best; /* best moves (TREE_BIT mask) */
    int8_t score;  /* twice the score; 0 without scores */
} TreeEntry;

/* A board -> {best moves, score} table, rows in insertion order (the first
 * node of each board in the tree's order, or the order of a JSON file). */
typedef struct TreeTable {
    int n;
    TreeEntry *entry;  /* TREE_NCODES capacity */
    int16_t *index;    /* code -> row, or -1 */
    bool has_score;    /* else the key -> best moves shape */
    bool float_scores; /* non-zero scores print as 3.0, -0.5 */
} TreeTable;

/* Counts over a built tree (spec tree.md §3, §4). */
typedef struct TreeStats {
    int32_t nodes; /* root included */
    int32_t by_depth[TREE_DEPTHS];
    int32_t leaves;                    /* finished games */
    int32_t leaves_by[TREE_DEPTHS][4]; /* by depth and Status (O, X, DRAW) */
    int32_t wins[4];                   /* leaves by Status */
    int32_t boards, finished_boards;   /* distinct boards */
} TreeStats;

/* ---- Building ---- */

/* Build the whole tree in `order` into t (not initialised; free it with
 * tree_free even on failure). Breadth-first writes the series' progress
 * lines to `progress` (NULL: none): "%6d depth %d node created" per level,
 * then "total node num = 549946". Depth-first writes nothing.
 * MB_OK, MB_ENOMEM, or MB_EINTR when the interrupt flag (interrupt.h,
 * read at every node) stopped it. About 2.5 ms breadth-first, 4 ms
 * depth-first, plus the first touch of its 11 MB (page faults: ~30 ms
 * more in a small VM). */
int tree_build(Tree *t, TreeOrder order, FILE *progress);
/* Release a tree (a zeroed or freed tree is fine). */
void tree_free(Tree *t);
/* Score every node in `scoring` and set its best moves (overwrites an
 * earlier scoring). MB_OK, MB_EINVAL (unknown scheme), MB_ENOMEM or
 * MB_EINTR (the interrupt flag, read every 4,096 nodes). */
int tree_score(Tree *t, Scoring scoring);

/* ---- Reading ---- */

/* The child of node i reached by move m, or -1. */
int32_t tree_child(const Tree *t, int32_t i, int m);
/* The node after moves[0..n) from the root, or -1. */
int32_t tree_find(const Tree *t, const int *moves, int n);
/* The status of node i's board. */
static inline Status tree_status(const Tree *t, int32_t i)
{
    return t->board[t->node[i].code].status;
}
/* Counts by depth and result, and distinct boards. */
void tree_stats(const Tree *t, TreeStats *s);

/* ---- Boards, moves and scores as text ---- */

/* The board key ("o..xo.x..") of a code; buf holds TREE_CELLS + 1. */
void tree_code_key(int code, char *buf);
/* The code of a key, or -1 unless it is 9 characters of '.', 'o', 'x'. */
int tree_key_code(const char *key);
/* The best-move mask as engine moves in legal order; returns how many. */
int tree_mask_moves(unsigned mask, int *moves);
/* A score (twice its value) as the series prints it: "1", "0", "3.0",
 * "-0.5" (float_style: one decimal unless 0). buf holds TREE_SCORE_LEN. */
void tree_format_score(int score2, bool float_style, char *buf);

/* ---- Tables by board (calc_and_save_bestmoves_by_board) ---- */

/* An empty table: MB_OK or MB_ENOMEM (t is freeable either way). */
int tree_table_init(TreeTable *t);
/* Release a table (a zeroed or freed one is fine). */
void tree_table_free(TreeTable *t);
/* Fill t (initialised) from a scored tree: the first node of each board in
 * nodelist order; 5,478 rows. MB_OK or MB_EINVAL (tree not scored). */
int tree_bestmoves_by_board(const Tree *tree, TreeTable *t);
/* The row of a code, or NULL. */
const TreeEntry *tree_table_get(const TreeTable *t, int code);
/* True if both tables have the same boards with the same best moves, and
 * the same scores when both have them (row order and score display aside).
 * Otherwise describes the first difference (in a's order) in diff:
 * "board o..x.....: score 2.0 vs 1.0" (a's value first). */
bool tree_table_equal(const TreeTable *a, const TreeTable *b, char *diff, size_t difflen);

/* ---- JSON ---- */

/* Write t in the shape of the series' JSON copies, byte for byte: compact,
 * rows in order, {"KEY":{"bestmoves":[[x,y],...],"score":S},...} or, with
 * with_score false, {"KEY":[[x,y],...],...}; no final newline. MB_OK, or
 * MB_EIO if the stream reported an error (errno says why). */
int tree_save_json(const TreeTable *t, bool with_score, FILE *f);
/* Read either shape into t (initialised; emptied first). Accepts any JSON
 * whitespace, the two fields in either order, scores that are multiples of
 * 0.5 without exponent. Rejects anything else (a key that is not a board, a
 * repeated key, a move off the board, on a taken square or out of legal
 * order, mixed shapes) with MB_ESYNTAX and "line L, column C: what" in err;
 * MB_ENOMEM. On failure t is left empty. */
int tree_parse_json(TreeTable *t, const char *text, size_t len, char *err, size_t errlen);
/* tree_parse_json on the whole of f (at most 64 MB). */
int tree_load_json(TreeTable *t, FILE *f, char *err, size_t errlen);

#endif
