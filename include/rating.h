/* rating.h: the statistics core of tournaments and matches: score, Elo and
 * 95% intervals from single games (trinomial W/L/D) and from game pairs
 * (pentanomial), the likelihood of superiority, the sequential probability
 * ratio test (SPRT) of a two-player match, and a multi-player Elo fit from a
 * crosstable. Nothing here prints or keeps state; only rating_fit allocates
 * (scratch space it frees before returning). Uses mberror.h and libm.
 *
 * Conventions, identical everywhere in the unit:
 *  - Elo is the logistic model: s = 1 / (1 + 10^(-elo/400)), and back
 *    elo = -400 log10(1/s - 1).
 *  - Before that conversion the score is clamped into [m, 1 - m] with
 *    m = 1/(2N + 2), N the number of games: m is the score of N + 1 games
 *    whose only points are one draw, so a perfect record counts as if one
 *    more game had been drawn. A score inside the bounds is unchanged, so
 *    ordinary records give the textbook numbers; all wins, all losses and
 *    no games give finite Elo. With N = 0 the bounds meet at 0.5 (Elo 0).
 *  - The 95% interval is the normal approximation s +- 1.96 sqrt(var/N) of
 *    the clamped score, each end clamped again, then converted to Elo. The
 *    per-game variance is floored at m(1 - m) (a Bernoulli at the clamp
 *    bound) so that all wins or all draws still give an interval of
 *    positive, finite width; ordinary records are far above the floor.
 *  - Pentanomial statistics treat a pair of games as one sample whose score
 *    is its points / 2 (0, 0.25, 0.5, 0.75, 1); m uses N = 2 * pairs and
 *    the per-pair variance floor is m(1 - m) / 2. */
#ifndef MB_RATING_H
#define MB_RATING_H

#define RATING_Z95 1.959963984540054 /* two-sided 95% normal quantile */

/* Score, variance and Elo with a 95% interval, from games or pairs. */
typedef struct RatingStats {
    double n;        /* samples: games (trinomial) or pairs (pentanomial) */
    double score;    /* mean score per game in [0, 1], not clamped */
    double var;      /* variance of one sample's score (floored, see above) */
    double elo;      /* Elo of the clamped score */
    double elo_lo;   /* lower end of the 95% interval */
    double elo_hi;   /* upper end of the 95% interval */
    double score_lo; /* the interval's ends as scores */
    double score_hi;
} RatingStats;

typedef enum SprtDecision {
    SPRT_CONTINUE = 0, /* the LLR is between the bounds */
    SPRT_ACCEPT_H0,    /* LLR <= lower: elo0 (no improvement) accepted */
    SPRT_ACCEPT_H1     /* LLR >= upper: elo1 accepted */
} SprtDecision;

/* An SPRT state: the log-likelihood ratio, its bounds and the verdict. */
typedef struct SprtResult {
    double llr;   /* generalized log-likelihood ratio of H1 against H0 */
    double lower; /* log(beta / (1 - alpha)) */
    double upper; /* log((1 - beta) / alpha) */
    SprtDecision decision;
} SprtResult;

/* A fitted player: Elo relative to the players' mean, +- its 95% half-width. */
typedef struct RatingFit {
    double elo;   /* Elo minus the mean Elo of all players */
    double error; /* 95% half-width of elo (finite; 0 only when n = 1) */
} RatingFit;

/* Elo of a score in (0, 1) (logistic); +-inf at 1 and 0, nan outside. */
double rating_elo_of_score(double s);
/* Expected score of an Elo difference (logistic). */
double rating_score_of_elo(double elo);
/* Standard normal cumulative distribution function Phi(x). */
double rating_phi(double x);
/* Stats of W wins, L losses, D draws; MB_EINVAL if a count is negative. */
int rating_trinomial(double w, double l, double d, RatingStats *out);
/* Stats of pairs: pairs[k] = count of pairs scoring k/2 points (k = 0..4). */
int rating_pentanomial(const double pairs[5], RatingStats *out);
/* Likelihood of superiority Phi((W-L)/sqrt(W+L)); 0.5 when W + L = 0. */
double rating_los(double w, double l);
/* SPRT (GSPRT, logistic Elo) of a W/L/D record; MB_EINVAL on bad args. */
int rating_sprt_trinomial(double w, double l, double d, double elo0, double elo1, double alpha,
                          double beta, SprtResult *out);
/* SPRT (GSPRT, logistic Elo) of pentanomial pair counts; as above. */
int rating_sprt_pentanomial(const double pairs[5], double elo0, double elo1, double alpha,
                            double beta, SprtResult *out);
/* Bradley-Terry fit of n players: score[i*n+j] = points i took from j in
 * games[i*n+j] games (symmetric); out[n]; MB_EINVAL/MB_ENOMEM. */
int rating_fit(int n, const double *score, const double *games, RatingFit *out);

#endif
