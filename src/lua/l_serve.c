/* l_serve.c: the program's Lua state serving `marubatsu serve` (see
 * serve_host.h). scripts/lib/serve.lua returns a handler function, kept in
 * the registry; each request is one protected call of it. In a worker it
 * returns the function that computes one job instead, and host_serve_worker
 * feeds it the jobs read from the server. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>

#include "l_host.h"
#include "l_util.h"
#include "serve_host.h"


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

/* config.read_file(path [, max [, follow]]) -> text, size | nil, message,
 * code: the first max bytes (default: all) of a regular file and its size.
 * The --results and --tune files are opened with this: without blocking (a FIFO would
 * wait for a writer) and without following a symbolic link (unless
 * follow: the --ai files, named on the command line), and anything but a
 * regular file is refused (code "type"; else the errno). */
static int l_read_file(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    lua_Integer max = luaL_optinteger(L, 2, LUA_MAXINTEGER);
    luaL_argcheck(L, max >= 0, 2, "a size >= 0 expected");
    int nofollow = lua_toboolean(L, 3) ? 0 : O_NOFOLLOW;
    int fd = open(path, O_RDONLY | O_NONBLOCK | nofollow | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd >= 0) close(fd);
        lua_pushnil(L);
        lua_pushfstring(L, "%s: %s", path, e == ELOOP ? "a symbolic link" : strerror(e));
        lua_pushinteger(L, e);
        return 3;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        lua_pushnil(L);
        lua_pushfstring(L, "%s: not a regular file", path);
        lua_pushliteral(L, "type");
        return 3;
    }
    size_t want = (lua_Unsigned)max < (lua_Unsigned)st.st_size ? (size_t)max : (size_t)st.st_size;
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, want);
    size_t got = 0;
    while (got < want) {
        ssize_t r = read(fd, p + got, want - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break; /* the file shrank, or an error: what was read */
        got += (size_t)r;
    }
    close(fd);
    luaL_pushresultsize(&b, got);
    lua_pushinteger(L, (lua_Integer)st.st_size);
    return 2;
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
    if (c->tune) {
        lua_pushstring(L, c->tune);
        lua_setfield(L, -2, "tune");
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
    lua_pushnumber(L, c->builtin_time);
    lua_setfield(L, -2, "builtin_time");
    lua_pushboolean(L, c->worker);
    lua_setfield(L, -2, "worker");
    lua_pushcfunction(L, l_read_file);
    lua_setfield(L, -2, "read_file");
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
    lua_setfield(L, LUA_REGISTRYINDEX, LMB_SERVE_HANDLER_KEY);
    return 0;
}

int host_serve_open(Host *h, const ServeConfig *c)
{
    lua_State *L = host_state(h);
    lua_pushcfunction(L, open_serve);
    lua_pushlightuserdata(L, (void *)c);
    /* no traceback: what fails here is the command line (a --results or
     * --tune directory, an --ai file), said in one line */
    if (lua_pcall(L, 1, 0, 0) == LUA_OK) return 0;
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

/* The reply of a handler or finish call whose 4 results are at top + 1..
 * top + 4: status, content type, body [, file name], or "job", message,
 * limit, finish (jobs_ok only). */
static void take_reply(lua_State *L, int top, bool jobs_ok, ServeReply *r)
{
    if (lua_type(L, top + 1) == LUA_TSTRING && strcmp(lua_tostring(L, top + 1), "job") == 0) {
        size_t n = 0;
        const char *msg = lua_tolstring(L, top + 2, &n);
        char *copy = msg && jobs_ok ? malloc(n ? n : 1) : NULL;
        if (!copy || lua_type(L, top + 4) != LUA_TFUNCTION) {
            free(copy);
            static const char text[] = "{\"error\": \"internal error (a bad job)\"}\n";
            set_reply(r, 500, "application/json", text, sizeof text - 1);
            return;
        }
        memcpy(copy, msg, n);
        r->job = copy;
        r->job_len = n;
        r->job_limit = lua_tonumber(L, top + 3);
        lua_pushvalue(L, top + 4);
        r->job_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        return;
    }
    int status = (int)lua_tointeger(L, top + 1);
    const char *ctype = lua_tostring(L, top + 2);
    size_t blen = 0;
    const char *b = lua_tolstring(L, top + 3, &blen);
    set_reply(r, status >= 100 && status < 600 ? status : 500, ctype ? ctype : "application/json",
              b ? b : "", b ? blen : 0);
    const char *file = lua_tostring(L, top + 4);
    if (file) snprintf(r->filename, sizeof r->filename, "%s", file);
}

/* After a failed protected call: log the message, reply 500. */
static void internal_error(lua_State *L, const char *method, const char *path, ServeReply *r)
{
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "marubatsu serve: %s %s: %s\n", method, path, msg ? msg : "error");
    static const char text[] = "{\"error\": \"internal error (see the server's log)\"}\n";
    set_reply(r, 500, "application/json", text, sizeof text - 1);
}

void host_serve_call(Host *h, const char *method, const char *path, const char *const *keys,
                     const char *const *values, int n, const char *body, size_t len, ServeReply *r)
{
    lua_State *L = host_state(h);
    int top = lua_gettop(L);
    memset(r, 0, sizeof *r);
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_SERVE_HANDLER_KEY);
    lua_pushstring(L, method);
    lua_pushstring(L, path);
    lua_createtable(L, 0, n);
    for (int i = 0; i < n; i++) {
        lua_pushstring(L, values[i] ? values[i] : "");
        lua_setfield(L, -2, keys[i]);
    }
    lua_pushlstring(L, body ? body : "", body ? len : 0);
    if (pcall_traced(L, 4, 4) != LUA_OK)
        internal_error(L, method, path, r);
    else
        take_reply(L, top, true, r);
    lua_settop(L, top);
}

