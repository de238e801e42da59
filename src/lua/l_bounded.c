/* l_bounded.c: long C loops under a sandboxed player's budgets (the Ticker
 * of l_bounded.h), and the sandbox's own string.rep, plain string.find,
 * table.insert, table.remove and table.move built on it.
 *
 * Each gives the results, errors and order of metamethod calls of Lua
 * 5.4's function of that name; what differs is the work done outside the
 * VM, where no budget could stop it before:
 *   rep         an empty result (s and sep empty, or n <= 0) is made at
 *               once instead of by n empty copies; a result longer than
 *               the memory cap is refused ("memory") before anything is
 *               allocated; the rest is filled by doubling copies, and its
 *               bytes count against the instruction budget
 *   find_plain  the naive search (Lua's, O(#s * #p) at worst) with the
 *               bytes it compares counted
 *   insert, remove, move
 *               the elements they shift count: a __len of 2^50 or a range
 *               of 2^63 ends at the move's deadline or instruction budget
 * Steps are charged in whole looks (l_bounded.h), so a call smaller than
 * one look charges nothing and a stats().instructions stays as it was. */
#include <limits.h>
#include <string.h>

#include <lauxlib.h>

#include "l_bounded.h"

/* ---- The ticker ---- */

void ticker_init(Ticker *t, lua_State *L, int steps_per_node, long long per_look)
{
    t->L = L;
    t->left = per_look;
    t->per_look = per_look;
    t->steps_per_node = steps_per_node;
    t->started = false;
    t->nl = (NativeLimits){.b = NULL}; /* no budget until a look finds one */
}

void ticker_look(Ticker *t)
{
    long long done = t->per_look - t->left;
    t->left = t->per_look;
    if (!t->started) {
        t->nl = budget_native(t->L);
        t->started = true;
    }
    if (!t->nl.b) return; /* a trusted state, or no call armed */
    budget_native_done(t->L, &t->nl, (unsigned long long)(done / t->steps_per_node), NULL);
}

/* ---- Strings ---- */

/* The longest string Lua makes (its MAXSIZE). */
#define MAX_STRING (sizeof(size_t) < sizeof(lua_Integer) ? (size_t)-1 : (size_t)LUA_MAXINTEGER)

/* rep(s, n [, sep]) -> s repeated n times, sep between */
static int b_rep(lua_State *L)
{
    size_t l, lsep;
    const char *s = luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    const char *sep = luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0 || (l == 0 && lsep == 0)) {
        lua_pushliteral(L, "");
        return 1;
    }
    size_t unit = l + lsep;
    if (unit < l || unit > MAX_STRING / (size_t)n)
        return luaL_error(L, "resulting string too large");
    size_t total = (size_t)n * unit - lsep;
    Ticker t;
    ticker_init(&t, L, TICK_BYTES);
    if (total >= (size_t)t.per_look) { /* a long result: look at the budgets first */
        t.nl = budget_native(L);
        t.started = true;
        const Budget *b = t.nl.b;
        if (b && b->max_memory && total > b->max_memory)
            budget_native_done(L, &t.nl, 0, "memory"); /* no collection could make room */
        ticker_step(&t, total > (size_t)LLONG_MAX ? LLONG_MAX : (long long)total);
    }
    luaL_Buffer buf;
    char *out = luaL_buffinitsize(L, &buf, total);
    memcpy(out, s, l);
    size_t done = l;
    if (n > 1) {
        memcpy(out + l, sep, lsep);
        done = unit;
    }
    /* the result repeats every `unit` bytes and done stays a multiple of
     * it: copy what is made onto what follows */
    while (done < total) {
        size_t k = done < total - done ? done : total - done;
        memcpy(out + done, out, k);
        done += k;
    }
    luaL_pushresultsize(&buf, total);
    return 1;
}

#define COMPARE_BLOCK 256 /* bytes compared between two counts */

/* The first place of p (lp > 0 bytes) in s, or NULL; the bytes looked at
 * are counted. */
static const char *search(Ticker *t, const char *s, size_t ls, const char *p, size_t lp)
{
    if (lp > ls) return NULL;
    const char *at = s, *last = s + (ls - lp); /* the last place p fits */
    while (at <= last) {
        const char *c = memchr(at, (unsigned char)p[0], (size_t)(last - at) + 1);
        if (!c) return NULL;
        size_t same = 1, k = 0;
        while (same < lp) {
            k = lp - same < COMPARE_BLOCK ? lp - same : COMPARE_BLOCK;
            if (memcmp(c + same, p + same, k) != 0) break;
            same += k;
        }
        if (same >= lp) return c;
        ticker_step(t, (long long)(c - at) + (long long)(same + k));
        at = c + 1;
    }
    return NULL;
}

/* find_plain(s, p [, init]) -> start, end | nil: string.find(s, p, init,
 * true) */
