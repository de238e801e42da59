/* journal.c: journal lines (split, escape, parse and format a G line) and
 * player specifications "NAME:key=value,..." (see journal.h). No
 * allocation; every loop is bounded by the input's length or a fixed limit. */
#include "journal.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mberror.h"
#include "notation.h"

/* ---- Messages ---- */

static void seterr(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* A printable, quoted excerpt of s[0..n) for messages: at most about 40
 * bytes of text, control bytes as \t \n \r \\ or \xHH, cut at a UTF-8
 * character boundary with "..." when longer. out needs 200 bytes. */
enum { QUOTE_SIZE = 200, QUOTE_TEXT = 40 };
static const char *quote(const char *s, size_t n, char *out)
{
    size_t o = 0;
    out[o++] = '"';
    size_t i = 0;
    for (; i < n && o <= QUOTE_TEXT; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\' || c == '"') {
            out[o++] = '\\';
            out[o++] = (char)c;
        } else if (c == '\t') {
            out[o++] = '\\', out[o++] = 't';
        } else if (c == '\n') {
            out[o++] = '\\', out[o++] = 'n';
        } else if (c == '\r') {
            out[o++] = '\\', out[o++] = 'r';
        } else if (c < 0x20 || c == 0x7f) {
            o += (size_t)snprintf(out + o, QUOTE_SIZE - o, "\\x%02x", c);
        } else {
            out[o++] = (char)c;
        }
    }
    if (i < n) {
        /* do not leave half a UTF-8 character before the "..." */
        size_t back = 0;
        while (back < 4 && back < o - 1 && ((unsigned char)out[o - 1 - back] & 0xc0) == 0x80)
            back++;
        if (back < o - 1 && ((unsigned char)out[o - 1 - back] & 0xc0) == 0xc0) o -= back + 1;
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o++] = '"';
    out[o] = '\0';
    return out;
}

/* ---- Escaping ---- */

size_t journal_escape(const char *s, char *out, size_t outsize)
{
    size_t need = 0;  /* bytes the whole escaped text takes */
    size_t wrote = 0; /* bytes written: whole escapes only, a prefix */
    bool full = outsize == 0;
    for (; *s; s++) {
        char esc = 0;
        switch (*s) {
        case '\\': esc = '\\'; break;
        case '\t': esc = 't'; break;
        case '\n': esc = 'n'; break;
        case '\r': esc = 'r'; break;
        default: break;
        }
        size_t w = esc ? 2 : 1;
        need += w;
        if (full || wrote + w >= outsize) {
            full = true;
            continue;
        }
        if (esc) {
            out[wrote++] = '\\';
            out[wrote++] = esc;
        } else {
            out[wrote++] = *s;
        }
    }
    if (outsize) out[wrote] = '\0';
    return need;
}

/* The line without its line end: one "\n" or "\r\n". */
static size_t strip_line_end(const char *line, size_t len)
{
    if (len && line[len - 1] == '\n') {
        len--;
        if (len && line[len - 1] == '\r') len--;
    }
    return len;
}

/* Unescape the field s[0..n), which starts at 0-based byte `at` of the line
 * and is named `label` in messages, into out (cap bytes, NUL-terminated).
 * MB_OK with *outlen set; MB_ESYNTAX for a bad escape, a NUL byte or a raw
 * line break; MB_ERANGE when the text does not fit (message names cap). */
