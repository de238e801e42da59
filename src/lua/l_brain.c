/* l_brain.c: the Gomocup protocol's lines and child processes, for the Lua
 * library's brain manager (scripts/lib/brains.lua) and `marubatsu brain`
 * (scripts/lib/gomocup_brain.lua).
 *
 *   host.gomocup.parse_command(line) -> {kind =, x =, y =, key =, value =, int =}
 *                                   | nil, message
 *   host.gomocup.parse_stone(line)   -> {x =, y =, field =} | "DONE" | nil, message
 *   host.gomocup.parse_answer(line)  -> {kind =, x =, y =, text =} | nil, message
 *   host.gomocup.answer(kind, text | x, y) -> the canonical line
 *   host.brainproc.spawn{argv = {...}, memory =, cpu =, stderr =, stderr_cap =, nice =,
 *                        isolation = "auto" | "group" | "none"} -> proc | nil, message
 *   host.brainproc.fork{memory =, cpu =, nice =} -> proc, is_child | nil, message
 *   host.brainproc.channel(in_fd, out_fd) -> proc (this process's own pipes)
 *   host.brainproc.isolation() -> "namespace" | "group", why namespaces are refused
 *   proc:send(line [, timeout_ms]) -> true | nil, message
 *   proc:recv([timeout_ms]) -> line | nil, "timeout" | "eof" | "too long" | "error"
 *   proc:pause(), proc:resume()  (stop / continue all its processes)
 *   proc:exited(), proc:wait(ms) -> boolean; proc:describe() -> text
 *   proc:over_memory() -> boolean, bytes resident when it was ended (or nil)
 *   proc:isolation() -> "namespace" | "group" | "none"
 *   proc:memory_mode() -> "cgroup" | "resident" | "address space" | "none"
 *   proc:kill(), proc:close([grace_ms]); proc:pid()
 *   host.brainproc.now() -> milliseconds (monotonic)
 *   host.brainproc.exit(status)  (_exit: a forked child's end)
 *
 * Kinds are the protocol's words ("START", "TURN", ..., "UNKNOWN" with the
 * word in .word, "EMPTY"); answers: "move", "OK", "ERROR", "UNKNOWN",
 * "MESSAGE", "DEBUG", "SUGGEST", "EMPTY".
 *
 * Not in sandboxed states: a script there gets neither table (they start
 * processes). A proc is killed when collected, in the process that
 * started it only (a forked worker's copy merely closes its pipes). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "brainproc.h"
#include "gomocup.h"
#include "l_brain.h"

#define LMB_BRAINPROC "marubatsu.BrainProc"

/* ---- protocol lines ---- */

static const char *const answer_kinds[] = {"EMPTY",   "move",    "OK",    "ERROR",
                                           "UNKNOWN", "MESSAGE", "DEBUG", "SUGGEST"};

