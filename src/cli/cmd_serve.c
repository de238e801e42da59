/* cmd_serve.c: `marubatsu serve`, the browser front end: an HTTP server on
 * libmicrohttpd serving one page (web/, embedded at build time) and a JSON
 * API: the tree explorer in C (serve_tree.c), games, AIs and tournament
 * results in Lua (l_serve.c, scripts/lib/serve.lua).
 *
 * Threads and processes: libmicrohttpd runs one internal polling thread,
 * which answers every request, so the Lua state is only ever used from
 * that thread. No AI runs there: a request that needs one (a move, a hint)
 * becomes a job, its connection is suspended, and a pool thread has a
 * worker process compute it (serve_pool.c), killing the worker when the
 * AI outlives its limit (--builtin-time, or a sandboxed AI's --time) by
 * SERVE_SLACK; the pool thread then resumes the connection and the
 * server thread finishes the reply. So a long or stuck AI delays only its
 * own request. The main thread waits for SIGINT or SIGTERM, ends the jobs
 * and the workers, and stops the daemon: at once, whatever an AI is doing
 * (and past STOP_GRACE it exits regardless).
 *
 * Connections: at most --connections in all and --client-connections per
 * client address. A connection past either limit makes room by closing the
 * oldest connection that is not being answered (one still sending its
 * request, or idle between requests), of its own address first, else of
 * the address holding the most; so slow or idle connections of one
 * client cannot keep anyone else out. A client may have at most as many AI
 * calls running or queued as there are workers (503 past that).
 * libmicrohttpd closes a connection idle for --connection-timeout.
 *
 * What a browser can reach is listed here: the embedded files under web/,
 * GET /api/tree, and the Lua handler's routes (see serve.lua). Every
 * request must name this server in its Host header (so a DNS-rebinding page
 * cannot reach it) and, if it has an Origin, come from this server's own
 * origin (and, if it has a Sec-Fetch-Site, be same-origin or typed); POSTs
 * must also carry the header X-Marubatsu, which a page of
 * another origin cannot add without a CORS preflight this server never
 * grants. Bodies are limited to MAX_BODY bytes. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <microhttpd.h>

#include "cli.h"
#include "embedded.h"
#include "lua/serve_host.h"
#include "search.h" /* search_now */
#include "serve.h"
#include "utf8fix.h"

#define MAX_BODY     (256 * 1024)
#define MAX_PARAMS   16
#define MAX_ALLOWED  8
#define MAX_AI_FILES 32
#define CONN_MARGIN  64  /* connections libmicrohttpd holds beyond ours: closing ones */
#define STOP_GRACE   2.0 /* seconds a stop may take before the process just exits */

static const char serve_usage[] =
    "usage: marubatsu [options] serve [options]\n"
    "A browser front end: play against any AI, explore the 3x3 game tree, read\n"
    "a tournament's results. Prints the address to open and serves until Ctrl-C.\n"
    "\n"
    "options:\n"
    "  --port P                the TCP port (default 8080; 0 picks a free one)\n"
    "  --host H                the address to listen on (default 127.0.0.1; only\n"
    "                          loopback is safe: the server has no passwords)\n"
    "  --allow-host NAME       also accept requests addressed to NAME (the Host\n"
    "                          header, e.g. a machine name when --host 0.0.0.0);\n"
    "                          repeatable\n"
    "  --results DIR           show the tournament results in DIR (a tournament's\n"
    "                          --out: results.json and journal.tsv)\n"
    "  --ai FILE               offer the AI script FILE to play against, run in\n"
    "                          the sandbox with its budgets; repeatable\n"
    "  --time S, --memory BYTES\n"
    "                          per-move budgets of sandboxed AIs (defaults: 1 s,\n"
    "                          64 MiB; 0 turns one off)\n"
    "  --instructions N        also stop a sandboxed AI's move after N Lua\n"
    "                          instructions (default: off)\n"
    "  --builtin-time S        the time limit of a built-in AI's move or hint\n"
    "                          (default 5)\n"
    "  --workers N             AI worker processes (default 2, at most 16): every\n"
    "                          AI runs in one, which is killed and restarted if\n"
    "                          the AI outlives its limit by 0.5 s (the request\n"
    "                          gets 504); other requests are answered meanwhile\n"
    "  --connections N         connections at once (default 256)\n"
    "  --client-connections N  connections at once from one address (default\n"
    "                          32); past a limit, the oldest connection that is\n"
    "                          not being answered is closed to make room\n"
    "  --connection-timeout S  close a connection idle this long (default 10)\n"
    "  --max-games N           games kept at once (default 64): the least recently\n"
    "                          used one is dropped to make room\n"
    "  --idle SECONDS          drop a game untouched this long (default 1800)\n"
    "  --help                  show this help\n"
    "\n"
    "Built-in AIs and those found by name in -I directories and MARUBATSU_PATH\n"
    "are offered too (names outside the built-in scripts run sandboxed). The\n"
    "browser only chooses among these: nothing it sends is run as Lua.\n"
    "\n"
    "exit status: 0 after Ctrl-C (SIGINT) or SIGTERM, 1 if the server cannot\n"
    "start (the port is taken) or a stop takes over 2 s, 2 on bad options.\n";