static int unescape(const char *s, size_t n, size_t at, const char *label, char *out, size_t cap,
                    size_t *outlen, char *err, size_t errlen)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\\') {
            if (i + 1 == n) {
                seterr(err, errlen,
                       "%s: a lone backslash at its end (column %zu); write \\\\ for a backslash",
                       label, at + i + 1);
                return MB_ESYNTAX;
            }
            char e = s[++i];
            switch (e) {
            case '\\': c = '\\'; break;
            case 't': c = '\t'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            default: {
                char shown[8];
                if ((unsigned char)e > 0x20 && (unsigned char)e < 0x7f)
                    snprintf(shown, sizeof shown, "\\%c", e);
                else
                    snprintf(shown, sizeof shown, "\\<%02x>", (unsigned char)e);
                seterr(err, errlen,
                       "%s: unknown escape %s at column %zu (only \\\\ \\t \\n \\r exist)", label,
                       shown, at + i);
                return MB_ESYNTAX;
            }
            }
        } else if (c == '\0') {
            seterr(err, errlen, "%s: a NUL byte at column %zu", label, at + i + 1);
            return MB_ESYNTAX;
        } else if (c == '\n' || c == '\r') {
            seterr(err, errlen, "%s: an unescaped %s at column %zu (write %s)", label,
                   c == '\n' ? "newline" : "carriage return", at + i + 1,
                   c == '\n' ? "\\n" : "\\r");
            return MB_ESYNTAX;
        }
        if (o + 1 >= cap) {
            seterr(err, errlen, "%s: longer than %zu bytes", label, cap ? cap - 1 : 0);
            return MB_ERANGE;
        }
        out[o++] = c;
    }
    if (cap) out[o] = '\0';
    *outlen = o;
    return MB_OK;
}

int journal_split(const char *line, size_t len, char **fields, int max, char *buf, size_t bufsize,
                  char *err, size_t errlen)
{
    if (!line || !fields || !buf || max < 1) {
        seterr(err, errlen, "journal_split: no line, no field array or max < 1");
        return -1;
    }
    len = strip_line_end(line, len);
    size_t used = 0;
    int nf = 0;
    size_t start = 0;
    for (;;) {
        const char *tab = memchr(line + start, '\t', len - start);
        size_t end = tab ? (size_t)(tab - line) : len;
        if (nf == max) {
            seterr(err, errlen, "more than %d fields (field %d starts at column %zu)", max, nf + 1,
                   start + 1);
            return -1;
        }
        char label[32];
        snprintf(label, sizeof label, "field %d", nf + 1);
        size_t flen = 0;
        int rc = unescape(line + start, end - start, start, label, buf + used, bufsize - used,
                          &flen, err, errlen);
        if (rc == MB_ERANGE) {
            seterr(err, errlen, "the buffer (%zu bytes) is too small for the fields (field %d)",
                   bufsize, nf + 1);
            return -1;
        }
        if (rc != MB_OK) return -1;
        if (used == bufsize) { /* unescape wrote nothing, not even the NUL */
            seterr(err, errlen, "the buffer (%zu bytes) is too small for the fields (field %d)",
                   bufsize, nf + 1);
            return -1;
        }
        fields[nf++] = buf + used;
        used += flen + 1;
        if (!tab) return nf;
        start = end + 1;
    }
}

/* ---- G lines ---- */

enum { G_FIELDS = 10 };
static const char *const g_names[G_FIELDS] = {
    "record type", "GAME", "PAIRING", "INDEX", "SEED", "O", "X", "MOVES", "RESULT", "REASON",
};

/* Parse the decimal digits s[0..n) into *v (at most max). MB_OK, MB_ESYNTAX
 * (empty, or a byte that is not a digit) or MB_ERANGE (above max). */
static int parse_decimal(const char *s, size_t n, uint64_t max, uint64_t *v)
{
    if (n == 0) return MB_ESYNTAX;
    uint64_t x = 0;
    bool over = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return MB_ESYNTAX;
        unsigned d = (unsigned)(s[i] - '0');
        if (x > (max - d) / 10)
            over = true;
        else
            x = x * 10 + d;
    }
    if (over) return MB_ERANGE;
    *v = x;
    return MB_OK;
}

/* One numeric field of a G line (raw text: numbers hold no escapes). */
static int parse_number_field(const char *s, size_t n, int field, uint64_t min, uint64_t max,
                              uint64_t *v, char *err, size_t errlen)
{
    char q[QUOTE_SIZE];
    int rc = parse_decimal(s, n, max, v);
    if (rc == MB_ESYNTAX) {
        seterr(err, errlen, "field %d (%s): %s is not a decimal integer", field + 1, g_names[field],
               quote(s, n, q));
        return rc;
    }
    if (rc == MB_ERANGE || *v < min) {
        seterr(err, errlen, "field %d (%s): %s is out of range (%llu to %llu)", field + 1,
               g_names[field], quote(s, n, q), (unsigned long long)min, (unsigned long long)max);
        return MB_ERANGE;
    }
    return MB_OK;
}

