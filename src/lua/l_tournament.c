/* l_tournament.c: the C pieces of tournaments for Lua (the tournament itself
 * is scripts/lib/tournament.lua):
 *
 *   mb.tourney_seed(master, pairing, index) -> seed   (tourney.h; pairing
 *       an integer or a text key)
 *   mb.tourney_run(list | n, jobs, play, done [, options]) -> true | nil, message
 *       play(game) -> line (one line with its newline; a timed game's G
 *       line is followed by its C line, docs/journal.md) runs in a worker
 *       process (or here when jobs <= 1, unless options.isolate);
 *       done(lines, count) -> stop? runs here with each batch of lines as
 *       they arrive; n: the games 1..n; options.once: a game whose worker
 *       dies is not played again; options.slack, options.forfeit: the hard
 *       line (tourney.h)
 *   mb.watch_move(seconds, game [, kind, limit, spent_o, spent_x]),
 *   mb.watch_done()   a move under the hard line, in a worker
 *   mb.journal_parse(line) -> record | nil, message   (journal.h, G lines)
 *   mb.journal_format(record) -> line
 *   mb.journal_fields(line) -> game, pairing, index, o, x, result, reason
 *   mb.journal_split(line) -> {fields} | nil, message
 *   mb.journal_escape(text) -> text
 *   mb.playerspec(text) -> name, params | nil, message
 *   mb.rating.trinomial(w, l, d), .pentanomial{p0..p4} -> stats table
 *   mb.rating.los(w, l), .sprt{...}, .fit(n, score, games), .elo(score),
 *   .score(elo)
 *   mb.stream_copy(dst, src)   one Random's state into another
 *   mb.stream_use(r | nil)     point mb.stream at the Random r (lmb_stream_use)
 *   mb.stream_seed(stream, n)  seed a Random for a tournament game
 *   and the files of --out and UTF-8 text (l_files.c)
 * (all of them fields of the host library, require "marubatsu.host", not
 * of mb)
 * Records are tables {game =, pairing =, index =, seed =, o =, x =,
 * moves =, result =, reason =}. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal.h"
#include "l_files.h"
#include "l_game.h"
#include "l_random.h"
#include "l_tournament.h"
#include "tourney.h"
#include "watchdog.h"

/* ---- seeds and workers ---- */

/* mb.tourney_seed(master, pairing, index): pairing is an integer or a
 * text (hashed with tourney_key: tournaments pass "NAME_A\tNAME_B"). */
static int l_tourney_seed(lua_State *L)
{
    lua_Integer master = luaL_checkinteger(L, 1);
    uint64_t key;
    if (lua_type(L, 2) == LUA_TSTRING) {
        size_t len;
        const char *s = lua_tolstring(L, 2, &len);
        key = tourney_key(s, len);
    } else {
        key = (uint64_t)luaL_checkinteger(L, 2);
    }
    lua_Integer index = luaL_checkinteger(L, 3);
    luaL_argcheck(L, index >= 1, 3, "index must be >= 1");
    lua_pushinteger(L, (lua_Integer)tourney_game_seed((uint64_t)master, key, (long)index));
    return 1;
}

typedef struct RunCtx {
    lua_State *L;
    int play, done; /* stack indices of the callbacks */
    int forfeit;    /* of the forfeit callback; 0: none */
    int failed;     /* the done callback raised: its message is on the stack */
} RunCtx;

/* A G line and a C line after it (a timed game's clock use), each ending
 * in a newline: the s of len bytes is two lines, the second starting "C\t". */
static bool timed_lines(const char *s, size_t len)
{
    const char *nl = memchr(s, '\n', len);
    size_t first = (size_t)(nl - s) + 1;
    return first < len && len - first >= 2 && s[first] == 'C' && s[first + 1] == '\t' &&
           memchr(s + first, '\n', len - first) == s + len - 1;
}

