/* l_tree.c: the game tree's best-move tables for Lua (tree.h).
 *
 *   mb.load_bestmoves(path) -> table: a JSON copy of the series' tables
 *       (either shape), as {[key] = {bestmoves = {move, ...}, score = s}};
 *       score is nil for the key -> best moves shape. Moves are engine
 *       moves (y + 3x) in the file's order (the legal order). A bad file
 *       raises "PATH: line L, column C: what".
 *   mb.bestmoves_table([scoring]) -> table: the same, built from the full
 *       game tree in memory; scoring "old" (default), "sv" or "sv_rd".
 *   mb.mblist_by_board([kind]) -> list of move lists: the test positions of
 *       ais.md §10 (kind "min", default: 431 positions, one per symmetry
 *       class; "all": 3191, one per board where not every move is best;
 *       "unfinished": 4520, every reachable unfinished board).
 *   mb.tree_node(moves [, scoring]) -> {score =, bestmoves = {move, ...},
 *       children = {move, ...}, child_scores = {score, ...}} | nil: the node
 *       of the full game tree reached from the root by the move history
 *       `moves` (engine moves; the series' records without records[0]),
 *       nil if no such node. children are in the node's child order (the
 *       legal order), child_scores[i] the score of children[i]; bestmoves
 *       the node's stored best moves. The tree is built and scored once per
 *       Lua state and scoring ("old" default, "sv", "sv_rd") and kept.
 *   mb.tree_bestmoves(moves [, scoring]) -> {move, ...} | nil: the node's
 *       best moves alone (the series' bestmoves_by_mb[records]).
 *   mb.show_tree(game [, depth [, scoring]]): prints (through print) the
 *       text view of treeview.h of the game's position: a line with its
 *       score, then each child down to `depth` levels (default 1, 0..9),
 *       indented by level, its move in Excel notation, its score and " *"
 *       on best moves. 3x3 games played by moves only.
 *   mb.solve(game [, {timelimit = s, hash = MB}]) -> {value = "first
 *       player wins" | "draw" | "second player wins", best = move (nil once
 *       over), distance = plies, nodes = n, table = n, time = s, hash_full
 *       = true when the table reached its limit}: the exact value of the
 *       position (solve.h; boards of at most 64 squares; the table limited
 *       to hash megabytes, 64 by default). The game is not changed; a time
 *       limit reached raises an error, a Ctrl-C "interrupted".
 *
 * Scores are integers when whole (1, 0, -1, 3) and floats otherwise (0.5).
 * Uses tree.h and Lua 5.4. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l_tree.h"
#include "solve.h"
#include "l_budget.h"

/* The solver's memory, for a sandbox's cap: bytes per table slot, the
 * tables of a shape (permutations of mask bytes, lines, move maps), and
 * the smallest table worth starting with. */
#define SOLVE_ENTRY_BYTES 24
#define SOLVE_FIXED_BYTES (8 * 8 * 256 * 8 + 64 * 1024)
#define SOLVE_MIN_SLOTS   4096 /* solve.c grows its table from this size */
#include "tree.h"
#include "treeview.h"

/* Push the Lua form of a table. */
static void push_table(lua_State *L, const TreeTable *t)
{
    lua_createtable(L, 0, t->n);
    for (int i = 0; i < t->n; i++) {
        const TreeEntry *e = &t->entry[i];
        char key[TREE_CELLS + 1];
        int moves[TREE_CELLS];
        int n = tree_mask_moves(e->best, moves);
        tree_code_key(e->code, key);
        lua_createtable(L, 0, 2);
        lua_createtable(L, n, 0);
        for (int j = 0; j < n; j++) {
            lua_pushinteger(L, moves[j]);
            lua_rawseti(L, -2, j + 1);
        }
        lua_setfield(L, -2, "bestmoves");
        if (t->has_score) {
            if (e->score % 2 == 0)
                lua_pushinteger(L, e->score / 2);
            else
                lua_pushnumber(L, e->score / 2.0);
            lua_setfield(L, -2, "score");
        }
        lua_setfield(L, -2, key);
    }
}

