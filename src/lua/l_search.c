/* l_search.c: mb.search_abs_dls, the series' depth-limited αβ search
 * ai_abs_dls under its root driver ai_by_mmscore (search.h; spec search.md
 * §3-§4, ais.md §7.5), from Lua; mb.search_pvs_dls (ai_pvs_dls, ais.md
 * §7.6: the same options without use_tt, the table always on) and
 * mb.search_iddfs (ai_ab_iddfs / ai_pvs_iddfs, ais.md §8: options pvs
 * (false), moveordering (true), eval, use_tt (true), share_tt (true),
 * timelimit (10 seconds), rand (true: one choice per completed
 * depth), analyze (false: the move; true: the list of per-depth records,
 * each as below plus `depth`)).
 *
 *   mb.search_abs_dls(game, opts) -> move | analysis | score
 *   opts: maxdepth (1.., default 1)    plies below each root child
 *         eval ("ai14s", the C evaluator, default; "lines", the C
 *               evaluator on the line features (eval_lines.h); or a Lua
 *               function (game) -> o-view score, called at the leaves on
 *               `game`)
 *         candidates (nil: every legal move; d: the candidate moves at
 *               distance d, best first, at every node: candidates.h)
 *         use_tt (false), share_tt (true), timelimit (seconds or nil),
 *         rand (true: one choice from mb.stream over the tie list, also
 *               with analyze), analyze (false), calc_score (false: true
 *               returns the search value of the position itself)
 *
 * The search moves the engine game in place and restores it exactly. A
 * Lua evaluator reads the game's fields, which live in the state table C
 * keeps in sync (l_game.c), so before every Lua call the fields the search
 * changed are rewritten (lmb_game_refresh_at), and once more after the search.
 * A search with a Lua evaluator runs in one protected call (run_protected):
 * an error in the evaluator ends it there, the game is unmoved back to the
 * search's start, and the error is raised again. An ai_by_score AI given
 * as eval_func is called through its eval (the wrapper's minimax negation
 * in C). A timeout returns nil, "time out".
 * Unknown option names are errors (they are usually typos). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "candidates.h"
#include "eval14.h"
#include "eval_lines.h"
#include "l_budget.h"
#include "l_search.h"
#include "l_search_options.h"
#include "linefeat.h"
#include "vcf.h"
#include "search.h"

/* What the C eval callback needs to call a Lua evaluator. */
typedef struct LuaEval {
    lua_State *L;
    Search *s;
    int fn;           /* stack index of the evaluator */
    int game;         /* stack index of the game userdata */
    int params;       /* stack index of the evaluator's params (eval_func), or 0 */
    int err;          /* stack index of a slot that receives the error value */
    int view;         /* stack index of the game's view (lmb_game_push_view) */
    bool negate_o;    /* the score wrapper's minimax: negate when 〇 is to move */
    bool failed;      /* the evaluator raised an error (its value is at err) */
    const char *name; /* the Lua function's name, for messages */
} LuaEval;

/* The leaf callback of a Lua evaluator: fn(game), or fn(game, params) for
 * eval_func, on the game's fields brought up to date (only what the search
 * changed since the last leaf is rewritten). It runs inside
 * run_protected(), so an error raised here (by the evaluator, or by the
 * checks that it left the game as it found it and returned a number)
 * unwinds the whole search at once: no protected call per leaf. */
