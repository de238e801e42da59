/* l_transfer.c: copying a table of parameters from one Lua state to
 * another (the host's params to a sandboxed player's state): the table is
 * packed into bytes in the first state and unpacked in the second. Numbers,
 * strings, booleans and tables of them (nested, shared or cyclic) cross;
 * anything else is an error naming where it is (params.f is a function
 * value). */
#include <string.h>

#include "l_transfer.h"

#define MAX_DEPTH 32 /* tables nested in tables */


/* A growing byte string held in a host userdata at `slot` (so an error
 * while writing leaks nothing). */
typedef struct Out {
    lua_State *L;
    int slot, seen, ids;
    char *p;
    size_t n, cap;
    char path[160];
} Out;

static void put(Out *o, const void *data, size_t len)
{
    if (o->n + len > o->cap) {
        size_t cap = 2 * o->cap + len + 64;
        char *np = lua_newuserdatauv(o->L, cap, 0);
        if (o->n) memcpy(np, o->p, o->n);
        lua_replace(o->L, o->slot);
        o->p = np;
        o->cap = cap;
    }
    memcpy(o->p + o->n, data, len);
    o->n += len;
}

static void put_tag(Out *o, char tag) { put(o, &tag, 1); }

static void put_value(Out *o, int idx, int depth);

/* Append the key at idx to the path for messages: .name or [key]. */
static size_t push_path(Out *o, int idx)
{
    size_t len = strlen(o->path);
    size_t room = sizeof o->path - len;
    lua_State *L = o->L;
    if (lua_type(L, idx) == LUA_TSTRING)
        snprintf(o->path + len, room, ".%s", lua_tostring(L, idx));
    else if (lua_isinteger(L, idx))
        snprintf(o->path + len, room, "[%lld]", (long long)lua_tointeger(L, idx));
    else
        snprintf(o->path + len, room, "[%s]", luaL_typename(L, idx));
    return len;
}

static void put_table(Out *o, int idx, int depth)
{
    lua_State *L = o->L;
    if (depth >= MAX_DEPTH)
        luaL_error(L, "sandbox: params%s: tables nested more than %d deep", o->path, MAX_DEPTH);
    luaL_checkstack(L, 6, "sandbox: params");
    lua_pushvalue(L, idx);
    if (lua_rawget(L, o->seen) == LUA_TNUMBER) { /* seen before: a reference */
        int id = (int)lua_tointeger(L, -1);
        lua_pop(L, 1);
        put_tag(o, 'r');
        put(o, &id, sizeof id);
        return;
    }
    lua_pop(L, 1);
    lua_pushvalue(L, idx);
    lua_pushinteger(L, ++o->ids);
    lua_rawset(L, o->seen);
    put_tag(o, 't');
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        int v = lua_gettop(L), k = v - 1;
        size_t len = push_path(o, k);
        put_value(o, k, depth + 1);
        put_value(o, v, depth + 1);
        o->path[len] = '\0';
        lua_pop(L, 1);
    }
    put_tag(o, 'e');
}

static void put_value(Out *o, int idx, int depth)
{
    lua_State *L = o->L;
    switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN: put_tag(o, lua_toboolean(L, idx) ? 'T' : 'F'); return;
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) {
            lua_Integer i = lua_tointeger(L, idx);
            put_tag(o, 'i');
            put(o, &i, sizeof i);
        } else {
            lua_Number d = lua_tonumber(L, idx);
            put_tag(o, 'd');
            put(o, &d, sizeof d);
        }
        return;
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        put_tag(o, 's');
        put(o, &n, sizeof n);
        put(o, s, n);
        return;
    }
    case LUA_TTABLE: put_table(o, idx, depth); return;
    default:
        luaL_error(L,
                   "sandbox: params%s is a %s value; only numbers, strings, booleans and "
                   "tables of them pass into a sandbox",
                   o->path, luaL_typename(L, idx));
    }
}

typedef struct In {
    const char *p;
    size_t i;
    int refs; /* a child table: id -> table */
} In;

static void get_value(lua_State *L, In *in)
{
    luaL_checkstack(L, 4, "sandbox: params");
    char tag = in->p[in->i++];
    switch (tag) {
    case 'T':
    case 'F': lua_pushboolean(L, tag == 'T'); return;
    case 'i': {
        lua_Integer v;
        memcpy(&v, in->p + in->i, sizeof v);
        in->i += sizeof v;
        lua_pushinteger(L, v);
        return;
    }
    case 'd': {
        lua_Number v;
        memcpy(&v, in->p + in->i, sizeof v);
        in->i += sizeof v;
        lua_pushnumber(L, v);
        return;
    }
    case 's': {
        size_t n;
        memcpy(&n, in->p + in->i, sizeof n);
        in->i += sizeof n;
        lua_pushlstring(L, in->p + in->i, n);
        in->i += n;
        return;
    }
    case 'r': {
        int id;
        memcpy(&id, in->p + in->i, sizeof id);
        in->i += sizeof id;
        lua_rawgeti(L, in->refs, id);
        return;
    }
    default: /* 't' */
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_rawseti(L, in->refs, (lua_Integer)luaL_len(L, in->refs) + 1);
        while (in->p[in->i] != 'e') {
            get_value(L, in);
            get_value(L, in);
            lua_rawset(L, -3);
        }
        in->i++;
    }
}

const char *lmb_pack_table(lua_State *L, int idx, size_t *len)
{
    idx = lua_absindex(L, idx);
    lua_pushnil(L);  /* the bytes' holder */
    lua_newtable(L); /* table -> id */
    int top = lua_gettop(L);
    Out o = {.L = L, .slot = top - 1, .seen = top};
    put_table(&o, idx, 0);
    *len = o.n;
    return o.p;
}

void lmb_unpack_value(lua_State *L, const char *bytes)
{
    lua_newtable(L); /* id -> table */
    In in = {bytes, 0, lua_gettop(L)};
    get_value(L, &in);
    lua_remove(L, -2);
}
