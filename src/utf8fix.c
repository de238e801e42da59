/* utf8fix.c: text made valid UTF-8 (see utf8fix.h). The well-formed
 * sequences are those of the Unicode standard's table 3-7: after the lead
 * byte, the second byte's range depends on the lead (E0 A0..BF, ED 80..9F,
 * F0 90..BF, F4 80..8F, else 80..BF), which rules out overlong forms,
 * surrogates and code points above U+10FFFF; the other bytes are 80..BF. */
#include "utf8fix.h"

#include <stdbool.h>
#include <string.h>

/* The sequence at s[0..n) (n >= 1): its length when it is well formed;
 * else 0, with *bad the length of its maximal ill-formed part (>= 1). */
static size_t sequence(const unsigned char *s, size_t n, size_t *bad)
{
    unsigned c = s[0];
    if (c < 0x80) return 1;
    size_t more;
    unsigned lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
        more = 1;
    } else if (c >= 0xe0 && c <= 0xef) {
        more = 2;
        if (c == 0xe0) lo = 0xa0;
        if (c == 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        more = 3;
        if (c == 0xf0) lo = 0x90;
        if (c == 0xf4) hi = 0x8f;
    } else { /* 80..C1 (a continuation, or an overlong lead), F5..FF */
        *bad = 1;
        return 0;
    }
    size_t i = 1;
    for (; i <= more && i < n; i++) {
        unsigned b = s[i];
        if (b < lo || b > hi) break;
        lo = 0x80, hi = 0xbf;
    }
    if (i == more + 1) return i;
    *bad = i;
    return 0;
}

size_t utf8_valid_prefix(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, bad;
    while (i < n) {
        if (u[i] < 0x80) { /* ASCII runs, the common case */
            i++;
            continue;
        }
        size_t len = sequence(u + i, n - i, &bad);
        if (len == 0) return i;
        i += len;
    }
    return n;
}

size_t utf8_fix(const char *s, size_t n, char *out, size_t outsize)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, need = 0, wrote = 0;
    bool full = outsize == 0;
    while (i < n) {
        size_t bad = 0;
        size_t len = sequence(u + i, n - i, &bad);
        const char *piece = len ? s + i : UTF8_REPLACEMENT;
        size_t plen = len ? len : 3;
        i += len ? len : bad;
        need += plen;
        if (full || wrote + plen >= outsize) { /* whole characters only, room for the NUL */
            full = true;
            continue;
        }
        memcpy(out + wrote, piece, plen);
        wrote += plen;
    }
    if (outsize) out[wrote] = '\0';
    return need;
}