enum {
    OPT_PORT = 1,
    OPT_HOST,
    OPT_ALLOW,
    OPT_RESULTS,
    OPT_AI,
    OPT_MAX_GAMES,
    OPT_IDLE,
    OPT_BUILTIN_TIME,
    OPT_WORKERS,
    OPT_CONNECTIONS,
    OPT_CLIENT_CONNECTIONS,
    OPT_CONNECTION_TIMEOUT,
    OPT_WORKER
};

/* A client: the address a connection comes from. */
typedef struct Client {
    int family;
    unsigned char addr[16];
} Client;

/* One TCP connection (libmicrohttpd's socket context). */
typedef struct Conn {
    struct Conn *prev, *next;
    int fd;
    Client client;
    double since; /* when it was opened, or its last request answered */
    bool busy;    /* a whole request received, being answered */
    bool job;     /* its request waits for an AI worker */
    bool closing; /* shut down by us to make room */
} Conn;

typedef struct Server {
    Host *h;
    ServeTrees trees;
    char allowed[MAX_ALLOWED][300]; /* Host header values accepted */
    int nallowed;
    char origin[MAX_ALLOWED][320]; /* "http://" + each allowed host */
    Conn *conns;                   /* every open connection (server thread only) */
    int max_conns, max_client_conns;
    pthread_mutex_t lock; /* pool_open */
    ServePool *pool;
    bool pool_open; /* jobs may be submitted */
} Server;

/* A request: its body while being received, then its AI job if any. */
typedef struct Request {
    Buf body;
    bool too_big;
    struct MHD_Connection *c;
    Conn *conn;
    enum { NO_JOB, JOB_RUNNING, JOB_DONE, JOB_FINISHED } state;
    ServeJob job;
    int job_ref;
} Request;

/* ---- text buffers ---- */

void buf_add(Buf *b, const char *s, size_t n)
{
    if (b->oom) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->len + n + 1) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void buf_printf(Buf *b, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        buf_add(b, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        b->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    buf_add(b, big, (size_t)n);
    free(big);
}

void buf_json_string(Buf *b, const char *s)
{
    /* valid UTF-8 first (a query's bytes may be anything): strict JSON
     * parsers take nothing else */
    size_t n = strlen(s);
    char *fixed = NULL;
    if (utf8_valid_prefix(s, n) != n) {
        size_t need = utf8_fix(s, n, NULL, 0);
        fixed = malloc(need + 1);
        if (!fixed) {
            b->oom = true;
            return;
        }
        utf8_fix(s, n, fixed, need + 1);
        s = fixed;
    }
    buf_add(b, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            buf_add(b, e, 2);
        } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
            buf_printf(b, "\\u%04x", c);
        } else {
            buf_add(b, s, 1);
        }
    }
    buf_add(b, "\"", 1);
    free(fixed);
}

