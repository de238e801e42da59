/* test_binding.c: the Lua binding seen from C: the module opens with a
 * balanced stack, every embedded script compiles, the Lua view of a game
 * (its state table and records) matches the engine's Game after random
 * sequences of every changing method, failed calls leave both the game and
 * the C stack as they were, mb.loadscript runs chunks in the environment it
 * is given and refuses binary chunks, and collected games free their engine
 * memory (checked by the sanitizer build). */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "embedded.h"
#include "harness.h"
#include "l_module.h"
#include "lmb.h"

static lua_State *open_state(void)
{
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    luaL_requiref(L, "marubatsu", luaopen_marubatsu, 0);
    lua_setglobal(L, "mb");
    return L;
}

/* Run code; returns true on success, leaving nothing on the stack. */
static bool run(lua_State *L, const char *code)
{
    int top = lua_gettop(L);
    bool ok = luaL_dostring(L, code) == LUA_OK;
    if (!ok) lua_pop(L, 1);
    lua_settop(L, top);
    return ok;
}

TEST(opens_balanced)
{
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    CHECK_INT(lua_gettop(L), 0);
    CHECK_INT(luaopen_marubatsu(L), 1);
    CHECK_INT(lua_gettop(L), 1);
    CHECK(lua_istable(L, 1));
    lua_getfield(L, 1, "Marubatsu");
    CHECK(lua_isfunction(L, -1));
    lua_close(L);
}

TEST(embedded_scripts_compile)
{
    lua_State *L = luaL_newstate();
    int n = 0;
    for (const EmbeddedScript *e = embedded_scripts; e->name; e++) {
        if (strchr(e->name, '.')) continue; /* docs/lua-api.md: text, not Lua */
        n++;
        int rc = luaL_loadbufferx(L, e->text, e->len, e->name, "t");
        if (rc != LUA_OK) t_fail(__FILE__, __LINE__, "%s: %s", e->name, lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    CHECK(n >= 24); /* the library, ai1..ai14s and their s variants */
    lua_close(L);
}

/* Compare the Lua view of the global game `g` with the engine's Game. */
static void check_view(lua_State *L)
{
    lua_getglobal(L, "g");
    Game *g = lmb_check_game(L, -1);
    lua_getfield(L, -1, "status");
    CHECK_STR(lua_tostring(L, -1), status_name(g->status));
    lua_getfield(L, -2, "turn");
    CHECK_STR(lua_tostring(L, -1), g->turn == MARK_O ? "o" : "x");
    lua_getfield(L, -3, "last_turn");
    if (g->last_turn == MARK_EMPTY)
        CHECK(lua_isnil(L, -1));
    else
        CHECK_STR(lua_tostring(L, -1), g->last_turn == MARK_O ? "o" : "x");
    lua_getfield(L, -4, "move_count");
    CHECK_INT(lua_tointeger(L, -1), g->move_count);
    lua_getfield(L, -5, "last_move");
    CHECK_INT(lua_tointeger(L, -1), g->last_move);
    lua_getfield(L, -6, "records");
    CHECK_INT((int)lua_rawlen(L, -1), g->nrecords - 1);
    for (int i = 0; i < g->nrecords; i++) {
        lua_rawgeti(L, -1, i);
        CHECK_INT(lua_tointeger(L, -1), g->records[i]);
        lua_pop(L, 1);
    }
    lua_settop(L, 0);
}

TEST(view_follows_the_engine)
{
    lua_State *L = open_state();
    CHECK(run(L, "g = mb.Marubatsu{width = 4, height = 4, k = 3, count_linemark = true}"));
    Rng r;
    rng_seed(&r, 5);
    static const char *const ops[] = {
        "local l = g:calc_legal_moves() if #l > 0 then g:move(l[1 + #l // 2]) end",
        "g:unmove()",
        "g:change_step(1)",
        "g:change_step(99)",
        "g:cmove(1, 2)",
        "for m in g:children() do if m == 5 then break end end",
        "pcall(function() for m in g:children() do error('x') end end)",
        "local l = g:calc_legal_moves() if #l > 0 then g:move(l[#l]) end",
        "g:restart()",
    };
    for (int i = 0; i < 3000; i++) {
        int op = (int)rng_randbelow(&r, sizeof ops / sizeof ops[0]);
        if (op == 8 && rng_randbelow(&r, 4)) op = 0; /* restart rarely */
        CHECK(run(L, ops[op]));
        check_view(L);
        CHECK_INT(lua_gettop(L), 0);
    }
    lua_close(L);
}

TEST(errors_change_nothing)
{
    lua_State *L = open_state();
    CHECK(run(L, "g = mb.Marubatsu() g:move(4) g:move(0)"));
    static const char *const bad[] = {
        "g:move(4)",
        "g:move(9)",
        "g:move('a')",
        "g:move()",
        "g:getmark(3, 0)",
        "g:xy_to_move(-1, 0)",
        "g.status = 'o'",
        "g:markpats(17)",
        "g:wins_with(4)",
        "g:place_mark(0, 0, 'z')",
        "mb.Marubatsu.move(5)",
        "g.move(nil, 1)",
        "for m in g:children() do g:unmove() end",
    };
    lua_getglobal(L, "g");
    Game *g = lmb_check_game(L, -1);
    lua_pop(L, 1);
    char before[16], after[16];
    notation_key(g, before);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        bool ok = run(L, bad[i]);
        if (ok) t_fail(__FILE__, __LINE__, "'%s' did not fail", bad[i]);
        CHECK_INT(lua_gettop(L), 0);
        if (i + 1 < sizeof bad / sizeof bad[0]) {
            notation_key(g, after);
            CHECK_STR(after, before);
            CHECK_INT(g->move_count, 2);
        }
    }
    check_view(L);
    lua_close(L);
}

TEST(loadscript_environments)
{
    lua_State *L = open_state();
    CHECK(run(L, "local path = os.tmpname() .. '.lua'\n"
                 "local f = assert(io.open(path, 'w')) f:write('x = 42 return y') f:close()\n"
                 "local env = {y = 'from env'}\n"
                 "local chunk = assert(mb.loadscript(path, env))\n"
                 "assert(chunk() == 'from env') assert(env.x == 42) assert(x == nil)\n"
                 "f = assert(io.open(path, 'wb')) f:write(string.dump(function() end)) f:close()\n"
                 "local c, err = mb.loadscript(path)\n"
                 "assert(c == nil and err:find('binary'), err)\n"
                 "os.remove(path)"));
    CHECK(run(L, "local c, err = mb.loadscript('no_such_script')\n"
                 "assert(c == nil and err:find('not found'))"));
    lua_close(L);
}

TEST(collected_games_free_memory)
{
    lua_State *L = open_state();
    /* thousands of games, copies and loops; the sanitizer build reports any
     * engine memory not freed by __gc */
    CHECK(run(L, "for i = 1, 2000 do\n"
                 "  local g = mb.Marubatsu{width = 5, height = 5, k = 4, board = 'list'}\n"
                 "  g:move(12) local c = g:copy() for m in c:children() do end\n"
                 "end\n"
                 "collectgarbage() collectgarbage()"));
    lua_close(L);
}

const TestCase binding_tests[] = {
    {"opens_balanced", opens_balanced},
    {"embedded_scripts_compile", embedded_scripts_compile},
    {"view_follows_the_engine", view_follows_the_engine},
    {"errors_change_nothing", errors_change_nothing},
    {"loadscript_environments", loadscript_environments},
    {"collected_games_free_memory", collected_games_free_memory},
    {0},
};
