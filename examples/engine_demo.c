/* engine_demo.c: the C library on its own, as a program links it:
 *     cc engine_demo.c $(pkg-config --cflags --libs marubatsu)
 * Plays the series' worked example, prints the position, its mark patterns
 * and canonical key, then plays seeded random games like the series' ai2
 * VS ai2 and counts the results. */
#include <stdio.h>

#include "marubatsu.h"

int main(void)
{
    Game g;
    char err[128];
    if (game_init(&g, NULL, err, sizeof err) != MB_OK) { /* 3x3, bitboard */
        fprintf(stderr, "%s\n", err);
        return 1;
    }

    /* 〇(0,0) ×(1,0) 〇(0,1) ×(2,0) 〇(1,2) ×(1,1) 〇(0,2): 〇 wins column A */
    int moves[9], n, bad;
    if (notation_parse_moves(game_geom(&g), "A1,B1,A2,C1,B3,B2,A3", moves, 9, &n, &bad)) {
        fprintf(stderr, "bad move %d\n", bad + 1);
        return 1;
    }
    for (int i = 0; i < n; i++) game_play(&g, moves[i]);
    char text[64], key[16], pats[256];
    notation_text(&g, text);
    printf("%s\n", text);

    int32_t hist[16];
    markpats_of_game(&g, hist);
    markpats_format(game_geom(&g), hist, pats, sizeof pats);
    printf("mark patterns (last_turn, turn, empty): lines\n%s\n", pats);

    int t = symmetry_canonical_key(&g, key);
    printf("canonical key %s (transform %d, %s)\n\n", key, t, symmetry_name(t));

    /* 1,000 random games on one CPython-compatible stream, seed 0 */
    Rng r;
    rng_seed(&r, 0);
    int results[4] = {0};
    for (int i = 0; i < 1000; i++) {
        game_restart(&g);
        while (g.status == STATUS_PLAYING) {
            int k = game_legal_moves(&g, moves);
            game_move(&g, moves[rng_choice_index(&r, k)]);
        }
        results[g.status]++;
    }
    printf("1000 random games: o %d, x %d, draw %d\n", results[STATUS_O], results[STATUS_X],
           results[STATUS_DRAW]);
    game_free(&g);
    return 0;
}