static long run_play(void *ud, long game, char *out, size_t size)
{
    RunCtx *c = ud;
    lua_State *L = c->L;
    int top = lua_gettop(L);
    lua_pushcfunction(L, lmb_traceback);
    lua_pushvalue(L, c->play);
    lua_pushinteger(L, game);
    long n;
    if (lua_pcall(L, 1, 1, top + 1) != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        snprintf(out, size, "game %ld: %s", game, msg ? msg : "(error object is not a string)");
        n = -1;
    } else {
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        if (!s) {
            snprintf(out, size, "game %ld: the play function returned %s, not a line", game,
                     luaL_typename(L, -1));
            n = -1;
        } else if (len >= size) {
            snprintf(out, size, "game %ld: its journal line is too long (%zu bytes)", game, len);
            n = -1;
        } else if (len == 0 || s[len - 1] != '\n' ||
                   (memchr(s, '\n', len) != s + len - 1 && !timed_lines(s, len))) {
            snprintf(out, size,
                     "game %ld: the play function must return one line ending with a newline "
                     "(a timed game: its G line, then its C line)",
                     game);
            n = -1;
        } else {
            memcpy(out, s, len + 1);
            n = (long)len;
        }
    }
    lua_settop(L, top);
    return n;
}

static int run_done(void *ud, const char *lines, size_t len, long count)
{
    RunCtx *c = ud;
    lua_State *L = c->L;
    int top = lua_gettop(L);
    lua_pushcfunction(L, lmb_traceback);
    lua_pushvalue(L, c->done);
    lua_pushlstring(L, lines, len);
    lua_pushinteger(L, count);
    if (lua_pcall(L, 2, 1, top + 1) != LUA_OK) {
        /* keep the message for l_tourney_run, stop handing out games */
        lua_remove(L, top + 1);
        if (!c->failed) {
            c->failed = lua_gettop(L);
            return 1;
        }
        lua_settop(L, top);
        return 1;
    }
    int stop = lua_toboolean(L, -1);
    lua_settop(L, top);
    return stop;
}

/* The forfeit callback: forfeit(game, info) -> line | nil, message, info
 * = {moves = {square, ...}, kind = "budget" | "move" | "game", limit =,
 * seconds =, used =, spent = {o, x}, shape = {width =, height =, k =,
 * rule =}} (the move the hard line ended, and its game's shape). */
static long run_forfeit(void *ud, long game, const WatchMove *m, double used, char *out,
                        size_t size)
{
    RunCtx *c = ud;
    lua_State *L = c->L;
    int top = lua_gettop(L);
    lua_pushcfunction(L, lmb_traceback);
    lua_pushvalue(L, c->forfeit);
    lua_pushinteger(L, game);
    lua_createtable(L, 0, 7);
    int n = m->nmoves < 0 ? 0 : m->nmoves > WATCH_MOVES_MAX ? WATCH_MOVES_MAX : m->nmoves;
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushinteger(L, m->moves[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "moves");
    lua_pushstring(L, m->kind == WATCH_MOVE_TIME   ? "move"
                      : m->kind == WATCH_GAME_TIME ? "game"
                                                   : "budget");
    lua_setfield(L, -2, "kind");
    lua_pushnumber(L, m->limit);
    lua_setfield(L, -2, "limit");
    lua_pushnumber(L, m->seconds);
    lua_setfield(L, -2, "seconds");
    lua_pushnumber(L, used);
    lua_setfield(L, -2, "used");
    lua_createtable(L, 0, 2);
    lua_pushnumber(L, m->spent[0]);
    lua_setfield(L, -2, "o");
    lua_pushnumber(L, m->spent[1]);
    lua_setfield(L, -2, "x");
    lua_setfield(L, -2, "spent");
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, m->width);
    lua_setfield(L, -2, "width");
    lua_pushinteger(L, m->height);
    lua_setfield(L, -2, "height");
    lua_pushinteger(L, m->k);
    lua_setfield(L, -2, "k");
    lua_pushstring(L, m->exact ? "exact" : "freestyle");
    lua_setfield(L, -2, "rule");
    lua_setfield(L, -2, "shape");
    long len = -1;
    if (lua_pcall(L, 2, 2, top + 1) != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        snprintf(out, size, "game %ld: %s", game, msg ? msg : "(error object is not a string)");
    } else if (lua_type(L, -2) != LUA_TSTRING) {
        const char *msg = lua_tostring(L, -1);
        snprintf(out, size, "%s", msg ? msg : "the forfeit function returned no line");
    } else {
        size_t n_;
        const char *s = lua_tolstring(L, -2, &n_);
        if (n_ >= size || n_ == 0 || s[n_ - 1] != '\n') {
            snprintf(out, size, "game %ld: the forfeit function must return a line", game);
        } else {
            memcpy(out, s, n_ + 1);
            len = (long)n_;
        }
    }
    lua_settop(L, top);
    return len;
}