static double lua_eval(Game *g, void *ud)
{
    LuaEval *e = ud;
    lua_State *L = e->L;
    lmb_game_refresh_at(L, e->game, g, e->view);
    int mc = g->move_count;
#ifdef MB_CHECK_INVARIANTS
    uint64_t digest = lmb_game_digest(g);
#endif
    int hold = lmb_game_hold(g); /* given back by run_protected if the call raises */
    lua_pushvalue(L, e->fn);
    lua_pushvalue(L, e->game);
    if (e->params) lua_pushvalue(L, e->params);
    lua_call(L, e->params ? 2 : 1, 1);
    lmb_game_release(g, hold);
    /* pinned, the game can only have moved on: back at the same count it is
     * the position it was given */
    if (g->move_count != mc)
        luaL_error(L,
                   "%s: the evaluator changed the game (it must leave the game as it "
                   "found it)",
                   e->name);
    int isnum;
    lua_Number v = lua_tonumberx(L, -1, &isnum);
    if (!isnum)
        luaL_error(L, "%s: the evaluator returned %s, expected a number", e->name,
                   luaL_typename(L, -1));
    if (isnan(v)) luaL_error(L, "%s: the evaluator returned NaN", e->name);
#ifdef MB_CHECK_INVARIANTS
    if (lmb_game_digest(g) != digest)
        luaL_error(L, "%s: internal error: the game changed under its hold", e->name);
#endif
    lua_pop(L, 1);
    return e->negate_o && g->turn == MARK_O ? -v : v;
}

/* One engine call (a search) with a Lua evaluator, under lua_pcall: an
 * error at a leaf longjmps over the search's C frames, which own nothing
 * (the Search and its tables belong to the caller), and the game, which the
 * search only moves and unmoves, is taken back to the position it started
 * from by unmoving, as the search itself would have unwound. The error
 * value goes to the evaluator's error slot and the status is
 * SEARCH_ABORTED. With the C evaluator the call is made directly. */
typedef SearchStatus (*EngineCall)(void *ctx);
typedef struct Protected {
    EngineCall call;
    void *ctx;
    LuaEval *le;
    SearchStatus st;
} Protected;

/* (p, game, fn [, params]): the evaluator's values as this frame's
 * arguments, where lua_eval finds them. */
static int protected_call(lua_State *L)
{
    Protected *p = lua_touserdata(L, 1);
    p->le->game = 2;
    p->le->fn = 3;
    p->le->params = p->le->params ? 4 : 0;
    lmb_game_push_view(L, 2);
    p->le->view = lua_gettop(L) - 1;
    p->st = p->call(p->ctx);
    return 0;
}

static SearchStatus run_protected(LuaEval *le, bool lua_evaluator, EngineCall call, void *ctx)
{
    if (!lua_evaluator) return call(ctx);
    lua_State *L = le->L;
    Game *g = le->s->game;
    int base = g->move_count;
    int hold = lmb_game_hold(g); /* the search's; the evaluator's nest inside it */
    LuaEval outer = *le;
    Protected p = {call, ctx, le, SEARCH_OK};
    lua_pushcfunction(L, protected_call);
    lua_pushlightuserdata(L, &p);
    lua_pushvalue(L, le->game);
    lua_pushvalue(L, le->fn);
    if (le->params) lua_pushvalue(L, le->params);
    int rc = lua_pcall(L, le->params ? 4 : 3, 0, 0);
    lmb_game_release(g, hold); /* also the hold of an evaluator that raised */
    le->game = outer.game;
    le->fn = outer.fn;
    le->params = outer.params;
    if (rc == LUA_OK) return p.st;
    lua_replace(L, le->err);
    le->failed = true;
    while (g->move_count > base) game_unmove(g);
    return SEARCH_ABORTED;
}

/* ---- Searches from a sandboxed script ----
 * The player's budgets bound the search (l_budget.h): its deadline is the
 * search's (at most), and every call of the evaluator checks the nodes
 * against the instructions left and the transposition tables against the
 * memory left, before a table doubles. A search stopped by a budget
 * raises that budget's error once the game is restored. */

typedef struct Bounded {
    SearchEval eval; /* the real evaluator and its data */
    void *ud;
    Search *s;
    NativeLimits nl;
    unsigned long long leaves;
    const char *why; /* the budget that stopped the search, or NULL */
} Bounded;

/* What the tables will hold at most before the next check: a table about
 * to grow holds its old and its new arrays at once (tt_cap_for: never past
 * its limit). */