/* Check the move list's syntax: Excel squares joined by commas. */
static int check_moves(const char *moves, size_t n, char *err, size_t errlen)
{
    if (n == 0) return MB_OK;
    int item = 0;
    size_t start = 0;
    for (;;) {
        const char *comma = memchr(moves + start, ',', n - start);
        size_t end = comma ? (size_t)(comma - moves) : n;
        size_t len = end - start;
        item++;
        char q[QUOTE_SIZE];
        if (len == 0) {
            seterr(err, errlen, "field 8 (MOVES): move %d is empty (at byte %zu of the list)", item,
                   start + 1);
            return MB_ESYNTAX;
        }
        /* letters then digits only: no blanks, which the coordinate reader
         * would skip, and short enough for its buffer */
        bool alnum = len < 16;
        for (size_t i = start; alnum && i < end; i++) {
            char c = moves[i];
            alnum = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        }
        char one[16];
        int x, y;
        if (alnum) {
            memcpy(one, moves + start, len);
            one[len] = '\0';
        }
        if (!alnum || notation_excel_parse(one, &x, &y) != MB_OK) {
            seterr(err, errlen, "field 8 (MOVES): move %d %s is not a square like B2 or AA10", item,
                   quote(moves + start, len, q));
            return MB_ESYNTAX;
        }
        if (!comma) return MB_OK;
        start = end + 1;
    }
}

static int parse_game(const char *line, size_t len, JournalGame *g, bool moves, char *err,
                      size_t errlen)
{
    len = strip_line_end(line, len);
    /* the fields' spans: tabs are never part of an escape */
    size_t start[G_FIELDS + 1], end[G_FIELDS + 1];
    int nf = 0;
    size_t pos = 0;
    for (;;) {
        const char *tab = memchr(line + pos, '\t', len - pos);
        size_t e = tab ? (size_t)(tab - line) : len;
        if (nf <= G_FIELDS) {
            start[nf] = pos;
            end[nf] = e;
        }
        nf++;
        if (!tab || nf > G_FIELDS) break;
        pos = e + 1;
    }
    char q[QUOTE_SIZE];
    if (end[0] - start[0] != 1 || line[0] != 'G') {
        seterr(err, errlen, "not a game record: the line starts with %s, not \"G\"",
               quote(line + start[0], end[0] - start[0], q));
        return MB_ESYNTAX;
    }
    if (nf < G_FIELDS) {
        seterr(err, errlen,
               "missing fields: a G line has %d tab-separated fields, this one %d "
               "(field %d, %s, is missing)",
               G_FIELDS, nf, nf + 1, g_names[nf]);
        return MB_ESYNTAX;
    }
    if (nf > G_FIELDS) {
        seterr(err, errlen,
               "extra fields: a G line has %d tab-separated fields, this one more "
               "(field %d starts at column %zu)",
               G_FIELDS, G_FIELDS + 1, start[G_FIELDS] + 1);
        return MB_ESYNTAX;
    }
    uint64_t v[5];
    for (int f = 1; f <= 4; f++) {
        uint64_t max = f == 4 ? UINT64_MAX : (uint64_t)LONG_MAX;
        int rc = parse_number_field(line + start[f], end[f] - start[f], f, f == 4 ? 0 : 1, max,
                                    &v[f], err, errlen);
        if (rc) return rc;
    }
    g->game = (long)v[1];
    g->pairing = (long)v[2];
    g->index = (long)v[3];
    g->seed = v[4];

    static const char *const player_label[2] = {"field 6 (O)", "field 7 (X)"};
    size_t n;
    for (int side = 0; side < 2; side++) {
        int f = 5 + side;
        const char *label = player_label[side];
        int rc = unescape(line + start[f], end[f] - start[f], start[f], label, g->player[side],
                          sizeof g->player[side], &n, err, errlen);
        if (rc) return rc;
        if (n == 0) {
            seterr(err, errlen, "%s: the player's name is empty", label);
            return MB_ESYNTAX;
        }
    }
    int rc = MB_OK;
    if (moves) {
        rc = unescape(line + start[7], end[7] - start[7], start[7], "field 8 (MOVES)", g->moves,
                      sizeof g->moves, &n, err, errlen);
        if (rc) return rc;
        rc = check_moves(g->moves, n, err, errlen);
        if (rc) return rc;
    } else {
        g->moves[0] = '\0';
    }

    size_t rlen = end[8] - start[8];
    const char *r = line + start[8];
    if (!((rlen == 1 && (r[0] == 'o' || r[0] == 'x')) || (rlen == 4 && !memcmp(r, "draw", 4)))) {
        seterr(err, errlen, "field 9 (RESULT): %s is not \"o\", \"x\" or \"draw\"",
               quote(r, rlen, q));
        return MB_ESYNTAX;
    }
    memcpy(g->result, r, rlen);
    g->result[rlen] = '\0';

    return unescape(line + start[9], end[9] - start[9], start[9], "field 10 (REASON)", g->reason,
                    sizeof g->reason, &n, err, errlen);
}

