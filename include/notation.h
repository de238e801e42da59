/* notation.h: positions and moves as text, both ways.
 *
 * Owns the series' text form (a header line, then one line per row, the last
 * move upper-cased), the board key, Excel coordinates ("A1" = (0, 0); columns
 * A..Z, AA, AB, ... past Z, rows 1, 2, ... 10 and beyond; case-insensitive),
 * comma-separated move lists ("A1,B2,C3"; "" is no moves), Python int()
 * parsing of typed coordinates, and the messages of the checked move.
 *
 * Messages: Japanese by default, byte for byte the series' wording; English
 * on request (LANG_EN). The wording of both is in notation.c and in
 * docs/engine.md. Uses game.h. */
#ifndef MB_NOTATION_H
#define MB_NOTATION_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"

typedef enum Lang { LANG_JA, LANG_EN } Lang;

/* ---- Positions ---- */

/* Bytes the text form of a game of this shape needs, NUL included. */
size_t notation_text_size(const Geometry *g);
/* The text form ("Turn o\n...\n" or "winner x\n..."); returns its length.
 * buf must hold notation_text_size() bytes. */
size_t notation_text(const Game *g, char *buf);
/* The board key (board_to_str): ncells characters in move order + NUL. */
void notation_key(const Game *g, char *buf);

/* ---- Excel coordinates and move lists ---- */

/* Parse "B2" (any case, surrounding blanks allowed) into (x, y); MB_OK or
 * MB_ESYNTAX. Does not check the board's size. */
int notation_excel_parse(const char *s, int *x, int *y);
/* Write (x, y) as "B2"; buf needs 16 bytes. */
void notation_excel_format(int x, int y, char *buf);
/* Parse a comma-separated Excel move list into moves (capacity cap). On
 * failure returns MB_ESYNTAX or MB_ERANGE (square off this board) or
 * MB_EINVAL (more than cap moves), with *bad the 0-based item number. */
int notation_parse_moves(const Geometry *g, const char *text, int *moves, int cap, int *n,
                         int *bad);
/* Write moves as "A1,B2"; returns the length, or -1 if it does not fit. */
int notation_format_moves(const Geometry *g, const int *moves, int n, char *buf, size_t len);

/* ---- Typed coordinates ---- */

/* A coordinate as Python's int() reads it: blanks around, an optional sign,
 * decimal digits with single '_' between them; full-width digits and the
 * ideographic space are accepted too. `digits` is str(int(text)). */
typedef struct IntText {
    long long value; /* clamped to +-10^18 when huge */
    char digits[48]; /* canonical decimal form, e.g. "-12"; "..." cut when huge */
} IntText;

/* MB_OK or MB_ENOTINT. */
int notation_parse_int(const char *text, IntText *out);
/* The checked move with typed text (cmove("1", "2")): converts both, then
 * game_cmove. Returns its status; on failure writes the series' message to
 * msg (one line, no newline) and changes nothing. */
int notation_cmove(Game *g, const char *xs, const char *ys, Lang lang, char *msg, size_t msglen);
/* The message of a checked-move failure for coordinates shown as xs, ys. */
void notation_message(int err, const char *xs, const char *ys, Lang lang, char *msg, size_t msglen);

#endif
