/*
 * tune_roofline.c: where `cl1cc tune` spends its evaluations: a kernel's
 * best time so far against its roofline limit (the judge measures it), and
 * the share of a round that headroom earns (docs/TUNING.md, "Roofline").
 */
#include <math.h>

#include "tune.h"

double tune_best_pct_of_limit(const tune_target *tk)
{
    double ms = tk->best_speedup > 1 && isfinite(tk->best_ms) ? tk->best_ms : tk->row.baseline_ms;
    if (!isfinite(tk->row.limit_ms) || !isfinite(ms) || !(ms > 0))
        return NAN;
    return 100.0 * tk->row.limit_ms / ms;
}

/* A kernel far from its limit gets up to half as many proposals again as
 * per_round, one at its limit half as many (at least 1); unknown: per_round */
int tune_round_share(const tune_target *tk, int per_round)
{
    double pct = tune_best_pct_of_limit(tk);
    if (!isfinite(pct) || per_round <= 0)
        return per_round;
    double headroom = 1 - fmin(1, fmax(0, pct / 100));
    int share = (int)lround(per_round * (0.5 + headroom));
    return share < 1 ? 1 : share;
}
