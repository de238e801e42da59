/* test_rating.c: checks rating.c's score/Elo/interval, LOS, SPRT and crosstable fit against hand-computed values. */
/* Every expected number is worked out in the comment beside it; the
 * degenerate records (all wins, all losses, all draws, no games) must give
 * finite values with sensible intervals. */
#include <math.h>

#include "harness.h"
#include "mberror.h"
#include "rating.h"

/* Fail unless |actual - expected| <= tol. */
#define CHECK_NEAR(actual, expected, tol)                                                          \
    do {                                                                                           \
        double t_a_ = (actual), t_e_ = (expected);                                                 \
        if (!(fabs(t_a_ - t_e_) <= (tol)))                                                         \
            t_fail(__FILE__, __LINE__, "%s == %.9g, expected %.9g +- %g", #actual, t_a_, t_e_,     \
                   (double)(tol));                                                                 \
    } while (0)

/* Every field of st is finite and the interval brackets the estimate. */
static bool stats_sane(const RatingStats *st)
{
    return isfinite(st->score) && isfinite(st->var) && isfinite(st->elo) && isfinite(st->elo_lo) &&
           isfinite(st->elo_hi) && st->elo_lo <= st->elo && st->elo <= st->elo_hi &&
           st->score_lo <= st->score_hi;
}

TEST(elo_conversions)
{
    CHECK_NEAR(rating_elo_of_score(0.5), 0.0, 1e-12);
    /* 0.75: -400 log10(1/3) = 400 * 0.47712125 = 190.848502 */
    CHECK_NEAR(rating_elo_of_score(0.75), 190.848502, 1e-6);
    CHECK_NEAR(rating_score_of_elo(190.848502), 0.75, 1e-9);
    CHECK(isinf(rating_elo_of_score(1.0)) && rating_elo_of_score(1.0) > 0);
    CHECK(isnan(rating_elo_of_score(1.5)));
    CHECK_NEAR(rating_phi(0.0), 0.5, 1e-15);
    CHECK_NEAR(rating_phi(1.959963984540054), 0.975, 1e-12);
}

TEST(trinomial_60_20_20)
{
    RatingStats st;
    CHECK_INT(rating_trinomial(60, 20, 20, &st), MB_OK);
    /* s = (60 + 10)/100 = 0.7; Elo = -400 log10(1/0.7 - 1)
     *   = 400 log10(7/3) = 147.1907 */
    CHECK_NEAR(st.n, 100, 0);
    CHECK_NEAR(st.score, 0.7, 1e-12);
    CHECK_NEAR(st.elo, 147.19, 0.01);
    /* var = 0.6*0.3^2 + 0.2*0.7^2 + 0.2*0.2^2 = 0.054 + 0.098 + 0.008
     *     = 0.16; se = sqrt(0.16/100) = 0.04; half = 1.96*0.04 = 0.0784;
     * scores [0.6216, 0.7784] -> Elo [86.23, 218.25] */
    CHECK_NEAR(st.var, 0.16, 1e-12);
    CHECK_NEAR(st.score_lo, 0.7 - 0.04 * RATING_Z95, 1e-12);
    CHECK_NEAR(st.score_hi, 0.7 + 0.04 * RATING_Z95, 1e-12);
    CHECK_NEAR(st.elo_lo, 86.23, 0.01);
    CHECK_NEAR(st.elo_hi, 218.25, 0.01);
    CHECK(stats_sane(&st));
}

TEST(trinomial_all_wins_and_losses)
{
    RatingStats st;
    CHECK_INT(rating_trinomial(100, 0, 0, &st), MB_OK);
    CHECK(stats_sane(&st));
    /* m = 1/202: clamped score 201/202 -> Elo 400 log10(201) = 921.28;
     * var floor m(1-m) = 0.00492599, half = 1.96 sqrt(var/100) = 0.013756,
     * lower score 0.981289 -> Elo 687.92; upper end clamped at the top */
    CHECK_NEAR(st.score, 1.0, 0);
    CHECK_NEAR(st.elo, 921.28, 0.01);
    CHECK_NEAR(st.elo_hi, 921.28, 0.01);
    CHECK_NEAR(st.elo_lo, 687.92, 0.01);
    CHECK(st.elo_hi - st.elo_lo > 100);
    RatingStats lost;
    CHECK_INT(rating_trinomial(0, 100, 0, &lost), MB_OK);
    CHECK(stats_sane(&lost));
    CHECK_NEAR(lost.elo, -921.28, 0.01);
    CHECK_NEAR(lost.elo_hi, -687.92, 0.01);
    /* one game won: m = 1/4, clamp 0.75 -> 190.85, still finite */
    CHECK_INT(rating_trinomial(1, 0, 0, &st), MB_OK);
    CHECK(stats_sane(&st));
    CHECK_NEAR(st.elo, 190.848502, 1e-6);
}

