/* l_host.c: the program's Lua state (see host.h). Every call into Lua is a
 * protected call with a message handler that appends a traceback. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lualib.h>

#include "l_host.h"
#include "l_module.h"
#include "l_util.h"

struct Host {
    lua_State *L;
    bool catch_interrupts; /* host_catch_interrupts */
};

/* ---- Ctrl-C ---- */

/* The hook host_interrupt sets: raise "interrupted" at the next Lua step. */
static void interrupt_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lua_sethook(L, NULL, 0, 0);
    luaL_error(L, "interrupted");
}

void host_interrupt(lua_State *L)
{
    mb_interrupt_raise();
    if (L)
        lua_sethook(L, interrupt_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT,
                    1);
}

/* The state a command's Ctrl-C stops (the handler can reach nothing else). */
static lua_State *volatile interruptible;

static void on_interrupt(int sig)
{
    (void)sig;
    host_interrupt(interruptible);
}

void host_catch_interrupts(Host *h, bool on) { h->catch_interrupts = on; }

/* Call the function below its nargs arguments; print an error. With
 * host_catch_interrupts, a first Ctrl-C during the call stops it
 * (host_interrupt) and the handler is reset by it, so that a second one
 * ends the program as Ctrl-C does by default; a call that failed because
 * of one prints "interrupted" alone and gives EXIT_INTERRUPTED. */
static int call(Host *h, int nargs, int nresults)
{
    lua_State *L = h->L;
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, lmb_traceback);
    lua_insert(L, base);
    struct sigaction sa, old;
    if (h->catch_interrupts) {
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_interrupt;
        sa.sa_flags = SA_RESETHAND;
        sigemptyset(&sa.sa_mask);
        mb_interrupt_clear();
        interruptible = L;
        sigaction(SIGINT, &sa, &old);
    }
    int rc = lua_pcall(L, nargs, nresults, base);
    if (h->catch_interrupts) {
        sigaction(SIGINT, &old, NULL);
        interruptible = NULL;
        lua_sethook(L, NULL, 0, 0);
    }
    lua_remove(L, base);
    if (rc == LUA_OK) return 0;
    if (h->catch_interrupts && mb_interrupted()) {
        fprintf(stderr, "marubatsu: interrupted\n");
        lua_pop(L, 1);
        return EXIT_INTERRUPTED;
    }
    fprintf(stderr, "marubatsu: %s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
    return 1;
}

/* Print a load error (syntax, missing file). */
static int load_failed(Host *h)
{
    fprintf(stderr, "marubatsu: %s\n", lua_tostring(h->L, -1));
    lua_pop(h->L, 1);
    return 1;
}

static int open_all(lua_State *L)
{
    luaL_openlibs(L);
    luaL_requiref(L, "marubatsu", luaopen_marubatsu, 0);
    lua_setglobal(L, "mb");
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_marubatsu_host);
    lua_setfield(L, -2, "marubatsu.host");
    lua_pop(L, 1);
    return 0;
}

lua_State *host_state(Host *h) { return h->L; }

Host *host_new(void)
{
    Host *h = calloc(1, sizeof *h);
    if (!h || !(h->L = luaL_newstate())) {
        fprintf(stderr, "marubatsu: cannot create a Lua state (out of memory)\n");
        free(h);
        return NULL;
    }
    lua_pushcfunction(h->L, open_all);
    if (call(h, 0, 0)) {
        host_free(h);
        return NULL;
    }
    return h;
}

void host_free(Host *h)
{
    if (!h) return;
    if (h->L) lua_close(h->L);
    free(h);
}

int host_add_path(Host *h, const char *dir)
{
    lua_State *L = h->L;
    lua_getglobal(L, "mb");
    lua_getfield(L, -1, "path");
    lua_pushstring(L, dir);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    lua_pop(L, 2);
    return 0;
}

int host_require(Host *h, const char *spec)
{
    lua_State *L = h->L;
    /* like lua -l: "mod" sets the global mod, "g=mod" the global g */
    const char *eq = strchr(spec, '=');
    const char *module = eq ? eq + 1 : spec;
    lua_getglobal(L, "require");
    lua_pushstring(L, module);
    if (call(h, 1, 1)) return 1;
    if (eq)
        lua_pushlstring(L, spec, (size_t)(eq - spec));
    else
        lua_pushstring(L, module);
    lua_insert(L, -2);
    lua_setglobal(L, lua_tostring(L, -2));
    lua_pop(L, 1);
    return 0;
}

int host_run_string(Host *h, const char *code)
{
    if (luaL_loadbuffer(h->L, code, strlen(code), "=(command line)") != LUA_OK)
        return load_failed(h);
    return call(h, 0, 0);
}

int host_run_file(Host *h, const char *program, const char *file, int nargs, char **args)
{
    lua_State *L = h->L;
    lua_createtable(L, nargs, 2);
    lua_pushstring(L, program);
    lua_rawseti(L, -2, -1);
    lua_pushstring(L, file);
    lua_rawseti(L, -2, 0);
    for (int i = 0; i < nargs; i++) {
        lua_pushstring(L, args[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setglobal(L, "arg");
    if (luaL_loadfilex(L, strcmp(file, "-") == 0 ? NULL : file, "t") != LUA_OK)
        return load_failed(h);
    luaL_checkstack(L, nargs, "too many arguments");
    for (int i = 0; i < nargs; i++) lua_pushstring(L, args[i]);
    return call(h, nargs, 0);
}

int host_call_table(Host *h, const char *function, const char *const *keys,
                    const char *const *values, int n)
{
    lua_State *L = h->L;
    /* the command mains are in the host library, the terminal ones in mb */
    luaopen_marubatsu_host(L);
    if (lua_getfield(L, -1, function) != LUA_TFUNCTION) {
        lua_pop(L, 2);
        lua_getglobal(L, "mb");
        if (lua_getfield(L, -1, function) != LUA_TFUNCTION) {
            lua_pop(L, 2);
            fprintf(stderr, "marubatsu: %s is missing\n", function);
            return 1;
        }
    }
    lua_remove(L, -2);
    lua_createtable(L, 0, n);
    for (int i = 0; i < n; i++) {
        lua_pushstring(L, values[i]);
        lua_setfield(L, -2, keys[i]);
    }
    if (call(h, 1, 1)) return 1;
    int status = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : 0;
    lua_pop(L, 1);
    return status;
}