/* tourney_run(list | n, jobs, play, done [, {isolate =, once =, slack =, forfeit =}]) */
static int l_tourney_run(lua_State *L)
{
    bool range = lua_isinteger(L, 1);
    if (!range) luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer jobs = luaL_checkinteger(L, 2);
    luaL_checktype(L, 3, LUA_TFUNCTION);
    luaL_checktype(L, 4, LUA_TFUNCTION);
    luaL_argcheck(L, jobs >= 1 && jobs <= 256, 2, "jobs must be 1..256");
    TourneyOptions opt = {(int)jobs, false, -1, NULL, false};
    RunCtx c = {L, 3, 4, 0, 0};
    if (!lua_isnoneornil(L, 5)) {
        luaL_checktype(L, 5, LUA_TTABLE);
        opt.isolate = lua_getfield(L, 5, "isolate") != LUA_TNIL && lua_toboolean(L, -1);
        lua_pop(L, 1);
        opt.once = lua_getfield(L, 5, "once") != LUA_TNIL && lua_toboolean(L, -1);
        lua_pop(L, 1);
        if (lua_getfield(L, 5, "slack") != LUA_TNIL) {
            double slack = luaL_checknumber(L, -1);
            luaL_argcheck(L, slack >= 0 && slack <= 1e6, 5, "slack: seconds in [0, 1e6] expected");
            opt.slack = slack;
        }
        lua_pop(L, 1);
        if (lua_getfield(L, 5, "forfeit") == LUA_TFUNCTION) {
            c.forfeit = lua_gettop(L);
            opt.forfeit = run_forfeit;
        } else {
            lua_pop(L, 1);
        }
        luaL_argcheck(L, opt.slack < 0 || opt.forfeit, 5, "slack needs a forfeit function");
    }
    lua_Integer n;
    long *list = NULL;
    if (range) {
        n = lua_tointeger(L, 1);
        luaL_argcheck(L, n >= 0 && n <= LONG_MAX / 2, 1, "a number of games >= 0 expected");
    } else {
        n = luaL_len(L, 1);
        list = lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof *list, 0);
        for (lua_Integer i = 0; i < n; i++) {
            lua_geti(L, 1, i + 1);
            int ok;
            lua_Integer g = lua_tointegerx(L, -1, &ok);
            if (!ok || g < 1)
                return luaL_error(L, "tourney_run: game numbers must be integers >= 1");
            list[i] = (long)g;
            lua_pop(L, 1);
        }
    }
    char err[512];
    int rc = tourney_pool(list, (long)n, &opt, run_play, run_done, &c, err, sizeof err);
    if (c.failed) return lua_error(L); /* the done callback's error, with its traceback */
    if (rc != MB_OK) {
        luaL_pushfail(L);
        lua_pushstring(L, err[0] ? err : mb_strerror(rc));
        return 2;
    }
    lua_pushboolean(L, 1);
    return 1;
}

/* ---- the hard line, in a worker (watchdog.h) ---- */

/* watch_move(seconds, game [, kind, limit, spent_o, spent_x]): the move
 * about to start on game may take `seconds`; past them and the pool's
 * slack its worker is killed and the pool's forfeit function writes the
 * game's line from what is given here: the squares played, and for a time
 * control the kind of its limit ("move" or "game"), that limit and the
 * seconds each side used before. Nothing (and at once) in a process that
 * no pool watches. */
