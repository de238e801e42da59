/* l_module.c: luaopen_marubatsu, the module table `mb`.
 *
 * Builds the table from the game and random bindings, adds Excel parsing,
 * the one script loader (mb.loadscript) with its search path, and runs the
 * Lua library of scripts/lib/ that is embedded in the binary (wrappers, AI
 * loading, matches). The same code is the program's global `mb` and the
 * `require "marubatsu"` of stock lua5.4.
 *
 * Where the built-in scripts live: $MARUBATSU_SCRIPTS if set, else the
 * first of these (relative to the program or marubatsu.so) that holds
 * ai2.lua: ../scripts, ../../scripts (the source tree), ../share/lua/5.4/
 * marubatsu, ../../../share/lua/5.4/marubatsu (an installed copy). A script
 * found there wins over the copy embedded at build time, so editing
 * scripts/ai14s.lua takes effect without rebuilding. */
#define _GNU_SOURCE /* dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "embedded.h"
#include "l_brain.h"
#include "l_features.h"
#include "l_game.h"
#include "l_mcts.h"
#include "l_module.h"
#include "l_position.h"
#include "l_random.h"
#include "l_sandbox.h"
#include "l_search.h"
#include "l_fulldepth.h"
#include "l_timed.h"
#include "l_tournament.h"
#include "l_tree.h"
#include "l_vcf.h"
#include "l_pattern.h"

#ifndef MB_VERSION
#define MB_VERSION "unknown"
#endif


/* The embedded Lua library, run in this order when the module opens; a
 * sandboxed player's state gets only the rows marked so (what AI scripts
 * use: AI objects, wrappers, rules, search_ai, loading; see LMB_SANDBOX_KEY). */
static const struct {
    const char *name;
    bool sandboxed;
} library[] = {
    {"lib/wrappers", true},       {"lib/rules", true},       {"lib/search_ai", true},
    {"lib/loader", true},         {"lib/sandbox", false},    {"lib/timecontrol", false},
    {"lib/progress", false},      {"lib/match", false},      {"lib/play", false},
    {"lib/check", false},         {"lib/results", false},    {"lib/brains", false},
    {"lib/gomocup_brain", false}, {"lib/schedule", false},   {"lib/journals", false},
    {"lib/players", false},       {"lib/tournament", false}, {"lib/records", false},
    {"lib/tune", false},
};

/* mb.move("B2" [, game | size]) -> move: Excel coordinates as a move of
 * that game's board, or of a size x size board (default 3). */
static int l_move(lua_State *L)
{
    const char *text = luaL_checkstring(L, 1);
    int x, y, height = 3, width = 3;
    if (lua_isuserdata(L, 2)) {
        const Geometry *geo = game_geom(lmb_check_game(L, 2));
        height = geo->height;
        width = geo->width;
    } else if (!lua_isnoneornil(L, 2)) {
        height = width = (int)lmb_check_range(L, 2, 1, MB_MAX_SIDE, "size");
    }
    if (notation_excel_parse(text, &x, &y) != MB_OK)
        return luaL_argerror(L, 1, lua_pushfstring(L, "'%s' is not a square like A1", text));
    if (x >= width || y >= height)
        return luaL_argerror(
            L, 1,
            lua_pushfstring(L, "'%s' is off the %dx%d board%s", text, width, height,
                            lua_isnoneornil(L, 2) ? " (3x3 when no game or size is given: "
                                                    "mb.move(text, game) for another board)"
                                                  : ""));
    lua_pushinteger(L, y + x * height);
    return 1;
}

/* ---- Finding scripts ---- */

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The directory of this code's file: marubatsu.so, or the program. */
static bool own_dir(char *dir, size_t len)
{
    Dl_info info;
    char path[PATH_MAX] = "";
    if (dladdr((void *)luaopen_marubatsu, &info) && info.dli_fname &&
        strstr(info.dli_fname, ".so")) {
        snprintf(path, sizeof path, "%s", info.dli_fname);
    } else {
        ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
        if (n <= 0) return false;
        path[n] = '\0';
    }
    char *slash = strrchr(path, '/');
    if (!slash) return false;
    *slash = '\0';
    snprintf(dir, len, "%s", path);
    return true;
}

