/* gomocup.h: the text lines of the Gomocup (Piskvork) protocol, both ways.
 *
 * The protocol (Petr Lastovicka's "new protocol" of the Piskvork manager)
 * joins a manager and a "brain" by two pipes, one line per message. The
 * manager sends commands: START N, RECTSTART W,H, RESTART, BEGIN, TURN X,Y,
 * BOARD (then lines X,Y,FIELD and DONE), TAKEBACK X,Y, INFO KEY VALUE, END,
 * ABOUT. The brain answers with a move "X,Y", OK, ERROR text, UNKNOWN text,
 * and may interleave MESSAGE text and DEBUG text lines (and SUGGEST X,Y).
 * Coordinates are 0-based, X the column and Y the row; the engine's move is
 * y + x*height (geometry.h).
 *
 * This unit only reads and writes lines: it owns no process, no clock and
 * no game. Readers accept any case, surrounding blanks and a final "\r";
 * writers produce the canonical upper-case form, and what a writer makes a
 * reader reads back to the same value (the fuzz target checks it). Lines
 * longer than GOMOCUP_LINE_MAX are refused, never cut silently.
 * Uses mberror.h only. */
#ifndef MB_GOMOCUP_H
#define MB_GOMOCUP_H

#include <stdbool.h>
#include <stddef.h>

#define GOMOCUP_LINE_MAX  4096 /* longest line read or written, without "\n" */
#define GOMOCUP_COORD_MAX 9999 /* coordinates read: 0 .. this */
#define GOMOCUP_KEY_MAX   32   /* INFO keys, NUL included */
#define GOMOCUP_TEXT_MAX  512  /* INFO values and answer texts, NUL included */

/* ---- Commands (manager to brain) ---- */

typedef enum GomocupCommandKind {
    GC_EMPTY,     /* a blank line: ignored by both sides */
    GC_START,     /* START N: x = y = N */
    GC_RECTSTART, /* RECTSTART W,H: x = W, y = H */
    GC_RESTART,
    GC_BEGIN,
    GC_TURN,     /* TURN X,Y: the opponent's move */
    GC_BOARD,    /* BOARD: stone lines follow until DONE */
    GC_TAKEBACK, /* TAKEBACK X,Y */
    GC_INFO,     /* INFO KEY VALUE: key, value (and ivalue if has_int) */
    GC_END,
    GC_ABOUT,
    GC_UNKNOWN /* any other word: word holds it (for "UNKNOWN word") */
} GomocupCommandKind;

typedef struct GomocupCommand {
    GomocupCommandKind kind;
    int x, y;
    char key[GOMOCUP_KEY_MAX];    /* GC_INFO: lower case */
    char value[GOMOCUP_TEXT_MAX]; /* GC_INFO: the rest of the line, trimmed */
    bool has_int;                 /* GC_INFO: value is a decimal integer */
    long long ivalue;
    char word[GOMOCUP_KEY_MAX]; /* GC_UNKNOWN: the first word (cut to fit) */
} GomocupCommand;

/* One stone line of a BOARD block: X,Y,FIELD (1 own stone, 2 the
 * opponent's, 3 a stone of a continuous game's winning line). */
typedef struct GomocupStone {
    int x, y, field;
} GomocupStone;

/* Parse one command line (len bytes, no NUL needed). MB_OK with *out set
 * (GC_UNKNOWN for an unknown word: the protocol answers UNKNOWN, not an
 * error); MB_ESYNTAX for a known command with bad arguments ("TURN 3",
 * "START x"), MB_ERANGE for numbers past GOMOCUP_COORD_MAX or an INFO value
 * too long, with a message in err. *out is zeroed first. */
int gomocup_parse_command(const char *line, size_t len, GomocupCommand *out, char *err,
                          size_t errlen);
/* Parse one line inside a BOARD block: a stone (MB_OK, *done false) or
 * DONE (MB_OK, *done true); MB_ESYNTAX / MB_ERANGE with a message. */
int gomocup_parse_stone(const char *line, size_t len, GomocupStone *s, bool *done, char *err,
                        size_t errlen);
/* Write a command as its canonical line (no "\n") into buf of n bytes;
 * returns the length it needs (like snprintf; n may be 0), or -1 for a
 * kind that has no line (GC_EMPTY, GC_UNKNOWN with no word) or an INFO
 * key or value holding a line break. */
int gomocup_format_command(const GomocupCommand *c, char *buf, size_t n);

/* ---- Answers (brain to manager) ---- */

typedef enum GomocupAnswerKind {
    GA_EMPTY, /* a blank line: managers ignore it */
    GA_MOVE,  /* X,Y */
    GA_OK,
    GA_ERROR,   /* ERROR [text] */
    GA_UNKNOWN, /* UNKNOWN [text] */
    GA_MESSAGE, /* MESSAGE [text]: shown to people */
    GA_DEBUG,   /* DEBUG [text]: shown to people who asked for it */
    GA_SUGGEST  /* SUGGEST X,Y: a swap suggestion (read, not acted on) */
} GomocupAnswerKind;

typedef struct GomocupAnswer {
    GomocupAnswerKind kind;
    int x, y;
    char text[GOMOCUP_TEXT_MAX]; /* ERROR, UNKNOWN, MESSAGE, DEBUG: trimmed */
} GomocupAnswer;

/* Parse one answer line. MB_OK with *out set; MB_ESYNTAX for anything
 * else (the manager's "unreadable output"), MB_ERANGE for coordinates past
 * GOMOCUP_COORD_MAX or a text too long; err says what was wrong. *out is
 * zeroed first. */
int gomocup_parse_answer(const char *line, size_t len, GomocupAnswer *out, char *err,
                         size_t errlen);
/* Write an answer as its canonical line (no "\n"); line breaks in the
 * text become blanks, so one answer is always one line. Returns the
 * length needed like snprintf, or -1 for GA_EMPTY. */
int gomocup_format_answer(const GomocupAnswer *a, char *buf, size_t n);

/* ---- Names ---- */

/* The command word of a kind ("START", ...; "" for GC_EMPTY/GC_UNKNOWN). */
const char *gomocup_command_name(GomocupCommandKind kind);
/* INFO rule bits: 1 exactly five, 2 continuous game, 4 renju. */
enum { GOMOCUP_RULE_EXACT = 1, GOMOCUP_RULE_CONTINUOUS = 2, GOMOCUP_RULE_RENJU = 4 };

#endif
