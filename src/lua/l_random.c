/* l_random.c: CPython-compatible random streams in Lua.
 *
 * mb.Random([seed]) makes a stream object; its methods are seed, getrandbits,
 * randbelow, choice, random, randint, shuffle and draws. The module-level
 * functions mb.seed, mb.choice, ... are the same C functions bound (as an
 * upvalue) to one default stream per Lua state, also reachable as mb.stream.
 * Each function serves both ways: with an upvalue it uses that stream and
 * its arguments start at 1, as a method they start after self.
 *
 * A Random object holds its own state and a pointer to the state it draws
 * from: its own, except for the default stream, which the host can point
 * at another stream without copying any state: lmb_stream_use (the
 * tournaments' per-player streams) and lmb_bind_default_stream (a sandbox
 * state's mb.stream is its player's). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "l_bounded.h"
#include "l_random.h"

/* A Random object's userdata (l_util.h): cur is &own, or where the
 * default stream points. */
typedef LmbStream Stream;

/* Registry key of this state's default stream (mb.stream). */

/* The stream a call works on, and the index of its first real argument. */
static Rng *stream(lua_State *L, int *arg)
{
    Stream *s = lua_touserdata(L, lua_upvalueindex(1));
    if (s) {
        *arg = 1;
        return s->cur;
    }
    *arg = 2;
    return lmb_check_random(L, 1);
}

/* Seed r from the clock and the address space, as CPython seeds from the
 * system when no seed is given. */
static void seed_entropy(lua_State *L, Rng *r)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint32_t key[4] = {(uint32_t)ts.tv_nsec, (uint32_t)ts.tv_sec, (uint32_t)(uintptr_t)r,
                       (uint32_t)((uint64_t)(uintptr_t)L >> 16)};
    rng_seed_words(r, key, 4);
}

/* Seed r from the value at arg: an integer (the sign is ignored, as in
 * CPython), decimal text of any length, or nil for seed_entropy. */
static void seed_from(lua_State *L, Rng *r, int arg)
{
    switch (lua_type(L, arg)) {
    case LUA_TNONE:
    case LUA_TNIL: seed_entropy(L, r); return;
    case LUA_TNUMBER: {
        int exact;
        lua_Integer n = lua_tointegerx(L, arg, &exact); /* 3.0 is 3, as int(3.0) */
        if (exact) {
            rng_seed_i64(r, (int64_t)n);
            return;
        }
        luaL_argerror(L, arg,
                      "integer seed expected, got a number with a fraction (or too "
                      "large: pass big seeds as decimal strings)");
        return;
    }
    case LUA_TSTRING:
        if (rng_seed_decimal(r, lua_tostring(L, arg)) != MB_OK)
            luaL_argerror(L, arg, "integer seed expected (decimal digits)");
        return;
    default: luaL_typeerror(L, arg, "integer seed");
    }
}

/* ---- Functions (module level and methods) ---- */

static int l_seed(lua_State *L)
{
    int a;
    Rng *r = stream(L, &a);
    seed_from(L, r, a);
    return 0;
}

static int l_getrandbits(lua_State *L)
{
    int a;
    Rng *r = stream(L, &a);
    int k = (int)lmb_check_range(L, a, 1, 64, "k");
    lua_pushinteger(L, (lua_Integer)rng_getrandbits(r, k));
    return 1;
}

static int l_randbelow(lua_State *L)
{
    int a;
    Rng *r = stream(L, &a);
    lua_Integer n = luaL_checkinteger(L, a);
    luaL_argcheck(L, n >= 1, a, "n must be at least 1");
    lua_pushinteger(L, (lua_Integer)rng_randbelow(r, (uint64_t)n));
    return 1;
}

/* choice(t): t[randbelow(#t) + 1]; an empty sequence is an error, and a
 * 1-item choice still draws, as in CPython. */
static int l_choice(lua_State *L)
{
    int a;
    Rng *r = stream(L, &a);
    luaL_checktype(L, a, LUA_TTABLE);
    lua_Integer n = luaL_len(L, a);
    if (n < 1) return luaL_error(L, "choice: cannot choose from an empty sequence");
    lua_geti(L, a, (lua_Integer)rng_randbelow(r, (uint64_t)n) + 1);
    return 1;
}

static int l_random(lua_State *L)
{
    int a;
    Rng *r = stream(L, &a);
    lua_pushnumber(L, rng_random(r));
    return 1;
}

static int l_randint(lua_State *L)
{
    int a;
    Rng *r = stream(L, &a);
    lua_Integer lo = luaL_checkinteger(L, a), hi = luaL_checkinteger(L, a + 1);
    luaL_argcheck(L, lo <= hi, a + 1, "empty range (b < a)");
    lua_pushinteger(L, (lua_Integer)rng_randint(r, lo, hi));
    return 1;
}

