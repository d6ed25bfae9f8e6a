/*
 * stats.c: summaries of repeated kernel timings (median and quartiles) and
 * the speedup of one variant over another, with whether the difference is
 * beyond the run-to-run spread.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* Ascending, with NaN after every number so that the order is total. */
static int compare_samples(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    if (isnan(a) || isnan(b))
        return isnan(a) - isnan(b);
    return (a > b) - (a < b);
}

/* The quantile q of sorted[0..n-1], n >= 1, by linear interpolation between
 * the closest ranks: h = (n-1)q, x[floor h] + (h - floor h)(x[floor h+1] -
 * x[floor h]).  This is Hyndman and Fan's type 7, the default of R and
 * NumPy. */
static double quantile(const double *sorted, size_t n, double q)
{
    double h = (double)(n - 1) * q;
    size_t lo = (size_t)h;
    if (lo + 1 >= n)
        return sorted[n - 1];
    double frac = h - (double)lo;
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

void hn_timing_summarise(double *samples_ms, size_t n, hn_timing *out)
{
    CL_ASSERT(out != NULL);
    CL_ASSERT(samples_ms != NULL || n == 0);
    memset(out, 0, sizeof *out);
    if (n == 0)
        return;
    qsort(samples_ms, n, sizeof *samples_ms, compare_samples);
    while (n > 0 && isnan(samples_ms[n - 1])) /* failed measurements */
        n--;
    if (n == 0)
        return;
    out->runs = n;
    out->min_ms = samples_ms[0];
    out->max_ms = samples_ms[n - 1];
    out->p25_ms = quantile(samples_ms, n, 0.25);
    out->median_ms = quantile(samples_ms, n, 0.5);
    out->p75_ms = quantile(samples_ms, n, 0.75);
}

double hn_speedup(const hn_timing *a, const hn_timing *b, int *significant)
{
    CL_ASSERT(a != NULL && b != NULL);
    if (significant)
        *significant = 0;
    if (a->runs == 0 || b->runs == 0 || !(a->median_ms > 0) || !(b->median_ms > 0))
        return 0;
    /* a single run has no spread: nothing is beyond the noise */
    if (significant && a->runs >= 2 && b->runs >= 2) {
        if (b->p75_ms < a->p25_ms)
            *significant = 1;
        else if (b->p25_ms > a->p75_ms)
            *significant = -1;
    }
    return a->median_ms / b->median_ms;
}
