/* gomocup.c: reading and writing the lines of the Gomocup protocol
 * (gomocup.h). A line is handled as (pointer, length): it may hold NUL
 * bytes (refused as text) and needs no terminator. */
#include "gomocup.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mberror.h"

/* ---- small text helpers ---- */

static int fail(int code, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(int code, char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
static char upper(char c) { return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c; }
static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* A view of part of a line. */
typedef struct Span {
    const char *p;
    size_t n;
} Span;

static Span trim(Span s)
{
    while (s.n && blank(s.p[0])) s.p++, s.n--;
    while (s.n && blank(s.p[s.n - 1])) s.n--;
    return s;
}

/* Split off the first word (up to a blank); rest is trimmed. */
static Span first_word(Span s, Span *rest)
{
    size_t i = 0;
    while (i < s.n && !blank(s.p[i])) i++;
    *rest = trim((Span){s.p + i, s.n - i});
    return (Span){s.p, i};
}

/* Does the word equal `name` (upper case), ignoring case? */
static bool word_is(Span w, const char *name)
{
    size_t n = strlen(name);
    if (w.n != n) return false;
    for (size_t i = 0; i < n; i++)
        if (upper(w.p[i]) != name[i]) return false;
    return true;
}

/* The checks every reader makes first: length, then the trimmed text
 * without NUL bytes into *s. */
static int open_line(const char *line, size_t len, Span *s, char *err, size_t errlen)
{
    if (len > GOMOCUP_LINE_MAX)
        return fail(MB_ERANGE, err, errlen, "line longer than %d bytes", GOMOCUP_LINE_MAX);
    *s = trim((Span){line, len});
    if (memchr(s->p, '\0', s->n)) return fail(MB_ESYNTAX, err, errlen, "a NUL byte in the line");
    return MB_OK;
}

/* Parse a list of `count` non-negative integers separated by commas (blanks
 * allowed around them) filling out[]; the whole span must be used. */
static int parse_ints(Span s, int count, int *out, char *err, size_t errlen, const char *what)
{
    size_t i = 0;
    for (int k = 0; k < count; k++) {
        while (i < s.n && blank(s.p[i])) i++;
        if (i == s.n || s.p[i] < '0' || s.p[i] > '9')
            return fail(MB_ESYNTAX, err, errlen, "%s: expected %d comma-separated numbers", what,
                        count);
        long v = 0;
        while (i < s.n && s.p[i] >= '0' && s.p[i] <= '9') {
            v = v * 10 + (s.p[i++] - '0');
            if (v > GOMOCUP_COORD_MAX)
                return fail(MB_ERANGE, err, errlen, "%s: number above %d", what, GOMOCUP_COORD_MAX);
        }
        out[k] = (int)v;
        while (i < s.n && blank(s.p[i])) i++;
        if (k + 1 < count) {
            if (i == s.n || s.p[i] != ',')
                return fail(MB_ESYNTAX, err, errlen, "%s: expected %d comma-separated numbers",
                            what, count);
            i++;
        }
    }
    if (i != s.n)
        return fail(MB_ESYNTAX, err, errlen, "%s: unexpected text after the numbers", what);
    return MB_OK;
}

/* Copy a span into a fixed buffer, a lone "\r" or "\n" inside it made a
 * blank (a text is one line); false if it does not fit. */
static bool copy_text(char *dst, size_t cap, Span s)
{
    if (s.n >= cap) return false;
    for (size_t i = 0; i < s.n; i++) dst[i] = s.p[i] == '\r' || s.p[i] == '\n' ? ' ' : s.p[i];
    dst[s.n] = '\0';
    return true;
}

/* ---- commands ---- */

static const char *const command_names[] = {
    [GC_EMPTY] = "",          [GC_START] = "START",       [GC_RECTSTART] = "RECTSTART",
    [GC_RESTART] = "RESTART", [GC_BEGIN] = "BEGIN",       [GC_TURN] = "TURN",
    [GC_BOARD] = "BOARD",     [GC_TAKEBACK] = "TAKEBACK", [GC_INFO] = "INFO",
    [GC_END] = "END",         [GC_ABOUT] = "ABOUT",       [GC_UNKNOWN] = "",
};

const char *gomocup_command_name(GomocupCommandKind kind)
{
    return (unsigned)kind <= GC_UNKNOWN ? command_names[kind] : "";
}

/* An INFO line's key and value. */
static int parse_info(Span rest, GomocupCommand *out, char *err, size_t errlen)
{
    Span value;
    Span key = first_word(rest, &value);
    if (key.n == 0) return fail(MB_ESYNTAX, err, errlen, "INFO: a key is needed");
    if (key.n >= GOMOCUP_KEY_MAX) return fail(MB_ERANGE, err, errlen, "INFO: key too long");
    for (size_t i = 0; i < key.n; i++) {
        char c = lower(key.p[i]);
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return fail(MB_ESYNTAX, err, errlen, "INFO: the key must be letters, digits and '_'");
        out->key[i] = c;
    }
    if (!copy_text(out->value, sizeof out->value, value))
        return fail(MB_ERANGE, err, errlen, "INFO %s: value too long", out->key);
    /* a decimal integer value (time_left may be negative) */
    size_t i = value.n && (value.p[0] == '-' || value.p[0] == '+');
    bool digits = i < value.n;
    long long v = 0;
    for (size_t j = i; j < value.n && digits; j++) {
        if (value.p[j] < '0' || value.p[j] > '9' || v > 99999999999999LL)
            digits = false;
        else
            v = v * 10 + (value.p[j] - '0');
    }
    if (digits) {
        out->has_int = true;
        out->ivalue = value.p[0] == '-' ? -v : v;
    }
    return MB_OK;
}

int gomocup_parse_command(const char *line, size_t len, GomocupCommand *out, char *err,
                          size_t errlen)
{
    memset(out, 0, sizeof *out);
    Span s;
    int rc = open_line(line, len, &s, err, errlen);
    if (rc != MB_OK) return rc;
    if (s.n == 0) {
        out->kind = GC_EMPTY;
        return MB_OK;
    }
    Span rest;
    Span w = first_word(s, &rest);
    int v[2];
    for (int k = GC_START; k < GC_UNKNOWN; k++) {
        if (!word_is(w, command_names[k])) continue;
        out->kind = (GomocupCommandKind)k;
        switch (k) {
        case GC_START:
            if ((rc = parse_ints(rest, 1, v, err, errlen, "START")) != MB_OK) return rc;
            out->x = out->y = v[0];
            return MB_OK;
        case GC_RECTSTART:
        case GC_TURN:
        case GC_TAKEBACK:
            if ((rc = parse_ints(rest, 2, v, err, errlen, command_names[k])) != MB_OK) return rc;
            out->x = v[0];
            out->y = v[1];
            return MB_OK;
        case GC_INFO: return parse_info(rest, out, err, errlen);
        default:
            /* words without arguments: anything after them is ignored, as
               managers add nothing there */
            return MB_OK;
        }
    }
    out->kind = GC_UNKNOWN;
    size_t n = w.n < GOMOCUP_KEY_MAX - 1 ? w.n : GOMOCUP_KEY_MAX - 1;
    for (size_t i = 0; i < n; i++) out->word[i] = (unsigned char)w.p[i] < 32 ? '?' : w.p[i];
    return MB_OK;
}

int gomocup_parse_stone(const char *line, size_t len, GomocupStone *s, bool *done, char *err,
                        size_t errlen)
{
    memset(s, 0, sizeof *s);
    *done = false;
    Span t;
    int rc = open_line(line, len, &t, err, errlen);
    if (rc != MB_OK) return rc;
    if (word_is(t, "DONE")) {
        *done = true;
        return MB_OK;
    }
    int v[3];
    rc = parse_ints(t, 3, v, err, errlen, "BOARD line");
    if (rc != MB_OK) return rc;
    if (v[2] < 1 || v[2] > 3)
        return fail(MB_ESYNTAX, err, errlen, "BOARD line: the field must be 1, 2 or 3");
    s->x = v[0];
    s->y = v[1];
    s->field = v[2];
    return MB_OK;
}

static bool has_break(const char *s) { return strpbrk(s, "\r\n") != NULL; }

int gomocup_format_command(const GomocupCommand *c, char *buf, size_t n)
{
    const char *name = gomocup_command_name(c->kind);
    switch (c->kind) {
    case GC_START: return snprintf(buf, n, "START %d", c->x);
    case GC_RECTSTART:
    case GC_TURN:
    case GC_TAKEBACK: return snprintf(buf, n, "%s %d,%d", name, c->x, c->y);
    case GC_INFO:
        if (!c->key[0] || has_break(c->key) || has_break(c->value) || strchr(c->key, ' '))
            return -1;
        return snprintf(buf, n, "INFO %s %s", c->key, c->value);
    case GC_RESTART:
    case GC_BEGIN:
    case GC_BOARD:
    case GC_END:
    case GC_ABOUT: return snprintf(buf, n, "%s", name);
    case GC_UNKNOWN:
        if (!c->word[0] || has_break(c->word)) return -1;
        return snprintf(buf, n, "%s", c->word);
    default: return -1;
    }
}

/* ---- answers ---- */

static const struct {
    const char *word;
    GomocupAnswerKind kind;
} answer_words[] = {
    {"OK", GA_OK},           {"ERROR", GA_ERROR}, {"UNKNOWN", GA_UNKNOWN},
    {"MESSAGE", GA_MESSAGE}, {"DEBUG", GA_DEBUG}, {"SUGGEST", GA_SUGGEST},
};

int gomocup_parse_answer(const char *line, size_t len, GomocupAnswer *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    Span s;
    int rc = open_line(line, len, &s, err, errlen);
    if (rc != MB_OK) return rc;
    if (s.n == 0) {
        out->kind = GA_EMPTY;
        return MB_OK;
    }
    if (s.p[0] >= '0' && s.p[0] <= '9') {
        int v[2];
        rc = parse_ints(s, 2, v, err, errlen, "move");
        if (rc != MB_OK) return rc;
        out->kind = GA_MOVE;
        out->x = v[0];
        out->y = v[1];
        return MB_OK;
    }
    Span rest;
    Span w = first_word(s, &rest);
    for (size_t i = 0; i < sizeof answer_words / sizeof answer_words[0]; i++) {
        if (!word_is(w, answer_words[i].word)) continue;
        out->kind = answer_words[i].kind;
        if (out->kind == GA_SUGGEST) {
            int v[2];
            rc = parse_ints(rest, 2, v, err, errlen, "SUGGEST");
            if (rc != MB_OK) return rc;
            out->x = v[0];
            out->y = v[1];
            return MB_OK;
        }
        if (out->kind == GA_OK) return MB_OK; /* "OK - everything is good" is fine */
        if (!copy_text(out->text, sizeof out->text, rest))
            return fail(MB_ERANGE, err, errlen, "%s: text longer than %d bytes",
                        answer_words[i].word, GOMOCUP_TEXT_MAX - 1);
        return MB_OK;
    }
    return fail(MB_ESYNTAX, err, errlen,
                "neither a move X,Y nor OK, ERROR, UNKNOWN, MESSAGE, DEBUG, SUGGEST");
}

int gomocup_format_answer(const GomocupAnswer *a, char *buf, size_t n)
{
    const char *word = NULL;
    for (size_t i = 0; i < sizeof answer_words / sizeof answer_words[0]; i++)
        if (answer_words[i].kind == a->kind) word = answer_words[i].word;
    int len;
    switch (a->kind) {
    case GA_MOVE: return snprintf(buf, n, "%d,%d", a->x, a->y);
    case GA_SUGGEST: return snprintf(buf, n, "SUGGEST %d,%d", a->x, a->y);
    case GA_OK: return snprintf(buf, n, "OK");
    case GA_ERROR:
    case GA_UNKNOWN:
    case GA_MESSAGE:
    case GA_DEBUG:
        /* text trimmed like the reader does, so the line reads back the same */
        {
            Span t = trim((Span){a->text, strnlen(a->text, sizeof a->text)});
            len = t.n ? snprintf(buf, n, "%s %.*s", word, (int)t.n, t.p)
                      : snprintf(buf, n, "%s", word);
        }
        if (len > 0 && n > 0) {
            size_t end = (size_t)len < n ? (size_t)len : n - 1;
            for (size_t i = 0; i < end; i++)
                if (buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\0') buf[i] = ' ';
        }
        return len;
    default: return -1;
    }
}