static int l_watch_move(lua_State *L)
{
    WatchMove *m = watch_prepare();
    if (!m) return 0;
    double seconds = luaL_checknumber(L, 1);
    const Game *g = lmb_check_game(L, 2);
    int n = g->move_count < WATCH_MOVES_MAX ? g->move_count : WATCH_MOVES_MAX;
    memcpy(m->moves, g->records + 1, (size_t)n * sizeof m->moves[0]);
    m->nmoves = n;
    GameOptions shape = game_options(g);
    m->width = shape.width;
    m->height = shape.height;
    m->k = shape.k;
    m->exact = shape.exact;
    m->kind = WATCH_BUDGET;
    m->limit = seconds;
    m->spent[0] = m->spent[1] = 0;
    if (lua_gettop(L) > 2) { /* a time control's move (untimed moves skip these) */
        const char *kind = luaL_optstring(L, 3, NULL);
        if (kind) m->kind = strcmp(kind, "game") == 0 ? WATCH_GAME_TIME : WATCH_MOVE_TIME;
        m->limit = luaL_optnumber(L, 4, seconds);
        m->spent[0] = luaL_optnumber(L, 5, 0);
        m->spent[1] = luaL_optnumber(L, 6, 0);
    }
    watch_arm(seconds);
    return 0;
}

/* watch_done(): the move ended. */
static int l_watch_done(lua_State *L)
{
    (void)L;
    watch_disarm();
    return 0;
}

/* ---- journal lines ---- */

static void push_record(lua_State *L, const JournalGame *g)
{
    lua_createtable(L, 0, 9);
    lua_pushinteger(L, g->game);
    lua_setfield(L, -2, "game");
    lua_pushinteger(L, g->pairing);
    lua_setfield(L, -2, "pairing");
    lua_pushinteger(L, g->index);
    lua_setfield(L, -2, "index");
    lua_pushinteger(L, (lua_Integer)g->seed);
    lua_setfield(L, -2, "seed");
    lua_pushstring(L, g->player[0]);
    lua_setfield(L, -2, "o");
    lua_pushstring(L, g->player[1]);
    lua_setfield(L, -2, "x");
    lua_pushstring(L, g->moves);
    lua_setfield(L, -2, "moves");
    lua_pushstring(L, g->result);
    lua_setfield(L, -2, "result");
    lua_pushstring(L, g->reason);
    lua_setfield(L, -2, "reason");
}

static int l_journal_parse(lua_State *L)
{
    size_t len;
    const char *line = luaL_checklstring(L, 1, &len);
    JournalGame g; /* about 10 KB: on the C stack, not the Lua heap */
    char err[256];
    if (journal_parse_game(line, len, &g, err, sizeof err) != MB_OK) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    push_record(L, &g);
    return 1;
}

/* mb.journal_fields(line) -> game, pairing, index, o, x, result, reason |
 * nil, message: what the results need of a G line, without a table (and
 * without checking the moves: see journal_parse_result). */
static int l_journal_fields(lua_State *L)
{
    size_t len;
    const char *line = luaL_checklstring(L, 1, &len);
    JournalGame g;
    char err[256];
    if (journal_parse_result(line, len, &g, err, sizeof err) != MB_OK) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    lua_pushinteger(L, g.game);
    lua_pushinteger(L, g.pairing);
    lua_pushinteger(L, g.index);
    lua_pushstring(L, g.player[0]);
    lua_pushstring(L, g.player[1]);
    lua_pushstring(L, g.result);
    lua_pushstring(L, g.reason);
    return 7;
}

static void copy_field(lua_State *L, int t, const char *key, char *out, size_t size)
{
    lua_getfield(L, t, key);
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    if (!s) luaL_error(L, "journal_format: field '%s' must be a string", key);
    if (len >= size)
        luaL_error(L, "journal_format: field '%s' is too long (%d bytes at most)", key,
                   (int)size - 1);
    memcpy(out, s, len + 1);
    lua_pop(L, 1);
}

