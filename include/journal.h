/* journal.h: the text formats of tournaments: journal lines (one record per
 * line, written as games finish, read back by --resume, merge and replay)
 * and player specifications from the command line ("NAME:key=value,...").
 * Pure text in, text out: no files, no allocation. Uses mberror.h.
 *
 * A journal line is tab-separated fields, the first naming the record:
 *
 *   H <tab> marubatsu-journal <tab> 1          header, the first line
 *   T <tab> KEY <tab> VALUE                     a tournament setting
 *   P <tab> INDEX <tab> NAME <tab> SPEC         a player (INDEX from 1)
 *   G <tab> GAME <tab> PAIRING <tab> INDEX <tab> SEED <tab> O <tab> X
 *     <tab> MOVES <tab> RESULT <tab> REASON     a finished game
 *
 * GAME, PAIRING and INDEX are integers >= 1, SEED an unsigned 64-bit
 * decimal, O and X the names of the players of 〇 and ×, MOVES the moves
 * in Excel notation joined by commas (empty for none), RESULT "o", "x" or
 * "draw", REASON empty for a game played to its end, else why the loser
 * forfeited ("time", "error: ...", ...). Inside a field a backslash, tab,
 * newline and carriage return are written \\ \t \n \r; no other escapes
 * exist. A line ends with "\n" (a "\r\n" is accepted when reading).
 *
 * Reading is strict: a NUL byte, a raw newline or carriage return inside
 * the line, an unknown escape or a lone backslash at the end of a field is
 * an error. Messages name the field (1-based, with its name in G lines)
 * and the column (1-based byte offset in the line). docs/journal.md
 * describes the format for users. */
#ifndef MB_JOURNAL_H
#define MB_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JOURNAL_MAX_FIELDS 16
#define JOURNAL_NAME_MAX   256  /* bytes of a player name, NUL included */
#define JOURNAL_MOVES_MAX  8192 /* bytes of a move list, NUL included */
#define JOURNAL_REASON_MAX 1024 /* bytes of a reason, NUL included */
/* Bytes journal_format_game may need, NUL included (every text field
 * escaped at twice its length, plus the numbers and tabs). */
#define JOURNAL_LINE_MAX                                                                           \
    (2 * (2 * JOURNAL_NAME_MAX + JOURNAL_MOVES_MAX + JOURNAL_REASON_MAX + 8) + 128)

/* One finished game. */
typedef struct JournalGame {
    long game;    /* 1-based game number in the schedule */
    long pairing; /* 1-based pairing number */
    long index;   /* 1-based game index within the pairing */
    uint64_t seed;
    char player[2][JOURNAL_NAME_MAX]; /* [0] played 〇, [1] played × */
    char moves[JOURNAL_MOVES_MAX];    /* "B2,A1,..." or "" */
    char result[8];                   /* "o", "x" or "draw" */
    char reason[JOURNAL_REASON_MAX];  /* "" or the forfeit reason */
} JournalGame;

/* Split one line (len bytes, without or with its line end) into fields,
 * unescaping them into buf (bufsize bytes); fields[i] point into buf.
 * Returns the number of fields (>= 1) or -1 with a message in err: an
 * unknown escape, a lone backslash ending a field, a NUL byte, a raw
 * newline or carriage return before the line end, too many fields (> max)
 * or buf too small. bufsize >= len + 1 is always enough. An empty line is
 * one empty field. */
int journal_split(const char *line, size_t len, char **fields, int max, char *buf, size_t bufsize,
                  char *err, size_t errlen);

/* Write s escaped into out (size outsize, always NUL-terminated when
 * outsize > 0); returns the length the escaped text needs, excluding the
 * NUL, as snprintf does. A cut output ends before the first escape that
 * does not fit whole. */
size_t journal_escape(const char *s, char *out, size_t outsize);

