/* serve_http.h: the HTTP side of `marubatsu serve` (serve_http.c): the
 * requests libmicrohttpd hands over, the checks every one passes (Host,
 * Origin, the X-Marubatsu header on POSTs, the body's size), the embedded
 * page, the connection limits, and the AI jobs a request becomes. The
 * command (cmd_serve.c) fills a Server, opens the socket and starts it
 * here. Uses serve_tree.h, serve_pool.h and lua/serve_host.h. */
#ifndef MB_SERVE_HTTP_H
#define MB_SERVE_HTTP_H

#include <pthread.h>
#include <stdbool.h>

#include "lua/serve_host.h"
#include "serve_pool.h"
#include "serve_tree.h"

#define MAX_ALLOWED 8  /* names the server answers to */
#define CONN_MARGIN 64 /* connections libmicrohttpd holds beyond ours: closing ones */

struct MHD_Daemon;
struct Conn;

/* The server: what every request handler reads. */
typedef struct Server {
    Host *h;
    ServeTrees trees;
    char allowed[MAX_ALLOWED][300]; /* Host header values accepted */
    int nallowed;
    char origin[MAX_ALLOWED][320]; /* "http://" + each allowed host */
    struct Conn *conns;            /* every open connection (server thread only) */
    int max_conns, max_client_conns;
    pthread_mutex_t lock; /* pool_open */
    ServePool *pool;
    bool pool_open; /* jobs may be submitted */
} Server;

/* Also answer to host:port (the Host header; IPv6 addresses in brackets),
 * and accept pages of that origin. At most MAX_ALLOWED names. */
void serve_http_allow(Server *s, const char *host, int port);
/* The pool's callback (from a pool thread): job j ended, and its
 * connection, suspended meanwhile, is resumed to send the reply. */
void serve_http_job_done(ServeJob *j, void *cls);
/* Start libmicrohttpd on the listening socket fd (an IPv6 one if v6),
 * answering with s: at most max_conns connections at once (and
 * s->max_client_conns from one address), each closed after
 * timeout seconds idle. NULL if it cannot start. */
struct MHD_Daemon *serve_http_start(Server *s, int fd, bool v6, int max_conns, int timeout);

#endif
