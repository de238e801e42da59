/* l_game.c: the game object of the Lua API, mb.Marubatsu{...}.
 *
 * A full userdata holding the engine's Game by value (Lua owns the memory;
 * __gc frees the engine's arrays). Reading a game must be cheap, because
 * evaluators read it hundreds of thousands of times per second, so the
 * fields are not computed by a C __index function (about 35 ns a read) but
 * kept in a plain Lua table that C updates on every change (about 10 ns a
 * read):
 *
 *   userdata --metatable--> per-game table {__index = state, __gc, ...}
 *   state = {status, turn, last_turn, move_count, last_move, records,
 *            width, height, k, rule, board, count_linemark}
 *           --metatable--> {__index = methods} (shared)
 *
 * so game.status is one table read and game:move one more. The state table
 * is the userdata's user value 1, where C finds it to update it (2 is the
 * records view, 3 the field names). C rewrites a field only when the engine's
 * value differs from the one it last wrote (sync()), so whatever moved the
 * engine game (a method, a search before its Lua evaluator reads the game),
 * one call brings the fields up to date, and no caller says what changed.
 * The records table is a live view, updated in place like the series' list:
 * moves append to it, unmove pops it, and restart starts a new one.
 * Every method checks its arguments before the engine is touched, so a bad
 * call raises a Lua error and leaves the game as it was. Other files add
 * methods to the shared methods table (lmb_game_add_methods; the methods
 * that only read the position are in l_position.c). A game is checked by
 * its own metatable's tag (test_game), as luaL_testudata checks a type's
 * one metatable. ai_by_score's loop over the children is here too
 * (l_score_children), next to the children() loop it does without. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "l_game.h"
#include "l_shape.h"

/* What the state table holds, as last written by sync(): a field is
 * rewritten only when the engine's value differs from it. */
typedef struct Synced {
    int status, turn, last_turn, move_count, last_move;
    int view_n;                 /* records[1..view_n] of the Lua view hold moves */
    int view[MB_MAX_CELLS + 1]; /* and these are the moves they hold */
} Synced;

/* The userdata: the engine's game and what its state table shows. */
typedef struct LGame {
    Game g;
    Synced shown;
} LGame;

/* No engine value: a field holding it is written by the next sync(). */
#define NOT_SHOWN (-99)

/* The methods table, in the registry (lmb_game_add_methods extends it). */
static const char methods_key = 0;

/* The shared values UV_STATUS..UV_DRAW in a table (index = UV_*), kept in
 * the registry under &keys_key and as every game's user value 3: C code
 * without the methods' upvalues (lmb_game_sync) syncs without a Lua call. */
static const char keys_key = 0;

/* Upvalues shared by every method: the field names and values C writes. */
enum {
    UV_STATUS = 1, UV_TURN, UV_LAST_TURN, UV_MOVE_COUNT, UV_LAST_MOVE, UV_RECORDS,
    UV_O, UV_X, UV_PLAYING, UV_DRAW, UV_STATE_MT, UV_CHILDREN_MT,
    UV_BASE = UV_CHILDREN_MT, /* what the iterator of children() has */
    UV_STEP,               /* methods also have that iterator */
    UV_COUNT = UV_STEP,
    UV_SCORE_LOOP = UV_BASE + 1 /* score_children's reused loop state */
};

#define LMB_CHILDREN "marubatsu.Children"

/* The state of one `for m in game:children()` loop. */
typedef struct Children {
    int n, next;  /* moves[0..n-1]; the next one to play */
    int base;     /* the parent's move count */
    bool active;  /* the game is at the child moves[next-1] */
    bool edited;  /* the game's edited flag when the loop started */
    bool reused;  /* score_children's own, kept from call to call */
    bool busy;    /* (reused) a score_children call is using it */
    int moves[];
} Children;
static const char *const upvalue_strings[] = {"status", "turn", "last_turn", "move_count",
                                              "last_move", "records", "o", "x", "playing",
                                              "draw"};

/* ---- Checking arguments ---- */

/* Marks every game's own metatable (at [1]): the address of this static,
 * a light userdata that no Lua code can make. */
static const char game_tag = 0;