/* Parse a G line into *g: MB_OK, or MB_ESYNTAX / MB_ERANGE with a message
 * in err naming the field. Checks the field count, the numbers' syntax and
 * ranges, the result, and the move list's syntax (Excel coordinates joined
 * by commas; whether they are legal is for the caller to check on a board).
 * Details: the numbers are plain decimal digits (no sign or blanks); GAME,
 * PAIRING and INDEX are 1 to LONG_MAX, SEED 0 to 2^64-1, else MB_ERANGE;
 * player names are non-empty; a move is letters then a row number, read by
 * notation_excel_parse (any case, no blanks); a field too long for its
 * array is MB_ERANGE. *g is zeroed first and again on failure, so it
 * never holds half a game and two parses of one line compare equal with
 * memcmp. */
int journal_parse_game(const char *line, size_t len, JournalGame *g, char *err, size_t errlen);

/* As journal_parse_game, without the move list: g->moves is left empty and
 * not checked. For tallying the results of lines already checked (about
 * twice as fast). */
int journal_parse_result(const char *line, size_t len, JournalGame *g, char *err, size_t errlen);

/* Do a and b hold the same game (numbers and texts; the bytes after each
 * text's NUL do not count: a parse writes only what it needs)? */
bool journal_game_equal(const JournalGame *a, const JournalGame *b);

/* Format *g as a G line with its "\n" into out; returns the length written
 * (excluding the NUL), or -1 (MB_ESIZE-like) when out is too small
 * (JOURNAL_LINE_MAX is always enough). Formats what it is given without
 * checking it; every G line journal_parse_game accepts formats back to an
 * equivalent line that parses to the same struct. */
int journal_format_game(const JournalGame *g, char *out, size_t outsize);

/* ---- Player specifications: NAME or NAME:key=value,key=value ---- */

#define PLAYERSPEC_MAX_PARAMS 32
#define PLAYERSPEC_KEY_MAX    64
#define PLAYERSPEC_VALUE_MAX  256

typedef enum ParamType { PARAM_INT, PARAM_NUMBER, PARAM_BOOL, PARAM_STRING } ParamType;

typedef struct PlayerParam {
    char key[PLAYERSPEC_KEY_MAX]; /* an identifier: [A-Za-z_][A-Za-z0-9_]* */
    ParamType type;
    long long i;                  /* PARAM_INT */
    double d;                     /* PARAM_NUMBER */
    bool b;                       /* PARAM_BOOL: true / false */
    char s[PLAYERSPEC_VALUE_MAX]; /* the value's text, for every type */
} PlayerParam;

typedef struct PlayerSpec {
    char name[JOURNAL_NAME_MAX]; /* the AI name or script path */
    int nparams;
    PlayerParam params[PLAYERSPEC_MAX_PARAMS];
} PlayerSpec;

/* Parse "NAME[:key=value,...]". The parameters start at the first ':'
 * after the last '/' (so paths keep their colons before a slash). A value
 * is an integer (decimal, optional sign, fits in 64 bits), a number
 * (decimal, finite), true or false, or else a non-empty string
 * without ','. Keys are identifiers, each at most once. MB_OK, or
 * MB_ESYNTAX / MB_ERANGE with a message in err.
 *
 * Precisely: "true"/"false" (lower case) are PARAM_BOOL; [+-]digits is
 * PARAM_INT, and one that does not fit in 64 bits is MB_ERANGE (not a
 * number); a decimal number [+-]digits[.digits][e[+-]digits] (also ".5",
 * "1.") is PARAM_NUMBER whatever the locale, and one that overflows a
 * double is MB_ERANGE; everything else is PARAM_STRING, including "nan",
 * "inf", "infinity", hexadecimal "0x10" and text with blanks (the value
 * runs from '=' to the next ',', '=' included). The name is non-empty and
 * below JOURNAL_NAME_MAX bytes; "NAME:" with nothing after, an empty
 * parameter (",,", a final ','), a key or value too long (MB_ERANGE), a
 * repeated key and more than PLAYERSPEC_MAX_PARAMS parameters (MB_ERANGE)
 * are errors; messages name the parameter (1-based) and its key. *out is
 * zeroed first and again on failure. */
int playerspec_parse(const char *text, PlayerSpec *out, char *err, size_t errlen);

#endif
