/* l_serve.c: the program's Lua state serving `marubatsu serve` (see
 * serve_host.h). scripts/lib/serve.lua returns a handler function, kept in
 * the registry; each request is one protected call of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "l_host.h"
#include "l_util.h"
#include "serve_host.h"

#define HANDLER_KEY "marubatsu.serve.handler"

/* [-0, +0, -] Call the function below nargs arguments with a traceback;
 * LUA_OK, or the status with the message on top. */
static int pcall_traced(lua_State *L, int nargs, int nresults)
{
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, lmb_traceback);
    lua_insert(L, base);
    int rc = lua_pcall(L, nargs, nresults, base);
    lua_remove(L, base);
    return rc;
}

/* [-0, +1, e] mb.embedded("lib/serve") compiled (protected: it runs inside
 * open_serve). */
static int open_serve(lua_State *L)
{
    const ServeConfig *c = lua_touserdata(L, 1);
    lua_getglobal(L, "mb");
    lua_getfield(L, -1, "embedded");
    lua_pushliteral(L, "lib/serve");
    lua_call(L, 1, 1);
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    if (!text) return luaL_error(L, "the built-in library lib/serve is missing");
    if (luaL_loadbufferx(L, text, len, "=scripts/lib/serve.lua", "t") != LUA_OK)
        return lua_error(L);
    lua_pushvalue(L, -3); /* mb */
    lua_createtable(L, 0, 4);
    if (c->results) {
        lua_pushstring(L, c->results);
        lua_setfield(L, -2, "results");
    }
    lua_createtable(L, c->n_ai_files, 0);
    for (int i = 0; i < c->n_ai_files; i++) {
        lua_pushstring(L, c->ai_files[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "ai_files");
    lua_pushinteger(L, c->max_games);
    lua_setfield(L, -2, "max_games");
    lua_pushinteger(L, c->idle_seconds);
    lua_setfield(L, -2, "idle");
    /* config.limits: the budgets given, for mb.sandbox.load (0: false, off) */
    const double budgets[] = {c->time, c->instructions, c->memory};
    static const char *const names[] = {"time", "instructions", "memory"};
    bool any = false;
    for (int i = 0; i < 3; i++) {
        if (budgets[i] < 0) continue;
        if (!any) lua_createtable(L, 0, 3);
        any = true;
        if (budgets[i] > 0)
            lua_pushnumber(L, budgets[i]);
        else
            lua_pushboolean(L, 0);
        lua_setfield(L, -2, names[i]);
    }
    if (any) lua_setfield(L, -2, "limits");
    lua_call(L, 2, 1);
    luaL_checktype(L, -1, LUA_TFUNCTION);
    lua_setfield(L, LUA_REGISTRYINDEX, HANDLER_KEY);
    return 0;
}

int host_serve_open(Host *h, const ServeConfig *c)
{
    lua_State *L = host_state(h);
    lua_pushcfunction(L, open_serve);
    lua_pushlightuserdata(L, (void *)c);
    if (pcall_traced(L, 1, 0) == LUA_OK) return 0;
    fprintf(stderr, "marubatsu serve: %s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
    return 1;
}

static void set_reply(ServeReply *r, int status, const char *ctype, const char *body, size_t len)
{
    r->status = status;
    snprintf(r->ctype, sizeof r->ctype, "%s", ctype);
    r->body = malloc(len ? len : 1);
    if (!r->body) {
        r->status = 500;
        r->len = 0;
        return;
    }
    memcpy(r->body, body, len);
    r->len = len;
}

void host_serve_call(Host *h, const char *method, const char *path, const char *const *keys,
                     const char *const *values, int n, const char *body, size_t len, ServeReply *r)
{
    lua_State *L = host_state(h);
    int top = lua_gettop(L);
    memset(r, 0, sizeof *r);
    lua_getfield(L, LUA_REGISTRYINDEX, HANDLER_KEY);
    lua_pushstring(L, method);
    lua_pushstring(L, path);
    lua_createtable(L, 0, n);
    for (int i = 0; i < n; i++) {
        lua_pushstring(L, values[i] ? values[i] : "");
        lua_setfield(L, -2, keys[i]);
    }
    lua_pushlstring(L, body ? body : "", body ? len : 0);
    if (pcall_traced(L, 4, 4) != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        fprintf(stderr, "marubatsu serve: %s %s: %s\n", method, path, msg ? msg : "error");
        static const char text[] = "{\"error\": \"internal error (see the server's log)\"}\n";
        set_reply(r, 500, "application/json", text, sizeof text - 1);
        lua_settop(L, top);
        return;
    }
    /* status, content type, body [, file name] */
    int status = (int)lua_tointeger(L, top + 1);
    const char *ctype = lua_tostring(L, top + 2);
    size_t blen = 0;
    const char *b = lua_tolstring(L, top + 3, &blen);
    set_reply(r, status >= 100 && status < 600 ? status : 500, ctype ? ctype : "application/json",
              b ? b : "", b ? blen : 0);
    const char *file = lua_tostring(L, top + 4);
    if (file) snprintf(r->filename, sizeof r->filename, "%s", file);
    lua_settop(L, top);
}

void serve_reply_free(ServeReply *r)
{
    free(r->body);
    r->body = NULL;
}
