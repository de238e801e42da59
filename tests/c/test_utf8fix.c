/* test_utf8fix.c: text made valid UTF-8 (utf8fix.h). Checks: valid text
 * kept byte for byte (ASCII, 2-, 3- and 4-byte characters, the edges
 * U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFD, U+10000, U+10FFFF, a NUL
 * byte); each ill-formed form replaced by U+FFFD, one per maximal
 * ill-formed subsequence: lone continuation bytes, overlong forms (C0 AF,
 * C1 BF, E0 80 AF, E0 9F BF, F0 80 80 AF, F0 8F BF BF), surrogates (ED A0
 * 80, ED BF BF), code points above U+10FFFF (F4 90 80 80, F5..FF), the old
 * 5- and 6-byte forms, sequences cut short at the end and before an ASCII
 * byte, and the hostile reason "\xff\xfe bad \xc0\xaf"; utf8_valid_prefix;
 * the snprintf-like result with small buffers (whole characters only);
 * and, over 20,000 random byte strings, that the output is valid by an
 * independent decoder (decode the code point, then reject overlong,
 * surrogate and too large values), that valid input comes back unchanged,
 * that fixing twice changes nothing, and that the two functions agree. */
#include <stdlib.h>

#include "harness.h"
#include "marubatsu.h"

#define R UTF8_REPLACEMENT

/* utf8_fix of s[0..n) into a big buffer. */
static const char *fixed(const char *s, size_t n)
{
    static char out[512];
    size_t need = utf8_fix(s, n, out, sizeof out);
    if (need >= sizeof out) return "(too long)";
    if (strlen(out) != need && memchr(s, 0, n) == NULL) return "(wrong length)";
    return out;
}

#define FIX(lit) fixed(lit, sizeof lit - 1)

TEST(valid_text_kept)
{
    static const char *const valid[] = {
        "",
        "hello, world",
        "\xc2\x80",         /* U+0080 */
        "\xdf\xbf",         /* U+07FF */
        "\xe0\xa0\x80",     /* U+0800 */
        "\xed\x9f\xbf",     /* U+D7FF, before the surrogates */
        "\xee\x80\x80",     /* U+E000, after them */
        "\xef\xbf\xbd",     /* U+FFFD */
        "\xf0\x90\x80\x80", /* U+10000 */
        "\xf4\x8f\xbf\xbf", /* U+10FFFF */
        "caf\xc3\xa9 \xe3\x80\x87\xc3\x97 \xe2\x82\xac \xf0\x9f\x98\x80",
    };
    for (size_t i = 0; i < sizeof valid / sizeof *valid; i++) {
        size_t n = strlen(valid[i]);
        CHECK_INT(utf8_valid_prefix(valid[i], n), n);
        CHECK_STR(fixed(valid[i], n), valid[i]);
    }
    /* a NUL byte is U+0000: valid, kept */
    const char nul[] = "a\0b";
    CHECK_INT(utf8_valid_prefix(nul, 3), 3);
    char out[8];
    CHECK_INT(utf8_fix(nul, 3, out, sizeof out), 3);
    CHECK(memcmp(out, nul, 4) == 0);
}

TEST(ill_formed_replaced)
{
    /* continuation bytes alone */
    CHECK_STR(FIX("\x80"), R);
    CHECK_STR(FIX("a\x80\xbf"), "a" R R);
    /* overlong forms: each byte of them */
    CHECK_STR(FIX("\xc0\xaf"), R R);
    CHECK_STR(FIX("\xc1\xbf"), R R);
    CHECK_STR(FIX("\xe0\x80\xaf"), R R R);
    CHECK_STR(FIX("\xe0\x9f\xbf"), R R R);
    CHECK_STR(FIX("\xf0\x80\x80\xaf"), R R R R);
    CHECK_STR(FIX("\xf0\x8f\xbf\xbf"), R R R R);
    /* surrogates */
    CHECK_STR(FIX("\xed\xa0\x80"), R R R);
    CHECK_STR(FIX("\xed\xbf\xbf"), R R R);
    CHECK_STR(FIX("\xed\xa0\x80\xed\xb0\x80"), R R R R R R); /* a CESU-8 pair */
    /* above U+10FFFF */
    CHECK_STR(FIX("\xf4\x90\x80\x80"), R R R R);
    CHECK_STR(FIX("\xf5\x80\x80\x80"), R R R R);
    CHECK_STR(FIX("\xfe\xff"), R R);
    /* the old 5- and 6-byte forms */
    CHECK_STR(FIX("\xf8\x88\x80\x80\x80"), R R R R R);
    CHECK_STR(FIX("\xfc\x84\x80\x80\x80\x80"), R R R R R R);
    /* cut short: the valid start of a sequence is one replacement */
    CHECK_STR(FIX("\xc3"), R);
    CHECK_STR(FIX("x\xe2\x82"), "x" R);
    CHECK_STR(FIX("\342\202A"), R "A"); /* octal: a hex escape would take the A */
    CHECK_STR(FIX("\xf0\x9f\x98"), R);
    CHECK_STR(FIX("\xf0\x9f\x98\xf0\x9f\x98\x80"), R "\xf0\x9f\x98\x80");
    CHECK_STR(FIX("\xe3\x80\xc3\xa9"), R "\xc3\xa9");
    /* a script's error() of the attack */
    CHECK_STR(FIX("\xff\xfe bad \xc0\xaf"), R R " bad " R R);
}

