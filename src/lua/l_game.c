/* l_game.c: the game object of the Lua API, mb.Marubatsu{...}.
 *
 * A full userdata holding a Game by value (Lua owns the memory; __gc frees
 * the engine's arrays). Methods and read-only fields are served by one
 * __index function: methods first (from an upvalue table), then fields.
 * Every argument is checked before the engine is touched, so a bad call
 * raises a Lua error and leaves the game exactly as it was. */
#include <stdio.h>
#include <string.h>

#include "lmb.h"

/* ---- Helpers ---- */

Game *lmb_check_game(lua_State *L, int arg)
{
    return luaL_checkudata(L, arg, LMB_GAME);
}

lua_Integer lmb_check_range(lua_State *L, int arg, lua_Integer lo, lua_Integer hi,
                            const char *what)
{
    lua_Integer v = luaL_checkinteger(L, arg);
    if (v < lo || v > hi)
        luaL_argerror(L, arg,
                      lua_pushfstring(L, "%s %I out of range %I..%I", what, (LUAI_UACINT)v,
                                      (LUAI_UACINT)lo, (LUAI_UACINT)hi));
    return v;
}

static const char *mark_string(Mark m)
{
    return m == MARK_O ? "o" : m == MARK_X ? "x" : ".";
}

/* A move argument: an integer square of this board. */
static int check_move(lua_State *L, int arg, const Game *g)
{
    return (int)lmb_check_range(L, arg, 0, game_geom(g)->ncells - 1, "square");
}

static void check_xy(lua_State *L, int arg, const Game *g, int *x, int *y)
{
    const Geometry *geo = game_geom(g);
    *x = (int)lmb_check_range(L, arg, 0, geo->width - 1, "x");
    *y = (int)lmb_check_range(L, arg + 1, 0, geo->height - 1, "y");
}

/* Push a new game userdata made by init (game_init or game_copy); raises
 * with the engine's message on failure. */
static Game *new_game(lua_State *L)
{
    Game *g = lua_newuserdatauv(L, sizeof *g, 0);
    memset(g, 0, sizeof *g); /* a valid, freeable state before anything can fail */
    luaL_setmetatable(L, LMB_GAME);
    return g;
}

/* ---- Construction ---- */

/* An optional integer field of the options table at 1. */
static int opt_int_field(lua_State *L, const char *name, int dflt)
{
    int t = lua_getfield(L, 1, name);
    int v = dflt;
    if (t != LUA_TNIL) {
        if (!lua_isinteger(L, -1))
            luaL_error(L, "bad option '%s' to 'Marubatsu' (integer expected, got %s)", name,
                       luaL_typename(L, -1));
        lua_Integer i = lua_tointeger(L, -1);
        if (i < 1 || i > MB_MAX_SIDE)
            luaL_error(L, "bad option '%s' to 'Marubatsu' (%d is not in 1..%d)", name, (int)i,
                       MB_MAX_SIDE);
        v = (int)i;
    }
    lua_pop(L, 1);
    return v;
}

/* mb.Marubatsu{width=, height=, k=, board=, count_linemark=} -> game */
static int l_new(lua_State *L)
{
    GameOptions o = game_default_options();
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        static const char *const known[] = {"width", "height", "k", "board", "count_linemark", NULL};
        lua_pushnil(L);
        while (lua_next(L, 1)) {
            lua_pop(L, 1);
            bool ok = false;
            for (int i = 0; known[i] && !ok; i++)
                ok = lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), known[i]) == 0;
            if (!ok)
                luaL_error(L, "unknown option %s to 'Marubatsu' (width, height, k, board, "
                              "count_linemark)",
                           luaL_tolstring(L, -1, NULL));
        }
        o.width = opt_int_field(L, "width", 3);
        o.height = opt_int_field(L, "height", 3);
        o.k = opt_int_field(L, "k", 0);
        if (lua_getfield(L, 1, "board") != LUA_TNIL) {
            const char *name = lua_tostring(L, -1);
            if (!lua_isstring(L, -1) || board_kind_parse(name, &o.board) != MB_OK)
                luaL_error(L, "bad option 'board' to 'Marubatsu' (list, list1d or bitboard "
                              "expected, got %s)",
                           luaL_tolstring(L, -1, NULL));
        }
        lua_pop(L, 1);
        lua_getfield(L, 1, "count_linemark");
        o.count_linemark = lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    Game *g = new_game(L);
    char err[160];
    int rc = game_init(g, &o, err, sizeof err);
    if (rc) return luaL_error(L, "Marubatsu: %s", rc == MB_ESIZE ? err : mb_strerror(rc));
    return 1;
}

