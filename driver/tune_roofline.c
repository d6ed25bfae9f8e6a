/*
 * tune_roofline.c: where `cl1cc tune` spends its evaluations: a kernel's
 * best time so far against its roofline limit (the judge measures it), and
 * the share of a round that headroom earns (docs/TUNING.md, "Roofline").
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tune.h"

double tune_best_pct_of_limit(const tune_target *tk)
{
    double ms = tk->best_speedup > 1 && isfinite(tk->best_ms) ? tk->best_ms : tk->row.baseline_ms;
    if (!isfinite(tk->row.limit_ms) || !isfinite(ms) || !(ms > 0))
        return NAN;
    return 100.0 * tk->row.limit_ms / ms;
}

/* threads a launch needs at the least to fill a GPU of this class (132
 * SMs of 2048 threads hold 270336: under 16384 most of it idles) */
#define FEW_THREADS 16384LL

void tune_far_reason(const tune_target *tk, char *out, size_t len)
{
    out[0] = '\0';
    double pct = tune_best_pct_of_limit(tk);
    if (!isfinite(pct) || pct >= TUNE_FAR_PCT)
        return;
    double ms = tk->best_speedup > 1 && isfinite(tk->best_ms) ? tk->best_ms : tk->row.baseline_ms;
    const pol_facts *f = &tk->facts;
    long long threads = f->block_threads;
    for (int d = 0; d < 3; d++)
        threads *= f->grid_max[d] ? (long long)f->grid_max[d] : 1;
    if (ms < 0.010)
        snprintf(out, len, "launch-bound: %.1f us a launch", ms * 1e3);
    else if (threads > 0 && threads < FEW_THREADS)
        snprintf(out, len, "%lld threads at most: too few to fill the GPU", threads);
    else if (tk->original && strstr(tk->original, "atomic"))
        snprintf(out, len, "atomics: their contention is not in the limit");
    else if (!isfinite(tk->row.flops))
        snprintf(out, len, "its flops are not counted (a loop the roofline cannot bound): "
                           "the limit is its bytes alone");
    else
        snprintf(out, len, "no transform of the catalogue closes the gap");
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