TEST(trinomial_all_draws_and_empty)
{
    RatingStats st;
    CHECK_INT(rating_trinomial(0, 0, 100, &st), MB_OK);
    CHECK(stats_sane(&st));
    /* Elo 0; var floored at m(1-m), m = 1/202: half = 0.013756 ->
     * scores [0.486244, 0.513756] -> Elo +-9.56 */
    CHECK_NEAR(st.elo, 0.0, 1e-12);
    CHECK_NEAR(st.elo_lo, -9.56, 0.01);
    CHECK_NEAR(st.elo_hi, 9.56, 0.01);
    CHECK_INT(rating_trinomial(0, 0, 0, &st), MB_OK);
    CHECK(stats_sane(&st));
    CHECK_NEAR(st.elo, 0.0, 0);
    CHECK_INT(rating_trinomial(-1, 0, 0, &st), MB_EINVAL);
    CHECK_INT(rating_trinomial(NAN, 0, 0, &st), MB_EINVAL);
}

TEST(pentanomial_example)
{
    /* 10 pairs: pair scores 0.5 x1, 1 x4, 1.5 x3, 2 x2 (none at 0).
     * Per-game means 0.25, 0.5, 0.75, 1: s = (0.25 + 2 + 2.25 + 2)/10 =
     * 0.65; Elo = 400 log10(0.65/0.35) = 107.54.
     * var per pair = (0.4^2 + 4*0.15^2 + 3*0.1^2 + 2*0.35^2)/10
     *   = (0.16 + 0.09 + 0.03 + 0.245)/10 = 0.0525;
     * se = sqrt(0.0525/10) = 0.0724569, half = 1.96 se = 0.142013:
     * scores [0.507987, 0.792013] -> Elo [5.55, 232.28] */
    const double pairs[5] = {0, 1, 4, 3, 2};
    RatingStats st;
    CHECK_INT(rating_pentanomial(pairs, &st), MB_OK);
    CHECK_NEAR(st.n, 10, 0);
    CHECK_NEAR(st.score, 0.65, 1e-12);
    CHECK_NEAR(st.var, 0.0525, 1e-12);
    CHECK_NEAR(st.elo, 107.54, 0.01);
    CHECK_NEAR(st.elo_lo, 5.55, 0.01);
    CHECK_NEAR(st.elo_hi, 232.28, 0.01);
    CHECK(stats_sane(&st));
}

TEST(pentanomial_degenerate)
{
    const double wins[5] = {0, 0, 0, 0, 50}, even[5] = {0, 0, 50, 0, 0};
    const double none[5] = {0}, bad[5] = {0, -1, 0, 0, 0};
    RatingStats st;
    /* 50 pairs = 100 games, m = 1/202: same clamp as 100 wins (921.28) */
    CHECK_INT(rating_pentanomial(wins, &st), MB_OK);
    CHECK(stats_sane(&st));
    CHECK_NEAR(st.elo, 921.28, 0.01);
    CHECK(st.elo_lo < st.elo - 50);
    CHECK_INT(rating_pentanomial(even, &st), MB_OK);
    CHECK(stats_sane(&st));
    CHECK_NEAR(st.elo, 0.0, 1e-12);
    CHECK(st.elo_lo < 0 && st.elo_hi > 0);
    CHECK_INT(rating_pentanomial(none, &st), MB_OK);
    CHECK(stats_sane(&st));
    CHECK_INT(rating_pentanomial(bad, &st), MB_EINVAL);
}

TEST(los)
{
    CHECK_NEAR(rating_los(7, 7), 0.5, 1e-15);
    CHECK_NEAR(rating_los(0, 0), 0.5, 0);
    /* Phi(10/sqrt(10)) = Phi(3.1623) = 0.999217 */
    CHECK_NEAR(rating_los(10, 0), 0.99922, 1e-5);
    CHECK_NEAR(rating_los(0, 10), 1 - 0.999217, 1e-5);
    /* W=5, L=4: Phi(1/sqrt 9) = Phi(1/3); and Phi(1) = 0.841345 */
    CHECK_NEAR(rating_los(5, 4), rating_phi(1.0 / 3.0), 1e-15);
    CHECK_NEAR(rating_phi(1.0), 0.841345, 1e-6);
}