void host_serve_finish(Host *h, int ref, const char *outcome, const char *text, size_t len,
                       ServeReply *r)
{
    lua_State *L = host_state(h);
    int top = lua_gettop(L);
    memset(r, 0, sizeof *r);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    luaL_unref(L, LUA_REGISTRYINDEX, ref);
    lua_pushstring(L, outcome);
    lua_pushlstring(L, text ? text : "", text ? len : 0);
    if (pcall_traced(L, 2, 4) != LUA_OK)
        internal_error(L, "finishing", "an AI call", r);
    else
        take_reply(L, top, false, r);
    lua_settop(L, top);
}

void serve_reply_free(ServeReply *r)
{
    free(r->body);
    free(r->job);
    r->body = r->job = NULL;
}

/* ---- The worker's side ---- */

#define MAX_JOB (1024 * 1024) /* bytes in one job message */

static bool read_all(int fd, char *p, size_t n)
{
    while (n) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        p += r;
        n -= (size_t)r;
    }
    return true;
}

static bool write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t r = write(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        p += r;
        n -= (size_t)r;
    }
    return true;
}

/* A message: a 4-byte big-endian length, then the bytes (serve_pool.c). */
static bool send_message(int fd, const char *s, size_t n)
{
    unsigned char h[4] = {(unsigned char)(n >> 24), (unsigned char)(n >> 16),
                          (unsigned char)(n >> 8), (unsigned char)n};
    return write_all(fd, (const char *)h, 4) && write_all(fd, s, n);
}

int host_serve_worker(Host *h, int in_fd, int out_fd)
{
    lua_State *L = host_state(h);
    if (!send_message(out_fd, "ready", 5)) return 1;
    char *job = malloc(MAX_JOB);
    if (!job) return 1;
    int rc = 0;
    for (;;) {
        unsigned char hd[4];
        if (!read_all(in_fd, (char *)hd, 4)) break; /* the server closed: done */
        size_t n = (size_t)hd[0] << 24 | (size_t)hd[1] << 16 | (size_t)hd[2] << 8 | hd[3];
        if (n > MAX_JOB || !read_all(in_fd, job, n)) {
            rc = 1;
            break;
        }
        if (n == 0) { /* a ping (serve_pool.c): answered at once */
            if (!send_message(out_fd, "", 0)) break;
            continue;
        }
        int top = lua_gettop(L);
        lua_getfield(L, LUA_REGISTRYINDEX, LMB_SERVE_HANDLER_KEY);
        lua_pushlstring(L, job, n);
        size_t alen = 0;
        const char *answer = NULL;
        if (pcall_traced(L, 1, 1) == LUA_OK)
            answer = lua_tolstring(L, -1, &alen);
        else
            fprintf(stderr, "marubatsu serve: worker: %s\n", lua_tostring(L, -1));
        bool sent = send_message(out_fd, answer ? answer : "", answer ? alen : 0);
        lua_settop(L, top);
        if (!sent) break;
    }
    free(job);
    return rc;
}