/* Push the built-in scripts directory, or nil. [-0, +1, m] */
static void push_scripts_dir(lua_State *L)
{
    const char *env = getenv("MARUBATSU_SCRIPTS");
    if (env && *env) {
        lua_pushstring(L, env);
        return;
    }
    static const char *const rel[] = {"../scripts", "../../scripts", "../share/lua/5.4/marubatsu",
                                      "../../../share/lua/5.4/marubatsu", NULL};
    char dir[PATH_MAX], probe[PATH_MAX + 64];
    if (own_dir(dir, sizeof dir))
        for (int i = 0; rel[i]; i++) {
            snprintf(probe, sizeof probe, "%s/%s/ai2.lua", dir, rel[i]);
            if (is_file(probe)) {
                char real[PATH_MAX];
                snprintf(probe, sizeof probe, "%s/%s", dir, rel[i]);
                lua_pushstring(L, realpath(probe, real) ? real : probe);
                return;
            }
        }
    lua_pushnil(L);
}

/* Is dir/name.lua a file? Then write its path. */
static bool find_in(const char *dir, const char *name, char *path, size_t len)
{
    if (!dir) return false;
    snprintf(path, len, "%s/%s.lua", dir, name);
    return is_file(path);
}

/* mb.loadscript(spec [, env]) -> chunk, where, origin | nil, message
 * The one script loader. origin says where the script came from: "built
 * in" (the built-in directory or the embedded copy), "path" (a directory of
 * mb.path) or "file" (a path given as such); trust is decided from it. spec is a file path (it has a '/' or ends in
 * ".lua") or a script name, looked up in the built-in directory
 * (mb.scripts_dir), then among the scripts embedded at build time, then in
 * each directory of mb.path. The chunk is compiled from text only (binary
 * chunks are refused); with env it will run in that environment instead of
 * the globals. Nothing is run yet. */
static int l_loadscript(lua_State *L)
{
    const char *spec = luaL_checkstring(L, 1);
    bool has_env = !lua_isnoneornil(L, 2);
    if (has_env) luaL_checktype(L, 2, LUA_TTABLE);
    char path[PATH_MAX] = "";
    const EmbeddedScript *e = NULL;
    size_t n = strlen(spec);
    bool found = false;
    const char *origin = "file";
    if (strchr(spec, '/') || (n > 4 && strcmp(spec + n - 4, ".lua") == 0)) {
        snprintf(path, sizeof path, "%s", spec);
        found = true;
    } else {
        lua_getfield(L, LUA_REGISTRYINDEX, LMB_MODULE_KEY);
        lua_getfield(L, -1, "scripts_dir");
        found = find_in(lua_tostring(L, -1), spec, path, sizeof path);
        lua_pop(L, 1);
        if (!found && (e = lmb_embedded(spec)) != NULL) found = true;
        if (found) origin = "built in";
        lua_getfield(L, -1, "path");
        lua_Integer dirs = lua_istable(L, -1) ? luaL_len(L, -1) : 0;
        for (lua_Integer i = 1; i <= dirs && !found; i++) {
            lua_geti(L, -1, i);
            found = find_in(lua_tostring(L, -1), spec, path, sizeof path);
            if (found) origin = "path";
            lua_pop(L, 1);
        }
        lua_pop(L, 2);
    }
    if (!found) {
        lua_pushnil(L);
        lua_pushfstring(L,
                        "AI script '%s' not found (looked in the built-in scripts and in "
                        "mb.path; add a directory with -I DIR or MARUBATSU_PATH)",
                        spec);
        return 2;
    }
    int status;
    if (e) {
        const char *chunkname = lua_pushfstring(L, "=%s.lua (built in)", spec);
        status = luaL_loadbufferx(L, e->text, e->len, chunkname, "t");
        lua_remove(L, -2);
    } else {
        status = luaL_loadfilex(L, path, "t");
    }
    if (status != LUA_OK) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    if (has_env) {
        lua_pushvalue(L, 2);
        if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
    }
    if (e)
        lua_pushfstring(L, "%s.lua (built in)", spec);
    else
        lua_pushstring(L, path);
    lua_pushstring(L, origin);
    return 3;
}

