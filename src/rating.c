/* rating.c: score, Elo, intervals, LOS, SPRT and the crosstable fit
 * (rating.h states the clamping and variance conventions). */
#include "rating.h"

#include <math.h>
#include <stdlib.h>

#include "mberror.h"

/* Natural-log strength units per Elo point (logistic model). */
#define ELO_PER_NAT (400.0 / 2.302585092994046)

#define FIT_MAX_ITER     100000
#define FIT_MM_TOL       1e-6 /* MM until steps are this small, then Newton */
#define FIT_NEWTON_STEPS 50
#define FIT_TOL          1e-12

double rating_elo_of_score(double s)
{
    if (!(s >= 0.0 && s <= 1.0)) return NAN;
    if (s == 0.0) return -INFINITY;
    if (s == 1.0) return INFINITY;
    return -400.0 * log10(1.0 / s - 1.0);
}

double rating_score_of_elo(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

double rating_phi(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

/* Clamp x into [lo, hi]. */
static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/* Fill out from n samples of mean score s and per-sample variance var,
 * games = the number of games behind them (for the clamp margin), floor =
 * the variance floor factor (1 per game, 1/2 per pair). */
static void finish_stats(double n, double games, double s, double var, double floor_factor,
                         RatingStats *out)
{
    double m = 1.0 / (2.0 * games + 2.0);
    double vmin = m * (1.0 - m) * floor_factor;
    if (!(var >= vmin)) var = vmin;
    double sc = clampd(s, m, 1.0 - m);
    double half = n > 0 ? RATING_Z95 * sqrt(var / n) : 0.0;
    out->n = n;
    out->score = s;
    out->var = var;
    out->score_lo = clampd(sc - half, m, 1.0 - m);
    out->score_hi = clampd(sc + half, m, 1.0 - m);
    out->elo = rating_elo_of_score(sc);
    out->elo_lo = rating_elo_of_score(out->score_lo);
    out->elo_hi = rating_elo_of_score(out->score_hi);
}

/* True when x is finite and not negative. */
static int count_ok(double x) { return isfinite(x) && x >= 0.0; }

int rating_trinomial(double w, double l, double d, RatingStats *out)
{
    if (!count_ok(w) || !count_ok(l) || !count_ok(d) || !out) return MB_EINVAL;
    double n = w + l + d;
    double s = 0.5, var = 0.0;
    if (n > 0) {
        s = (w + 0.5 * d) / n;
        var = (w * (1.0 - s) * (1.0 - s) + l * s * s + d * (0.5 - s) * (0.5 - s)) / n;
    }
    finish_stats(n, n, s, var, 1.0, out);
    return MB_OK;
}

int rating_pentanomial(const double pairs[5], RatingStats *out)
{
    if (!pairs || !out) return MB_EINVAL;
    double n = 0.0, sum = 0.0;
    for (int k = 0; k < 5; k++) {
        if (!count_ok(pairs[k])) return MB_EINVAL;
        n += pairs[k];
        sum += pairs[k] * (0.25 * k);
    }
    double s = 0.5, var = 0.0;
    if (n > 0) {
        s = sum / n;
        for (int k = 0; k < 5; k++) var += pairs[k] * (0.25 * k - s) * (0.25 * k - s);
        var /= n;
    }
    finish_stats(n, 2.0 * n, s, var, 0.5, out);
    return MB_OK;
}

double rating_los(double w, double l)
{
    if (!(w + l > 0.0)) return 0.5;
    return rating_phi((w - l) / sqrt(w + l));
}

/* The GSPRT of n samples with mean s and variance var, given checked
 * arguments: LLR = n (s1 - s0)(2s - s0 - s1) / (2 var). */
static void sprt_finish(const RatingStats *st, double elo0, double elo1, double alpha, double beta,
                        SprtResult *out)
{
    double s0 = rating_score_of_elo(elo0), s1 = rating_score_of_elo(elo1);
    out->lower = log(beta / (1.0 - alpha));
    out->upper = log((1.0 - beta) / alpha);
    out->llr = st->n > 0 ? st->n * (s1 - s0) * (2.0 * st->score - s0 - s1) / (2.0 * st->var) : 0.0;
    out->decision = out->llr >= out->upper   ? SPRT_ACCEPT_H1
                    : out->llr <= out->lower ? SPRT_ACCEPT_H0
                                             : SPRT_CONTINUE;
}

/* True when the SPRT parameters are usable. */
static int sprt_args_ok(double elo0, double elo1, double alpha, double beta)
{
    return isfinite(elo0) && isfinite(elo1) && elo0 < elo1 && alpha > 0.0 && alpha < 1.0 &&
           beta > 0.0 && beta < 1.0;
}

int rating_sprt_trinomial(double w, double l, double d, double elo0, double elo1, double alpha,
                          double beta, SprtResult *out)
{
    RatingStats st;
    if (!out || !sprt_args_ok(elo0, elo1, alpha, beta)) return MB_EINVAL;
    int err = rating_trinomial(w, l, d, &st);
    if (err) return err;
    sprt_finish(&st, elo0, elo1, alpha, beta, out);
    return MB_OK;
}

int rating_sprt_pentanomial(const double pairs[5], double elo0, double elo1, double alpha,
                            double beta, SprtResult *out)
{
    RatingStats st;
    if (!out || !sprt_args_ok(elo0, elo1, alpha, beta)) return MB_EINVAL;
    int err = rating_pentanomial(pairs, &st);
    if (err) return err;
    sprt_finish(&st, elo0, elo1, alpha, beta, out);
    return MB_OK;
}

/* Logistic expected score of strength difference x (natural units). */
static double logistic(double x) { return 1.0 / (1.0 + exp(-x)); }

/* Invert the symmetric positive definite n x n matrix a in place (Cholesky
 * then column solves, using tmp[n*n]); 0 on success, -1 if not definite. */
static int spd_inverse(int n, double *a, double *tmp)
{
    /* tmp = L, lower triangle, a = L L^T */
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++) {
            double sum = a[i * n + j];
            for (int k = 0; k < j; k++) sum -= tmp[i * n + k] * tmp[j * n + k];
            if (i == j) {
                if (!(sum > 0.0)) return -1;
                tmp[i * n + i] = sqrt(sum);
            } else {
                tmp[i * n + j] = sum / tmp[j * n + j];
            }
        }
        for (int j = i + 1; j < n; j++) tmp[i * n + j] = 0.0;
    }
    /* column c of the inverse: solve L y = e_c, then L^T x = y */
    for (int c = 0; c < n; c++) {
        double *x = a + (size_t)c * n; /* row c holds column c (symmetric) */
        for (int i = 0; i < n; i++) {
            double sum = i == c ? 1.0 : 0.0;
            for (int k = 0; k < i; k++) sum -= tmp[i * n + k] * x[k];
            x[i] = sum / tmp[i * n + i];
        }
        for (int i = n - 1; i >= 0; i--) {
            double sum = x[i];
            for (int k = i + 1; k < n; k++) sum -= tmp[k * n + i] * x[k];
            x[i] = sum / tmp[i * n + i];
        }
    }
    return 0;
}