static void set_int(lua_State *L, const char *k, lua_Integer v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

static void set_str(lua_State *L, const char *k, const char *v)
{
    lua_pushstring(L, v);
    lua_setfield(L, -2, k);
}

static int l_parse_command(lua_State *L)
{
    size_t len;
    const char *line = luaL_checklstring(L, 1, &len);
    GomocupCommand c;
    char err[160];
    if (gomocup_parse_command(line, len, &c, err, sizeof err) != MB_OK) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    lua_createtable(L, 0, 6);
    switch (c.kind) {
    case GC_EMPTY: set_str(L, "kind", "EMPTY"); break;
    case GC_UNKNOWN:
        set_str(L, "kind", "UNKNOWN");
        set_str(L, "word", c.word);
        break;
    default: set_str(L, "kind", gomocup_command_name(c.kind)); break;
    }
    if (c.kind == GC_START || c.kind == GC_RECTSTART || c.kind == GC_TURN ||
        c.kind == GC_TAKEBACK) {
        set_int(L, "x", c.x);
        set_int(L, "y", c.y);
    }
    if (c.kind == GC_INFO) {
        set_str(L, "key", c.key);
        set_str(L, "value", c.value);
        if (c.has_int) set_int(L, "int", c.ivalue);
    }
    return 1;
}

static int l_parse_stone(lua_State *L)
{
    size_t len;
    const char *line = luaL_checklstring(L, 1, &len);
    GomocupStone s;
    bool done;
    char err[160];
    if (gomocup_parse_stone(line, len, &s, &done, err, sizeof err) != MB_OK) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    if (done) {
        lua_pushliteral(L, "DONE");
        return 1;
    }
    lua_createtable(L, 0, 3);
    set_int(L, "x", s.x);
    set_int(L, "y", s.y);
    set_int(L, "field", s.field);
    return 1;
}

static int l_parse_answer(lua_State *L)
{
    size_t len;
    const char *line = luaL_checklstring(L, 1, &len);
    GomocupAnswer a;
    char err[160];
    if (gomocup_parse_answer(line, len, &a, err, sizeof err) != MB_OK) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    lua_createtable(L, 0, 4);
    set_str(L, "kind", answer_kinds[a.kind]);
    if (a.kind == GA_MOVE || a.kind == GA_SUGGEST) {
        set_int(L, "x", a.x);
        set_int(L, "y", a.y);
    } else if (a.kind != GA_OK && a.kind != GA_EMPTY) {
        set_str(L, "text", a.text);
    }
    return 1;
}

/* host.gomocup.answer(kind, text) or (kind, x, y): one answer line, with the
 * text made one line (line breaks become blanks) and cut to fit. */
static int l_answer(lua_State *L)
{
    int kind = luaL_checkoption(L, 1, NULL, answer_kinds);
    luaL_argcheck(L, kind != GA_EMPTY, 1, "no line for EMPTY");
    GomocupAnswer a;
    memset(&a, 0, sizeof a);
    a.kind = (GomocupAnswerKind)kind;
    if (kind == GA_MOVE || kind == GA_SUGGEST) {
        a.x = (int)lmb_check_range(L, 2, 0, GOMOCUP_COORD_MAX, "x");
        a.y = (int)lmb_check_range(L, 3, 0, GOMOCUP_COORD_MAX, "y");
    } else if (kind != GA_OK) {
        size_t len;
        const char *t = luaL_optlstring(L, 2, "", &len);
        size_t n = len < sizeof a.text - 1 ? len : sizeof a.text - 1;
        memcpy(a.text, t, n);
        for (size_t i = 0; i < n; i++)
            if (a.text[i] == '\0') a.text[i] = ' ';
    }
    char buf[GOMOCUP_TEXT_MAX + 32];
    int len = gomocup_format_answer(&a, buf, sizeof buf);
    lua_pushlstring(L, buf,
                    len < 0 ? 0 : ((size_t)len < sizeof buf ? (size_t)len : sizeof buf - 1));
    return 1;
}

static const luaL_Reg gomocup_functions[] = {
    {"parse_command", l_parse_command},
    {"parse_stone", l_parse_stone},
    {"parse_answer", l_parse_answer},
    {"answer", l_answer},
    {NULL, NULL},
};

/* ---- processes ---- */

static BrainProc *check_proc(lua_State *L, int arg)
{
    return luaL_checkudata(L, arg, LMB_BRAINPROC);
}

/* A new, closed proc userdata on the stack (valid before anything fails). */
static BrainProc *new_proc(lua_State *L)
{
    BrainProc *p = lua_newuserdatauv(L, sizeof *p, 0);
    brainproc_clear(p);
    luaL_setmetatable(L, LMB_BRAINPROC);
    return p;
}

static const char *const isolation_names[] = {"auto", "group", "none", "namespace", NULL};

/* The limits in the table at idx: memory (bytes), cpu (seconds), stderr,
 * nice, isolation. */
static BrainLimits limits_of(lua_State *L, int idx)
{
    BrainLimits lim = {0, 0, NULL, 0, BP_ISOLATE_AUTO, 0};
    lua_getfield(L, idx, "isolation");
    if (!lua_isnil(L, -1)) {
        const char *name = lua_tostring(L, -1);
        int i = 0;
        while (name && isolation_names[i] && strcmp(isolation_names[i], name) != 0) i++;
        luaL_argcheck(L, name && isolation_names[i] && i != BP_ISOLATE_NAMESPACE, idx,
                      "isolation must be \"auto\", \"group\" or \"none\"");
        lim.isolation = i;
    }
    lua_pop(L, 1);
    lua_getfield(L, idx, "nice");
    lim.nice = (int)luaL_optinteger(L, -1, 0);
    lua_pop(L, 1);
    luaL_argcheck(L, lim.nice >= 0 && lim.nice <= 19, idx, "nice must be in 0..19");
    lua_getfield(L, idx, "memory");
    lim.memory = (long long)luaL_optinteger(L, -1, 0);
    lua_getfield(L, idx, "cpu");
    lim.cpu_seconds = (long)luaL_optinteger(L, -1, 0);
    lua_getfield(L, idx, "stderr");
    lim.stderr_path = luaL_optstring(L, -1, NULL); /* kept alive by the table */
    lua_getfield(L, idx, "stderr_cap");
    lim.stderr_cap = (long long)luaL_optinteger(L, -1, 0);
    lua_pop(L, 4);
    luaL_argcheck(L, lim.stderr_cap >= 0, idx, "stderr_cap must be >= 0");
    luaL_argcheck(L, lim.memory >= 0 && lim.cpu_seconds >= 0, idx, "limits must be >= 0");
    return lim;
}

#define MAX_ARGS 64

static int l_spawn(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    BrainLimits lim = limits_of(L, 1);
    lua_getfield(L, 1, "argv");
    luaL_argcheck(L, lua_istable(L, -1), 1, "argv = {program, args...} expected");
    int argv_idx = lua_gettop(L);
    lua_Integer n = luaL_len(L, argv_idx);
    luaL_argcheck(L, n >= 1 && n < MAX_ARGS, 1, "argv needs 1 to 63 words");
    char *argv[MAX_ARGS];
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, argv_idx, i);
        if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "argv[%d]: a string expected", (int)i);
        argv[i - 1] = (char *)lua_tostring(L, -1); /* kept on the stack */
    }
    argv[n] = NULL;
    BrainProc *p = new_proc(L);
    char err[512];
    if (brainproc_spawn(p, argv, &lim, err, sizeof err) != MB_OK) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    return 1;
}