/* mb.load_bestmoves(path) -> table */
static int l_load_bestmoves(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    FILE *f = fopen(path, "rb");
    if (!f) return luaL_error(L, "load_bestmoves: %s: %s", path, strerror(errno));
    TreeTable t;
    char err[256] = "";
    int rc = tree_table_init(&t);
    if (rc == MB_OK) rc = tree_load_json(&t, f, err, sizeof err);
    fclose(f);
    if (rc != MB_OK) {
        tree_table_free(&t);
        if (rc == MB_ENOMEM) return luaL_error(L, "load_bestmoves: %s: out of memory", path);
        return luaL_error(L, "load_bestmoves: %s: %s", path, err[0] ? err : "cannot read");
    }
    push_table(L, &t);
    tree_table_free(&t);
    return 1;
}

static Scoring check_scoring(lua_State *L, int arg)
{
    static const char *const names[] = {"old", "sv", "sv_rd", NULL};
    static const Scoring values[] = {SCORING_OLD, SCORING_SV, SCORING_SV_RD};
    return values[luaL_checkoption(L, arg, "old", names)];
}

/* Build and score the whole tree, or a Lua error (t is freed then). */
static void build_scored(lua_State *L, Tree *t, Scoring scoring)
{
    int rc = tree_build(t, TREE_DF, NULL);
    if (rc == MB_OK) rc = tree_score(t, scoring);
    if (rc != MB_OK) {
        tree_free(t);
        if (rc == MB_EINTR) lmb_error_interrupted(L);
        luaL_error(L, "game tree: %s", rc == MB_ENOMEM ? "out of memory" : "cannot build");
    }
}

/* mb.bestmoves_table([scoring]) -> table */
static int l_bestmoves_table(lua_State *L)
{
    Scoring scoring = check_scoring(L, 1);
    Tree tree;
    memset(&tree, 0, sizeof tree);
    build_scored(L, &tree, scoring);
    TreeTable t;
    int rc = tree_table_init(&t);
    if (rc == MB_OK) rc = tree_bestmoves_by_board(&tree, &t);
    tree_free(&tree);
    if (rc != MB_OK) {
        tree_table_free(&t);
        return luaL_error(L, "bestmoves_table: cannot build the table");
    }
    push_table(L, &t);
    tree_table_free(&t);
    return 1;
}

/* ---- Test positions (ais.md §10) ---- */

/* The 8 symmetries of the 3x3 board as maps of squares (m = y + 3x). */
static int sym_perm[8][TREE_CELLS];

static void init_symmetries(void)
{
    for (int x = 0; x < 3; x++)
        for (int y = 0; y < 3; y++) {
            int m = y + 3 * x;
            const int to[8][2] = {{x, y}, {2 - x, y}, {x, 2 - y}, {2 - x, 2 - y},
                                  {y, x}, {2 - y, x}, {y, 2 - x}, {2 - y, 2 - x}};
            for (int s = 0; s < 8; s++) sym_perm[s][m] = to[s][1] + 3 * to[s][0];
        }
}

static int sym_code(int code, int s)
{
    int out = 0, pow3[TREE_CELLS];
    pow3[0] = 1;
    for (int m = 1; m < TREE_CELLS; m++) pow3[m] = pow3[m - 1] * 3;
    for (int m = 0; m < TREE_CELLS; m++) {
        int mark = code % 3;
        code /= 3;
        out += mark * pow3[sym_perm[s][m]];
    }
    return out;
}

typedef struct Walk {
    const Tree *tree;
    unsigned char *seen; /* TREE_NCODES */
    bool min;
    bool every; /* keep every unfinished board ("unfinished") */
    int path[TREE_CELLS];
    lua_State *L;
    int list; /* stack index of the result */
    int n;    /* positions kept */
} Walk;