static size_t tables_next(const Search *s)
{
    const TT *t = &s->tt;
    size_t cap = t->cap ? t->cap : tt_cap_for(t, 1);
    size_t next = tt_bytes(t, cap), grown = tt_cap_for(t, 2 * MB_MAX_CELLS);
    if (grown > cap) next += tt_bytes(t, grown);
    if (s->tt_for_mo) next += tt_bytes(s->tt_for_mo, s->tt_for_mo->cap);
    return next;
}

static double bounded_eval(Game *g, void *ud)
{
    Bounded *bd = ud;
    if (bd->nl.max_nodes && ++bd->leaves > bd->nl.max_nodes) bd->why = "instructions";
    if (bd->nl.room != SIZE_MAX && tables_next(bd->s) > bd->nl.room) bd->why = "memory";
    if (bd->why) {
        bd->s->status = SEARCH_ABORTED;
        return 0;
    }
    return bd->eval(g, bd->ud);
}

/* Put the bounds around s's evaluator when L is a sandboxed state. */
static void bound_search(lua_State *L, Search *s, Bounded *bd)
{
    bd->nl = budget_native(L);
    bd->s = s;
    bd->leaves = 0;
    bd->why = NULL;
    if (!bd->nl.b) return;
    bd->eval = s->eval;
    bd->ud = s->eval_ud;
    s->eval = bounded_eval;
    s->eval_ud = bd;
}

/* The deadline of a bounded search: its own time limit or the player's. */
static double bounded_timelimit(const Bounded *bd, double timelimit)
{
    if (!bd->nl.b || bd->nl.seconds < 0) return timelimit;
    return timelimit < 0 || bd->nl.seconds < timelimit ? bd->nl.seconds : timelimit;
}

/* The analysis record of one root call (a table on the stack). */
static void push_root(lua_State *L, const SearchRootResult *r, const int *pv, int npv,
                      size_t tt_size, bool tt_full)
{
    lua_createtable(L, 0, 12);
    int t = lua_gettop(L);
    lmb_push_moves(L, r->candidates, r->ncandidates);
    lua_setfield(L, t, "candidate");
    lua_createtable(L, 0, r->nmoves);
    for (int i = 0; i < r->nmoves; i++) {
        lua_pushnumber(L, r->scores[i]);
        lua_rawseti(L, -2, r->moves[i]);
    }
    lua_setfield(L, t, "score_by_move");
    lmb_push_moves(L, r->moves, r->nmoves);
    lua_setfield(L, t, "moves");
    lua_createtable(L, r->nmoves, 0);
    for (int i = 0; i < r->nmoves; i++) {
        lua_pushinteger(L, (lua_Integer)r->counts[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, t, "counts");
    lua_pushnumber(L, r->best_score);
    lua_setfield(L, t, "score");
    lua_pushinteger(L, r->bestmove);
    lua_setfield(L, t, "bestmove");
    lmb_push_moves(L, pv, npv);
    lua_setfield(L, t, "PV");
    lua_pushinteger(L, (lua_Integer)r->total);
    lua_setfield(L, t, "count");
    lua_pushnumber(L, r->time);
    lua_setfield(L, t, "time");
    lua_pushinteger(L, (lua_Integer)tt_size);
    lua_setfield(L, t, "tt_size");
    if (tt_full) { /* the table reached its limit: replaced entries */
        lua_pushboolean(L, 1);
        lua_setfield(L, t, "hash_full");
    }
}

/* A transposition table kept between calls, one per Lua state: a fresh
 * table's memory costs more than the benchmark search itself (its pages
 * are touched anew), and clearing a kept one is O(1). A nested call (a Lua
 * evaluator that searches) finds it busy and uses a fresh table. */
typedef struct KeptTable {
    TT tt;
    bool busy;
} KeptTable;

static int kept_gc(lua_State *L)
{
    KeptTable *k = lua_touserdata(L, 1);
    tt_free(&k->tt);
    return 0;
}

/* The state's kept table, made on first use. [-0, +0, m] */
static KeptTable *kept_table(lua_State *L)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, LMB_KEPT_TT_KEY) == LUA_TUSERDATA) {
        KeptTable *k = lua_touserdata(L, -1);
        lua_pop(L, 1);
        return k;
    }
    lua_pop(L, 1);
    KeptTable *k = lua_newuserdatauv(L, sizeof *k, 0);
    tt_init(&k->tt);
    k->busy = false;
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, kept_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, LMB_KEPT_TT_KEY);
    return k;
}