/* shuffle(t): CPython's shuffle of the sequence t in place. In a sandbox
 * its steps count against the budgets (a __len of 2^50 ends at the move's
 * deadline: l_bounded.h). */
static int l_shuffle(lua_State *L)
{
    int a;
    Rng *r = stream(L, &a);
    luaL_checktype(L, a, LUA_TTABLE);
    lua_Integer n = luaL_len(L, a);
    Ticker t;
    ticker_init(&t, L, TICK_SHUFFLE);
    for (lua_Integer i = n - 1; i >= 1; i--) {
        ticker_step(&t, 1);
        lua_Integer j = (lua_Integer)rng_randbelow(r, (uint64_t)i + 1);
        lua_geti(L, a, i + 1);
        lua_geti(L, a, j + 1);
        lua_seti(L, a, i + 1);
        lua_seti(L, a, j + 1);
    }
    return 0;
}

/* draws(): 32-bit outputs consumed since the last seeding. */
static int l_draws(lua_State *L)
{
    int a;
    Rng *r = stream(L, &a);
    lua_pushinteger(L, (lua_Integer)r->draws);
    return 1;
}

static const luaL_Reg functions[] = {
    {"seed", l_seed},
    {"getrandbits", l_getrandbits},
    {"randbelow", l_randbelow},
    {"choice", l_choice},
    {"random", l_random},
    {"randint", l_randint},
    {"shuffle", l_shuffle},
    {"draws", l_draws},
    {NULL, NULL},
};

/* mb.seed where the default stream belongs to another state (a sandbox). */
static int l_no_seed(lua_State *L)
{
    return luaL_error(L, "seed: the random stream of this state is seeded by its host only");
}

/* This state's default stream, pushed. */
static Stream *push_default(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_DEFAULT_RANDOM_KEY);
    Stream *d = lua_touserdata(L, -1);
    if (!d) luaL_error(L, "the marubatsu module is not open in this state");
    return d;
}

void lmb_bind_default_stream(lua_State *L, int mbindex, Rng *r)
{
    mbindex = lua_absindex(L, mbindex);
    lua_pushcfunction(L, l_no_seed);
    lua_setfield(L, mbindex, "seed");
    push_default(L)->cur = r;
    lua_pop(L, 1);
}

int lmb_stream_use(lua_State *L)
{
    Stream *t = lua_isnoneornil(L, 1) ? NULL : luaL_checkudata(L, 1, LMB_RANDOM);
    Stream *d = push_default(L);
    if (!t || t == d) {
        d->cur = &d->own;
        lua_pushnil(L);
    } else {
        d->cur = t->cur; /* t's own state: only the default stream points elsewhere */
        lua_pushvalue(L, 1);
    }
    lua_setiuservalue(L, -2, 1); /* keeps t alive while d points at it */
    return 0;
}

/* ---- Objects ---- */

static Rng *new_stream(lua_State *L)
{
    Stream *s = lua_newuserdatauv(L, sizeof *s, 1);
    memset(s, 0, sizeof *s);
    s->cur = &s->own;
    rng_seed(s->cur, 0);
    luaL_setmetatable(L, LMB_RANDOM);
    return s->cur;
}

/* mb.Random([seed]) -> stream */
static int l_new(lua_State *L)
{
    bool seeded = !lua_isnoneornil(L, 1);
    Rng *r = new_stream(L); /* pushed after the argument */
    if (seeded)
        seed_from(L, r, 1);
    else
        seed_entropy(L, r);
    return 1;
}

static int l_tostring(lua_State *L)
{
    Rng *r = lmb_check_random(L, 1);
    lua_pushfstring(L, "Random (%I draws since seeding)", (LUAI_UACINT)r->draws);
    return 1;
}

static const luaL_Reg constructors[] = {
    {"Random", l_new},
    {NULL, NULL},
};

void lmb_open_random(lua_State *L)
{
    luaL_newmetatable(L, LMB_RANDOM);
    luaL_newlib(L, functions); /* methods: no upvalue */
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, l_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);

    luaL_setfuncs(L, constructors, 0);
    /* the default stream starts from the clock, like a fresh CPython
     * process; scripts that want reproducibility call mb.seed(n) */
    seed_entropy(L, new_stream(L));
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, LMB_DEFAULT_RANDOM_KEY);
    for (const luaL_Reg *f = functions; f->name; f++) {
        lua_pushvalue(L, -1);
        lua_pushcclosure(L, f->func, 1);
        lua_setfield(L, -3, f->name);
    }
    lua_setfield(L, -2, "stream");
}