/* As luaL_testudata, against a known set: luaL_testudata compares a
 * userdata's metatable with the one registered under the type's name, but
 * every game has its own metatable (its __index is its own state table,
 * see init_object), so the check is that the metatable is one of the
 * games' own: it carries game_tag at [1]. An array read and a pointer
 * comparison, where a lookup of the registered name costs the ai14s VS
 * ai2 match 3% more (every method call checks its game). One check for
 * every binding file (lmb_test_game, lmb_check_game). */
static LGame *test_game(lua_State *L, int arg)
{
    LGame *lg = lua_touserdata(L, arg);
    if (lg && lua_getmetatable(L, arg)) {
        lua_rawgeti(L, -1, 1);
        if (lua_touserdata(L, -1) != &game_tag) lg = NULL;
        lua_pop(L, 2);
        return lg;
    }
    return NULL;
}

static LGame *check_lgame(lua_State *L, int arg)
{
    LGame *lg = test_game(L, arg);
    if (!lg) luaL_typeerror(L, arg, "Marubatsu game");
    return lg;
}

Game *lmb_test_game(lua_State *L, int arg)
{
    LGame *lg = test_game(L, arg);
    return lg ? &lg->g : NULL;
}

Game *lmb_check_game(lua_State *L, int arg) { return &check_lgame(L, arg)->g; }

/* ---- Keeping the state table in step ---- */

/* Push the shared value UV_* (a field name or value of the state table):
 * the method's upvalue, or when keys is not 0 the entry of the table of
 * them at that stack index (C code outside the methods, lmb_game_sync). */
static void push_shared(lua_State *L, int keys, int uv)
{
    if (keys)
        lua_rawgeti(L, keys, uv);
    else
        lua_pushvalue(L, lua_upvalueindex(uv));
}

static void push_mark(lua_State *L, int keys, Mark m)
{
    if (m == MARK_EMPTY)
        lua_pushnil(L);
    else
        push_shared(L, keys, m == MARK_O ? UV_O : UV_X);
}

static void push_status(lua_State *L, int keys, Status s)
{
    if (s == STATUS_PLAYING)
        push_shared(L, keys, UV_PLAYING);
    else if (s == STATUS_DRAW)
        push_shared(L, keys, UV_DRAW);
    else
        push_mark(L, keys, s);
}

/* Is the state table of lg up to date with its engine game? */
static bool shown(const LGame *lg)
{
    const Game *g = &lg->g;
    const Synced *sh = &lg->shown;
    return sh->status == (int)g->status && sh->turn == (int)g->turn &&
           sh->last_turn == (int)g->last_turn && sh->move_count == g->move_count &&
           sh->last_move == g->last_move && sh->view_n == g->nrecords - 1 &&
           memcmp(sh->view + 1, g->records + 1, (size_t)sh->view_n * sizeof *sh->view) == 0;
}

/* Write the field named by upvalue `key` of the state table at st, if the
 * engine's value differs from the one shown. */
#define SYNC_FIELD(field, key, push)                                                        \
    do {                                                                                   \
        if (sh->field != (int)g->field) {                                                  \
            push_shared(L, keys, key);                                                     \
            push;                                                                          \
            lua_rawset(L, st);                                                             \
            sh->field = (int)g->field;                                                     \
        }                                                                                  \
    } while (0)

/* Bring the state table of the game at ud up to date with its engine game,
 * whatever changed it (a method, a search, another state's game): every
 * field and record is compared with what was last written and only those
 * that differ are rewritten, so a move costs its four fields and one record
 * (about 40 ns) and a search leaf the few plies it changed. state is the
 * index of the game's state table, or 0 to fetch it (a loop that syncs
 * at every child fetches it once: it is the same table for the game's
 * life, where the records view is replaced by restart). */