/* Lend the kept table to s (when free and of this board's size). */
static bool borrow_table(KeptTable *k, Search *s, const Game *g)
{
    if (k->busy) return false;
    if (k->tt.ncells && k->tt.ncells != tt_key_cells(game_geom(g)->ncells)) tt_free(&k->tt);
    tt_free(&s->tt);
    s->tt = k->tt;
    tt_clear(&s->tt);
    k->busy = true;
    return true;
}

/* Take the table back from s (so search_free leaves it alone). */
static void return_table(KeptTable *k, Search *s)
{
    k->tt = s->tt;
    tt_init(&s->tt);
    k->busy = false;
}

/* Raise the error of a search that ended with st (not SEARCH_OK, not a
 * timeout the caller reports as nil, "time out"): the evaluator's own error
 * (at its slot), or a message. Every failure of this file, from setting up
 * a search to its end, is a SearchStatus, and this is the one place one
 * becomes text. */
static int search_failed(lua_State *L, const char *fname, SearchStatus st, const LuaEval *le)
{
    if (st == SEARCH_ABORTED && le->failed) {
        lua_pushvalue(L, le->err);
        return lua_error(L);
    }
    if (st == SEARCH_INTERRUPTED) return lmb_error_interrupted(L);
    return luaL_error(L, "%s: %s", fname,
                      st == SEARCH_ENOMEM    ? "out of memory"
                      : st == SEARCH_ABORTED ? "the search was aborted"
                      : st == SEARCH_TIMEOUT ? "time out"
                                             : "internal error (a stored best move is not legal)");
}

/* Set up s (search_init) for the options o, or raise: the line evaluator
 * and the candidates switch the game's line features on first (kept
 * afterwards, as by game:candidates); search_init fails for memory (its
 * MB_ENOMEM is SEARCH_ENOMEM here). */
static void init_search(lua_State *L, const char *fname, Search *s, Game *g, LuaEval *le,
                        Options *o, int maxdepth)
{
    /* the threat search's table against a sandbox's memory, before any
     * allocation */
    NativeLimits nl = budget_native(L);
    if (o->vcf && nl.b && nl.room != SIZE_MAX && nl.room < VCF_BYTES)
        budget_native_done(L, &nl, 0, "memory");
    if ((o->lines || o->candidates) && linefeat_enable(&g->board) != MB_OK)
        luaL_error(L, "%s: not enough memory for the line features", fname);
    int err = o->lua_eval ? search_init(s, g, lua_eval, le, maxdepth)
              : o->lines  ? search_init(s, g, eval_lines_search_eval, &o->lines_w, maxdepth)
                          : search_init(s, g, eval14_search_eval, NULL, maxdepth);
    if (err == MB_ENOMEM) search_failed(L, fname, SEARCH_ENOMEM, le);
    if (err == MB_OK && o->vcf && (err = search_set_vcf(s, o->vcf)) != MB_OK) search_free(s);
    if (err != MB_OK) luaL_error(L, "%s: %s", fname, mb_strerror(err));
    s->candidates = o->candidates;
}

/* The engine call of run_dls: the value of the position (calc_score) or
 * the root driver. */
typedef struct DlsRun {
    Search *s;
    bool calc_score, share_tt;
    Rng *rng;
    SearchRootResult *out;
    double *score;
} DlsRun;

