/* notation.c: text form, keys, Excel coordinates, typed coordinates and the
 * checked move's messages (see notation.h). */
#include "notation.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "mberror.h"

/* ---- Positions ---- */

size_t notation_text_size(const Geometry *g)
{
    return sizeof "winner playing\n" + (size_t)(g->width + 1) * (size_t)g->height;
}

size_t notation_text(const Game *g, char *buf)
{
    const Geometry *geo = game_geom(g);
    char *p = buf;
    if (g->status == STATUS_PLAYING)
        p += sprintf(p, "Turn %c\n", board_mark_char(g->turn));
    else
        p += sprintf(p, "winner %s\n", status_name(g->status));
    for (int y = 0; y < geo->height; y++) {
        for (int x = 0; x < geo->width; x++) {
            int m = geometry_xy_to_move(geo, x, y);
            char c = board_mark_char(game_get(g, m));
            *p++ = m == g->last_move ? (char)toupper((unsigned char)c) : c;
        }
        *p++ = '\n';
    }
    *p = '\0';
    return (size_t)(p - buf);
}

void notation_key(const Game *g, char *buf) { board_key(&g->board, buf); }

/* ---- Excel coordinates ---- */

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

/* Parse Excel coordinates in s[0..len). */
static int excel_parse_n(const char *s, size_t len, int *x, int *y)
{
    while (len && (*s == ' ' || *s == '\t')) s++, len--;
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t')) len--;
    size_t i = 0;
    long col = 0, row = 0;
    /* columns are bijective base 26: A..Z, AA..AZ, BA.. */
    while (i < len && isalpha((unsigned char)s[i]) && col <= 100000)
        col = col * 26 + (toupper((unsigned char)s[i++]) - 'A' + 1);
    if (i == 0 || i == len || s[i] == '0') return MB_ESYNTAX;
    while (i < len && isdigit((unsigned char)s[i]) && row <= 100000)
        row = row * 10 + (s[i++] - '0');
    if (i != len || col > 100000 || row > 100000) return MB_ESYNTAX;
    *x = (int)col - 1;
    *y = (int)row - 1;
    return MB_OK;
}

int notation_excel_parse(const char *s, int *x, int *y)
{
    return excel_parse_n(s, strlen(s), x, y);
}

void notation_excel_format(int x, int y, char *buf)
{
    char rev[8];
    int n = 0;
    for (int c = x + 1; c > 0 && n < 7; c = (c - 1) / 26) rev[n++] = (char)('A' + (c - 1) % 26);
    for (int i = 0; i < n; i++) buf[i] = rev[n - 1 - i];
    snprintf(buf + n, 16 - (size_t)n, "%d", y + 1);
}

int notation_parse_moves(const Geometry *g, const char *text, int *moves, int cap, int *n, int *bad)
{
    *n = 0;
    *bad = 0;
    if (*skip_blanks(text) == '\0') return MB_OK; /* "" is no moves, not one empty item */
    for (const char *p = text;; p++) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        int x, y;
        *bad = *n;
        if (excel_parse_n(p, len, &x, &y) != MB_OK) return MB_ESYNTAX;
        if (!geometry_on_board(g, x, y)) return MB_ERANGE;
        if (*n >= cap) return MB_EINVAL;
        moves[(*n)++] = geometry_xy_to_move(g, x, y);
        if (!end) return MB_OK;
        p = end;
    }
}

int notation_format_moves(const Geometry *g, const int *moves, int n, char *buf, size_t len)
{
    size_t used = 0;
    if (len == 0) return -1;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        int x, y;
        char one[16];
        geometry_move_to_xy(g, moves[i], &x, &y);
        notation_excel_format(x, y, one);
        int w = snprintf(buf + used, len - used, "%s%s", i ? "," : "", one);
        if (w < 0 || (size_t)w >= len - used) return -1;
        used += (size_t)w;
    }
    return (int)used;
}

/* ---- Typed coordinates ---- */

/* Length of a blank at s (Python's str.strip() set, ASCII part, plus the
 * ideographic space U+3000 a Japanese keyboard types), or 0. */