void buf_free(Buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* ---- replies ---- */

static enum MHD_Result send_reply(struct MHD_Connection *c, int status, const char *ctype,
                                  const char *body, size_t len, const char *filename)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (!r) return MHD_NO;
    MHD_add_response_header(r, "Content-Type", ctype);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "X-Frame-Options", "DENY");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                            "connect-src 'self'; frame-ancestors 'none'; form-action 'none'");
    if (filename && *filename) {
        char disp[200];
        snprintf(disp, sizeof disp, "attachment; filename=\"%s\"", filename);
        MHD_add_response_header(r, "Content-Disposition", disp);
    }
    enum MHD_Result rc = MHD_queue_response(c, (unsigned)status, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result send_error(struct MHD_Connection *c, int status, const char *msg)
{
    Buf b = {0};
    buf_add(&b, "{\"error\": ", 10);
    buf_json_string(&b, msg);
    buf_add(&b, "}\n", 2);
    enum MHD_Result rc =
        b.oom ? MHD_NO : send_reply(c, status, "application/json", b.p, b.len, NULL);
    buf_free(&b);
    return rc;
}

/* ---- the embedded page ---- */

static const char *content_type(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (!dot) return "application/octet-stream";
    if (strcmp(dot, ".html") == 0) return "text/html; charset=utf-8";
    if (strcmp(dot, ".js") == 0) return "text/javascript; charset=utf-8";
    if (strcmp(dot, ".css") == 0) return "text/css; charset=utf-8";
    if (strcmp(dot, ".svg") == 0) return "image/svg+xml";
    return "application/octet-stream";
}

/* GET /NAME: the embedded file web/NAME ("/" is web/index.html). */
static enum MHD_Result send_asset(struct MHD_Connection *c, const char *url)
{
    char name[128];
    if (strcmp(url, "/") == 0) url = "/index.html";
    if (strlen(url) >= sizeof name - 4 || strstr(url, ".."))
        return send_error(c, 404, "no such page");
    snprintf(name, sizeof name, "web%s", url);
    for (const EmbeddedScript *e = embedded_scripts; e->name; e++)
        if (strcmp(e->name, name) == 0 && strcmp(name, "web/report.html") != 0)
            return send_reply(c, 200, content_type(name), e->text, e->len, NULL);
    return send_error(c, 404, "no such page");
}

/* ---- origin checks ---- */

static bool allowed_host(const Server *s, const char *host)
{
    for (int i = 0; host && i < s->nallowed; i++)
        if (strcmp(host, s->allowed[i]) == 0) return true;
    return false;
}

static bool allowed_origin(const Server *s, const char *origin)
{
    for (int i = 0; i < s->nallowed; i++)
        if (strcmp(origin, s->origin[i]) == 0) return true;
    return false;
}

static void add_allowed(Server *s, const char *host, int port)
{
    if (s->nallowed == MAX_ALLOWED) return;
    bool v6 = strchr(host, ':') != NULL;
    char name[300];
    snprintf(name, sizeof name, v6 ? "[%s]:%d" : "%s:%d", host, port);
    memcpy(s->allowed[s->nallowed], name, sizeof name);
    snprintf(s->origin[s->nallowed], sizeof s->origin[0], "http://%s", name);
    s->nallowed++;
}

/* ---- connections ---- */

static bool same_client(const Client *a, const Client *b)
{
    return a->family == b->family && memcmp(a->addr, b->addr, sizeof a->addr) == 0;
}

static void client_of(struct MHD_Connection *c, Client *out)
{
    memset(out, 0, sizeof *out);
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = ci ? ci->client_addr : NULL;
    if (!sa) return;
    out->family = sa->sa_family;
    if (sa->sa_family == AF_INET)
        memcpy(out->addr, &((const struct sockaddr_in *)sa)->sin_addr, 4);
    else if (sa->sa_family == AF_INET6)
        memcpy(out->addr, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
}

/* Open connections (not closing) of cl's address. */
static int client_conns(const Server *s, const Client *cl)
{
    int n = 0;
    for (const Conn *k = s->conns; k; k = k->next) n += !k->closing && same_client(&k->client, cl);
    return n;
}

/* Close k to make room: libmicrohttpd sees the end of its stream and
 * closes it (on the server thread, which is running this). */
static void make_room(Conn *k)
{
    k->closing = true;
    if (k->fd >= 0) shutdown(k->fd, SHUT_RDWR);
}

/* The oldest connection not being answered and not closing, of client cl
 * (or of the client with the most connections when cl is NULL), other than
 * skip; NULL if none. */
static Conn *oldest_waiting(const Server *s, const Client *cl, const Conn *skip)
{
    Conn *best = NULL;
    int best_n = 0;
    for (Conn *k = s->conns; k; k = k->next) {
        if (k == skip || k->closing || k->busy) continue;
        if (cl && !same_client(&k->client, cl)) continue;
        int n = cl ? 0 : client_conns(s, &k->client);
        if (!best || n > best_n || (n == best_n && k->since < best->since)) best = k, best_n = n;
    }
    return best;
}

/* A new connection k past a limit makes room, or is closed itself. */
static void admit(Server *s, Conn *k)
{
    if (client_conns(s, &k->client) > s->max_client_conns) {
        Conn *old = oldest_waiting(s, &k->client, k);
        make_room(old ? old : k);
        if (!old) return;
    }
    int total = 0;
    for (const Conn *j = s->conns; j; j = j->next) total += !j->closing;
    if (total > s->max_conns) {
        Conn *old = oldest_waiting(s, NULL, k);
        make_room(old ? old : k);
    }
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    Server *s = cls;
    if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        Conn *k = *socket_context;
        if (!k) return;
        if (k->prev)
            k->prev->next = k->next;
        else
            s->conns = k->next;
        if (k->next) k->next->prev = k->prev;
        free(k);
        *socket_context = NULL;
        return;
    }
    const union MHD_ConnectionInfo *fi =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    int fd = fi ? fi->connect_fd : -1;
    Conn *k = calloc(1, sizeof *k);
    if (!k) {
        if (fd >= 0) shutdown(fd, SHUT_RDWR);
        return;
    }
    k->fd = fd;
    client_of(c, &k->client);
    k->since = search_now();
    k->next = s->conns;
    if (s->conns) s->conns->prev = k;
    s->conns = k;
    *socket_context = k;
    admit(s, k);
}

static Conn *conn_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

/* ---- AI jobs ---- */

/* From a pool thread: the job ended; its connection goes on. */
static void on_job_done(ServeJob *j, void *cls)
{
    (void)cls;
    Request *rq = j->owner;
    rq->state = JOB_DONE;
    MHD_resume_connection(rq->c);
}

/* AI calls of cl's address waiting for a worker or running. */
static int client_jobs(const Server *s, const Client *cl)
{
    int n = 0;
    for (const Conn *k = s->conns; k; k = k->next) n += k->job && same_client(&k->client, cl);
    return n;
}

/* The reply of a job that ended (JOB_DONE); the request is then finished. */
static void finish_job(Server *s, Request *rq, ServeReply *r)
{
    static const char *const outcomes[] = {"ok", "time", "crash", "stopping"};
    ServeJob *j = &rq->job;
    const char *text = j->outcome == JOB_OK ? j->answer : j->why;
    size_t len = j->outcome == JOB_OK ? j->answer_len : strlen(j->why);
    if (j->outcome == JOB_STOPPING) text = "the server is stopping", len = strlen(text);
    host_serve_finish(s->h, rq->job_ref, outcomes[j->outcome], text, len, r);
    free(j->answer);
    free(j->spec);
    j->answer = j->spec = NULL;
    rq->state = JOB_FINISHED;
    if (rq->conn) rq->conn->job = false;
}

/* Hand the job of reply r to the pool and suspend the connection; false
 * (and r becomes the reply) when this client has too many calls running
 * or the server is stopping. */
static bool start_job(Server *s, Request *rq, ServeReply *r)
{
    const char *refusal = NULL, *outcome = "busy";
    char msg[160];
    int workers = s->pool ? serve_pool_size(s->pool) : 0;
    if (!s->pool) {
        refusal = "no AI worker could start (see the server's log)";
        outcome = "crash";
    } else if (rq->conn && client_jobs(s, &rq->conn->client) >= workers) {
        snprintf(msg, sizeof msg,
                 "too many AI calls from this address at once (at most %d, one per worker): "
                 "try again when one has answered",
                 workers);
        refusal = msg;
    }
    pthread_mutex_lock(&s->lock);
    bool open = s->pool_open;
    if (!refusal && !open) refusal = "the server is stopping", outcome = "stopping";
    if (!refusal) {
        rq->job = (ServeJob){.spec = r->job, .len = r->job_len, .limit = r->job_limit, .owner = rq};
        rq->job_ref = r->job_ref;
        rq->state = JOB_RUNNING;
        r->job = NULL;
        if (rq->conn) rq->conn->job = true;
        MHD_suspend_connection(rq->c);
        serve_pool_submit(s->pool, &rq->job);
    }
    pthread_mutex_unlock(&s->lock);
    if (!refusal) return true;
    int ref = r->job_ref;
    serve_reply_free(r);
    host_serve_finish(s->h, ref, outcome, refusal, strlen(refusal), r);
    return false;
}

/* ---- requests ---- */

typedef struct Params {
    const char *keys[MAX_PARAMS];
    const char *values[MAX_PARAMS];
    int n;
    bool too_many;
} Params;

static enum MHD_Result collect_param(void *cls, enum MHD_ValueKind kind, const char *key,
                                     const char *value)
{
    (void)kind;
    Params *p = cls;
    if (p->n == MAX_PARAMS) {
        p->too_many = true;
        return MHD_NO;
    }
    p->keys[p->n] = key;
    p->values[p->n] = value ? value : "";
    p->n++;
    return MHD_YES;
}

static enum MHD_Result send_served(struct MHD_Connection *c, ServeReply *r)
{
    enum MHD_Result rc = r->body ? send_reply(c, r->status, r->ctype, r->body, r->len, r->filename)
                                 : send_error(c, 500, "out of memory");
    serve_reply_free(r);
    return rc;
}

static enum MHD_Result answer(Server *s, struct MHD_Connection *c, const char *url,
                              const char *method, Request *up)
{
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    if (!allowed_host(s, host))
        return send_error(c, 403,
                          "this server answers only requests addressed to it (Host header)");
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    if (origin && !allowed_origin(s, origin))
        return send_error(c, 403, "requests from other origins are refused");
    /* browsers say where a request comes from even when they send no
     * Origin (an <img> or <script> of another page): only this origin, or a
     * person typing the address ("none"), is served */
    const char *site = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Sec-Fetch-Site");
    if (site && strcmp(site, "same-origin") != 0 && strcmp(site, "none") != 0)
        return send_error(c, 403, "requests from other sites are refused (Sec-Fetch-Site)");
    bool get = strcmp(method, "GET") == 0, post = strcmp(method, "POST") == 0;
    if (!get && !post) return send_error(c, 405, "only GET and POST are served");
    if (up->too_big) return send_error(c, 413, "the request body is too large");
    if (strncmp(url, "/api/", 5) != 0) {
        if (!get) return send_error(c, 405, "pages are read with GET");
        return send_asset(c, url);
    }
    if (post && !MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Marubatsu"))
        return send_error(c, 403, "API requests that change state need the X-Marubatsu header");
    Params p = {{0}, {0}, 0, false};
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, collect_param, &p);
    if (p.too_many) return send_error(c, 400, "too many query parameters");
    if (strcmp(url, "/api/tree") == 0) {
        if (!get) return send_error(c, 405, "the tree is read with GET");
        const char *moves = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "moves");
        const char *scoring = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "scoring");
        Buf b = {0};
        int status = serve_tree_answer(&s->trees, moves, scoring, &b);
        enum MHD_Result rc = b.oom ? send_error(c, 500, "out of memory")
                                   : send_reply(c, status, "application/json", b.p, b.len, NULL);
        buf_free(&b);
        return rc;
    }
    if (post && strcmp(url, "/api/games") == 0 && s->pool) serve_pool_warm(s->pool);
    ServeReply r;
    host_serve_call(s->h, method, url + 5, p.keys, p.values, p.n, up->body.p, up->body.len, &r);
    if (r.job && start_job(s, up, &r)) return MHD_YES; /* answered when the job ends */
    return send_served(c, &r);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    (void)version;
    Server *s = cls;
    Request *rq = *con_cls;
    if (!rq) {
        rq = calloc(1, sizeof *rq);
        if (!rq) return MHD_NO;
        rq->c = c;
        rq->conn = conn_of(c);
        *con_cls = rq;
        return MHD_YES;
    }
    if (rq->state == JOB_RUNNING) return MHD_YES; /* not called while suspended */
    if (rq->state == JOB_DONE) {
        ServeReply r;
        finish_job(s, rq, &r);
        return send_served(c, &r);
    }
    if (*upload_data_size) {
        if (rq->body.len + *upload_data_size > MAX_BODY)
            rq->too_big = true;
        else
            buf_add(&rq->body, upload_data, *upload_data_size);
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (rq->conn) rq->conn->busy = true; /* the whole request is in: being answered */
    if (rq->body.oom) return send_error(c, 500, "out of memory");
    return answer(s, c, url, method, rq);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)c, (void)toe;
    Server *s = cls;
    Request *rq = *con_cls;
    if (!rq) return;
    if (rq->state == JOB_DONE) { /* the connection closed before the reply */
        ServeReply r;
        finish_job(s, rq, &r);
        serve_reply_free(&r);
    }
    if (rq->conn) {
        rq->conn->busy = false;
        rq->conn->since = search_now();
    }
    buf_free(&rq->body);
    free(rq);
    *con_cls = NULL;
}

