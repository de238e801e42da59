/* textbuf.h: a growable text buffer, for the replies `marubatsu serve`
 * writes (JSON, the tree explorer's answers): bytes, formatted text and
 * JSON strings appended at its end. A failed allocation sets oom and
 * drops everything appended after it, so a writer checks once, at the
 * end. Uses utf8fix.h (JSON strings are made valid UTF-8). */
#ifndef MB_TEXTBUF_H
#define MB_TEXTBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Buf {
    char *p;
    size_t len, cap;
    bool oom;
} Buf;

/* Append n bytes. */
void buf_add(Buf *b, const char *s, size_t n);
/* Append formatted text. */
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append s as a JSON string, quoted; '<', '>' and '&' escaped too, bytes
 * that are not UTF-8 replaced by U+FFFD. */
void buf_json_string(Buf *b, const char *s);
/* Release the text (b is empty again). */
void buf_free(Buf *b);

#endif