static void walk(Walk *w, int32_t i, int depth)
{
    const TreeNode *node = &w->tree->node[i];
    if (w->seen[node->code]) return;
    if (w->min) {
        for (int s = 0; s < 8; s++) w->seen[sym_code(node->code, s)] = 1;
    } else {
        w->seen[node->code] = 1;
    }
    if (tree_status(w->tree, i) == STATUS_PLAYING &&
        (w->every || __builtin_popcount(node->best) < node->nkids)) {
        lua_createtable(w->L, depth, 0);
        for (int d = 0; d < depth; d++) {
            lua_pushinteger(w->L, w->path[d]);
            lua_rawseti(w->L, -2, d + 1);
        }
        lua_rawseti(w->L, w->list, ++w->n);
    }
    for (int k = 0; k < node->nkids; k++) {
        int32_t c = w->tree->kids[node->kids + k];
        w->path[depth] = w->tree->node[c].move;
        walk(w, c, depth + 1);
    }
}

/* mb.mblist_by_board([kind]) -> {{move, ...}, ...} */
static int l_mblist_by_board(lua_State *L)
{
    static const char *const kinds[] = {"min", "all", "unfinished", NULL};
    int kind = luaL_checkoption(L, 1, "min", kinds);
    bool min = kind == 0;
    lua_settop(L, 0);
    lua_newtable(L);
    unsigned char *seen = lua_newuserdatauv(L, TREE_NCODES, 0);
    memset(seen, 0, TREE_NCODES);
    luaL_checkstack(L, 8, NULL);
    Tree tree;
    memset(&tree, 0, sizeof tree);
    build_scored(L, &tree, SCORING_OLD);
    Walk w = {
        .tree = &tree, .seen = seen, .min = min, .every = kind == 2, .L = L, .list = 1, .n = 0};
    /* lua_createtable may raise only on memory errors; the tree then leaks,
     * as any C allocation would on a longjmp */
    walk(&w, 0, 0);
    tree_free(&tree);
    lua_settop(L, 1);
    return 1;
}

/* ---- Views and exact values ---- */

/* mb.show_tree(game [, depth [, scoring]]) */
static int l_show_tree(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    int depth =
        lua_isnoneornil(L, 2) ? 1 : (int)lmb_check_range(L, 2, 0, TREEVIEW_MAX_DEPTH, "depth");
    static const char *const names[] = {"old", "sv", "sv_rd", NULL};
    static const Scoring values[] = {SCORING_OLD, SCORING_SV, SCORING_SV_RD};
    Scoring scoring = values[luaL_checkoption(L, 3, "old", names)];
    const Geometry *geo = game_geom(g);
    if (geo->width != 3 || geo->height != 3 || geo->k != 3)
        return luaL_error(L,
                          "show_tree: the game tree is 3x3 with k = 3 only (this game is "
                          "%dx%d, k = %d)",
                          geo->width, geo->height, geo->k);
    if (g->edited)
        return luaL_error(L, "show_tree: the board was edited outside moves (place_mark, "
                             "remove_mark), so it has no place in the game tree");
    Tree tree;
    memset(&tree, 0, sizeof tree);
    build_scored(L, &tree, scoring);
    int32_t start = tree_find(&tree, g->records + 1, g->move_count);
    char *text = NULL;
    size_t len = 0;
    FILE *f = start >= 0 ? open_memstream(&text, &len) : NULL;
    int rc = f ? treeview_write_text(&tree, start, depth, scoring != SCORING_OLD, f) : MB_EIO;
    if (f && fclose(f) != 0) rc = MB_EIO;
    tree_free(&tree);
    if (start < 0) {
        free(text);
        return luaL_error(L, "show_tree: the position is not in the game tree");
    }
    if (rc != MB_OK) {
        free(text);
        return luaL_error(L, "show_tree: cannot write the view");
    }
    lua_getglobal(L, "print");
    lua_pushlstring(L, text, len && text[len - 1] == '\n' ? len - 1 : len);
    free(text);
    lua_call(L, 1, 0);
    return 0;
}

