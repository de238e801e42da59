/* l_game_core.c: a game userdata's state table kept in step with its
 * engine game (l_game_core.h): the fields and the records view, rewritten
 * only where the engine's values differ from what was last written. */
#include <string.h>

#include "l_game_core.h"

const char lgame_tag = 0;

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
bool lgame_shown(const LGame *lg)
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
#define SYNC_FIELD(field, key, push)                                                               \
    do {                                                                                           \
        if (sh->field != (int)g->field) {                                                          \
            push_shared(L, keys, key);                                                             \
            push;                                                                                  \
            lua_rawset(L, st);                                                                     \
            sh->field = (int)g->field;                                                             \
        }                                                                                          \
    } while (0)

/* Bring the state table of the game at ud up to date with its engine game,
 * whatever changed it (a method, a search, another state's game): every
 * field and record is compared with what was last written and only those
 * that differ are rewritten, so a move costs its four fields and one record
 * (about 40 ns) and a search leaf the few plies it changed. state is the
 * index of the game's state table, or 0 to fetch it (a loop that syncs
 * at every child fetches it once: it is the same table for the game's
 * life, where the records view is replaced by restart). */
void lgame_sync_keys(lua_State *L, int ud, LGame *lg, int state, int keys)
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

/* Forget what the state table shows: the next sync writes every field. */
void lgame_unshow(LGame *lg)
{
    Synced *sh = &lg->shown;
    sh->status = sh->turn = sh->last_turn = NOT_SHOWN;
    sh->move_count = sh->last_move = NOT_SHOWN;
}

/* Give the game at ud a new, empty records view, as the series' restart
 * makes a new list: a table taken from game.records before keeps its moves.
 * The view is filled by the next sync. */
void lgame_new_records_view(lua_State *L, int ud, LGame *lg)
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