static int l_fork(lua_State *L)
{
    BrainLimits lim = {0, 0, "-", 0, BP_ISOLATE_NONE, 0};
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        lim = limits_of(L, 1);
        if (!lim.stderr_path) lim.stderr_path = "-";
    }
    BrainProc *p = new_proc(L);
    char err[256];
    bool child;
    if (brainproc_fork(p, &lim, &child, err, sizeof err) != MB_OK) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    lua_pushboolean(L, child);
    return 2;
}

static int l_channel(lua_State *L)
{
    int in = (int)luaL_checkinteger(L, 1), out = (int)luaL_checkinteger(L, 2);
    luaL_argcheck(L, in >= 0, 1, "a file descriptor expected");
    luaL_argcheck(L, out >= 0, 2, "a file descriptor expected");
    BrainProc *p = new_proc(L);
    p->in_fd = in;
    p->out_fd = out;
    p->owner = getpid();
    return 1;
}

static int l_send(lua_State *L)
{
    BrainProc *p = check_proc(L, 1);
    const char *line = luaL_checkstring(L, 2);
    int timeout = (int)luaL_optinteger(L, 3, -1);
    luaL_argcheck(L, strpbrk(line, "\r\n") == NULL, 2, "one line expected");
    if (brainproc_send(p, line, timeout) != MB_OK) {
        luaL_pushfail(L);
        lua_pushliteral(L, "the other side is not reading");
        return 2;
    }
    lua_pushboolean(L, 1);
    return 1;
}

static int l_recv(lua_State *L)
{
    BrainProc *p = check_proc(L, 1);
    lua_Integer timeout = luaL_optinteger(L, 2, -1);
    if (timeout > 86400000) timeout = 86400000;
    char line[BRAINPROC_BUF];
    size_t len;
    int rc = brainproc_recv(p, (int)timeout, line, sizeof line, &len);
    if (rc == BP_LINE) {
        lua_pushlstring(L, line, len);
        return 1;
    }
    static const char *const why[] = {"", "timeout", "eof", "too long", "error"};
    luaL_pushfail(L);
    lua_pushstring(L, why[rc]);
    return 2;
}

