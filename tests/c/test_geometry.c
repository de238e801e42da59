/* test_geometry.c: board shapes: the supported range of sizes and k with
 * its messages, the number of lines for many (w, h, k) computed by a formula
 * written here, the 1-D index y + x*height and its inverse, the row-major
 * bit numbering, and the lines through each square. */
#include <stdlib.h>

#include "harness.h"
#include "marubatsu.h"

/* windows of length k in a direction that moves dx columns and dy rows */
static int windows(int w, int h, int k, int dx, int dy)
{
    int nx = w - dx * (k - 1), ny = h - dy * (k - 1);
    return nx > 0 && ny > 0 ? nx * ny : 0;
}

TEST(line_counts)
{
    for (int w = 1; w <= 12; w++)
        for (int h = 1; h <= 12; h++)
            for (int k = 1; k <= (w > h ? w : h); k++) {
                Geometry *g = geometry_new(w, h, k);
                int want = k == 1 ? w * h
                                  : windows(w, h, k, 1, 0) + windows(w, h, k, 0, 1) +
                                        2 * windows(w, h, k, 1, 1);
                CHECK_INT(g->nlines, want);
                /* every square is on thru lists exactly as often as lines hold it */
                CHECK_INT(g->thru_start[g->ncells], g->nlines * k);
                geometry_unref(g);
            }
    Geometry *g = geometry_new(15, 15, 5);
    CHECK_INT(g->nlines, 572);
    geometry_unref(g);
}

TEST(sizes_and_messages)
{
    char err[128];
    CHECK_INT(geometry_check(3, 3, 3, err, sizeof err), MB_OK);
    CHECK_INT(geometry_check(1, 1, 1, err, sizeof err), MB_OK);
    CHECK_INT(geometry_check(32, 32, 32, err, sizeof err), MB_OK);
    CHECK_INT(geometry_check(16, 1, 16, err, sizeof err), MB_OK);
    CHECK_INT(geometry_check(0, 3, 0, err, sizeof err), MB_ESIZE);
    CHECK_STR(err, "board size 0x3 is not supported (each side 1..32)");
    CHECK_INT(geometry_check(3, -1, 0, err, sizeof err), MB_ESIZE);
    CHECK_INT(geometry_check(3, 4, 5, err, sizeof err), MB_ESIZE);
    CHECK_STR(err, "k = 5 is not possible on a 3x4 board (1..4)");
    CHECK_INT(geometry_check(3, 3, -2, NULL, 0), MB_ESIZE);
    CHECK(geometry_new(40, 3, 0) == NULL);
    CHECK(geometry_new(3, 3, 4) == NULL);
    CHECK_INT(geometry_default_k(7, 4), 4);
}

TEST(indexes_and_bits)
{
    Geometry *g = geometry_new(5, 3, 3);
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < 3; y++) {
            int m = geometry_xy_to_move(g, x, y), xx, yy;
            CHECK_INT(m, y + x * 3);
            geometry_move_to_xy(g, m, &xx, &yy);
            CHECK(xx == x && yy == y);
            CHECK_INT(g->bit_of[m], x + y * 5);
            CHECK_INT(g->move_of[x + y * 5], m);
        }
    int x, y;
    geometry_move_to_xy(g, MOVE_NONE, &x, &y);
    CHECK(x == -1 && y == -1);
    geometry_move_to_xy(g, 15, &x, &y);
    CHECK(x == -1 && y == -1);
    CHECK(!geometry_on_board(g, 5, 0) && !geometry_on_board(g, 0, 3) && geometry_on_board(g, 4, 2));
    geometry_unref(g);
}

TEST(lines_through_squares)
{
    Geometry *g = geometry_new(3, 3, 3);
    /* centre: row 1, column 1, both diagonals; corner (0,0): row 0, column 0, main */
    int c = geometry_xy_to_move(g, 1, 1);
    CHECK_INT(g->thru_start[c + 1] - g->thru_start[c], 4);
    CHECK_INT(g->thru[g->thru_start[0]], 0);
    CHECK_INT(g->thru[g->thru_start[0] + 1], 3);
    CHECK_INT(g->thru[g->thru_start[0] + 2], 6);
    int e = geometry_xy_to_move(g, 1, 0);
    CHECK_INT(g->thru_start[e + 1] - g->thru_start[e], 2);
    geometry_unref(g);
    g = geometry_new(7, 7, 5); /* the centre lies on 5 windows per direction */
    c = geometry_xy_to_move(g, 3, 3);
    CHECK_INT(g->thru_start[c + 1] - g->thru_start[c], 4 * 3);
    geometry_unref(g);
}

TEST(shared_references)
{
    Geometry *g = geometry_new(4, 4, 0);
    CHECK_INT(g->k, 4);
    CHECK(geometry_ref(g) == g);
    CHECK_INT(g->refs, 2);
    geometry_unref(g);
    geometry_unref(g);
    geometry_unref(NULL);
}

const TestCase geometry_tests[] = {
    {"line_counts", line_counts},
    {"sizes_and_messages", sizes_and_messages},
    {"indexes_and_bits", indexes_and_bits},
    {"lines_through_squares", lines_through_squares},
    {"shared_references", shared_references},
    {0},
};
