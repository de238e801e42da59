/* l_position.c: the methods of the game object that read the position
 * without changing it: judge, legal moves, squares and coordinates, keys,
 * bit masks, mark patterns (the evaluators' fast paths) and one-move
 * look-ahead. They need none of the state-table machinery of l_game.c and
 * are registered into the same methods table by lmb_open_game. */
#include <stdio.h>
#include <string.h>

#include "l_position.h"

static int l_judge(lua_State *L)
{
    lua_pushstring(L, status_name(game_judge(lmb_check_game(L, 1))));
    return 1;
}

/* game:calc_legal_moves([t]) -> t: the legal moves in normative order. */
static int l_calc_legal_moves(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    int moves[MB_MAX_CELLS];
    int n = game_legal_moves(g, moves);
    lmb_fill_moves(L, 2, moves, n);
    return 1;
}

/* ---- Reading the board ---- */

static int l_getmark(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    int x, y;
    lmb_check_xy(L, 2, g, &x, &y);
    lua_pushstring(L, lmb_mark_string(game_get(g, geometry_xy_to_move(game_geom(g), x, y))));
    return 1;
}

static int l_getmark_by_move(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    lua_pushstring(L, lmb_mark_string(game_get(g, lmb_check_move(L, 2, g))));
    return 1;
}

static int l_xy_to_move(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    int x, y;
    lmb_check_xy(L, 2, g, &x, &y);
    lua_pushinteger(L, geometry_xy_to_move(game_geom(g), x, y));
    return 1;
}

static int l_move_to_xy(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    int x, y;
    lua_Integer m = lmb_check_range(L, 2, -1, game_geom(g)->ncells - 1, "square");
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
    geometry_move_to_xy(game_geom(g), lmb_check_move(L, 2, g), &x, &y);
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

/* The table to fill: the one at arg, or a new one. [-0, +1, m] */
static void push_target(lua_State *L, int arg, int narr, int nrec)
{
    if (lua_istable(L, arg)) {
        lua_pushvalue(L, arg);
        return;
    }
    luaL_argcheck(L, lua_isnoneornil(L, arg), arg, "table expected to fill");
    lua_createtable(L, narr, nrec);
}

/* game:count_markpats([t]) -> t: t["l,t,e"] = the number of lines with l
 * marks of last_turn, t of turn and e empty squares, for every pattern
 * (zeros included). The key strings are made once per k and cached. */
static int l_count_markpats(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    int k = game_geom(g)->k, k1 = k + 1;
    int32_t hist[(MB_MAX_SIDE + 1) * (MB_MAX_SIDE + 1)];
    markpats_of_game(g, hist);
    push_target(L, 2, 0, k1 * (k1 + 1) / 2);
    /* registry["marubatsu.markpat_keys"][k] = {"0,0,k", ...} in (last, turn) order */
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_MARKPAT_KEYS_KEY);
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

/* game:markpats([t]) -> t: the same counts as an array, the fast path for
 * evaluators: t[1 + last*(k+1) + turn] (mb.markpat_index gives the index).
 * game:markpats(i, j, ...) -> the counts at those indexes, without a table:
 * the fastest way to read the few patterns an evaluator needs. */
static int l_markpats(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    int k1 = game_geom(g)->k + 1, n = k1 * k1;
    int32_t hist[(MB_MAX_SIDE + 1) * (MB_MAX_SIDE + 1)];
    markpats_of_game(g, hist);
    if (lua_type(L, 2) == LUA_TNUMBER) {
        int top = lua_gettop(L);
        for (int a = 2; a <= top; a++) {
            /* an evaluator's hot path: the check inline, its message from
             * lmb_check_range */
            int isint;
            lua_Integer i = lua_tointegerx(L, a, &isint);
            if (!isint || i < 1 || i > n) i = lmb_check_range(L, a, 1, n, "pattern index");
            lua_pushinteger(L, hist[i - 1]);
        }
        return top - 1;
    }
    push_target(L, 2, n, 0);
    for (int i = 0; i < n; i++) { /* impossible patterns read 0 too: no holes */
        lua_pushinteger(L, hist[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* game:is_winner(mark, m) -> bool: does a line through square m hold only
 * mark's marks? (the series' board-level is_winner; no move-count rule) */
static int l_is_winner(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    Mark mark = lmb_check_mark(L, 2);
    lua_pushboolean(L, board_is_winner(&g->board, mark, lmb_check_move(L, 3, g)));
    return 1;
}

/* game:wins_with(m [, mark]) -> bool: would mark (default: the side to
 * move) complete a line by playing on the empty square m? The game is not
 * changed; the move-count rule of judge is not applied. */
static int l_wins_with(lua_State *L)
{
    Game *g = lmb_check_game(L, 1);
    int m = lmb_check_move(L, 2, g);
    Mark mark = lua_isnoneornil(L, 3) ? g->turn : lmb_check_mark(L, 3);
    if (game_get(g, m) != MARK_EMPTY)
        return luaL_argerror(L, 2, lua_pushfstring(L, "square %d is occupied", m));
    board_place(&g->board, m, mark);
    bool win = board_is_winner(&g->board, mark, m);
    board_lift(&g->board, m, mark);
    lua_pushboolean(L, win);
    return 1;
}

/* mb.markpat_index(last, turn, k) -> the index of pattern (last, turn,
 * k-last-turn) in game:markpats() */
static int l_markpat_index(lua_State *L)
{
    lua_Integer k = lmb_check_range(L, 3, 1, MB_MAX_SIDE, "k");
    lua_Integer last = lmb_check_range(L, 1, 0, k, "last");
    lua_Integer turn = lmb_check_range(L, 2, 0, k - last, "turn");
    lua_pushinteger(L, 1 + last * (k + 1) + turn);
    return 1;
}

static const luaL_Reg methods[] = {
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
    {"markpats", l_markpats},
    {"is_winner", l_is_winner},
    {"wins_with", l_wins_with},
    {NULL, NULL},
};

static const luaL_Reg functions[] = {
    {"markpat_index", l_markpat_index},
    {NULL, NULL},
};

void lmb_open_position(lua_State *L)
{
    lmb_game_add_methods(L, methods);
    luaL_setfuncs(L, functions, 0);
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, LMB_MARKPAT_KEYS_KEY);
}