/* ---- the command ---- */

typedef struct ServeArgs {
    int port;
    const char *host;
    const char *allow[MAX_ALLOWED];
    int nallow;
    ServeConfig config;
    const char *ai_files[MAX_AI_FILES];
    int workers, connections, client_connections, connection_timeout;
    int worker_of; /* --worker PID: run as that server's AI worker */
} ServeArgs;

/* A number of seconds > 0 (at most a day). */
static bool seconds_arg(const char *cmd, const char *what, const char *text, double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !(v > 0) || v > 86400) {
        cli_error(cmd, "%s must be a number of seconds > 0 (at most 86400), not '%s'", what, text);
        return false;
    }
    *out = v;
    return true;
}

/* 0 to go on, else the exit status (help printed: -1 means exit 0). */
static int parse_args(int argc, char **argv, ServeArgs *sa)
{
    static const CliOption opts[] = {{"port", true, OPT_PORT},
                                     {"host", true, OPT_HOST},
                                     {"allow-host", true, OPT_ALLOW},
                                     {"results", true, OPT_RESULTS},
                                     {"ai", true, OPT_AI},
                                     {"max-games", true, OPT_MAX_GAMES},
                                     {"idle", true, OPT_IDLE},
                                     {"time", true, OPT_PLAYER_TIME},
                                     {"instructions", true, OPT_PLAYER_INSTR},
                                     {"memory", true, OPT_PLAYER_MEMORY},
                                     {"builtin-time", true, OPT_BUILTIN_TIME},
                                     {"workers", true, OPT_WORKERS},
                                     {"connections", true, OPT_CONNECTIONS},
                                     {"client-connections", true, OPT_CLIENT_CONNECTIONS},
                                     {"connection-timeout", true, OPT_CONNECTION_TIMEOUT},
                                     {"worker", true, OPT_WORKER},
                                     {"help", false, OPT_HELP},
                                     {0}};
    CliArgs a = cli_args(argc, argv);
    const char *arg = NULL;
    for (int id; (id = cli_next(&a, opts, &arg)) != CLI_END;) {
        switch (id) {
        case CLI_ERROR: return EXIT_USAGE;
        case OPT_HELP: fputs(serve_usage, stdout); return -1;
        case OPT_PORT:
            if (!cli_int(a.cmd, "--port", arg, 0, 65535, &sa->port)) return EXIT_USAGE;
            break;
        case OPT_HOST: sa->host = arg; break;
        case OPT_ALLOW:
            if (sa->nallow == MAX_ALLOWED - 3 || !*arg || strlen(arg) > 250) {
                cli_error(a.cmd, "--allow-host takes a name of at most 250 bytes, at most %d times",
                          MAX_ALLOWED - 3);
                return EXIT_USAGE;
            }
            sa->allow[sa->nallow++] = arg;
            break;
        case OPT_RESULTS: sa->config.results = arg; break;
        case OPT_AI:
            if (sa->config.n_ai_files == MAX_AI_FILES) {
                cli_error(a.cmd, "at most %d --ai files", MAX_AI_FILES);
                return EXIT_USAGE;
            }
            sa->ai_files[sa->config.n_ai_files++] = arg;
            break;
        case OPT_MAX_GAMES:
            if (!cli_int(a.cmd, "--max-games", arg, 1, 100000, &sa->config.max_games))
                return EXIT_USAGE;
            break;
        case OPT_IDLE:
            if (!cli_int(a.cmd, "--idle", arg, 1, 30 * 86400, &sa->config.idle_seconds))
                return EXIT_USAGE;
            break;
        case OPT_BUILTIN_TIME:
            if (!seconds_arg(a.cmd, "--builtin-time", arg, &sa->config.builtin_time))
                return EXIT_USAGE;
            break;
        case OPT_WORKERS:
            if (!cli_int(a.cmd, "--workers", arg, 1, 16, &sa->workers)) return EXIT_USAGE;
            break;
        case OPT_CONNECTIONS:
            if (!cli_int(a.cmd, "--connections", arg, 1, 100000, &sa->connections))
                return EXIT_USAGE;
            break;
        case OPT_CLIENT_CONNECTIONS:
            if (!cli_int(a.cmd, "--client-connections", arg, 1, 100000, &sa->client_connections))
                return EXIT_USAGE;
            break;
        case OPT_CONNECTION_TIMEOUT:
            if (!cli_int(a.cmd, "--connection-timeout", arg, 1, 86400, &sa->connection_timeout))
                return EXIT_USAGE;
            break;
        case OPT_WORKER:
            if (!cli_int(a.cmd, "--worker", arg, 1, 0x7fffffff, &sa->worker_of)) return EXIT_USAGE;
            break;
        case OPT_PLAYER_TIME:
        case OPT_PLAYER_INSTR:
        case OPT_PLAYER_MEMORY: {
            static const char *const names[] = {"time", "instructions", "memory"};
            double *budget[] = {&sa->config.time, &sa->config.instructions, &sa->config.memory};
            if (!cli_budget(a.cmd, names[id - OPT_PLAYER_TIME], arg)) return EXIT_USAGE;
            *budget[id - OPT_PLAYER_TIME] = strtod(arg, NULL);
            break;
        }
        default: /* CLI_POSITIONAL */
            cli_error(a.cmd, "unexpected argument '%s' (see --help)", arg);
            return EXIT_USAGE;
        }
    }
    /* a sandboxed AI's move must end: without a time budget, only an
     * instruction budget bounds it */
    if (sa->config.time == 0 && !(sa->config.instructions > 0)) {
        cli_error(a.cmd,
                  "--time 0 needs --instructions N: a sandboxed AI's move must have a bound");
        return EXIT_USAGE;
    }
    return 0;
}