static SearchStatus dls_call(void *ctx)
{
    DlsRun *d = ctx;
    if (!d->calc_score) return (SearchStatus)search_root(d->s, d->share_tt, d->rng, d->out);
    double t0 = clock_now();
    SearchStatus st = (SearchStatus)search_run(d->s, d->score);
    d->out->time = clock_now() - t0;
    d->out->total = d->s->count;
    return st;
}

/* mb.search_abs_dls / mb.search_pvs_dls (game, opts) */
static int run_dls(lua_State *L, const Kind *kind)
{
    const char *fname = kind->name;
    Game *g = lmb_check_game(L, 1);
    lua_settop(L, 2);
    lua_pushnil(L); /* 3: the error slot of a Lua evaluator */
    Options o = lmb_search_options(L, 2, kind);
    int fn = o.fn;
    if (!o.calc_score && g->status != STATUS_PLAYING)
        return luaL_error(L, "%s: the game is over (%s)", fname, status_name(g->status));
    Rng *rng = o.rand && !o.calc_score ? lmb_default_stream(L, fname) : NULL;
    luaL_checkstack(L, 16, fname);
    Bounded bd;
    bd.nl = budget_native(L);
    /* a sandbox keeps no table between calls (its memory would not count) */
    KeptTable *kept = bd.nl.b ? NULL : kept_table(L);

    /* no Lua error may escape from here to search_free */
    Search s;
    LuaEval le = {.L = L,
                  .s = &s,
                  .fn = fn,
                  .params = o.params,
                  .game = 1,
                  .err = 3,
                  .negate_o = o.negate_o,
                  .failed = false,
                  .name = fname};
    init_search(L, fname, &s, g, &le, &o, o.maxdepth);
    SearchStatus st;
    bound_search(L, &s, &bd);
    bool borrowed = kept && borrow_table(kept, &s, g);
    search_set_hash(&s, o.hash);
    s.use_tt = o.use_tt;
    s.pvs = o.pvs;
    double timelimit = bounded_timelimit(&bd, o.timelimit);
    if (timelimit >= 0) search_set_timelimit(&s, timelimit);
    SearchRootResult r;
    double score = 0;
    int pv[MB_MAX_CELLS], npv = 0;
    size_t tt_size = 0;
    DlsRun run = {.s = &s,
                  .calc_score = o.calc_score,
                  .share_tt = o.share_tt,
                  .rng = rng,
                  .out = &r,
                  .score = &score};
    st = run_protected(&le, o.lua_eval, dls_call, &run);
    if (st == SEARCH_OK && !o.calc_score && o.analyze) {
        if (o.share_tt)
            npv = search_pv(g, &s.tt, r.bestmove, pv);
        else
            pv[npv++] = r.bestmove;
    }
    tt_size = tt_count(&s.tt);
    bool tt_full = s.tt.full;
    if (borrowed) return_table(kept, &s);
    unsigned long long vcf_nodes = s.vcf_nodes;
    search_free(&s);
    if (o.lua_eval) lmb_game_sync(L, 1); /* the fields as they were */
    if (bd.nl.b && !le.failed) {
        unsigned long long nodes = (st == SEARCH_OK ? (unsigned long long)r.total : 0) + vcf_nodes;
        budget_native_done(L, &bd.nl, nodes > bd.leaves ? nodes : bd.leaves, bd.why);
    }

    if (st == SEARCH_TIMEOUT) {
        lua_pushnil(L);
        lua_pushliteral(L, "time out");
        return 2;
    }
    if (st != SEARCH_OK) return search_failed(L, fname, st, &le);

    if (o.calc_score) {
        lua_pushnumber(L, score);
        return 1;
    }
    if (!o.analyze) {
        lua_pushinteger(L, r.bestmove);
        return 1;
    }
    push_root(L, &r, pv, npv, tt_size, tt_full);
    return 1;
}

static int l_search_abs_dls(lua_State *L) { return run_dls(L, &LMB_SEARCH_ABS); }
static int l_search_pvs_dls(lua_State *L) { return run_dls(L, &LMB_SEARCH_PVS); }

