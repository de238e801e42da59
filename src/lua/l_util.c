/* l_util.c: the helpers every binding file may use (l_util.h): argument
 * checks, the message language, the traceback handler, random streams, move
 * lists, the sandbox flag and the embedded library. It includes no other
 * binding file's header, so any binding file can use it without a circle. */
#include <stdbool.h>
#include <string.h>

#include "l_util.h"

/* ---- Arguments ---- */

static const char *name_at(const void *names, size_t stride, int i)
{
    return *(const char *const *)(const void *)((const char *)names + (size_t)i * stride);
}

void lmb_check_option_names(lua_State *L, int t, const char *what, const void *names, size_t stride)
{
    if (lua_isnoneornil(L, t)) return;
    luaL_checktype(L, t, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        bool known = false;
        for (int i = 0; k && !known && name_at(names, stride, i); i++)
            known = strcmp(k, name_at(names, stride, i)) == 0;
        if (known) continue;
        const char *key = k ? lua_pushfstring(L, "'%s'", k) : luaL_typename(L, -1);
        luaL_Buffer list;
        luaL_buffinit(L, &list);
        for (int i = 0; name_at(names, stride, i); i++) {
            if (i) luaL_addstring(&list, ", ");
            luaL_addstring(&list, name_at(names, stride, i));
        }
        luaL_pushresult(&list);
        luaL_error(L, "%s: unknown option %s (known: %s)", what, key, lua_tostring(L, -1));
    }
}

lua_Integer lmb_check_range(lua_State *L, int arg, lua_Integer lo, lua_Integer hi, const char *what)
{
    lua_Integer v = luaL_checkinteger(L, arg);
    if (v < lo || v > hi)
        luaL_argerror(L, arg,
                      lua_pushfstring(L, "%s %I out of range %I..%I", what, (LUAI_UACINT)v,
                                      (LUAI_UACINT)lo, (LUAI_UACINT)hi));
    return v;
}

const char *lmb_mark_string(Mark m) { return m == MARK_O ? "o" : m == MARK_X ? "x" : "."; }

Mark lmb_check_mark(lua_State *L, int arg)
{
    const char *s = luaL_checkstring(L, arg);
    if (strcmp(s, "o") == 0) return MARK_O;
    if (strcmp(s, "x") == 0) return MARK_X;
    luaL_argerror(L, arg, "mark 'o' or 'x' expected");
    return MARK_EMPTY;
}

int lmb_check_move(lua_State *L, int arg, const Game *g)
{
    return (int)lmb_check_range(L, arg, 0, game_geom(g)->ncells - 1, "square");
}

void lmb_check_xy(lua_State *L, int arg, const Game *g, int *x, int *y)
{
    const Geometry *geo = game_geom(g);
    *x = (int)lmb_check_range(L, arg, 0, geo->width - 1, "x");
    *y = (int)lmb_check_range(L, arg + 1, 0, geo->height - 1, "y");
}

/* ---- Messages ---- */

Lang lmb_lang(lua_State *L)
{
    Lang lang = LANG_JA;
    if (lua_getfield(L, LUA_REGISTRYINDEX, LMB_MODULE_KEY) == LUA_TTABLE) {
        lua_getfield(L, -1, "lang");
        const char *s = lua_tostring(L, -1);
        if (s && strcmp(s, "en") == 0) lang = LANG_EN;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return lang;
}

size_t lmb_opt_hash(lua_State *L, int t, const char *fname, size_t dflt_mb)
{
    if (lua_isnoneornil(L, t)) return dflt_mb << 20;
    int ty = lua_getfield(L, t, "hash"), exact = 0;
    lua_Integer mb = ty == LUA_TNUMBER ? lua_tointegerx(L, -1, &exact) : 0;
    lua_pop(L, 1);
    if (ty == LUA_TNIL) return dflt_mb << 20;
    if (!exact || mb < 1 || mb > LMB_HASH_MAX_MB)
        luaL_error(L, "%s: option 'hash' must be a whole number of megabytes from 1 to %d", fname,
                   LMB_HASH_MAX_MB);
    return (size_t)mb << 20;
}

int lmb_error_interrupted(lua_State *L)
{
    lua_pushliteral(L, "interrupted");
    return lua_error(L);
}

/* Non-string errors use their __tostring or their type. */
int lmb_traceback(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* ---- Random streams ---- */

Rng *lmb_check_random(lua_State *L, int arg)
{
    return ((LmbStream *)luaL_checkudata(L, arg, LMB_RANDOM))->cur;
}

Rng *lmb_default_stream(lua_State *L, const char *fname)
{
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_MODULE_KEY);
    if (lua_type(L, -1) != LUA_TTABLE || lua_getfield(L, -1, "stream") != LUA_TUSERDATA)
        luaL_error(L, "%s: mb.stream is missing", fname);
    Rng *r = lmb_check_random(L, -1);
    lua_pop(L, 2); /* the module table keeps the stream alive */
    return r;
}

/* ---- Move lists ---- */

void lmb_push_moves(lua_State *L, const int *moves, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushinteger(L, moves[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

void lmb_fill_moves(lua_State *L, int arg, const int *moves, int n)
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
        lua_pushinteger(L, moves[i]);
        lua_rawseti(L, -2, i + 1);
    }
    for (lua_Integer i = n + 1; i <= old; i++) {
        lua_pushnil(L);
        lua_rawseti(L, -2, i);
    }
}

/* ---- Sandboxed states ---- */

bool lmb_sandboxed(lua_State *L)
{
    bool sandboxed = lua_getfield(L, LUA_REGISTRYINDEX, LMB_SANDBOXED_KEY) != LUA_TNIL;
    lua_pop(L, 1);
    return sandboxed;
}

/* ---- The embedded Lua library ---- */

const EmbeddedScript *lmb_embedded(const char *name)
{
    for (const EmbeddedScript *e = embedded_scripts; e->name; e++)
        if (strcmp(e->name, name) == 0) return e;
    return NULL;
}

void lmb_push_library(lua_State *L, const char *name)
{
    const EmbeddedScript *e = lmb_embedded(name);
    if (!e) luaL_error(L, "marubatsu: the built-in library %s is missing", name);
    const char *chunkname = lua_pushfstring(L, "=scripts/%s.lua", name);
    if (luaL_loadbufferx(L, e->text, e->len, chunkname, "t") != LUA_OK) lua_error(L);
    lua_remove(L, -2);
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_MODULE_KEY);
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_PRIVATE_KEY);
}