static int l_gc(lua_State *L)
{
    game_free(lmb_check_game(L, 1));
    return 0;
}

static int l_copy(lua_State *L)
{
    Game *src = lmb_check_game(L, 1);
    Game *dst = new_game(L);
    if (game_copy(dst, src)) return luaL_error(L, "copy: out of memory");
    return 1;
}

/* ---- The series' operations ---- */

/* game:move(m): the checked move; errors leave the game unchanged. */
static int l_move(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    int m = check_move(L, 2, g);
    if (g->status != STATUS_PLAYING)
        return luaL_error(L, "move: the game is over (%s)", status_name(g->status));
    if (game_get(g, m) != MARK_EMPTY)
        return luaL_argerror(L, 2, lua_pushfstring(L, "square %d is occupied", m));
    game_move(g, m);
    return 0;
}

static Mark check_mark(lua_State *L, int arg)
{
    const char *s = luaL_checkstring(L, arg);
    if (strcmp(s, "o") == 0) return MARK_O;
    if (strcmp(s, "x") == 0) return MARK_X;
    luaL_argerror(L, arg, "mark 'o' or 'x' expected");
    return MARK_EMPTY;
}

/* A typed coordinate for cmove/place_mark: Lua integers as they are, floats
 * truncated like Python's int(), strings by Python's int() rules. */
