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
 * value differs from the one it last wrote (lgame_sync), so whatever moved the
 * engine game (a method, a search before its Lua evaluator reads the game),
 * one call brings the fields up to date, and no caller says what changed.
 * The records table is a live view, updated in place like the series' list:
 * moves append to it, unmove pops it, and restart starts a new one.
 * Every method checks its arguments before the engine is touched, so a bad
 * call raises a Lua error and leaves the game as it was. Other files add
 * methods to the shared methods table (lmb_game_add_methods; the methods
 * that only read the position are in l_position.c). A game is checked by
 * its own metatable's tag (lgame_test), as luaL_testudata checks a type's
 * one metatable. The userdata's layout, that check and the keeping of the
 * state table in step are l_game_core.{h,c}, which only this file uses.
 * ai_by_score's loop over the children is here too
 * (l_score_children), next to the children() loop it does without. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "l_game.h"
#include "l_game_core.h"
#include "l_shape.h"

/* The methods table is in the registry under LMB_GAME_METHODS_KEY
 * (lmb_game_add_methods extends it). The shared values UV_STATUS..UV_DRAW in a table (index = UV_*), kept in
 * the registry under LMB_GAME_KEYS_KEY and as every game's user value 3:
 * C code without the methods' upvalues (lmb_game_sync) syncs without a
 * Lua call. */

#define LMB_CHILDREN "marubatsu.Children"

/* The state of one `for m in game:children()` loop. */
typedef struct Children {
    int n, next;  /* moves[0..n-1]; the next one to play */
    int base;     /* the parent's move count */
    bool active;  /* the game is at the child moves[next-1] */
    bool edited;  /* the game's edited flag when the loop started */
    bool reused;  /* score_children's own, kept from call to call */
    bool busy;    /* (reused) a score_children call is using it */
    bool holds;   /* the game is pinned at the current child by this loop */
    int hold_was; /* and this is the hold that pin replaced */
    int moves[];
} Children;
static const char *const upvalue_strings[] = {"status",    "turn",    "last_turn", "move_count",
                                              "last_move", "records", "o",         "x",
                                              "playing",   "draw"};

/* ---- Checking arguments ---- */

Game *lmb_test_game(lua_State *L, int arg)
{
    LGame *lg = lgame_test(L, arg);
    return lg ? &lg->g : NULL;
}

Game *lmb_check_game(lua_State *L, int arg) { return &lgame_check(L, arg)->g; }

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
    lgame_unshow(lg);
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
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_GAME_KEYS_KEY);
    lua_setiuservalue(L, ud, 3);
    lgame_new_records_view(L, ud, lg);
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
    lua_pushlightuserdata(L, (void *)&lgame_tag); /* what lgame_test checks */
    lua_rawseti(L, -2, 1);
    lua_setmetatable(L, ud);
    lua_pop(L, 1);
    lgame_sync(L, ud, lg);
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

/* ---- Holding a game (l_game.h) ---- */

/* The error of a method that would take a held game below its pin. */
static void refuse_held(lua_State *L, const LGame *lg, const char *method)
{
    luaL_error(L,
               "%s: the game is in use by a search, a scorer or a children() loop that holds "
               "it at move %d (it may be moved on and back, but not unmoved below that, "
               "restarted or edited until the call returns)",
               method, lg->hold - 1);
}

int lmb_game_hold(Game *g)
{
    LGame *lg = (LGame *)(void *)g; /* g is the first member of its LGame */
    int was = lg->hold;
    lg->hold = g->move_count + 1;
    return was;
}

void lmb_game_release(Game *g, int previous) { ((LGame *)(void *)g)->hold = previous; }

uint64_t lmb_game_digest(const Game *g)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a over the marks, then the counters */
    int n = game_geom(g)->ncells;
    for (int m = 0; m < n; m++) h = (h ^ (uint64_t)game_get(g, m)) * 1099511628211u;
    h = (h ^ (uint64_t)g->turn) * 1099511628211u;
    h = (h ^ (uint64_t)g->status) * 1099511628211u;
    return (h ^ (uint64_t)g->move_count) * 1099511628211u;
}

/* ---- The series' operations ---- */

