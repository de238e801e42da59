/* l_shape.c: the options table of mb.Marubatsu{...} read into GameOptions,
 * and the shapes shared by the games of one Lua state (l_shape.h). */
#include <string.h>

#include "l_shape.h"

/* An optional integer field of the options table at 1. */
static int opt_int_field(lua_State *L, const char *name, int dflt)
{
    int t = lua_getfield(L, 1, name);
    int v = dflt;
    if (t != LUA_TNIL) {
        int exact;
        lua_Integer i = lua_tointegerx(L, -1, &exact);
        if (!exact || t != LUA_TNUMBER) {
            /* a number: its value (3.5, inf, 1e+20; nan whatever its sign) */
            lua_Number x = lua_tonumber(L, -1);
            const char *got = t != LUA_TNUMBER ? luaL_typename(L, -1)
                              : x != x         ? "nan"
                                               : luaL_tolstring(L, -1, NULL);
            luaL_error(L, "bad option '%s' to 'Marubatsu' (integer expected, got %s)", name, got);
        }
        if (i < 1 || i > MB_MAX_SIDE)
            luaL_error(L, "bad option '%s' to 'Marubatsu' (%d is not in 1..%d)", name, (int)i,
                       MB_MAX_SIDE);
        v = (int)i;
    }
    lua_pop(L, 1);
    return v;
}

GameOptions lmb_read_game_options(lua_State *L)
{
    GameOptions o = game_default_options();
    if (lua_isnoneornil(L, 1)) return o;
    luaL_checktype(L, 1, LUA_TTABLE);
    static const char *const known[] = {"width", "height",         "k", "rule",
                                        "board", "count_linemark", NULL};
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        bool ok = false;
        for (int i = 0; known[i] && !ok; i++)
            ok = lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), known[i]) == 0;
        if (!ok)
            luaL_error(L,
                       "unknown option %s to 'Marubatsu' (width, height, k, rule, board, "
                       "count_linemark)",
                       luaL_tolstring(L, -1, NULL));
    }
    o.width = opt_int_field(L, "width", 3);
    o.height = opt_int_field(L, "height", 3);
    o.k = opt_int_field(L, "k", 0);
    if (lua_getfield(L, 1, "board") != LUA_TNIL) {
        const char *name = lua_tostring(L, -1);
        if (!lua_isstring(L, -1) || board_kind_parse(name, &o.board) != MB_OK)
            luaL_error(L, "bad option 'board' to 'Marubatsu' (" BOARD_NAMES " expected, got %s)",
                       luaL_tolstring(L, -1, NULL));
    }
    lua_pop(L, 1);
    if (lua_getfield(L, 1, "rule") != LUA_TNIL) {
        char err[160];
        if (lua_type(L, -1) != LUA_TSTRING)
            luaL_error(
                L, "bad option 'rule' to 'Marubatsu' (" GEOMETRY_RULE_NAMES " expected, got %s)",
                luaL_typename(L, -1));
        if (geometry_rule_parse(lua_tostring(L, -1), &o.exact, err, sizeof err) != MB_OK)
            luaL_error(L, "bad option 'rule' to 'Marubatsu' (%s)", err);
    }
    lua_pop(L, 1);
    lua_getfield(L, 1, "count_linemark");
    o.count_linemark = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return o;
}

/* A shape's reference held by Lua: __gc drops it. */
static int geometry_gc(lua_State *L)
{
    Geometry **held = lua_touserdata(L, 1);
    geometry_unref(*held);
    *held = NULL;
    return 0;
}

Geometry *lmb_shared_geometry(lua_State *L, const GameOptions *o)
{
    char err[160];
    int k = o->k ? o->k : geometry_default_k(o->width, o->height);
    if (geometry_check(o->width, o->height, k, err, sizeof err) != MB_OK)
        luaL_error(L, "Marubatsu: %s", err);
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_GEOMETRIES_KEY);
    lua_pushfstring(L, "%d,%d,%d,%s", o->width, o->height, k, geometry_rule_name(o->exact));
    if (lua_rawget(L, -2) == LUA_TUSERDATA) {
        Geometry *geo = *(Geometry **)lua_touserdata(L, -1);
        lua_pop(L, 2);
        return geo;
    }
    lua_pop(L, 1);
    Geometry **held = lua_newuserdatauv(L, sizeof *held, 0);
    *held = NULL;
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, geometry_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    if (!(*held = geometry_new_rule(o->width, o->height, k, o->exact)))
        luaL_error(L, "Marubatsu: out of memory");
    lua_pushfstring(L, "%d,%d,%d,%s", o->width, o->height, k, geometry_rule_name(o->exact));
    lua_insert(L, -2);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    return *held;
}