static int l_exited(lua_State *L)
{
    lua_pushboolean(L, brainproc_exited(check_proc(L, 1)));
    return 1;
}

static int l_wait(lua_State *L)
{
    BrainProc *p = check_proc(L, 1);
    lua_pushboolean(L, brainproc_wait(p, (int)lmb_check_range(L, 2, 0, 86400000, "timeout")));
    return 1;
}

static int l_describe(lua_State *L)
{
    char buf[96];
    brainproc_describe(check_proc(L, 1), buf, sizeof buf);
    lua_pushstring(L, buf);
    return 1;
}

static int l_kill(lua_State *L)
{
    brainproc_kill(check_proc(L, 1));
    return 0;
}

static int l_close(lua_State *L)
{
    BrainProc *p = check_proc(L, 1);
    int grace = lua_isnoneornil(L, 2) ? 0 : (int)lmb_check_range(L, 2, 0, 60000, "grace");
    brainproc_close(p, grace);
    return 0;
}

static int l_pause(lua_State *L)
{
    brainproc_pause(check_proc(L, 1));
    return 0;
}

static int l_resume(lua_State *L)
{
    brainproc_resume(check_proc(L, 1));
    return 0;
}

static int l_over_memory(lua_State *L)
{
    BrainProc *p = check_proc(L, 1);
    brainproc_exited(p);
    lua_pushboolean(L, p->over_memory);
    if (p->over_memory && p->resident > 0)
        lua_pushinteger(L, p->resident);
    else
        lua_pushnil(L);
    return 2;
}

static int l_proc_isolation(lua_State *L)
{
    lua_pushstring(L, isolation_names[check_proc(L, 1)->isolation]);
    return 1;
}

static int l_memory_mode(lua_State *L)
{
    static const char *const names[] = {"none", "address space", "resident", "cgroup"};
    lua_pushstring(L, names[check_proc(L, 1)->memory_mode]);
    return 1;
}

static int l_pid(lua_State *L)
{
    lua_pushinteger(L, check_proc(L, 1)->pid);
    return 1;
}

/* __gc: the channel of l_channel is not ours to close (pid 0, no child) */
static int l_gc(lua_State *L)
{
    BrainProc *p = check_proc(L, 1);
    if (p->pid > 0) brainproc_kill(p);
    return 0;
}

static int l_isolation(lua_State *L)
{
    char why[160];
    int mode = brainproc_isolation(why, sizeof why);
    lua_pushstring(L, isolation_names[mode]);
    lua_pushstring(L, why);
    return 2;
}

static int l_now(lua_State *L)
{
    lua_pushnumber(L, brainproc_now_ms());
    return 1;
}

static int l_exit(lua_State *L)
{
    int status = (int)luaL_optinteger(L, 1, 0);
    fflush(NULL);
    _exit(status);
}

static const luaL_Reg proc_methods[] = {
    {"send", l_send},
    {"recv", l_recv},
    {"pause", l_pause},
    {"resume", l_resume},
    {"exited", l_exited},
    {"wait", l_wait},
    {"describe", l_describe},
    {"over_memory", l_over_memory},
    {"isolation", l_proc_isolation},
    {"memory_mode", l_memory_mode},
    {"kill", l_kill},
    {"close", l_close},
    {"pid", l_pid},
    {NULL, NULL},
};

static const luaL_Reg proc_functions[] = {
    {"spawn", l_spawn}, {"fork", l_fork}, {"channel", l_channel}, {"isolation", l_isolation},
    {"now", l_now},     {"exit", l_exit}, {NULL, NULL},
};

void lmb_open_brain(lua_State *L)
{
    if (lmb_sandboxed(L)) return;
    if (luaL_newmetatable(L, LMB_BRAINPROC)) {
        luaL_newlib(L, proc_methods);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, l_gc);
        lua_setfield(L, -2, "__gc");
        lua_pushcfunction(L, l_gc);
        lua_setfield(L, -2, "__close");
    }
    lua_pop(L, 1);
    luaL_newlib(L, gomocup_functions);
    lua_setfield(L, -2, "gomocup");
    luaL_newlib(L, proc_functions);
    lua_setfield(L, -2, "brainproc");
}