bool journal_game_equal(const JournalGame *a, const JournalGame *b)
{
    return a->game == b->game && a->pairing == b->pairing && a->index == b->index &&
           a->seed == b->seed && strcmp(a->player[0], b->player[0]) == 0 &&
           strcmp(a->player[1], b->player[1]) == 0 && strcmp(a->moves, b->moves) == 0 &&
           strcmp(a->result, b->result) == 0 && strcmp(a->reason, b->reason) == 0;
}

int journal_parse_game(const char *line, size_t len, JournalGame *g, char *err, size_t errlen)
{
    /* every field is written on success (strings NUL-terminated), so only
     * a failure clears the struct, not every call: it is 10 KB */
    int rc = parse_game(line, len, g, true, err, errlen);
    if (rc != MB_OK) memset(g, 0, sizeof *g); /* nothing half-parsed */
    return rc;
}

int journal_parse_result(const char *line, size_t len, JournalGame *g, char *err, size_t errlen)
{
    int rc = parse_game(line, len, g, false, err, errlen);
    if (rc != MB_OK) memset(g, 0, sizeof *g);
    return rc;
}

/* Append s escaped (at most max bytes of it: the array it lives in) at
 * out[*used]; false when it does not fit. */
static bool put_escaped(const char *s, size_t max, char *out, size_t outsize, size_t *used)
{
    size_t n = strnlen(s, max);
    for (size_t i = 0; i < n; i++) {
        char e = 0;
        switch (s[i]) {
        case '\\': e = '\\'; break;
        case '\t': e = 't'; break;
        case '\n': e = 'n'; break;
        case '\r': e = 'r'; break;
        default: break;
        }
        if (*used + (e ? 2 : 1) >= outsize) return false;
        if (e) {
            out[(*used)++] = '\\';
            out[(*used)++] = e;
        } else {
            out[(*used)++] = s[i];
        }
    }
    return true;
}

static bool put_raw(const char *s, char *out, size_t outsize, size_t *used)
{
    size_t n = strlen(s);
    if (*used + n >= outsize) return false;
    memcpy(out + *used, s, n);
    *used += n;
    return true;
}

int journal_format_game(const JournalGame *g, char *out, size_t outsize)
{
    if (outsize == 0) return -1;
    char nums[96];
    snprintf(nums, sizeof nums, "G\t%ld\t%ld\t%ld\t%llu\t", g->game, g->pairing, g->index,
             (unsigned long long)g->seed);
    size_t used = 0;
    bool ok = put_raw(nums, out, outsize, &used) &&
              put_escaped(g->player[0], sizeof g->player[0], out, outsize, &used) &&
              put_raw("\t", out, outsize, &used) &&
              put_escaped(g->player[1], sizeof g->player[1], out, outsize, &used) &&
              put_raw("\t", out, outsize, &used) &&
              put_escaped(g->moves, sizeof g->moves, out, outsize, &used) &&
              put_raw("\t", out, outsize, &used) &&
              put_escaped(g->result, sizeof g->result, out, outsize, &used) &&
              put_raw("\t", out, outsize, &used) &&
              put_escaped(g->reason, sizeof g->reason, out, outsize, &used) &&
              put_raw("\n", out, outsize, &used);
    if (!ok) {
        out[0] = '\0';
        return -1;
    }
    out[used] = '\0';
    return (int)used;
}

