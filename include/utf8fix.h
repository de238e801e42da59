/* utf8fix.h: text made valid UTF-8 before it leaves the program.
 *
 * Forfeit reasons (the bytes of a script's error()), player names and a
 * brain's messages may hold any bytes; journals, JSON, HTML and terminals
 * need UTF-8. Valid UTF-8 (RFC 3629: no overlong forms, no surrogates
 * U+D800..U+DFFF, nothing above U+10FFFF) is kept byte for byte; each
 * maximal ill-formed subsequence (the longest start of a valid sequence
 * that cannot be completed, or else one byte) becomes one U+FFFD
 * (EF BF BD), the replacement Unicode recommends. No allocation; every
 * loop is bounded by the input's length. */
#ifndef MB_UTF8FIX_H
#define MB_UTF8FIX_H

#include <stddef.h>

/* The UTF-8 of U+FFFD, the replacement character. */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

/* The length of the longest valid UTF-8 prefix of s[0..n): n when the
 * whole text is valid. NUL bytes count as valid (U+0000). */
size_t utf8_valid_prefix(const char *s, size_t n);

/* Write s[0..n) with every ill-formed subsequence replaced by U+FFFD into
 * out (outsize bytes; out may be NULL when outsize is 0). Returns the
 * length of the whole result (at most 3n), like snprintf: the output is
 * complete and NUL-terminated only when the result is < outsize; else a
 * prefix of whole characters is written and NUL-terminated (when outsize
 * > 0). */
size_t utf8_fix(const char *s, size_t n, char *out, size_t outsize);

#endif