/* Resolve --host (a numeric address or a name) into addr. */
static bool resolve(const char *host, int port, struct sockaddr_storage *addr, bool *v6)
{
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    int rc = getaddrinfo(host, service, &hints, &res);
    if (rc != 0) {
        cli_error("serve", "cannot use --host '%s': %s", host, gai_strerror(rc));
        return false;
    }
    memcpy(addr, res->ai_addr, res->ai_addrlen);
    *v6 = res->ai_family == AF_INET6;
    freeaddrinfo(res);
    return true;
}

static bool is_loopback(const struct sockaddr_storage *addr, bool v6)
{
    if (v6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)addr)->sin6_addr;
        return IN6_IS_ADDR_LOOPBACK(a);
    }
    uint32_t a = ntohl(((const struct sockaddr_in *)addr)->sin_addr.s_addr);
    return (a >> 24) == 127;
}

/* The worker's command line: this process's own (/proc/self/cmdline: the
 * options before `serve` run again in the worker, so that it has the same
 * AIs) with --worker PID added; NULL if it cannot be read. One malloc'ed
 * block: the pointers, then the text. */
static char **worker_argv(void)
{
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (!f) return NULL;
    Buf b = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_add(&b, chunk, n);
    fclose(f);
    char pid[32];
    int plen = snprintf(pid, sizeof pid, "--worker%c%ld", '\0', (long)getpid());
    buf_add(&b, pid, (size_t)plen + 1);
    if (b.oom || b.len < 2) {
        buf_free(&b);
        return NULL;
    }
    size_t count = 0;
    for (size_t i = 0; i < b.len; i++) count += b.p[i] == '\0';
    char **argv = malloc((count + 1) * sizeof *argv + b.len);
    if (!argv) {
        buf_free(&b);
        return NULL;
    }
    char *text = (char *)(argv + count + 1);
    memcpy(text, b.p, b.len);
    buf_free(&b);
    size_t k = 0;
    for (char *q = text; k < count; q += strlen(q) + 1) argv[k++] = q;
    argv[count] = NULL;
    return argv;
}

