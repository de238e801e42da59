/* serve_http.c: the HTTP side of `marubatsu serve` (serve_http.h).
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
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "embedded.h"
#include "clock.h" /* clock_now */
#include "serve_http.h"

#define MAX_BODY   (256 * 1024)
#define MAX_PARAMS 16

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

void serve_http_allow(Server *s, const char *host, int port)
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
    k->since = clock_now();
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

void serve_http_job_done(ServeJob *j, void *cls)
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
        rq->conn->since = clock_now();
    }
    buf_free(&rq->body);
    free(rq);
    *con_cls = NULL;
}

struct MHD_Daemon *serve_http_start(Server *s, int fd, bool v6, int max_conns, int timeout)
{
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_SUSPEND_RESUME |
                     (v6 ? MHD_USE_IPv6 : 0);
    return MHD_start_daemon(flags, 0, NULL, NULL, on_request, s, MHD_OPTION_LISTEN_SOCKET, fd,
                            MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
                            MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned)(max_conns + CONN_MARGIN),
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)timeout, MHD_OPTION_END);
}