/* game:move(m): the checked move; errors leave the game unchanged. */
static int l_move(lua_State *L)
{
    LGame *lg = lgame_check(L, 1);
    Game *g = &lg->g;
    int m = lmb_check_move(L, 2, g);
    if (g->status != STATUS_PLAYING)
        return luaL_error(L, "move: the game is over (%s)", status_name(g->status));
    if (game_get(g, m) != MARK_EMPTY)
        return luaL_argerror(L, 2, lua_pushfstring(L, "square %d is occupied", m));
    game_move(g, m);
    lgame_sync(L, 1, lg);
    return 0;
}

static int l_unmove(lua_State *L)
{
    LGame *lg = lgame_check(L, 1);
    if (lg->g.move_count < lg->hold) refuse_held(L, lg, "unmove");
    game_unmove(&lg->g);
    lgame_sync(L, 1, lg);
    return 0;
}

static int l_restart(lua_State *L)
{
    LGame *lg = lgame_check(L, 1);
    if (lg->hold) refuse_held(L, lg, "restart");
    game_restart(&lg->g);
    lgame_new_records_view(L, 1, lg);
    lgame_sync(L, 1, lg);
    return 0;
}

static int l_change_step(lua_State *L)
{
    LGame *lg = lgame_check(L, 1);
    lua_Integer step = luaL_checkinteger(L, 2);
    if (step < 0) step = 0;
    if (step > MB_MAX_CELLS) step = MB_MAX_CELLS;
    if (step < lg->hold - 1) refuse_held(L, lg, "change_step");
    game_change_step(&lg->g, (int)step);
    lgame_sync(L, 1, lg);
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
    if (lua_type(L, arg) == LUA_TSTRING)
        return notation_parse_int(lua_tostring(L, arg), out) == MB_OK;
    return false;
}

/* cmove/place_mark/remove_mark: true, or false and the series' message. */
static int checked(lua_State *L, int which)
{
    LGame *lg = lgame_check(L, 1);
    Game *g = &lg->g;
    IntText x = {0}, y = {0};
    int rc;
    Mark mark = which == 1 ? lmb_check_mark(L, 4) : MARK_EMPTY;
    if (lg->hold && which != 0) refuse_held(L, lg, which == 1 ? "place_mark" : "remove_mark");
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
        lgame_sync(L, 1, lg);
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
    if (c->holds) { /* whatever follows, the loop's hold on the child ends */
        lmb_game_release(g, c->hold_was);
        c->holds = false;
    }
    if (g->move_count != c->base + 1 || g->last_move != c->moves[c->next - 1] ||
        g->edited != c->edited) {
        c->active = false; /* the loop no longer owns the position: leave it alone */
        luaL_error(L, "children: the game was changed inside the loop (restore it before the "
                      "next iteration)");
    }
    game_unmove(g);
    c->active = false;
}

/* Play the child m and pin the game there while the loop body (or the
 * scorer) has it. */
static void enter_child(Children *c, Game *g, int m)
{
    game_move(g, m);
    c->active = true;
    c->hold_was = lmb_game_hold(g);
    c->holds = true;
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
        lgame_sync(L, ud, lg);
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
    enter_child(c, g, m);
    lgame_sync(L, ud, lg); /* between siblings: the last move, one record, maybe the status */
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
        lgame_sync(L, lua_gettop(L), lg);
    }
    release_loop(L, 1, c);
    return 0;
}

/* Start c's loop over the n moves (g's legal moves), at g. */
static void start_children(Children *c, const Game *g, const int *moves, int n)
{
    if (moves != c->moves) memcpy(c->moves, moves, (size_t)n * sizeof(int));
    c->n = n;
    c->next = 0;
    c->base = g->move_count;
    c->active = c->holds = false;
    c->edited = g->edited;
}

/* A new loop state with room for n moves, not started; mt is the index of
 * the children metatable. [-0, +1, m] */
static Children *new_children(lua_State *L, int n, int mt)
{
    mt = lua_absindex(L, mt);
    Children *c = lua_newuserdatauv(L, sizeof *c + (size_t)n * sizeof(int), 1);
    c->n = c->next = c->base = 0;
    c->active = c->edited = c->reused = c->busy = c->holds = false;
    c->hold_was = 0;
    lua_pushvalue(L, mt);
    lua_setmetatable(L, -2);
    return c;
}