/* mb.solve(game [, {timelimit = s, hash = MB}]) -> table */
static int l_solve(lua_State *L)
{
    const Game *g = lmb_check_game(L, 1);
    double limit = 0;
    static const char *const names[] = {"timelimit", "hash", NULL};
    if (!lua_isnoneornil(L, 2)) {
        lmb_check_option_names(L, 2, "solve", LMB_NAMES(names));
        int type = lua_getfield(L, 2, "timelimit");
        if (type != LUA_TNIL) {
            if (type != LUA_TNUMBER || !(lua_tonumber(L, -1) > 0))
                return luaL_error(L, "solve: timelimit is a positive number of seconds");
            limit = lua_tonumber(L, -1);
        }
        lua_pop(L, 1);
    }
    const Geometry *geo = game_geom(g);
    if (geo->ncells > SOLVE_MAX_CELLS)
        return luaL_error(L, "solve: boards of at most %d squares can be solved (%dx%d has %d)",
                          SOLVE_MAX_CELLS, geo->width, geo->height, geo->ncells);
    size_t hash = lmb_opt_hash(L, 2, "solve", SOLVE_DEFAULT_HASH_MB);
    lua_createtable(L, 0, 7); /* before the solve: no error may leak it */
    Solve s;
    solve_init(&s);
    solve_set_hash(&s, hash);
    s.time_limit = limit;
    /* from a sandboxed script: the player's deadline and memory (the table
     * of SOLVE_ENTRY_BYTES a slot, the old and new arrays at once while it
     * doubles, and about SOLVE_FIXED_BYTES of tables of the shape) */
    NativeLimits nl = budget_native(L);
    if (nl.b) {
        if (nl.seconds >= 0 && (s.time_limit <= 0 || nl.seconds < s.time_limit))
            s.time_limit = nl.seconds > 1e-6 ? nl.seconds : 1e-6;
        if (nl.room != SIZE_MAX) {
            size_t slots = 0;
            if (nl.room > SOLVE_FIXED_BYTES)
                for (slots = 1;
                     3 * (slots * 2) * SOLVE_ENTRY_BYTES / 2 <= nl.room - SOLVE_FIXED_BYTES;)
                    slots *= 2;
            if (slots < SOLVE_MIN_SLOTS) {
                solve_free(&s);
                budget_native_done(L, &nl, 0, "memory");
            }
            if (slots < s.max_table) s.max_table = slots;
        }
    }
    SolveResult r = {0};
    int rc = solve_position(&s, g, &r);
    solve_free(&s);
    budget_native_done(L, &nl, r.nodes, rc == MB_ENOMEM ? "memory" : NULL);
    if (rc == SOLVE_STOPPED) {
        char secs[32];
        snprintf(secs, sizeof secs, "%.3f", r.seconds);
        return luaL_error(L, "solve: time limit reached after %s s (%I nodes)", secs,
                          (LUAI_UACINT)r.nodes);
    }
    if (rc == MB_EINTR) return lmb_error_interrupted(L);
    if (rc != MB_OK) return luaL_error(L, "solve: %s", mb_strerror(rc));
    lua_pushstring(L, solve_value_name(r.value));
    lua_setfield(L, -2, "value");
    if (r.best != MOVE_NONE) {
        lua_pushinteger(L, r.best);
        lua_setfield(L, -2, "best");
    }
    lua_pushinteger(L, r.distance);
    lua_setfield(L, -2, "distance");
    lua_pushinteger(L, (lua_Integer)r.nodes);
    lua_setfield(L, -2, "nodes");
    lua_pushinteger(L, (lua_Integer)r.table);
    lua_setfield(L, -2, "table");
    if (r.full) { /* the table reached its limit: replaced positions */
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, "hash_full");
    }
    lua_pushnumber(L, r.seconds);
    lua_setfield(L, -2, "time");
    return 1;
}

/* ---- The game tree cached per Lua state (ai_gt1 .. ai_gt5) ---- */

#define TREE_CACHE_MT "marubatsu.TreeCache"

static int tree_cache_gc(lua_State *L)
{
    tree_free(luaL_checkudata(L, 1, TREE_CACHE_MT));
    return 0;
}

/* The scored tree of `scoring`, built on first use and kept in the
 * registry (freed with the state). */