/* Room for the connections: the soft limit of open files raised as far as
 * needed (up to the hard one); false after saying why. */
static bool enough_files(int connections)
{
    rlim_t need = (rlim_t)connections + CONN_MARGIN + 64;
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur >= need) return true;
    if (r.rlim_max == RLIM_INFINITY || r.rlim_max >= need) {
        r.rlim_cur = need;
        if (setrlimit(RLIMIT_NOFILE, &r) == 0) return true;
    }
    cli_error("serve",
              "--connections %d needs %lu open files, and this process may open only %lu "
              "(ulimit -n)",
              connections, (unsigned long)need, (unsigned long)r.rlim_max);
    return false;
}

/* As a worker: the AI catalogue, then jobs on descriptor 3, answers on 4. */
static int run_worker(ServeArgs *sa, Host *h)
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* ends with the server */
#endif
    if (getppid() != (pid_t)sa->worker_of) return 1; /* the server is gone already */
    sa->config.worker = true;
    if (host_serve_open(h, &sa->config)) return 1;
    return host_serve_worker(h, 3, 4);
}

/* Past STOP_GRACE after a stop began, exit whatever is still running. */
static void *stop_backstop(void *arg)
{
    (void)arg;
    struct timespec t = {(time_t)STOP_GRACE, (long)((STOP_GRACE - (time_t)STOP_GRACE) * 1e9)};
    nanosleep(&t, NULL);
    static const char msg[] = "marubatsu serve: the stop took over 2 s: exiting now\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(1);
    return NULL;
}