/* Run one embedded library file with mb and the library's private table
 * (how its files share what is not API) as its arguments. */
static void run_library(lua_State *L, const char *name)
{
    lmb_push_library(L, name);
    lua_call(L, 2, 0);
}

/* Split MARUBATSU_PATH (':'-separated) into the table on top. */
static void fill_path(lua_State *L)
{
    const char *env = getenv("MARUBATSU_PATH");
    lua_Integer n = 0;
    while (env && *env) {
        const char *colon = strchr(env, ':');
        size_t len = colon ? (size_t)(colon - env) : strlen(env);
        if (len) {
            lua_pushlstring(L, env, len);
            lua_rawseti(L, -2, ++n);
        }
        env = colon ? colon + 1 : NULL;
    }
}

/* mb.clock() -> seconds on a monotonic clock (for rates and timeouts). */
static int l_clock(lua_State *L)
{
    lua_pushnumber(L, (lua_Number)clock_now());
    return 1;
}

/* mb.isatty(fd) -> true if the file descriptor (0, 1, 2) is a terminal. */
static int l_isatty(lua_State *L)
{
    lua_pushboolean(L, isatty((int)luaL_checkinteger(L, 1)));
    return 1;
}

/* mb.embedded(name) -> text | nil: a file carried in the binary at build
 * time ("lib/match", "ai14s", "docs/lua-api.md"). */
static int l_embedded(lua_State *L)
{
    const EmbeddedScript *e = lmb_embedded(luaL_checkstring(L, 1));
    if (e)
        lua_pushlstring(L, e->text, e->len);
    else
        lua_pushnil(L);
    return 1;
}

/* Add the names of the *.lua files of dir to the set at index t. */
static void add_dir_names(lua_State *L, int t, const char *dir)
{
    DIR *d = dir ? opendir(dir) : NULL;
    struct dirent *ent;
    while (d && (ent = readdir(d)) != NULL) {
        size_t n = strlen(ent->d_name);
        if (n > 4 && strcmp(ent->d_name + n - 4, ".lua") == 0 && ent->d_name[0] != '.') {
            lua_pushlstring(L, ent->d_name, n - 4);
            lua_pushboolean(L, 1);
            lua_rawset(L, t);
        }
    }
    if (d) closedir(d);
}

/* mb.list_scripts() -> {name, ...}: the AI scripts mb.ai can find by name
 * (built-in, embedded, and in mb.path), sorted. */
static int l_list_scripts(lua_State *L)
{
    lua_newtable(L);
    int set = lua_gettop(L);
    for (const EmbeddedScript *e = embedded_scripts; e->name; e++)
        if (!strchr(e->name, '/')) {
            lua_pushstring(L, e->name);
            lua_pushboolean(L, 1);
            lua_rawset(L, set);
        }
    lua_getfield(L, LUA_REGISTRYINDEX, LMB_MODULE_KEY);
    lua_getfield(L, -1, "scripts_dir");
    add_dir_names(L, set, lua_tostring(L, -1));
    lua_pop(L, 1);
    lua_getfield(L, -1, "path");
    lua_Integer dirs = lua_istable(L, -1) ? luaL_len(L, -1) : 0;
    for (lua_Integer i = 1; i <= dirs; i++) {
        lua_geti(L, -1, i);
        add_dir_names(L, set, lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
    lua_newtable(L);
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, set)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, ++n);
    }
    lua_getglobal(L, "table");
    lua_getfield(L, -1, "sort");
    lua_pushvalue(L, -3);
    lua_call(L, 1, 0);
    lua_pop(L, 1);
    return 1;
}