int rating_fit(int n, const double *score, const double *games, RatingFit *out)
{
    if (n < 1 || !score || !games || !out) return MB_EINVAL;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j) continue;
            double g = games[i * n + j], s = score[i * n + j];
            if (!count_ok(g) || !count_ok(s) || s > g || g != games[j * n + i] ||
                fabs(s + score[j * n + i] - g) > 1e-9 * (1.0 + g))
                return MB_EINVAL;
        }
    size_t nn = (size_t)n * (size_t)n;
    double *theta = malloc(sizeof(double) * (size_t)n);
    double *h = malloc(sizeof(double) * nn);
    double *tmp = malloc(sizeof(double) * nn);
    if (!theta || !h || !tmp) {
        free(theta);
        free(h);
        free(tmp);
        return MB_ENOMEM;
    }
    /* Minorization-maximization for Bradley-Terry, strengths gamma =
     * exp(theta); each player also has one draw (score 1/2 in one game)
     * against a fixed virtual player of strength 1 (theta 0), which keeps
     * every strength finite and the problem strictly concave (the MAP
     * estimate); ratings are reported relative to the players' mean. */
    for (int i = 0; i < n; i++) theta[i] = 0.0;
    /* MM to get close (it converges slowly when a player wins nearly
     * everything), then Newton steps on the same concave log-likelihood,
     * which converge quadratically from there. */
    for (int iter = 0; iter < FIT_MAX_ITER; iter++) {
        double change = 0.0;
        for (int i = 0; i < n; i++) {
            double gi = exp(theta[i]);
            double pts = 0.5, denom = 1.0 / (gi + 1.0);
            for (int j = 0; j < n; j++) {
                if (j == i || games[i * n + j] == 0.0) continue;
                pts += score[i * n + j];
                denom += games[i * n + j] / (gi + exp(theta[j]));
            }
            double t = log(pts / denom);
            change = fmax(change, fabs(t - theta[i]));
            theta[i] = t;
        }
        if (change < FIT_MM_TOL) break;
    }
    for (int step = 0; step < FIT_NEWTON_STEPS; step++) {
        /* gradient g (observed minus expected points, the virtual draw
         * included) and the Fisher information in h */
        for (int i = 0; i < n; i++) {
            double pv = logistic(theta[i]);
            double grad = 0.5 - pv, diag = pv * (1.0 - pv);
            for (int j = 0; j < n; j++) {
                if (j == i) continue;
                double p = logistic(theta[i] - theta[j]);
                double gij = games[i * n + j];
                grad += score[i * n + j] - gij * p;
                h[i * n + j] = -gij * p * (1.0 - p);
                diag += gij * p * (1.0 - p);
            }
            h[i * n + i] = diag;
            out[i].elo = grad; /* scratch: the gradient */
        }
        if (spd_inverse(n, h, tmp)) break;
        double biggest = 0.0;
        for (int i = 0; i < n; i++) {
            double d = 0.0;
            for (int j = 0; j < n; j++) d += h[i * n + j] * out[j].elo;
            tmp[i] = d;
            biggest = fmax(biggest, fabs(d));
        }
        double scale = biggest > 1.0 ? 1.0 / biggest : 1.0; /* at most 1 nat a step */
        for (int i = 0; i < n; i++) theta[i] += scale * tmp[i];
        if (biggest < FIT_TOL) break;
    }
    /* Fisher information in theta (the prior draw included), inverted. */
    for (int i = 0; i < n; i++) {
        double pv = logistic(theta[i]);
        double diag = pv * (1.0 - pv);
        for (int j = 0; j < n; j++) {
            if (j == i) continue;
            double p = logistic(theta[i] - theta[j]);
            double f = games[i * n + j] * p * (1.0 - p);
            h[i * n + j] = -f;
            diag += f;
        }
        h[i * n + i] = diag;
    }
    int bad = spd_inverse(n, h, tmp);
    if (!bad) {
        /* variance of theta_i - mean(theta) from the covariance h */
        double total = 0.0, mean = 0.0;
        for (int i = 0; i < n; i++) mean += theta[i];
        mean /= n;
        for (size_t k = 0; k < nn; k++) total += h[k];
        for (int i = 0; i < n; i++) {
            double row = 0.0;
            for (int j = 0; j < n; j++) row += h[i * n + j];
            double v = h[i * n + i] - 2.0 * row / n + total / ((double)n * n);
            out[i].elo = ELO_PER_NAT * (theta[i] - mean);
            out[i].error = RATING_Z95 * ELO_PER_NAT * sqrt(fmax(v, 0.0));
        }
    }
    free(theta);
    free(h);
    free(tmp);
    return bad ? MB_EINVAL : MB_OK;
}