int cmd_serve(int argc, char **argv, Host *h)
{
    ServeArgs sa = {.port = 8080,
                    .host = "127.0.0.1",
                    .workers = 2,
                    .connections = 256,
                    .client_connections = 32,
                    .connection_timeout = 10};
    sa.config.max_games = 64;
    sa.config.idle_seconds = 1800;
    sa.config.builtin_time = 5;
    sa.config.time = sa.config.instructions = sa.config.memory = -1; /* the defaults */
    int rc = parse_args(argc, argv, &sa);
    if (rc) return rc < 0 ? 0 : rc;
    sa.config.ai_files = sa.ai_files;
    if (sa.worker_of) return run_worker(&sa, h);

    struct sockaddr_storage addr;
    bool v6;
    if (!resolve(sa.host, sa.port, &addr, &v6)) return EXIT_USAGE;
    if (!enough_files(sa.connections)) return EXIT_USAGE;
    if (host_serve_open(h, &sa.config)) return 1;
    char **wargv = worker_argv();
    if (!wargv) {
        cli_error("serve", "cannot read this process's command line (/proc/self/cmdline)");
        return 1;
    }

    /* the socket first, so that the names it answers to are known before
     * any request can arrive (with --port 0 the port is the kernel's) */
    int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    socklen_t alen = v6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    if (fd < 0 || bind(fd, (struct sockaddr *)&addr, alen) != 0 || listen(fd, 128) != 0 ||
        getsockname(fd, (struct sockaddr *)&addr, &alen) != 0) {
        cli_error("serve", "cannot listen on %s port %d: %s", sa.host, sa.port, strerror(errno));
        if (fd >= 0) close(fd);
        free(wargv);
        return 1;
    }
    int port = ntohs(v6 ? ((struct sockaddr_in6 *)&addr)->sin6_port
                        : ((struct sockaddr_in *)&addr)->sin_port);
    Server s = {.h = h, .max_conns = sa.connections, .max_client_conns = sa.client_connections};
    serve_trees_init(&s.trees);
    pthread_mutex_init(&s.lock, NULL);
    char numeric[INET6_ADDRSTRLEN];
    if (v6)
        inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&addr)->sin6_addr, numeric, sizeof numeric);
    else
        inet_ntop(AF_INET, &((struct sockaddr_in *)&addr)->sin_addr, numeric, sizeof numeric);
    add_allowed(&s, numeric, port);
    bool loop = is_loopback(&addr, v6);
    if (loop || strcmp(numeric, "0.0.0.0") == 0 || strcmp(numeric, "::") == 0) {
        add_allowed(&s, "localhost", port);
        add_allowed(&s, v6 ? "::1" : "127.0.0.1", port);
    }
    if (strcmp(sa.host, numeric) != 0) add_allowed(&s, sa.host, port);
    for (int i = 0; i < sa.nallow; i++) add_allowed(&s, sa.allow[i], port);

    /* the signals are taken by sigwait below, in every thread; a worker
     * that dies while written to is seen as an error, not SIGPIPE */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* the pool before the daemon (its workers start with the first game:
     * serve_pool_warm) */
    s.pool = serve_pool_start(sa.workers, wargv, on_job_done, &s);
    s.pool_open = s.pool != NULL;
    if (!s.pool) fprintf(stderr, "marubatsu serve: warning: no AI worker could start\n");
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_SUSPEND_RESUME |
                     (v6 ? MHD_USE_IPv6 : 0);
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, &s, MHD_OPTION_LISTEN_SOCKET, fd,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, &s, MHD_OPTION_NOTIFY_CONNECTION, on_connection,
        &s, MHD_OPTION_CONNECTION_LIMIT, (unsigned)(sa.connections + CONN_MARGIN),
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)sa.connection_timeout, MHD_OPTION_END);
    if (!d) {
        cli_error("serve", "libmicrohttpd could not start on %s port %d", sa.host, port);
        serve_pool_stop(s.pool);
        pthread_sigmask(SIG_UNBLOCK, &stop, NULL);
        serve_trees_free(&s.trees);
        pthread_mutex_destroy(&s.lock);
        close(fd);
        free(wargv);
        return 1;
    }
    if (!loop)
        fprintf(stderr,
                "marubatsu serve: warning: listening on %s, not loopback: anyone who can "
                "reach this port can use the server\n",
                numeric);
    printf("marubatsu serve: http://%s/ (Ctrl-C stops)\n", s.allowed[0]);
    fflush(stdout);
    /* the tree view's default tree, built while the first page loads, so
     * that its first answer does not wait for it */
    serve_trees_prebuild(&s.trees, SCORING_SV);

    int sig = 0;
    sigwait(&stop, &sig);
    pthread_t backstop;
    bool watched = pthread_create(&backstop, NULL, stop_backstop, NULL) == 0;
    /* every job ends (its connection resumed) before the daemon stops */
    pthread_mutex_lock(&s.lock);
    s.pool_open = false;
    pthread_mutex_unlock(&s.lock);
    serve_pool_stop(s.pool);
    MHD_stop_daemon(d); /* closes fd too */
    if (watched) {
        pthread_cancel(backstop);
        pthread_join(backstop, NULL);
    }
    serve_trees_free(&s.trees);
    pthread_mutex_destroy(&s.lock);
    free(wargv);
    pthread_sigmask(SIG_UNBLOCK, &stop, NULL);
    printf("marubatsu serve: stopped (%s)\n", sig == SIGINT ? "Ctrl-C" : "SIGTERM");
    return 0;
}