/* private.interrupted() -> whether a Ctrl-C has stopped the computation
 * (the engine's interrupt flag, interrupt.h): how the library tells an AI
 * that failed from one that was interrupted. */
static int l_interrupted(lua_State *L)
{
    lua_pushboolean(L, mb_interrupted());
    return 1;
}

/* private.columns(fd) -> the width of the terminal on fd, or 0 when it is
 * not a terminal or does not say (the progress bar: lib/progress). */
static int l_columns(lua_State *L)
{
    struct winsize ws;
    int fd = (int)luaL_checkinteger(L, 1);
    lua_pushinteger(L, ioctl(fd, TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0);
    return 1;
}

static const luaL_Reg functions[] = {
    {"move", l_move},   {"embedded", l_embedded}, {"list_scripts", l_list_scripts},
    {"clock", l_clock}, {"isatty", l_isatty},     {"loadscript", l_loadscript},
    {NULL, NULL},
};

int luaopen_marubatsu(lua_State *L)
{
    luaL_checkversion(L);
    luaL_checkstack(L, 8, "marubatsu");
    luaL_newlib(L, functions);
    int mb = lua_gettop(L);
    lua_pushvalue(L, mb);
    lua_setfield(L, LUA_REGISTRYINDEX, LMB_MODULE_KEY);
    lua_pushliteral(L, MB_VERSION);
    lua_setfield(L, mb, "VERSION");
    lua_pushliteral(L, "ja");
    lua_setfield(L, mb, "lang");
    bool sandboxed = lmb_sandboxed(L);
    lua_newtable(L);
    int private = lua_gettop(L);
    lua_pushvalue(L, private);
    lua_setfield(L, LUA_REGISTRYINDEX, LMB_PRIVATE_KEY);
    lua_pushcfunction(L, l_interrupted);
    lua_setfield(L, private, "interrupted");
    lua_pushcfunction(L, l_columns);
    lua_setfield(L, private, "columns");
    lua_pushvalue(L, mb);
    lmb_open_game(L);
    lmb_open_position(L);
    lmb_open_features(L);
    lmb_open_random(L);
    if (!sandboxed) lmb_open_sandbox(L, private, luaopen_marubatsu);
    lmb_open_fulldepth(L);
    lmb_open_tree(L);
    lmb_open_search(L);
    lmb_open_mcts(L);
    lmb_open_vcf(L);
    lmb_open_pattern(L);
    push_scripts_dir(L);
    lua_setfield(L, mb, "scripts_dir");
    lua_newtable(L);
    fill_path(L);
    lua_setfield(L, mb, "path");
    if (!sandboxed) {
        /* the host library: private.host for the library files, the
         * registry for luaopen_marubatsu_host; never a field of mb */
        lua_newtable(L);
        lmb_open_tournament(L);
        lmb_open_brain(L);
        lmb_open_timed(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, LMB_HOST_KEY);
        lua_setfield(L, private, "host");
    }
    lua_pushvalue(L, mb);
    lua_setfield(L, private, "mb");
    for (size_t i = 0; i < sizeof library / sizeof library[0]; i++)
        if (library[i].sandboxed || !sandboxed) run_library(L, library[i].name);
    lua_settop(L, mb);
    return 1;
}

int luaopen_marubatsu_host(lua_State *L)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, LMB_HOST_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        if (lmb_sandboxed(L))
            return luaL_error(L, "module 'marubatsu.host' is not available in the sandbox");
        luaL_requiref(L, "marubatsu", luaopen_marubatsu, 0);
        lua_pop(L, 1);
        lua_getfield(L, LUA_REGISTRYINDEX, LMB_HOST_KEY);
    }
    return 1;
}
