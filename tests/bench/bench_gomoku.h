/* bench_gomoku.h: the issue-23 rows of make bench (bench_gomoku.c): the
 * pattern codes' cost per move and the big-board search's speed. */
#ifndef MB_BENCH_GOMOKU_H
#define MB_BENCH_GOMOKU_H

/* Print the rows, medians of `runs` runs. */
void bench_gomoku(int runs);

#endif