static void sync_keys(lua_State *L, int ud, LGame *lg, int state, int keys)
{
    const Game *g = &lg->g;
    Synced *sh = &lg->shown;
    int st = state;
    if (!st) {
        lua_getiuservalue(L, ud, 1);
        st = lua_gettop(L);
    }
    SYNC_FIELD(status, UV_STATUS, push_status(L, keys, g->status));
    SYNC_FIELD(turn, UV_TURN, push_mark(L, keys, g->turn));
    SYNC_FIELD(last_turn, UV_LAST_TURN, push_mark(L, keys, g->last_turn));
    SYNC_FIELD(move_count, UV_MOVE_COUNT, lua_pushinteger(L, g->move_count));
    SYNC_FIELD(last_move, UV_LAST_MOVE, lua_pushinteger(L, g->last_move));
    /* the records view: records[0] = -1, records[i] = the i-th move */
    int n = g->nrecords - 1;
    int same = 0;
    int common = n < sh->view_n ? n : sh->view_n;
    while (same < common && sh->view[same + 1] == g->records[same + 1]) same++;
    if (same < n || n < sh->view_n) {
        lua_getiuservalue(L, ud, 2);
        for (int i = same + 1; i <= n; i++) {
            lua_pushinteger(L, g->records[i]);
            lua_rawseti(L, -2, i);
            sh->view[i] = g->records[i];
        }
        for (int i = n + 1; i <= sh->view_n; i++) {
            lua_pushnil(L);
            lua_rawseti(L, -2, i);
        }
        sh->view_n = n;
        lua_pop(L, 1);
    }
    if (!state) lua_pop(L, 1);
}

/* sync_keys() from a method, which has the shared values as upvalues. */
static void sync(lua_State *L, int ud, LGame *lg) { sync_keys(L, ud, lg, 0, 0); }

/* Forget what the state table shows: the next sync() writes every field. */
static void unshow(LGame *lg)
{
    Synced *sh = &lg->shown;
    sh->status = sh->turn = sh->last_turn = NOT_SHOWN;
    sh->move_count = sh->last_move = NOT_SHOWN;
}

/* Give the game at ud a new, empty records view, as the series' restart
 * makes a new list: a table taken from game.records before keeps its moves.
 * The view is filled by the next sync(). */
static void new_records_view(lua_State *L, int ud, LGame *lg)
{
    lua_createtable(L, game_geom(&lg->g)->ncells, 1);
    lua_pushinteger(L, MOVE_NONE);
    lua_rawseti(L, -2, 0);
    lua_getiuservalue(L, ud, 1);
    lua_pushvalue(L, lua_upvalueindex(UV_RECORDS));
    lua_pushvalue(L, -3);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    lua_setiuservalue(L, ud, 2);
    lg->shown.view_n = 0;
}

/* ---- Construction ---- */

static int l_gc(lua_State *L)
{
    LGame *lg = lua_touserdata(L, 1);
    if (lg) game_free(&lg->g);
    return 0;
}

static int l_tostring(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    char buf[sizeof "winner playing\n" + (MB_MAX_SIDE + 1) * MB_MAX_SIDE];
    size_t n = notation_text(g, buf);
    lua_pushlstring(L, buf, n);
    return 1;
}

static int l_newindex(lua_State *L)
{
    return luaL_error(L, "game fields are read-only (use the methods to change a game)");
}

/* Push a new, empty, freeable game userdata; init_object() completes it
 * once the engine has made its Game. */
static LGame *new_userdata(lua_State *L)
{
    LGame *lg = lua_newuserdatauv(L, sizeof *lg, 3);
    memset(lg, 0, sizeof *lg);
    unshow(lg);
    lua_createtable(L, 0, 2);
    lua_pushcfunction(L, l_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    return lg;
}

/* Give the game at ud its metatable and state table. [-0, +0, m] */
static void init_object(lua_State *L, int ud, LGame *lg)
{
    const Game *g = &lg->g;
    const Geometry *geo = game_geom(g);
    /* the state table, whose misses go to the methods */
    lua_createtable(L, 0, 64); /* sparse: hot keys rarely share a chain */
    int st = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(UV_STATE_MT));
    lua_setmetatable(L, st);
    lua_pushinteger(L, geo->width);
    lua_setfield(L, st, "width");
    lua_pushinteger(L, geo->height);
    lua_setfield(L, st, "height");
    lua_pushinteger(L, geo->k);
    lua_setfield(L, st, "k");
    lua_pushstring(L, geometry_rule_name(geo->exact));
    lua_setfield(L, st, "rule");
    lua_pushstring(L, board_kind_name(g->board.kind));
    lua_setfield(L, st, "board");
    lua_pushboolean(L, g->board.counters);
    lua_setfield(L, st, "count_linemark");
    lua_pushvalue(L, st);
    lua_setiuservalue(L, ud, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &keys_key);
    lua_setiuservalue(L, ud, 3);
    new_records_view(L, ud, lg);
    /* the per-game metatable */
    lua_createtable(L, 1, 32); /* sparse: __index is read on every access; [1] the tag */
    lua_pushvalue(L, st);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, l_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, l_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, l_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushliteral(L, LMB_GAME);
    lua_setfield(L, -2, "__name");
    lua_pushliteral(L, LMB_GAME);
    lua_setfield(L, -2, "__metatable");
    lua_pushlightuserdata(L, (void *)&game_tag); /* what test_game checks */
    lua_rawseti(L, -2, 1);
    lua_setmetatable(L, ud);
    lua_pop(L, 1);
    sync(L, ud, lg);
}