static long int_field(lua_State *L, int t, const char *key)
{
    lua_getfield(L, t, key);
    int ok;
    lua_Integer v = lua_tointegerx(L, -1, &ok);
    if (!ok) luaL_error(L, "journal_format: field '%s' must be an integer", key);
    lua_pop(L, 1);
    return (long)v;
}

/* Fill *g from the record table at t (raises on a bad field). */
static void record_of(lua_State *L, int t, JournalGame *g)
{
    g->game = int_field(L, t, "game");
    g->pairing = int_field(L, t, "pairing");
    g->index = int_field(L, t, "index");
    g->seed = (uint64_t)int_field(L, t, "seed");
    copy_field(L, t, "o", g->player[0], sizeof g->player[0]);
    copy_field(L, t, "x", g->player[1], sizeof g->player[1]);
    copy_field(L, t, "moves", g->moves, sizeof g->moves);
    copy_field(L, t, "result", g->result, sizeof g->result);
    copy_field(L, t, "reason", g->reason, sizeof g->reason);
}

static int l_journal_format(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    JournalGame g, back; /* on the C stack: one call per game must stay cheap */
    record_of(L, 1, &g);
    /* the line's size: escapes at most double each text, plus the numbers */
    size_t size =
        2 * (strlen(g.player[0]) + strlen(g.player[1]) + strlen(g.moves) + strlen(g.reason)) + 160;
    luaL_Buffer b;
    char *out = luaL_buffinitsize(L, &b, size);
    int n = journal_format_game(&g, out, size);
    if (n < 0) return luaL_error(L, "journal_format: the record does not fit in a line");
    /* a formatted record must read back: the writer checks its own output */
    char err[256];
    if (journal_parse_game(out, (size_t)n, &back, err, sizeof err) != MB_OK)
        return luaL_error(L, "journal_format: bad record: %s", err);
    luaL_pushresultsize(&b, (size_t)n);
    return 1;
}