TEST(sprt)
{
    SprtResult r;
    /* bounds with alpha = beta = 0.05: log(0.05/0.95) = -2.944439 */
    CHECK_INT(rating_sprt_trinomial(100, 0, 0, 0, 5, 0.05, 0.05, &r), MB_OK);
    CHECK_NEAR(r.lower, -2.944439, 1e-6);
    CHECK_NEAR(r.upper, 2.944439, 1e-6);
    CHECK(isfinite(r.llr));
    CHECK_INT(r.decision, SPRT_ACCEPT_H1);
    /* one win: var floor m(1-m) with m = 1/4 keeps the LLR tiny */
    CHECK_INT(rating_sprt_trinomial(1, 0, 0, 0, 5, 0.05, 0.05, &r), MB_OK);
    CHECK_INT(r.decision, SPRT_CONTINUE);
    CHECK(r.llr > 0 && r.llr < 0.1);
    CHECK_INT(rating_sprt_trinomial(0, 0, 0, 0, 5, 0.05, 0.05, &r), MB_OK);
    CHECK_NEAR(r.llr, 0, 0);
    CHECK_INT(r.decision, SPRT_CONTINUE);
    /* 60/20/20 with elo0 = 0, elo1 = 10: s0 = 0.5,
     * s1 = 1/(1 + 10^(-1/40)) = 0.5143872; LLR = 100 (s1-s0)(1.4 - s0 - s1)
     * / (2 * 0.16) = 1.73371: continue */
    CHECK_INT(rating_sprt_trinomial(60, 20, 20, 0, 10, 0.05, 0.05, &r), MB_OK);
    CHECK_NEAR(r.llr, 1.73371, 1e-5);
    CHECK_INT(r.decision, SPRT_CONTINUE);
    /* 200 W 800 L, elo1 = 5: s = 0.2, var = 0.16, s1 = 0.5071951,
     * LLR = 1000 * 0.0071951 * (0.4 - 1.0071951) / 0.32 = -13.6526: H0 */
    CHECK_INT(rating_sprt_trinomial(200, 800, 0, 0, 5, 0.05, 0.05, &r), MB_OK);
    CHECK_NEAR(r.llr, -13.6526, 1e-4);
    CHECK_INT(r.decision, SPRT_ACCEPT_H0);
    const double pairs[5] = {0, 0, 0, 0, 50};
    CHECK_INT(rating_sprt_pentanomial(pairs, 0, 5, 0.05, 0.05, &r), MB_OK);
    CHECK_INT(r.decision, SPRT_ACCEPT_H1);
    CHECK_INT(rating_sprt_trinomial(1, 0, 0, 5, 0, 0.05, 0.05, &r), MB_EINVAL);
    CHECK_INT(rating_sprt_trinomial(1, 0, 0, 0, 5, 0, 0.05, &r), MB_EINVAL);
}

/* The SPRT against the textbook (Wald's bounds, the GSPRT's normal
 * approximation of the LLR), recomputed here for several (alpha, beta,
 * elo0, elo1) with alpha != beta, on records that give every verdict;
 * the pentanomial form over pairs scoring 0, 1/4, .., 1 a game. */
static double logistic(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

TEST(sprt_textbook)
{
    static const double params[][4] = {
        {0.05, 0.10, 0, 5},  {0.10, 0.05, 0, 5},  {0.01, 0.20, -3, 7},
        {0.20, 0.02, 2, 12}, {0.05, 0.05, 0, 10}, {0.025, 0.30, -10, 0},
    };
    static const double records[][3] = {{600, 400, 200}, {300, 330, 900}, {40, 60, 10}, {5, 0, 0}};
    SprtResult r;
    for (size_t p = 0; p < sizeof params / sizeof params[0]; p++) {
        double a = params[p][0], b = params[p][1], e0 = params[p][2], e1 = params[p][3];
        double lower = log(b / (1 - a)), upper = log((1 - b) / a);
        double s0 = logistic(e0), s1 = logistic(e1);
        for (size_t q = 0; q < sizeof records / sizeof records[0]; q++) {
            double w = records[q][0], l = records[q][1], d = records[q][2], n = w + l + d;
            double mean = (w + d / 2) / n;
            double var = (w * pow(1 - mean, 2) + l * pow(mean, 2) + d * pow(0.5 - mean, 2)) / n;
            double m = 1 / (2 * n + 2); /* the variance floor: m (1 - m), m = 1 / (2n + 2) */
            if (var < m * (1 - m)) var = m * (1 - m);
            double llr = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var);
            CHECK_INT(rating_sprt_trinomial(w, l, d, e0, e1, a, b, &r), MB_OK);
            CHECK_NEAR(r.lower, lower, 1e-12);
            CHECK_NEAR(r.upper, upper, 1e-12);
            CHECK(isfinite(llr));
            CHECK_NEAR(r.llr, llr, 1e-9 * (1 + fabs(llr)));
            SprtDecision want = llr >= upper   ? SPRT_ACCEPT_H1
                                : llr <= lower ? SPRT_ACCEPT_H0
                                               : SPRT_CONTINUE;
            CHECK_INT(r.decision, want);
        }
        /* pairs: 30 scored 0, 50 1/4, 200 1/2, 90 3/4, 40 1 a game */
        const double pairs[5] = {30, 50, 200, 90, 40};
        double np = 0, sum = 0, var = 0;
        for (int k = 0; k < 5; k++) np += pairs[k], sum += pairs[k] * k / 4.0;
        double mean = sum / np;
        for (int k = 0; k < 5; k++) var += pairs[k] * pow(k / 4.0 - mean, 2);
        var /= np;
        CHECK_INT(rating_sprt_pentanomial(pairs, e0, e1, a, b, &r), MB_OK);
        CHECK_NEAR(r.lower, lower, 1e-12);
        CHECK_NEAR(r.upper, upper, 1e-12);
        CHECK_NEAR(r.llr, np * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var), 1e-9);
    }
    /* the numbers of alpha = 0.05, beta = 0.10 */
    CHECK_INT(rating_sprt_trinomial(10, 10, 10, 0, 5, 0.05, 0.10, &r), MB_OK);
    CHECK_NEAR(r.lower, -2.2513, 1e-4);
    CHECK_NEAR(r.upper, 2.8904, 1e-4);
}