/* mb.Marubatsu{width=, height=, k=, rule=, board=, count_linemark=} -> game */
static int l_new(lua_State *L)
{
    GameOptions o = lmb_read_game_options(L);
    Geometry *geo = lmb_shared_geometry(L, &o);
    LGame *lg = new_userdata(L);
    int ud = lua_gettop(L);
    int rc = game_init_geometry(&lg->g, geo, o.board, o.count_linemark);
    if (rc) return luaL_error(L, "Marubatsu: %s", mb_strerror(rc));
    init_object(L, ud, lg);
    return 1;
}

static int l_copy(lua_State *L)
{
    Game *src = lmb_check_game(L, 1);
    LGame *lg = new_userdata(L);
    int ud = lua_gettop(L);
    if (game_copy(&lg->g, src)) return luaL_error(L, "copy: out of memory");
    init_object(L, ud, lg);
    return 1;
}

/* ---- The series' operations ---- */

/* game:move(m): the checked move; errors leave the game unchanged. */
static int l_move(lua_State *L)
{
    LGame *lg = check_lgame(L, 1);
    Game *g = &lg->g;
    int m = lmb_check_move(L, 2, g);
    if (g->status != STATUS_PLAYING)
        return luaL_error(L, "move: the game is over (%s)", status_name(g->status));
    if (game_get(g, m) != MARK_EMPTY)
        return luaL_argerror(L, 2, lua_pushfstring(L, "square %d is occupied", m));
    game_move(g, m);
    sync(L, 1, lg);
    return 0;
}

static int l_unmove(lua_State *L)
{
    LGame *lg = check_lgame(L, 1);
    game_unmove(&lg->g);
    sync(L, 1, lg);
    return 0;
}

static int l_restart(lua_State *L)
{
    LGame *lg = check_lgame(L, 1);
    game_restart(&lg->g);
    new_records_view(L, 1, lg);
    sync(L, 1, lg);
    return 0;
}

static int l_change_step(lua_State *L)
{
    LGame *lg = check_lgame(L, 1);
    lua_Integer step = luaL_checkinteger(L, 2);
    if (step < 0) step = 0;
    if (step > MB_MAX_CELLS) step = MB_MAX_CELLS;
    game_change_step(&lg->g, (int)step);
    sync(L, 1, lg);
    return 0;
}

/* A typed coordinate for cmove/place_mark: Lua integers as they are, floats
 * truncated like Python's int(), strings by Python's int() rules. */
static bool coord_arg(lua_State *L, int arg, IntText *out)
{
    if (lua_type(L, arg) == LUA_TNUMBER) {
        lua_Number v = lua_tonumber(L, arg);
        if (!lua_isinteger(L, arg) && (v != v || v > 1e18 || v < -1e18)) return false;
        lua_Integer i = lua_isinteger(L, arg) ? lua_tointeger(L, arg) : (lua_Integer)v;
        out->value = (long long)i;
        snprintf(out->digits, sizeof out->digits, "%lld", (long long)i);
        return true;
    }
    if (lua_type(L, arg) == LUA_TSTRING) return notation_parse_int(lua_tostring(L, arg), out) == MB_OK;
    return false;
}