TEST(valid_prefix)
{
    CHECK_INT(utf8_valid_prefix("ab\377cd", 5), 2);
    CHECK_INT(utf8_valid_prefix("\xc3\xa9\xc3", 3), 2);
    CHECK_INT(utf8_valid_prefix("\xed\xa0\x80", 3), 0);
    CHECK_INT(utf8_valid_prefix("abc", 2), 2);
    CHECK_INT(utf8_valid_prefix("\xe3\x80\x87", 2), 0); /* cut by n */
}

TEST(small_buffers)
{
    char out[8];
    /* the length of the whole result, like snprintf */
    CHECK_INT(utf8_fix("a\xff", 2, NULL, 0), 4);
    CHECK_INT(utf8_fix("\xc0\xaf", 2, NULL, 0), 6);
    /* only whole characters, and room for the NUL */
    memset(out, 'z', sizeof out);
    CHECK_INT(utf8_fix("a\xc3\xa9", 3, out, 3), 3);
    CHECK_STR(out, "a");
    CHECK_INT(utf8_fix("a\xc3\xa9", 3, out, 4), 3);
    CHECK_STR(out, "a\xc3\xa9");
    CHECK_INT(utf8_fix("\xff", 1, out, 3), 3);
    CHECK_STR(out, "");
    CHECK_INT(utf8_fix("\xff", 1, out, 4), 3);
    CHECK_STR(out, R);
    CHECK_INT(utf8_fix("ab\xff", 3, out, 4), 5);
    CHECK_STR(out, "ab");
    CHECK_INT(utf8_fix("ab", 2, out, 1), 2);
    CHECK_STR(out, "");
}

/* An independent check: decode each sequence by its lead byte's length,
 * then reject a code point that is overlong, a surrogate or too large. */
static bool valid_by_decoding(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t len;
        unsigned long cp;
        if (c < 0x80)
            len = 1, cp = c;
        else if ((c & 0xe0) == 0xc0)
            len = 2, cp = c & 0x1f;
        else if ((c & 0xf0) == 0xe0)
            len = 3, cp = c & 0x0f;
        else if ((c & 0xf8) == 0xf0)
            len = 4, cp = c & 0x07;
        else
            return false;
        if (i + len > n) return false;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80) return false;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        static const unsigned long least[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < least[len] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return false;
        i += len;
    }
    return true;
}

TEST(random_bytes)
{
    /* bytes where the edges are: ASCII, continuations, every kind of lead */
    static const unsigned char pool[] = {'a',  0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf,
                                         0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xee, 0xef,
                                         0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf8, 0xfe, 0xff};
    unsigned long x = 12345;
    int bad = 0, valid_in = 0;
    for (int t = 0; t < 20000 && bad < 5; t++) {
        unsigned char in[12];
        x = x * 6364136223846793005ul + 1442695040888963407ul;
        size_t n = (size_t)(x >> 60) % 13;
        for (size_t i = 0; i < n; i++) {
            x = x * 6364136223846793005ul + 1442695040888963407ul;
            in[i] = pool[(x >> 33) % sizeof pool];
        }
        char out[64], again[64];
        size_t m = utf8_fix((const char *)in, n, out, sizeof out);
        bool ok = m < sizeof out && m <= 3 * n && valid_by_decoding((unsigned char *)out, m);
        bool in_valid = valid_by_decoding(in, n);
        valid_in += in_valid;
        ok = ok && (utf8_valid_prefix((const char *)in, n) == n) == in_valid;
        if (in_valid) ok = ok && m == n && memcmp(out, in, n) == 0;
        ok = ok && utf8_fix(out, m, again, sizeof again) == m && memcmp(again, out, m) == 0;
        if (!ok) {
            bad++;
            char hex[64] = "";
            for (size_t i = 0; i < n; i++) snprintf(hex + 3 * i, 4, "%02x ", in[i]);
            t_fail(__FILE__, __LINE__, "input %s: output not valid, changed or unstable", hex);
        }
    }
    CHECK(valid_in > 1000); /* the pool gives valid strings as well */
}

const TestCase utf8fix_tests[] = {
    {"valid_text_kept", valid_text_kept}, {"ill_formed_replaced", ill_formed_replaced},
    {"valid_prefix", valid_prefix},       {"small_buffers", small_buffers},
    {"random_bytes", random_bytes},       {0},
};
