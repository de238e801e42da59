/* textbuf.c: the growable text buffer (textbuf.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textbuf.h"
#include "utf8fix.h"

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