static int l_journal_split(lua_State *L)
{
    size_t len;
    const char *line = luaL_checklstring(L, 1, &len);
    char *buf = lua_newuserdatauv(L, len + 1, 0);
    char *fields[JOURNAL_MAX_FIELDS];
    char err[256];
    int n = journal_split(line, len, fields, JOURNAL_MAX_FIELDS, buf, len + 1, err, sizeof err);
    if (n < 0) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushstring(L, fields[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int l_journal_escape(lua_State *L)
{
    const char *s = luaL_checkstring(L, 1);
    size_t need = journal_escape(s, NULL, 0);
    char *out = lua_newuserdatauv(L, need + 1, 0);
    journal_escape(s, out, need + 1);
    lua_pushlstring(L, out, need);
    return 1;
}

static int l_playerspec(lua_State *L)
{
    const char *text = luaL_checkstring(L, 1);
    PlayerSpec *p = lua_newuserdatauv(L, sizeof *p, 0);
    char err[256];
    if (playerspec_parse(text, p, err, sizeof err) != MB_OK) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    lua_pushstring(L, p->name);
    lua_createtable(L, 0, p->nparams);
    for (int i = 0; i < p->nparams; i++) {
        const PlayerParam *q = &p->params[i];
        switch (q->type) {
        case PARAM_INT: lua_pushinteger(L, (lua_Integer)q->i); break;
        case PARAM_NUMBER: lua_pushnumber(L, q->d); break;
        case PARAM_BOOL: lua_pushboolean(L, q->b); break;
        default: lua_pushstring(L, q->s); break;
        }
        lua_setfield(L, -2, q->key);
    }
    return 2;
}

/* ---- rating statistics ---- */

static void push_stats(lua_State *L, const RatingStats *s)
{
    lua_createtable(L, 0, 8);
#define SET(f)                                                                                     \
    lua_pushnumber(L, s->f);                                                                       \
    lua_setfield(L, -2, #f)
    SET(n);
    SET(score);
    SET(var);
    SET(elo);
    SET(elo_lo);
    SET(elo_hi);
    SET(score_lo);
    SET(score_hi);
#undef SET
}

static int l_trinomial(lua_State *L)
{
    RatingStats s;
    if (rating_trinomial(luaL_checknumber(L, 1), luaL_checknumber(L, 2), luaL_checknumber(L, 3),
                         &s) != MB_OK)
        return luaL_error(L, "trinomial: counts must be >= 0");
    push_stats(L, &s);
    return 1;
}

static void pair_counts(lua_State *L, int arg, double p[5])
{
    luaL_checktype(L, arg, LUA_TTABLE);
    for (int k = 0; k < 5; k++) {
        lua_geti(L, arg, k + 1);
        p[k] = lua_isnumber(L, -1) ? lua_tonumber(L, -1) : 0;
        lua_pop(L, 1);
    }
}

static int l_pentanomial(lua_State *L)
{
    double p[5];
    pair_counts(L, 1, p);
    RatingStats s;
    if (rating_pentanomial(p, &s) != MB_OK)
        return luaL_error(L, "pentanomial: counts must be >= 0");
    push_stats(L, &s);
    return 1;
}

static int l_los(lua_State *L)
{
    lua_pushnumber(L, rating_los(luaL_checknumber(L, 1), luaL_checknumber(L, 2)));
    return 1;
}

static double num_field(lua_State *L, int t, const char *key, double dflt)
{
    lua_getfield(L, t, key);
    double v = lua_isnumber(L, -1) ? lua_tonumber(L, -1) : dflt;
    lua_pop(L, 1);
    return v;
}

/* sprt{elo0 =, elo1 =, alpha =, beta =, pairs = {..5} | w =, l =, d =} */
static int l_sprt(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    double elo0 = num_field(L, 1, "elo0", 0), elo1 = num_field(L, 1, "elo1", 5);
    double alpha = num_field(L, 1, "alpha", 0.05), beta = num_field(L, 1, "beta", 0.05);
    SprtResult r;
    int rc;
    if (lua_getfield(L, 1, "pairs") == LUA_TTABLE) {
        double p[5];
        pair_counts(L, lua_gettop(L), p);
        rc = rating_sprt_pentanomial(p, elo0, elo1, alpha, beta, &r);
    } else {
        rc = rating_sprt_trinomial(num_field(L, 1, "w", 0), num_field(L, 1, "l", 0),
                                   num_field(L, 1, "d", 0), elo0, elo1, alpha, beta, &r);
    }
    if (rc != MB_OK)
        return luaL_error(L, "sprt: need elo0 < elo1 and 0 < alpha, beta < 1 (and counts >= 0)");
    lua_createtable(L, 0, 4);
    lua_pushnumber(L, r.llr);
    lua_setfield(L, -2, "llr");
    lua_pushnumber(L, r.lower);
    lua_setfield(L, -2, "lower");
    lua_pushnumber(L, r.upper);
    lua_setfield(L, -2, "upper");
    lua_pushstring(L, r.decision == SPRT_ACCEPT_H0   ? "H0"
                      : r.decision == SPRT_ACCEPT_H1 ? "H1"
                                                     : "continue");
    lua_setfield(L, -2, "decision");
    return 1;
}

/* fit(n, score, games): score and games are flat tables of n*n numbers
 * (row i, column j at i*n + j + 1); returns {{elo =, error =}, ...}. */
static int l_fit(lua_State *L)
{
    lua_Integer n = luaL_checkinteger(L, 1);
    luaL_argcheck(L, n >= 1 && n <= 4096, 1, "1..4096 players");
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checktype(L, 3, LUA_TTABLE);
    size_t cells = (size_t)(n * n);
    double *score = lua_newuserdatauv(L, cells * sizeof *score, 0);
    double *games = lua_newuserdatauv(L, cells * sizeof *games, 0);
    RatingFit *out = lua_newuserdatauv(L, (size_t)n * sizeof *out, 0);
    for (size_t i = 0; i < cells; i++) {
        lua_geti(L, 2, (lua_Integer)i + 1);
        score[i] = lua_tonumber(L, -1);
        lua_geti(L, 3, (lua_Integer)i + 1);
        games[i] = lua_tonumber(L, -1);
        lua_pop(L, 2);
    }
    if (rating_fit((int)n, score, games, out) != MB_OK)
        return luaL_error(L, "fit: bad crosstable (scores must be within 0..games)");
    lua_createtable(L, (int)n, 0);
    for (lua_Integer i = 0; i < n; i++) {
        lua_createtable(L, 0, 2);
        lua_pushnumber(L, out[i].elo);
        lua_setfield(L, -2, "elo");
        lua_pushnumber(L, out[i].error);
        lua_setfield(L, -2, "error");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int l_phi(lua_State *L)
{
    lua_pushnumber(L, rating_phi(luaL_checknumber(L, 1)));
    return 1;
}

/* mb.cpu_count() -> the number of online processors (at least 1). */
static int l_cpu_count(lua_State *L)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    lua_pushinteger(L, n > 0 ? n : 1);
    return 1;
}

/* mb.mkdir(path) -> true | nil, message: make a directory and its parents
 * (mode 0777 before the umask); an existing directory is fine. */
static int l_mkdir(lua_State *L)
{
    size_t len;
    const char *path = luaL_checklstring(L, 1, &len);
    char *buf = lua_newuserdatauv(L, len + 1, 0);
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != '\0') continue;
        char c = buf[i];
        buf[i] = '\0';
        struct stat st;
        if (stat(buf, &st) != 0) {
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
                luaL_pushfail(L);
                lua_pushfstring(L, "%s: %s", buf, strerror(errno));
                return 2;
            }
        } else if (!S_ISDIR(st.st_mode)) {
            luaL_pushfail(L);
            lua_pushfstring(L, "%s is not a directory", buf);
            return 2;
        }
        buf[i] = c;
    }
    lua_pushboolean(L, 1);
    return 1;
}

static int l_elo(lua_State *L)
{
    lua_pushnumber(L, rating_elo_of_score(luaL_checknumber(L, 1)));
    return 1;
}

static int l_score(lua_State *L)
{
    lua_pushnumber(L, rating_score_of_elo(luaL_checknumber(L, 1)));
    return 1;
}

/* stream_copy(dst, src): the state of the Random src copied into dst. */
static int l_stream_copy(lua_State *L)
{
    Rng *dst = lmb_check_random(L, 1), *src = lmb_check_random(L, 2);
    *dst = *src;
    return 0;
}

/* stream_seed(stream, n): seed a Random for a tournament game
 * (rng_seed_mixed). */
static int l_stream_seed(lua_State *L)
{
    rng_seed_mixed(lmb_check_random(L, 1), (uint64_t)luaL_checkinteger(L, 2));
    return 0;
}

void lmb_open_tournament(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"tourney_seed", l_tourney_seed},     {"tourney_run", l_tourney_run},
        {"journal_parse", l_journal_parse},   {"journal_format", l_journal_format},
        {"journal_fields", l_journal_fields}, {"journal_split", l_journal_split},
        {"journal_escape", l_journal_escape}, {"playerspec", l_playerspec},
        {"cpu_count", l_cpu_count},           {"mkdir", l_mkdir},
        {"stream_copy", l_stream_copy},       {"stream_seed", l_stream_seed},
        {"stream_use", lmb_stream_use},       {"watch_move", l_watch_move},
        {"watch_done", l_watch_done},         {NULL, NULL},
    };
    static const luaL_Reg rating[] = {
        {"trinomial", l_trinomial},
        {"pentanomial", l_pentanomial},
        {"los", l_los},
        {"sprt", l_sprt},
        {"fit", l_fit},
        {"elo", l_elo},
        {"score", l_score},
        {"phi", l_phi},
        {NULL, NULL},
    };
    luaL_setfuncs(L, fns, 0);
    lmb_open_files(L);
    lua_pushnumber(L, WATCH_SLACK_DEFAULT);
    lua_setfield(L, -2, "watch_slack");
    luaL_newlib(L, rating);
    lua_setfield(L, -2, "rating");
}