/* cmove/place_mark/remove_mark: true, or false and the series' message. */
static int checked(lua_State *L, int which)
{
    LGame *lg = check_lgame(L, 1);
    Game *g = &lg->g;
    IntText x = {0}, y = {0};
    int rc;
    Mark mark = which == 1 ? lmb_check_mark(L, 4) : MARK_EMPTY;
    if (!coord_arg(L, 2, &x) || !coord_arg(L, 3, &y)) {
        rc = MB_ENOTINT;
    } else if (x.value < 0 || y.value < 0 || x.value >= MB_MAX_SIDE || y.value >= MB_MAX_SIDE) {
        rc = MB_ERANGE;
    } else if (which == 0) {
        rc = game_cmove(g, (int)x.value, (int)y.value);
    } else if (which == 1) {
        rc = game_place_mark(g, (int)x.value, (int)y.value, mark);
    } else {
        rc = game_remove_mark(g, (int)x.value, (int)y.value);
    }
    if (rc == MB_OK) {
        sync(L, 1, lg);
        lua_pushboolean(L, 1);
        return 1;
    }
    char msg[256];
    notation_message(rc, x.digits, y.digits, lmb_lang(L), msg, sizeof msg);
    lua_pushboolean(L, 0);
    lua_pushstring(L, msg);
    return 2;
}

static int l_cmove(lua_State *L) { return checked(L, 0); }
static int l_place_mark(lua_State *L) { return checked(L, 1); }
static int l_remove_mark(lua_State *L) { return checked(L, 2); }

/* ---- Visiting the children of a position ---- */

/* The loop state at arg: checked against the metatable held as an upvalue
 * (a registry lookup by name would hash a string on every child). */
static Children *check_children(lua_State *L, int arg)
{
    arg = lua_absindex(L, arg);
    if (lua_getmetatable(L, arg)) {
        bool ok = lua_rawequal(L, -1, lua_upvalueindex(UV_CHILDREN_MT));
        lua_pop(L, 1);
        if (ok) return lua_touserdata(L, arg);
    }
    luaL_typeerror(L, arg, "children loop");
    return NULL;
}

/* Take the game back from the current child to the parent, after checking
 * that the loop body left it at that child. */
static void children_back(lua_State *L, Children *c, Game *g)
{
    if (g->move_count != c->base + 1 || g->last_move != c->moves[c->next - 1] ||
        g->edited != c->edited) {
        c->active = false; /* the loop no longer owns the position: leave it alone */
        luaL_error(L, "children: the game was changed inside the loop (restore it before the "
                      "next iteration)");
    }
    game_unmove(g);
    c->active = false;
}

/* The iterator: leave the previous child, enter the next; nil at the end,
 * with the game back at the parent. One C call per child. */
static int children_step(lua_State *L)
{
    Children *c = check_children(L, 1);
    lua_getiuservalue(L, 1, 1);
    int ud = lua_gettop(L);
    LGame *lg = lua_touserdata(L, ud);
    if (!lg) /* score_children's kept state between calls (reached through debug) */
        return luaL_error(L, "children: this loop is not running");
    Game *g = &lg->g;
    bool sibling = c->active;
    if (c->active) children_back(L, c, g);
    if (c->next >= c->n) {
        sync(L, ud, lg);
        return 0;
    }
    int m = c->moves[c->next];
    /* a loop kept after a break (or stepped by hand) must still be at the
     * position it started from, or the move could land on a mark */
    if (!sibling && (g->move_count != c->base || g->edited != c->edited ||
                     g->status != STATUS_PLAYING || game_get(g, m) != MARK_EMPTY))
        return luaL_error(L, "children: the game is no longer at the position where the loop "
                             "started");
    c->next++;
    game_move(g, m);
    c->active = true;
    sync(L, ud, lg); /* between siblings: the last move, one record, maybe the status */
    lua_pushinteger(L, m);
    return 1;
}

/* Free score_children's kept loop state for the next call (no hold on
 * the game); nothing for any other loop. */
static void release_loop(lua_State *L, int arg, Children *c)
{
    if (!c->reused) return;
    c->busy = false;
    lua_pushnil(L);
    lua_setiuservalue(L, arg, 1);
}

/* __close: a loop left by break, return or an error restores the parent. */
static int children_close(lua_State *L)
{
    Children *c = check_children(L, 1);
    c->busy = false; /* whatever happens below, its call is over */
    if (c->active) {
        lua_getiuservalue(L, 1, 1);
        LGame *lg = lua_touserdata(L, -1);
        children_back(L, c, &lg->g);
        sync(L, lua_gettop(L), lg);
    }
    release_loop(L, 1, c);
    return 0;
}