/* ---- Player specifications ---- */

static bool is_ident_start(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Length of the longest prefix of s[0..n) of the form digits [. digits]
 * (at least one digit in all), or 0. */
static size_t decimal_mantissa(const char *s, size_t n)
{
    size_t i = 0, digits = 0;
    while (i < n && is_digit(s[i])) i++, digits++;
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && is_digit(s[i])) i++, digits++;
    }
    return digits ? i : 0;
}

/* True if s[0..n) is a decimal number: [sign] mantissa [e|E [sign] digits]. */
static bool is_decimal_number(const char *s, size_t n)
{
    size_t i = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    size_t m = decimal_mantissa(s + i, n - i);
    if (m == 0) return false;
    i += m;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        size_t d = 0;
        while (i < n && is_digit(s[i])) i++, d++;
        if (d == 0) return false;
    }
    return i == n;
}

/* strtod on a checked decimal text, whatever the locale's decimal point. */
static double decimal_value(const char *s, int *erange)
{
    char buf[PLAYERSPEC_VALUE_MAX + 8];
    const char *point = localeconv()->decimal_point;
    const char *text = s;
    const char *dot = strchr(s, '.');
    if (dot && point && strcmp(point, ".") != 0 && strlen(s) + strlen(point) < sizeof buf) {
        size_t pre = (size_t)(dot - s);
        memcpy(buf, s, pre);
        strcpy(buf + pre, point);
        strcat(buf, dot + 1);
        text = buf;
    }
    errno = 0;
    double d = strtod(text, NULL);
    *erange = errno == ERANGE && isinf(d);
    return d;
}

/* Classify and convert one value (already copied to p->s). */
static int param_value(PlayerParam *p, int k, char *err, size_t errlen)
{
    const char *s = p->s;
    size_t n = strlen(s);
    char q[QUOTE_SIZE];
    if (!strcmp(s, "true") || !strcmp(s, "false")) {
        p->type = PARAM_BOOL;
        p->b = s[0] == 't';
        return MB_OK;
    }
    size_t sign = (s[0] == '+' || s[0] == '-') ? 1 : 0;
    bool all_digits = n > sign;
    for (size_t i = sign; i < n && all_digits; i++) all_digits = is_digit(s[i]);
    if (all_digits) {
        uint64_t mag;
        uint64_t limit = s[0] == '-' ? (uint64_t)LLONG_MAX + 1 : (uint64_t)LLONG_MAX;
        if (parse_decimal(s + sign, n - sign, limit, &mag) != MB_OK) {
            seterr(err, errlen, "parameter %d (%s): the integer %s does not fit in 64 bits", k,
                   p->key, quote(s, n, q));
            return MB_ERANGE;
        }
        p->type = PARAM_INT;
        p->i = s[0] == '-' ? (mag == (uint64_t)LLONG_MAX + 1 ? LLONG_MIN : -(long long)mag)
                           : (long long)mag;
        return MB_OK;
    }
    if (is_decimal_number(s, n)) {
        int erange;
        double d = decimal_value(s, &erange);
        if (erange || !isfinite(d)) {
            seterr(err, errlen, "parameter %d (%s): the number %s is too large for a double", k,
                   p->key, quote(s, n, q));
            return MB_ERANGE;
        }
        p->type = PARAM_NUMBER;
        p->d = d;
        return MB_OK;
    }
    p->type = PARAM_STRING;
    return MB_OK;
}