/* The engine call of l_search_iddfs. */
typedef struct IddfsRun {
    Search *s;
    const SearchIddfsOptions *io;
    Rng *rng;
    SearchIter *iters;
    int cap;
    SearchIddfsResult *res;
} IddfsRun;

static SearchStatus iddfs_call(void *ctx)
{
    IddfsRun *d = ctx;
    return (SearchStatus)search_iddfs(d->s, d->io, d->rng, d->iters, d->cap, d->res);
}

/* mb.search_iddfs(game, opts) -> move | list of per-depth analyses
 * (ai_ab_iddfs / ai_pvs_iddfs, ais.md §8): each record as search_abs_dls's
 * with `depth` added; a timeout ends the deepening quietly. */
static int l_search_iddfs(lua_State *L)
{
    const char *fname = LMB_SEARCH_IDDFS.name;
    Game *g = lmb_check_game(L, 1);
    lua_settop(L, 2);
    lua_pushnil(L); /* 3: the error slot of a Lua evaluator */
    Options o = lmb_search_options(L, 2, &LMB_SEARCH_IDDFS);
    int fn = o.fn;
    if (g->status != STATUS_PLAYING)
        return luaL_error(L, "%s: the game is over (%s)", fname, status_name(g->status));
    Rng *rng = o.rand ? lmb_default_stream(L, fname) : NULL;
    luaL_checkstack(L, 16, fname);
    int cap = game_geom(g)->ncells + 1;
    SearchIter *iters = lua_newuserdatauv(L, (size_t)cap * sizeof *iters, 0);

    /* no Lua error may escape from here to search_free */
    Search s;
    LuaEval le = {.L = L,
                  .s = &s,
                  .fn = fn,
                  .params = o.params,
                  .game = 1,
                  .err = 3,
                  .negate_o = o.negate_o,
                  .failed = false,
                  .name = fname};
    init_search(L, fname, &s, g, &le, &o, 1);
    search_set_hash(&s, o.hash);
    Bounded bd;
    bound_search(L, &s, &bd);
    s.pvs = o.pvs;
    SearchIddfsOptions io = {.timelimit = bounded_timelimit(&bd, o.timelimit),
                             .moveordering = o.moveordering || o.pvs,
                             .use_tt = o.use_tt,
                             .share_tt = o.share_tt};
    SearchIddfsResult res;
    IddfsRun run = {&s, &io, rng, iters, cap, &res};
    SearchStatus st = run_protected(&le, o.lua_eval, iddfs_call, &run);
    unsigned long long vcf_nodes = s.vcf_nodes;
    search_free(&s);
    if (o.lua_eval) lmb_game_sync(L, 1); /* the fields as they were */
    if (bd.nl.b && !le.failed) {
        unsigned long long nodes = 0;
        for (int i = 0; i < res.niter && st == SEARCH_OK; i++) nodes += iters[i].root.total;
        nodes += vcf_nodes;
        budget_native_done(L, &bd.nl, nodes > bd.leaves ? nodes : bd.leaves, bd.why);
    }
    if (st != SEARCH_OK) return search_failed(L, fname, st, &le);
    if (!o.analyze) {
        lua_pushinteger(L, res.bestmove);
        return 1;
    }
    lua_createtable(L, res.niter, 0);
    for (int i = 0; i < res.niter; i++) {
        push_root(L, &iters[i].root, iters[i].pv, iters[i].npv, iters[i].tt_size, iters[i].tt_full);
        lua_pushinteger(L, iters[i].depth);
        lua_setfield(L, -2, "depth");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static const luaL_Reg functions[] = {
    {"search_abs_dls", l_search_abs_dls},
    {"search_pvs_dls", l_search_pvs_dls},
    {"search_iddfs", l_search_iddfs},
    {NULL, NULL},
};

void lmb_open_search(lua_State *L) { luaL_setfuncs(L, functions, 0); }