static bool coord_arg(lua_State *L, int arg, IntText *out)
{
    if (lua_type(L, arg) == LUA_TNUMBER) {
        lua_Number v = lua_tonumber(L, arg);
        lua_Integer i = lua_isinteger(L, arg) ? lua_tointeger(L, arg) : (lua_Integer)v;
        if (!lua_isinteger(L, arg) && (v != v || v > 1e18 || v < -1e18)) return false;
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
    Game *g = lmb_check_game(L, 1);
    IntText x, y;
    int rc;
    Mark mark = MARK_EMPTY;
    if (which == 1) {
        mark = check_mark(L, 4);
    }
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

static int l_unmove(lua_State *L)
{
    game_unmove(lmb_check_game(L, 1));
    return 0;
}

static int l_restart(lua_State *L)
{
    game_restart(lmb_check_game(L, 1));
    return 0;
}

static int l_change_step(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    lua_Integer step = luaL_checkinteger(L, 2);
    if (step < 0) step = 0;
    if (step > MB_MAX_CELLS) step = MB_MAX_CELLS;
    game_change_step(g, (int)step);
    return 0;
}

static int l_judge(lua_State *L)
{
    lua_pushstring(L, status_name(game_judge(lmb_check_game(L, 1))));
    return 1;
}

/* Fill the table at arg (or a new one) with n integers, clearing what a
 * previous, longer fill left behind. [-0, +1, e] */
static void push_int_list(lua_State *L, int arg, const int *v, int n)
{
    lua_Integer old = 0;
    if (lua_istable(L, arg)) {
        lua_pushvalue(L, arg);
        old = (lua_Integer)lua_rawlen(L, -1);
    } else {
        luaL_argcheck(L, lua_isnoneornil(L, arg), arg, "table expected to fill");
        lua_createtable(L, n, 0);
    }
    for (int i = 0; i < n; i++) {
        lua_pushinteger(L, v[i]);
        lua_rawseti(L, -2, i + 1);
    }
    for (lua_Integer i = n + 1; i <= old; i++) {
        lua_pushnil(L);
        lua_rawseti(L, -2, i);
    }
}

/* game:calc_legal_moves([t]) -> t: the legal moves in normative order. */
static int l_calc_legal_moves(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    int moves[MB_MAX_CELLS];
    int n = game_legal_moves(g, moves);
    push_int_list(L, 2, moves, n);
    return 1;
}

/* ---- Reading the board ---- */

static int l_getmark(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    int x, y;
    check_xy(L, 2, g, &x, &y);
    lua_pushstring(L, mark_string(game_get(g, geometry_xy_to_move(game_geom(g), x, y))));
    return 1;
}

static int l_getmark_by_move(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    lua_pushstring(L, mark_string(game_get(g, check_move(L, 2, g))));
    return 1;
}

static int l_xy_to_move(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    int x, y;
    check_xy(L, 2, g, &x, &y);
    lua_pushinteger(L, geometry_xy_to_move(game_geom(g), x, y));
    return 1;
}

static int l_move_to_xy(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    int x, y;
    lua_Integer m = luaL_checkinteger(L, 2);
    luaL_argcheck(L, m >= -1 && m < game_geom(g)->ncells, 2, "square out of range");
    geometry_move_to_xy(game_geom(g), (int)m, &x, &y);
    lua_pushinteger(L, x);
    lua_pushinteger(L, y);
    return 2;
}

/* game:excel(m) -> "B2" */
static int l_excel(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    int x, y;
    char buf[16];
    geometry_move_to_xy(game_geom(g), check_move(L, 2, g), &x, &y);
    notation_excel_format(x, y, buf);
    lua_pushstring(L, buf);
    return 1;
}

static int l_board_to_str(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    char key[MB_MAX_CELLS + 1];
    notation_key(g, key);
    lua_pushlstring(L, key, (size_t)game_geom(g)->ncells);
    return 1;
}

/* game:bits() -> o_mask, x_mask: the bit planes (bit x + y*width) as
 * integers, on boards of at most 64 squares. */
static int l_bits(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    const Geometry *geo = game_geom(g);
    if (geo->ncells > 64) return luaL_error(L, "bits: the board has more than 64 squares");
    uint64_t o = 0, x = 0;
    for (int m = 0; m < geo->ncells; m++) {
        Mark k = game_get(g, m);
        uint64_t bit = 1ULL << geo->bit_of[m];
        if (k == MARK_O) o |= bit;
        if (k == MARK_X) x |= bit;
    }
    lua_pushinteger(L, (lua_Integer)o);
    lua_pushinteger(L, (lua_Integer)x);
    return 2;
}

/* game:count_markpats([t]) -> t: t["l,t,e"] = the number of lines with l
 * marks of last_turn, t of turn and e empty squares, for every pattern
 * (zeros included). The key strings are made once per shape and cached in
 * the registry, so a call costs one C call and (k+1)(k+2)/2 table writes. */
static int l_count_markpats(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    int k = game_geom(g)->k, k1 = k + 1;
    int32_t hist[(MB_MAX_SIDE + 1) * (MB_MAX_SIDE + 1)];
    markpats_of_game(g, hist);
    if (lua_istable(L, 2))
        lua_pushvalue(L, 2);
    else {
        luaL_argcheck(L, lua_isnoneornil(L, 2), 2, "table expected to fill");
        lua_createtable(L, 0, k1 * (k1 + 1) / 2);
    }
    /* registry["marubatsu.markpat_keys"][k] = {"0,0,k", ...} in (last, turn) order */
    lua_getfield(L, LUA_REGISTRYINDEX, "marubatsu.markpat_keys");
    if (lua_rawgeti(L, -1, k) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, k1 * (k1 + 1) / 2, 0);
        for (int last = 0, i = 1; last <= k; last++)
            for (int turn = 0; turn + last <= k; turn++, i++) {
                lua_pushfstring(L, "%d,%d,%d", last, turn, k - last - turn);
                lua_rawseti(L, -2, i);
            }
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, k);
    }
    for (int last = 0, i = 1; last <= k; last++)
        for (int turn = 0; turn + last <= k; turn++, i++) {
            lua_rawgeti(L, -1, i);
            lua_pushinteger(L, hist[last * k1 + turn]);
            lua_rawset(L, -5);
        }
    lua_pop(L, 2);
    return 1;
}

/* game:is_winner(mark, m) -> bool: does a line through square m hold only
 * mark's marks? (the series' board-level is_winner; no move-count rule) */
static int l_is_winner(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    Mark mark = check_mark(L, 2);
    lua_pushboolean(L, board_is_winner(&g->board, mark, check_move(L, 3, g)));
    return 1;
}

/* game:wins_with(m [, mark]) -> bool: would mark (default: the side to
 * move) complete a line by playing on the empty square m? The game is not
 * changed; the move-count rule of judge is not applied. */