TEST(fit_two_players)
{
    /* A took 7.5 of 10 from B. MAP with one draw each against a virtual
     * player at theta 0: by symmetry theta_A = -theta_B = t with
     * 8 = e^t (10/(e^t + e^-t) + 1/(e^t + 1)), t = 0.516183 nats
     * = 89.670 Elo (shrunk from the raw +-95.42). */
    const double score[4] = {0, 7.5, 2.5, 0}, games[4] = {0, 10, 10, 0};
    RatingFit f[2];
    CHECK_INT(rating_fit(2, score, games, f), MB_OK);
    CHECK_NEAR(f[0].elo, 89.670, 0.001);
    CHECK_NEAR(f[1].elo, -89.670, 0.001);
    CHECK(isfinite(f[0].error) && f[0].error > 0);
    CHECK_NEAR(f[0].error, f[1].error, 1e-9);
}

TEST(fit_three_players)
{
    /* 10 games per pairing: A-B 7-3, A-C 8-2, B-C 6-4 */
    const double score[9] = {0, 7, 8, 3, 0, 6, 2, 4, 0};
    const double games[9] = {0, 10, 10, 10, 0, 10, 10, 10, 0};
    RatingFit f[3];
    CHECK_INT(rating_fit(3, score, games, f), MB_OK);
    CHECK(f[0].elo > f[1].elo && f[1].elo > f[2].elo);
    CHECK_NEAR(f[0].elo + f[1].elo + f[2].elo, 0, 1e-9);
    for (int i = 0; i < 3; i++) CHECK(isfinite(f[i].error) && f[i].error > 0 && f[i].error < 1000);
    /* inconsistent tables are refused */
    const double lopsided[9] = {0, 7, 8, 4, 0, 6, 2, 4, 0};
    CHECK_INT(rating_fit(3, lopsided, games, f), MB_EINVAL);
    CHECK_INT(rating_fit(0, score, games, f), MB_EINVAL);
}

TEST(fit_perfect_score)
{
    /* A wins all 20; B and C draw 5-5 */
    const double score[9] = {0, 10, 10, 0, 0, 5, 0, 5, 0};
    const double games[9] = {0, 10, 10, 10, 0, 10, 10, 10, 0};
    RatingFit f[3];
    CHECK_INT(rating_fit(3, score, games, f), MB_OK);
    for (int i = 0; i < 3; i++) CHECK(isfinite(f[i].elo) && isfinite(f[i].error) && f[i].error > 0);
    CHECK(f[0].elo > f[1].elo + 100);
    CHECK_NEAR(f[1].elo, f[2].elo, 1e-6);
    CHECK_NEAR(f[0].elo + f[1].elo + f[2].elo, 0, 1e-9);
    /* a lone player, and players who never met, still converge */
    const double one[1] = {0}, zeros[4] = {0};
    CHECK_INT(rating_fit(1, one, one, f), MB_OK);
    CHECK_NEAR(f[0].elo, 0, 0);
    CHECK_INT(rating_fit(2, zeros, zeros, f), MB_OK);
    CHECK_NEAR(f[0].elo, 0, 1e-12);
    CHECK(isfinite(f[0].error));
}

const TestCase rating_tests[] = {
    {"elo_conversions", elo_conversions},
    {"trinomial_60_20_20", trinomial_60_20_20},
    {"trinomial_all_wins_and_losses", trinomial_all_wins_and_losses},
    {"trinomial_all_draws_and_empty", trinomial_all_draws_and_empty},
    {"pentanomial_example", pentanomial_example},
    {"pentanomial_degenerate", pentanomial_degenerate},
    {"los", los},
    {"sprt", sprt},
    {"sprt_textbook", sprt_textbook},
    {"fit_two_players", fit_two_players},
    {"fit_three_players", fit_three_players},
    {"fit_perfect_score", fit_perfect_score},
    {0},
};