static int blank_len(const unsigned char *s)
{
    if (*s == ' ' || (*s >= '\t' && *s <= '\r') || (*s >= 0x1c && *s <= 0x1f)) return 1;
    if (s[0] == 0xe3 && s[1] == 0x80 && s[2] == 0x80) return 3;
    return 0;
}

/* The value of a decimal digit at s, ASCII or full-width (U+FF10..U+FF19),
 * with its length in *len; -1 if none. */
static int digit_at(const unsigned char *s, int *len)
{
    if (*s >= '0' && *s <= '9') {
        *len = 1;
        return *s - '0';
    }
    if (s[0] == 0xef && s[1] == 0xbc && s[2] >= 0x90 && s[2] <= 0x99) {
        *len = 3;
        return s[2] - 0x90;
    }
    return -1;
}

int notation_parse_int(const char *text, IntText *out)
{
    const unsigned char *s = (const unsigned char *)text;
    int n, len;
    char digits[sizeof out->digits - 1]; /* room for a sign */
    size_t nd = 0, total = 0;
    bool neg = false;
    while ((n = blank_len(s)) > 0) s += n;
    if (*s == '+' || *s == '-') neg = *s++ == '-';
    if (digit_at(s, &len) < 0) return MB_ENOTINT;
    long long value = 0;
    for (;;) {
        int d = digit_at(s, &len);
        if (d < 0) break;
        s += len;
        if (nd > 0 || d > 0) { /* leading zeros are dropped */
            if (nd < sizeof digits - 5) digits[nd++] = (char)('0' + d);
            total++;
            value = value < 100000000000000000LL ? value * 10 + d : 1000000000000000000LL;
        }
        if (*s == '_') { /* one underscore, then a digit */
            if (digit_at(s + 1, &len) < 0) return MB_ENOTINT;
            s++;
        }
    }
    while ((n = blank_len(s)) > 0) s += n;
    if (*s) return MB_ENOTINT;
    if (nd == 0) digits[nd++] = '0', neg = false; /* int("-0") is 0 */
    if (total > nd) memcpy(digits + nd, "...", 3), nd += 3;
    digits[nd] = '\0';
    out->value = neg ? -value : value;
    snprintf(out->digits, sizeof out->digits, "%s%s", neg ? "-" : "", digits);
    return MB_OK;
}

void notation_message(int err, const char *xs, const char *ys, Lang lang, char *msg, size_t msglen)
{
    bool ja = lang == LANG_JA;
    switch (err) {
    case MB_ENOTINT:
        snprintf(msg, msglen, "%s",
                 ja ? "整数の座標を入力して下さい" : "Please enter integer coordinates");
        break;
    case MB_ERANGE:
        snprintf(msg, msglen, "( %s , %s ) %s", xs, ys,
                 ja ? "はゲーム盤の範囲外の座標です" : "is outside the board");
        break;
    case MB_EOCCUPIED:
        snprintf(msg, msglen, "( %s , %s ) %s", xs, ys,
                 ja ? "のマスにはマークが配置済です" : "is already occupied");
        break;
    case MB_EEMPTY:
        snprintf(msg, msglen, "( %s , %s ) %s", xs, ys,
                 ja ? "のマスにはマークがありません" : "has no mark");
        break;
    case MB_EOVER:
        snprintf(msg, msglen, "%s", ja ? "ゲームは既に終了しています" : "The game is already over");
        break;
    default: snprintf(msg, msglen, "%s", mb_strerror(err)); break;
    }
}

int notation_cmove(Game *g, const char *xs, const char *ys, Lang lang, char *msg, size_t msglen)
{
    IntText x = {0}, y = {0};
    int rc = MB_OK;
    if (notation_parse_int(xs, &x) || notation_parse_int(ys, &y))
        rc = MB_ENOTINT;
    else if (g->status != STATUS_PLAYING)
        rc = MB_EOVER;
    else if (x.value < 0 || y.value < 0 || x.value >= MB_MAX_SIDE || y.value >= MB_MAX_SIDE)
        rc = MB_ERANGE;
    else
        rc = game_cmove(g, (int)x.value, (int)y.value);
    if (rc) notation_message(rc, x.digits, y.digits, lang, msg, msglen);
    return rc;
}