static int b_find_plain(lua_State *L)
{
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    lua_Integer init = luaL_optinteger(L, 3, 1);
    size_t start; /* from 0; negative init counts from the end */
    if (init > 0)
        start = (size_t)init - 1;
    else if (init == 0 || init < -(lua_Integer)ls)
        start = 0;
    else
        start = ls - (size_t)-init;
    if (start > ls) {
        lua_pushnil(L);
        return 1;
    }
    const char *hit = s + start;
    if (lp > 0) {
        Ticker t;
        ticker_init(&t, L, TICK_BYTES);
        hit = search(&t, s + start, ls - start, p, lp);
    }
    if (!hit) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushinteger(L, (lua_Integer)(hit - s) + 1);
    lua_pushinteger(L, (lua_Integer)(hit - s) + (lua_Integer)lp);
    return 2;
}

/* ---- Tables ---- */

enum { NEED_READ = 1, NEED_WRITE = 2, NEED_LEN = 4 };

/* Whether the table on top (a metatable) has the field name, raw. */
static bool has_field(lua_State *L, const char *name)
{
    lua_pushstring(L, name);
    bool has = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 1);
    return has;
}

/* The table library's rule for its arguments: a table, or a value whose
 * metatable has the metamethods the call uses. */
static void check_table_like(lua_State *L, int arg, int need)
{
    if (lua_type(L, arg) == LUA_TTABLE) return;
    bool ok = lua_getmetatable(L, arg);
    if (ok) {
        ok = (!(need & NEED_READ) || has_field(L, "__index")) &&
             (!(need & NEED_WRITE) || has_field(L, "__newindex")) &&
             (!(need & NEED_LEN) || has_field(L, "__len"));
        lua_pop(L, 1);
    }
    if (!ok) luaL_checktype(L, arg, LUA_TTABLE); /* raises the usual message */
}

/* insert(t, [pos,] v) */
static int b_insert(lua_State *L)
{
    check_table_like(L, 1, NEED_READ | NEED_WRITE | NEED_LEN);
    /* the first empty slot (wraps past maxinteger, as in Lua) */
    lua_Integer first_empty = (lua_Integer)((lua_Unsigned)luaL_len(L, 1) + 1u);
    lua_Integer pos = first_empty;
    int top = lua_gettop(L);
    if (top == 3) {
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)first_empty, 2,
                      "position out of bounds");
        Ticker t;
        ticker_init(&t, L, TICK_ELEMENTS);
        for (lua_Integer i = first_empty; i > pos; i--) {
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
            ticker_step(&t, 1);
        }
    } else if (top != 2) {
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos); /* the value, on top */
    return 0;
}

/* remove(t [, pos]) -> the value removed */
static int b_remove(lua_State *L)
{
    check_table_like(L, 1, NEED_READ | NEED_WRITE | NEED_LEN);
    lua_Integer size = luaL_len(L, 1);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (pos != size) /* Lua 5.4 names argument 1 here (tests/lua/sandbox_spec.lua compares) */
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 1, "position out of bounds");
    lua_geti(L, 1, pos);
    Ticker t;
    ticker_init(&t, L, TICK_ELEMENTS);
    for (; pos < size; pos++) {
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
        ticker_step(&t, 1);
    }
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

/* move(a1, f, e, t [, a2]) -> a2: a2[t..] = a1[f..e] */
static int b_move(lua_State *L)
{
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    lua_Integer t = luaL_checkinteger(L, 4);
    int to = lua_isnoneornil(L, 5) ? 1 : 5;
    check_table_like(L, 1, NEED_READ);
    check_table_like(L, to, NEED_WRITE);
    if (e >= f) {
        luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
        lua_Integer n = e - f + 1;
        luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
        Ticker tk;
        ticker_init(&tk, L, TICK_ELEMENTS);
        /* front to back unless the ranges overlap with t after f */
        if (t > e || t <= f || (to != 1 && !lua_compare(L, 1, to, LUA_OPEQ))) {
            for (lua_Integer i = 0; i < n; i++) {
                lua_geti(L, 1, f + i);
                lua_seti(L, to, t + i);
                ticker_step(&tk, 1);
            }
        } else {
            for (lua_Integer i = n - 1; i >= 0; i--) {
                lua_geti(L, 1, f + i);
                lua_seti(L, to, t + i);
                ticker_step(&tk, 1);
            }
        }
    }
    lua_pushvalue(L, to);
    return 1;
}

void lmb_push_bounded(lua_State *L)
{
    static const luaL_Reg fns[] = {{"rep", b_rep},       {"find_plain", b_find_plain},
                                   {"insert", b_insert}, {"remove", b_remove},
                                   {"move", b_move},     {NULL, NULL}};
    luaL_newlib(L, fns);
}