/* Parse one "key=value" item s[0..n), parameter number k (1-based). */
static int parse_param(const char *s, size_t n, int k, PlayerParam *p, char *err, size_t errlen)
{
    char q[QUOTE_SIZE];
    if (n == 0) {
        seterr(err, errlen, "parameter %d is empty (two commas, or a comma at the end)", k);
        return MB_ESYNTAX;
    }
    const char *eq = memchr(s, '=', n);
    if (!eq) {
        seterr(err, errlen, "parameter %d %s: expected key=value", k, quote(s, n, q));
        return MB_ESYNTAX;
    }
    size_t klen = (size_t)(eq - s), vlen = n - klen - 1;
    if (klen == 0) {
        seterr(err, errlen, "parameter %d %s: the key before '=' is empty", k, quote(s, n, q));
        return MB_ESYNTAX;
    }
    bool ident = is_ident_start(s[0]);
    for (size_t i = 1; i < klen && ident; i++) ident = is_ident_start(s[i]) || is_digit(s[i]);
    if (!ident) {
        seterr(err, errlen,
               "parameter %d: the key %s is not an identifier (a letter or _, then letters, "
               "digits or _)",
               k, quote(s, klen, q));
        return MB_ESYNTAX;
    }
    if (klen >= PLAYERSPEC_KEY_MAX) {
        seterr(err, errlen, "parameter %d: the key %s is longer than %d bytes", k,
               quote(s, klen, q), PLAYERSPEC_KEY_MAX - 1);
        return MB_ERANGE;
    }
    memcpy(p->key, s, klen);
    p->key[klen] = '\0';
    if (vlen == 0) {
        seterr(err, errlen, "parameter %d (%s): the value after '=' is empty", k, p->key);
        return MB_ESYNTAX;
    }
    if (vlen >= PLAYERSPEC_VALUE_MAX) {
        seterr(err, errlen, "parameter %d (%s): the value is longer than %d bytes", k, p->key,
               PLAYERSPEC_VALUE_MAX - 1);
        return MB_ERANGE;
    }
    memcpy(p->s, eq + 1, vlen);
    p->s[vlen] = '\0';
    return param_value(p, k, err, errlen);
}

/* Where a spec's parameters start: the first ':' followed by key=, so
 * that a value may hold '/' and ':' ("brain:/bin/x:log=/tmp/x.log"); with
 * none, the first ':' after the name's last '/' (then the parameters'
 * own errors say what is wrong with them); NULL without parameters. */
static const char *params_colon(const char *text)
{
    for (const char *c = strchr(text, ':'); c; c = strchr(c + 1, ':')) {
        const char *p = c + 1;
        if (!is_ident_start(*p)) continue;
        while (is_ident_start(*p) || is_digit(*p)) p++;
        if (*p == '=') return c;
    }
    const char *slash = strrchr(text, '/');
    return strchr(slash ? slash : text, ':');
}

static int parse_spec(const char *text, PlayerSpec *out, char *err, size_t errlen)
{
    const char *colon = params_colon(text);
    size_t nlen = colon ? (size_t)(colon - text) : strlen(text);
    char q[QUOTE_SIZE];
    if (nlen == 0) {
        seterr(err, errlen, "the player's name is empty (expected NAME or NAME:key=value,...)");
        return MB_ESYNTAX;
    }
    if (nlen >= JOURNAL_NAME_MAX) {
        seterr(err, errlen, "the player's name %s is longer than %d bytes", quote(text, nlen, q),
               JOURNAL_NAME_MAX - 1);
        return MB_ERANGE;
    }
    memcpy(out->name, text, nlen);
    out->name[nlen] = '\0';
    if (!colon) return MB_OK;
    const char *p = colon + 1;
    if (*p == '\0') {
        seterr(err, errlen, "nothing after ':' (expected %s:key=value,...)", out->name);
        return MB_ESYNTAX;
    }
    for (int k = 1;; k++) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (k > PLAYERSPEC_MAX_PARAMS) {
            seterr(err, errlen, "more than %d parameters", PLAYERSPEC_MAX_PARAMS);
            return MB_ERANGE;
        }
        PlayerParam *param = &out->params[k - 1];
        int rc = parse_param(p, n, k, param, err, errlen);
        if (rc) return rc;
        for (int j = 0; j < k - 1; j++) {
            if (!strcmp(out->params[j].key, param->key)) {
                seterr(err, errlen,
                       "parameter %d: the key \"%s\" is given twice (also parameter %d)", k,
                       param->key, j + 1);
                return MB_ESYNTAX;
            }
        }
        out->nparams = k;
        if (!comma) return MB_OK;
        p = comma + 1;
    }
}

int playerspec_parse(const char *text, PlayerSpec *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    int rc = parse_spec(text, out, err, errlen);
    if (rc != MB_OK) memset(out, 0, sizeof *out); /* nothing half-parsed */
    return rc;
}