/* for m in game:children() do ... end: play each legal move in turn (in
 * the normative order); the body sees the game after that move, and the
 * loop ends with the game back where it was, also when it is left by
 * break or an error (Lua 5.4's closing value). The body must leave the
 * game at the child it was given. */
/* Push the state of a children() loop over g's legal moves (the game
 * userdata at index `game` kept as its user value) and return it. Only
 * from a C function with the game methods' upvalues (UV_CHILDREN_MT).
 * [-0, +1, m] */
/* Start c's loop over the n moves (g's legal moves), at g. */
static void start_children(Children *c, const Game *g, const int *moves, int n)
{
    if (moves != c->moves) memcpy(c->moves, moves, (size_t)n * sizeof(int));
    c->n = n;
    c->next = 0;
    c->base = g->move_count;
    c->active = false;
    c->edited = g->edited;
}

/* A new loop state with room for n moves, not started; mt is the index of
 * the children metatable. [-0, +1, m] */
static Children *new_children(lua_State *L, int n, int mt)
{
    mt = lua_absindex(L, mt);
    Children *c = lua_newuserdatauv(L, sizeof *c + (size_t)n * sizeof(int), 1);
    c->n = c->next = c->base = 0;
    c->active = c->edited = c->reused = c->busy = false;
    lua_pushvalue(L, mt);
    lua_setmetatable(L, -2);
    return c;
}

static Children *push_children(lua_State *L, Game *g, int game)
{
    int moves[MB_MAX_CELLS];
    int n = game_legal_moves(g, moves);
    Children *c = new_children(L, n, lua_upvalueindex(UV_CHILDREN_MT));
    start_children(c, g, moves, n);
    lua_pushvalue(L, game);
    lua_setiuservalue(L, -2, 1);
    return c;
}

static int l_children(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    push_children(L, g, 1);
    lua_pushvalue(L, lua_upvalueindex(UV_STEP));
    lua_insert(L, -2);
    lua_pushnil(L);
    lua_pushvalue(L, -2);
    return 4;
}

/* score_children's loop state for g (the game at index game): the one kept
 * in its upvalue, or a new one while that is in use (an evaluator that
 * scores moves itself), so that a decision allocates nothing. [-0, +1, m] */
static Children *push_score_loop(lua_State *L, Game *g, int game)
{
    Children *c = lua_touserdata(L, lua_upvalueindex(UV_SCORE_LOOP));
    if (c->busy) return push_children(L, g, game);
    lua_pushvalue(L, lua_upvalueindex(UV_SCORE_LOOP));
    start_children(c, g, c->moves, game_legal_moves(g, c->moves));
    c->busy = true;
    lua_pushvalue(L, game);
    lua_setiuservalue(L, -2, 1);
    return c;
}

/* score_children(eval, game, params [, score_by_move [, into]]) -> best, bestlist:
 * the loop of ai_by_score (scripts/lib/wrappers.lua: score_moves) in C.
 * Plays each legal move in turn (normative order), calls eval(game,
 * params) on the child and keeps the best value (compared as Lua compares,
 * `s > best`, then `s == best`) and the moves that reach it, in legal
 * order; with score_by_move it also sets score_by_move[m] = s. best starts
 * at -math.huge and is the value eval returned. The loop is a children()
 * loop without its Lua half: the same checks that eval left the game at
 * the child, and the same closing value, which takes the game back to the
 * parent when eval raises an error. bestlist is a new table, or the table
 * into (the wrappers' own, refilled on every call). */