static const Tree *cached_tree(lua_State *L, Scoring scoring)
{
    static const char *const keys[] = {LMB_TREE_OLD_KEY, LMB_TREE_SV_KEY, LMB_TREE_SV_RD_KEY};
    if (lua_getfield(L, LUA_REGISTRYINDEX, keys[scoring]) == LUA_TUSERDATA) {
        const Tree *t = lua_touserdata(L, -1);
        lua_pop(L, 1);
        return t;
    }
    lua_pop(L, 1);
    Tree *t = lua_newuserdatauv(L, sizeof *t, 0);
    memset(t, 0, sizeof *t);
    if (luaL_newmetatable(L, TREE_CACHE_MT)) {
        lua_pushcfunction(L, tree_cache_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
    build_scored(L, t, scoring); /* frees t on error; __gc then frees nothing */
    lua_setfield(L, LUA_REGISTRYINDEX, keys[scoring]);
    return t;
}

static void push_score(lua_State *L, int score2)
{
    if (score2 % 2 == 0)
        lua_pushinteger(L, score2 / 2);
    else
        lua_pushnumber(L, score2 / 2.0);
}

static void push_mask(lua_State *L, unsigned mask)
{
    int moves[TREE_CELLS];
    int n = tree_mask_moves(mask, moves);
    lua_createtable(L, n, 0);
    for (int j = 0; j < n; j++) {
        lua_pushinteger(L, moves[j]);
        lua_rawseti(L, -2, j + 1);
    }
}

/* The node of the history at arg 1 (a list of engine moves), or -1. */
static int32_t history_node(lua_State *L, const Tree *t)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 1);
    if (n > TREE_CELLS) return -1;
    int moves[TREE_CELLS];
    for (lua_Integer i = 0; i < n; i++) {
        lua_geti(L, 1, i + 1);
        int isnum;
        lua_Integer m = lua_tointegerx(L, -1, &isnum);
        lua_pop(L, 1);
        if (!isnum) luaL_error(L, "bad argument #1 (move %d is not an integer)", (int)(i + 1));
        if (m < 0 || m >= TREE_CELLS) return -1;
        moves[i] = (int)m;
    }
    return tree_find(t, moves, (int)n);
}

/* mb.tree_node(moves [, scoring]) -> table | nil */
static int l_tree_node(lua_State *L)
{
    Scoring scoring = check_scoring(L, 2);
    const Tree *t = cached_tree(L, scoring);
    int32_t i = history_node(L, t);
    if (i < 0) {
        lua_pushnil(L);
        return 1;
    }
    const TreeNode *node = &t->node[i];
    lua_createtable(L, 0, 4);
    push_score(L, node->score);
    lua_setfield(L, -2, "score");
    push_mask(L, node->best);
    lua_setfield(L, -2, "bestmoves");
    lua_createtable(L, node->nkids, 0);
    lua_createtable(L, node->nkids, 0);
    for (int k = 0; k < node->nkids; k++) {
        const TreeNode *c = &t->node[t->kids[node->kids + k]];
        lua_pushinteger(L, c->move);
        lua_rawseti(L, -3, k + 1);
        push_score(L, c->score);
        lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -3, "child_scores");
    lua_setfield(L, -2, "children");
    return 1;
}

/* mb.tree_bestmoves(moves [, scoring]) -> {move, ...} | nil */
static int l_tree_bestmoves(lua_State *L)
{
    Scoring scoring = check_scoring(L, 2);
    const Tree *t = cached_tree(L, scoring);
    int32_t i = history_node(L, t);
    if (i < 0)
        lua_pushnil(L);
    else
        push_mask(L, t->node[i].best);
    return 1;
}

static const luaL_Reg functions[] = {
    {"tree_node", l_tree_node},
    {"tree_bestmoves", l_tree_bestmoves},
    {"show_tree", l_show_tree},
    {"solve", l_solve},
    {"load_bestmoves", l_load_bestmoves},
    {"bestmoves_table", l_bestmoves_table},
    {"mblist_by_board", l_mblist_by_board},
    {NULL, NULL},
};

void lmb_open_tree(lua_State *L)
{
    init_symmetries();
    luaL_setfuncs(L, functions, 0);
}