/* Push the state of a children() loop over g's legal moves (the game
 * userdata at index `game` kept as its user value) and return it. Only
 * from a C function with the game methods' upvalues (UV_CHILDREN_MT).
 * [-0, +1, m] */
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

/* for m in game:children() do ... end: play each legal move in turn (in
 * the normative order); the body sees the game after that move, and the
 * loop ends with the game back where it was, also when it is left by
 * break or an error (Lua 5.4's closing value). The body must leave the
 * game at the child it was given. */
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
    LGame *lg = lgame_check(L, 2);
    Game *g = &lg->g;
    bool by_move = !lua_isnoneornil(L, 4);
    bool fill = !lua_isnoneornil(L, 5);
    if (fill) luaL_checktype(L, 5, LUA_TTABLE);
    lua_settop(L, 5);
    Children *c = push_score_loop(L, g, 2); /* 6 */
    int n = c->n;
    const int *moves = c->moves;
    lua_toclose(L, 6);
    lua_getiuservalue(L, 2, 1);   /* 7: the state table */
    lua_pushnumber(L, -HUGE_VAL); /* 8: best */
    int best[MB_MAX_CELLS], nbest = 0;
    for (int i = 0; i < n; i++) {
        if (c->active) children_back(L, c, g);
        c->next = i + 1;
        enter_child(c, g, moves[i]);
        /* between siblings: the last move, one record, maybe the status */
        lgame_sync_keys(L, 2, lg, 7, 0);
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
        lgame_sync_keys(L, 2, lg, 7, 0);
    }
    release_loop(L, 6, c);
    if (fill)
        lmb_fill_moves(L, 5, best, nbest);
    else
        lmb_push_moves(L, best, nbest);
    return 2;
}

/* lgame_sync_keys() of the game at index (absolute) from outside the methods. */
static void refresh(lua_State *L, int index, LGame *lg)
{
    if (lgame_shown(lg)) return;
    lua_getiuservalue(L, index, 3);
    lgame_sync_keys(L, index, lg, 0, lua_gettop(L));
    lua_pop(L, 1);
}

Game *lmb_game_sync(lua_State *L, int index)
{
    LGame *lg = lgame_check(L, index);
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
    lgame_sync_keys(L, index, (LGame *)(void *)g, view, view + 1);
}

/* assign(game, src): the registry closure behind lmb_game_assign (it needs
 * the methods' upvalues). src is a light userdata, a Game of any state. */

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
    LGame *lg = lgame_check(L, 1);
    if (lg->hold) refuse_held(L, lg, "game");
    const Game *src = lua_touserdata(L, 2);
    if (src && catches_up(&lg->g, src)) {
        /* the usual case in a sandbox: the same game, two moves on; the
         * records view gets the new moves only */
        int from = lg->g.move_count + 1;
        for (int i = from; i <= src->move_count; i++) game_move(&lg->g, src->records[i]);
        lgame_sync(L, 1, lg);
        return 0;
    }
    Game fresh;
    if (!src || game_copy(&fresh, src)) return luaL_error(L, "game: out of memory");
    bool same_shape = fresh.board.geom == lg->g.board.geom &&
                      fresh.board.kind == lg->g.board.kind &&
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
    lgame_new_records_view(L, 1, lg);
    lgame_sync(L, 1, lg);
    return 0;
}

void lmb_game_assign(lua_State *L, int index, const Game *src)
{
    index = lua_absindex(L, index);
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_GAME_ASSIGN_KEY);
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
    lua_setfield(L, LUA_REGISTRYINDEX, LMB_GAME_METHODS_KEY);
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
    lua_setfield(L, LUA_REGISTRYINDEX, LMB_GAME_KEYS_KEY);
    push_upvalues(L, state_mt, children_mt, true);
    lua_pushcclosure(L, l_assign, UV_BASE);
    lua_setfield(L, LUA_REGISTRYINDEX, LMB_GAME_ASSIGN_KEY);
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
    lua_setfield(L, LUA_REGISTRYINDEX, LMB_GEOMETRIES_KEY);
}

void lmb_game_add_methods(lua_State *L, const luaL_Reg *l)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, LMB_GAME_METHODS_KEY) != LUA_TTABLE)
        luaL_error(L, "marubatsu: games are not open in this state");
    luaL_setfuncs(L, l, 0);
    lua_pop(L, 1);
}
