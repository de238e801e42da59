/* l_search_options.h: the options tables of mb.search_abs_dls,
 * mb.search_pvs_dls and mb.search_iddfs read into one struct (for
 * l_search.c only; l_search_options.c): each entry point's option names
 * (one list serves the check of unknown names and the message) and
 * defaults, the evaluator (ai14s, lines with its weights, or a Lua
 * function), the numbers and flags. */
#ifndef MB_L_SEARCH_OPTIONS_H
#define MB_L_SEARCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "eval_lines.h"
#include "l_game.h"

typedef struct Options {
    int maxdepth;
    bool lua_eval;  /* the evaluator is a Lua function (stack slot fn) */
    int fn, params; /* stack slots of the Lua evaluator and of its params (0: none) */
    bool negate_o;  /* an ai_by_score eval with minimax: negate when 〇 is to move */
    bool use_tt, share_tt, rand, analyze, calc_score;
    bool pvs, moveordering;   /* mb.search_iddfs */
    double timelimit;         /* < 0: none */
    int candidates;           /* 0: every legal move; d: the candidates at distance d */
    bool lines;               /* the C evaluator "lines" (eval_lines.h), else "ai14s" */
    EvalLinesWeights lines_w; /* its weights (option lines_weights; the defaults) */
    int vcf;                  /* the VCF win check's attacker moves; 0: off */
    size_t hash;              /* bytes of the tables (search_set_hash) */
} Options;

/* One Lua entry point: its name, its option names (and their list for
 * messages) and its defaults. */
typedef struct Kind {
    const char *name;
    const char *const *names;
    Options dflt;
} Kind;

/* The three entry points. */
extern const Kind LMB_SEARCH_ABS, LMB_SEARCH_PVS, LMB_SEARCH_IDDFS;

/* Read the options table at t for kind; a Lua evaluator is pushed (its
 * slot is o.fn; with eval_func its params follow at o.params), else
 * nothing is pushed. Raises a Lua error naming kind's function on an
 * unknown name or a bad value. */
Options lmb_search_options(lua_State *L, int t, const Kind *kind);

#endif