static int l_score_children(lua_State *L)
{
    LGame *lg = check_lgame(L, 2);
    Game *g = &lg->g;
    bool by_move = !lua_isnoneornil(L, 4);
    bool fill = !lua_isnoneornil(L, 5);
    if (fill) luaL_checktype(L, 5, LUA_TTABLE);
    lua_settop(L, 5);
    Children *c = push_score_loop(L, g, 2); /* 6 */
    int n = c->n;
    const int *moves = c->moves;
    lua_toclose(L, 6);
    lua_getiuservalue(L, 2, 1); /* 7: the state table */
    lua_pushnumber(L, -HUGE_VAL); /* 8: best */
    int best[MB_MAX_CELLS], nbest = 0;
    for (int i = 0; i < n; i++) {
        if (c->active) children_back(L, c, g);
        c->next = i + 1;
        game_move(g, moves[i]);
        c->active = true;
        /* between siblings: the last move, one record, maybe the status */
        sync_keys(L, 2, lg, 7, 0);
        lua_pushvalue(L, 1);
        lua_pushvalue(L, 2);
        lua_pushvalue(L, 3);
        lua_call(L, 2, 1); /* 9: s */
        if (by_move) {
            lua_pushvalue(L, 9);
            lua_seti(L, 4, moves[i]);
        }
        if (lua_compare(L, 8, 9, LUA_OPLT)) {
            lua_replace(L, 8);
            nbest = 0;
            best[nbest++] = moves[i];
        } else {
            if (lua_compare(L, 9, 8, LUA_OPEQ)) best[nbest++] = moves[i];
            lua_pop(L, 1);
        }
    }
    if (c->active) {
        children_back(L, c, g);
        sync_keys(L, 2, lg, 7, 0);
    }
    release_loop(L, 6, c);
    if (fill)
        lmb_fill_moves(L, 5, best, nbest);
    else
        lmb_push_moves(L, best, nbest);
    return 2;
}

/* sync_keys() of the game at index (absolute) from outside the methods. */
static void refresh(lua_State *L, int index, LGame *lg)
{
    if (shown(lg)) return;
    lua_getiuservalue(L, index, 3);
    sync_keys(L, index, lg, 0, lua_gettop(L));
    lua_pop(L, 1);
}

Game *lmb_game_sync(lua_State *L, int index)
{
    LGame *lg = check_lgame(L, index);
    refresh(L, lua_absindex(L, index), lg);
    return &lg->g;
}

void lmb_game_refresh(lua_State *L, int index, Game *g)
{
    refresh(L, index, (LGame *)(void *)g); /* g is the first member of its LGame */
}

void lmb_game_push_view(lua_State *L, int index)
{
    lua_getiuservalue(L, index, 1);
    lua_getiuservalue(L, index, 3);
}

void lmb_game_refresh_at(lua_State *L, int index, Game *g, int view)
{
    sync_keys(L, index, (LGame *)(void *)g, view, view + 1);
}

/* assign(game, src): the registry closure behind lmb_game_assign (it needs
 * the methods' upvalues). src is a light userdata, a Game of any state. */
static const char assign_key = 0;

/* Is src the game g played further (same shape, neither edited nor
 * replaying, g's record a prefix of src's)? Then g catches up by moves. */
static bool catches_up(const Game *g, const Game *src)
{
    return g->board.geom == src->board.geom && g->board.kind == src->board.kind &&
           g->board.counters == src->board.counters && !g->edited && !src->edited &&
           g->nrecords == g->move_count + 1 && src->nrecords == src->move_count + 1 &&
           g->move_count <= src->move_count &&
           memcmp(g->records, src->records, (size_t)g->nrecords * sizeof *g->records) == 0;
}

static int l_assign(lua_State *L)
{
    LGame *lg = check_lgame(L, 1);
    const Game *src = lua_touserdata(L, 2);
    if (src && catches_up(&lg->g, src)) {
        /* the usual case in a sandbox: the same game, two moves on; the
         * records view gets the new moves only */
        int from = lg->g.move_count + 1;
        for (int i = from; i <= src->move_count; i++) game_move(&lg->g, src->records[i]);
        sync(L, 1, lg);
        return 0;
    }
    Game fresh;
    if (!src || game_copy(&fresh, src)) return luaL_error(L, "game: out of memory");
    bool same_shape = fresh.board.geom == lg->g.board.geom && fresh.board.kind == lg->g.board.kind &&
                      fresh.board.counters == lg->g.board.counters;
    game_free(&lg->g);
    lg->g = fresh;
    if (!same_shape) {
        const Geometry *geo = game_geom(&lg->g);
        lua_getiuservalue(L, 1, 1);
        lua_pushinteger(L, geo->width);
        lua_setfield(L, -2, "width");
        lua_pushinteger(L, geo->height);
        lua_setfield(L, -2, "height");
        lua_pushinteger(L, geo->k);
        lua_setfield(L, -2, "k");
        lua_pushstring(L, geometry_rule_name(geo->exact));
        lua_setfield(L, -2, "rule");
        lua_pushstring(L, board_kind_name(lg->g.board.kind));
        lua_setfield(L, -2, "board");
        lua_pushboolean(L, lg->g.board.counters);
        lua_setfield(L, -2, "count_linemark");
        lua_pop(L, 1);
    }
    new_records_view(L, 1, lg);
    sync(L, 1, lg);
    return 0;
}