static int l_wins_with(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    int m = check_move(L, 2, g);
    Mark mark = lua_isnoneornil(L, 3) ? g->turn : check_mark(L, 3);
    luaL_argcheck(L, game_get(g, m) == MARK_EMPTY, 2, "square is occupied");
    board_place(&g->board, m, mark);
    bool win = board_is_winner(&g->board, mark, m);
    board_lift(&g->board, m, mark);
    lua_pushboolean(L, win);
    return 1;
}

static int l_tostring(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    char buf[sizeof "winner playing\n" + (MB_MAX_SIDE + 1) * MB_MAX_SIDE];
    size_t n = notation_text(g, buf);
    lua_pushlstring(L, buf, n);
    return 1;
}

/* ---- Fields ---- */

/* Push the read-only field `name`; false if there is none. */
static bool push_field(lua_State *L, const Game *g, const char *name)
{
    const Geometry *geo = game_geom(g);
    switch (name[0]) {
    case 's':
        if (strcmp(name, "status") != 0) return false;
        lua_pushstring(L, status_name(g->status));
        return true;
    case 't':
        if (strcmp(name, "turn") != 0) return false;
        lua_pushstring(L, mark_string(g->turn));
        return true;
    case 'l':
        if (strcmp(name, "last_turn") == 0) {
            if (g->last_turn == MARK_EMPTY)
                lua_pushnil(L);
            else
                lua_pushstring(L, mark_string(g->last_turn));
        } else if (strcmp(name, "last_move") == 0) {
            lua_pushinteger(L, g->last_move);
        } else {
            return false;
        }
        return true;
    case 'm':
        if (strcmp(name, "move_count") != 0) return false;
        lua_pushinteger(L, g->move_count);
        return true;
    case 'r':
        if (strcmp(name, "records") != 0) return false;
        lua_createtable(L, g->nrecords - 1, 1);
        for (int i = 0; i < g->nrecords; i++) {
            lua_pushinteger(L, g->records[i]);
            lua_rawseti(L, -2, i);
        }
        return true;
    case 'w':
        if (strcmp(name, "width") != 0) return false;
        lua_pushinteger(L, geo->width);
        return true;
    case 'h':
        if (strcmp(name, "height") != 0) return false;
        lua_pushinteger(L, geo->height);
        return true;
    case 'k':
        if (strcmp(name, "k") != 0) return false;
        lua_pushinteger(L, geo->k);
        return true;
    case 'b':
        if (strcmp(name, "board") != 0) return false;
        lua_pushstring(L, board_kind_name(g->board.kind));
        return true;
    case 'c':
        if (strcmp(name, "count_linemark") != 0) return false;
        lua_pushboolean(L, g->board.counters);
        return true;
    default:
        return false;
    }
}

/* __index(game, key): a method (upvalue 1) or a field; nil otherwise. */
static int l_index(lua_State *L)
{
    Game *g = lua_touserdata(L, 1); /* only reachable through the Game metatable */
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    lua_pop(L, 1);
    if (lua_type(L, 2) == LUA_TSTRING && push_field(L, g, lua_tostring(L, 2))) return 1;
    lua_pushnil(L);
    return 1;
}

static int l_newindex(lua_State *L)
{
    lmb_check_game(L, 1);
    return luaL_error(L, "game fields are read-only (use the methods to change a game)");
}

static const luaL_Reg methods[] = {
    {"move", l_move},
    {"cmove", l_cmove},
    {"place_mark", l_place_mark},
    {"remove_mark", l_remove_mark},
    {"unmove", l_unmove},
    {"restart", l_restart},
    {"change_step", l_change_step},
    {"judge", l_judge},
    {"calc_legal_moves", l_calc_legal_moves},
    {"getmark", l_getmark},
    {"getmark_by_move", l_getmark_by_move},
    {"xy_to_move", l_xy_to_move},
    {"move_to_xy", l_move_to_xy},
    {"excel", l_excel},
    {"board_to_str", l_board_to_str},
    {"key", l_board_to_str},
    {"bits", l_bits},
    {"count_markpats", l_count_markpats},
    {"is_winner", l_is_winner},
    {"wins_with", l_wins_with},
    {"copy", l_copy},
    {NULL, NULL},
};

void lmb_open_game(lua_State *L)
{
    luaL_newmetatable(L, LMB_GAME);
    luaL_newlib(L, methods);
    lua_pushcclosure(L, l_index, 1);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, l_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, l_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, l_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "marubatsu.markpat_keys");
    lua_pushcfunction(L, l_new);
    lua_setfield(L, -2, "Marubatsu");
}