void lmb_game_assign(lua_State *L, int index, const Game *src)
{
    index = lua_absindex(L, index);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &assign_key);
    lua_pushvalue(L, index);
    lua_pushlightuserdata(L, (void *)(uintptr_t)src);
    lua_call(L, 2, 0);
}

static const luaL_Reg methods[] = {
    {"children", l_children},
    {"move", l_move},
    {"cmove", l_cmove},
    {"place_mark", l_place_mark},
    {"remove_mark", l_remove_mark},
    {"unmove", l_unmove},
    {"restart", l_restart},
    {"change_step", l_change_step},
    {"copy", l_copy},
    {NULL, NULL},
};

/* Push the upvalues every method shares (see UV_*): the strings and the
 * two metatables, then (unless base_only) the children iterator. */
static void push_upvalues(lua_State *L, int state_mt, int children_mt, bool base_only)
{
    for (size_t i = 0; i < sizeof upvalue_strings / sizeof upvalue_strings[0]; i++)
        lua_pushstring(L, upvalue_strings[i]);
    lua_pushvalue(L, state_mt);
    lua_pushvalue(L, children_mt);
    if (base_only) return;
    push_upvalues(L, state_mt, children_mt, true);
    lua_pushcclosure(L, children_step, UV_BASE);
}

void lmb_open_game(lua_State *L)
{
    luaL_checkstack(L, 2 * UV_COUNT + 8, "marubatsu"); /* the shared upvalues, twice */
    int mb = lua_gettop(L);
    /* the shared metatable of the state tables: misses go to the methods */
    lua_createtable(L, 0, 1);
    int state_mt = lua_gettop(L);
    /* the metatable of children() loops; __close needs the upvalues too */
    luaL_newmetatable(L, LMB_CHILDREN);
    int children_mt = lua_gettop(L);
    push_upvalues(L, state_mt, children_mt, true);
    lua_pushcclosure(L, children_close, UV_BASE);
    lua_setfield(L, children_mt, "__close");
    lua_createtable(L, 0, 128); /* sparse, as the state tables */
    push_upvalues(L, state_mt, children_mt, false);
    luaL_setfuncs(L, methods, UV_COUNT);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &methods_key);
    lua_setfield(L, state_mt, "__index");
    /* the constructor shares the upvalues */
    push_upvalues(L, state_mt, children_mt, false);
    lua_pushcclosure(L, l_new, UV_COUNT);
    lua_setfield(L, mb, "Marubatsu");
    lua_createtable(L, UV_DRAW, 0);
    for (int i = UV_STATUS; i <= UV_DRAW; i++) {
        lua_pushstring(L, upvalue_strings[i - UV_STATUS]);
        lua_rawseti(L, -2, i);
    }
    lua_rawsetp(L, LUA_REGISTRYINDEX, &keys_key);
    push_upvalues(L, state_mt, children_mt, true);
    lua_pushcclosure(L, l_assign, UV_BASE);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &assign_key);
    /* ai_by_score's loop, for the library files only (private) */
    if (lua_getfield(L, LUA_REGISTRYINDEX, LMB_PRIVATE_KEY) == LUA_TTABLE) {
        push_upvalues(L, state_mt, children_mt, true);
        new_children(L, MB_MAX_CELLS, children_mt)->reused = true; /* UV_SCORE_LOOP */
        lua_pushcclosure(L, l_score_children, UV_SCORE_LOOP);
        lua_setfield(L, -2, "score_children");
    }
    lua_pop(L, 1);
    lua_pop(L, 2);
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "marubatsu.geometries");
}

void lmb_game_add_methods(lua_State *L, const luaL_Reg *l)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &methods_key) != LUA_TTABLE)
        luaL_error(L, "marubatsu: games are not open in this state");
    luaL_setfuncs(L, l, 0);
    lua_pop(L, 1);
}
