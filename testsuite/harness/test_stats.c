/*
 * test_stats.c: hn_timing_summarise on known sample sets (odd and even n,
 * duplicates, n = 0 and 1, NaN samples) and hn_speedup's significance
 * rules.
 */
#include <math.h>

#include "harness.h"

#include "check.h"

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-12 * (fabs(a) + fabs(b) + 1);
}

static hn_timing summary(double *samples, size_t n)
{
    hn_timing t;
    hn_timing_summarise(samples, n, &t);
    return t;
}

static void test_summaries(void)
{
    hn_timing t = summary(NULL, 0);
    CHECK(t.runs == 0 && t.median_ms == 0 && t.min_ms == 0 && t.max_ms == 0);
    CHECK(t.p25_ms == 0 && t.p75_ms == 0);

    double one[1] = {2.5};
    t = summary(one, 1);
    CHECK(t.runs == 1 && t.median_ms == 2.5 && t.min_ms == 2.5 && t.max_ms == 2.5);
    CHECK(t.p25_ms == 2.5 && t.p75_ms == 2.5);

    /* odd n, unsorted: sorted 1 2 3 4 5; type 7: p25 at h=1, p75 at h=3 */
    double odd[5] = {5, 1, 4, 2, 3};
    t = summary(odd, 5);
    CHECK(t.runs == 5 && t.median_ms == 3 && t.min_ms == 1 && t.max_ms == 5);
    CHECK(t.p25_ms == 2 && t.p75_ms == 4);
    CHECK(odd[0] == 1 && odd[4] == 5); /* sorted in place */

    /* even n: sorted 1 2 3 4; median 2.5, p25 at h=0.75 -> 1.75, p75 at
     * h=2.25 -> 3.25 (NumPy gives the same) */
    double even[4] = {4, 3, 2, 1};
    t = summary(even, 4);
    CHECK(t.runs == 4 && near(t.median_ms, 2.5) && t.min_ms == 1 && t.max_ms == 4);
    CHECK(near(t.p25_ms, 1.75) && near(t.p75_ms, 3.25));

    double two[2] = {10, 20};
    t = summary(two, 2);
    CHECK(near(t.median_ms, 15) && near(t.p25_ms, 12.5) && near(t.p75_ms, 17.5));

    /* duplicates */
    double dup[6] = {7, 7, 7, 7, 7, 7};
    t = summary(dup, 6);
    CHECK(t.median_ms == 7 && t.p25_ms == 7 && t.p75_ms == 7 && t.min_ms == 7 && t.max_ms == 7);
    double dup2[7] = {3, 1, 3, 3, 9, 1, 3};
    t = summary(dup2, 7); /* 1 1 3 3 3 3 9 */
    CHECK(t.median_ms == 3 && t.p25_ms == 2 && t.p75_ms == 3 && t.min_ms == 1 && t.max_ms == 9);

    /* ten values 0.1 .. 1.0: median 0.55, p25 h=2.25 -> 0.325, p75 h=6.75 -> 0.775 */
    double ten[10] = {1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1};
    t = summary(ten, 10);
    CHECK(near(t.median_ms, 0.55) && near(t.p25_ms, 0.325) && near(t.p75_ms, 0.775));
    CHECK(t.runs == 10 && t.min_ms == 0.1 && t.max_ms == 1.0);

    /* NaN samples are failed measurements: left out */
    double with_nan[5] = {NAN, 3, 1, NAN, 2};
    t = summary(with_nan, 5);
    CHECK(t.runs == 3 && t.median_ms == 2 && t.min_ms == 1 && t.max_ms == 3);
    CHECK(near(t.p25_ms, 1.5) && near(t.p75_ms, 2.5));
    double all_nan[2] = {NAN, NAN};
    t = summary(all_nan, 2);
    CHECK(t.runs == 0 && t.median_ms == 0);

    /* a large set: 1..1001, quantiles land on samples */
    enum { N = 1001 };
    double big[N];
    for (int i = 0; i < N; i++)
        big[i] = (double)((i * 389) % N + 1); /* a permutation of 1..1001 */
    t = summary(big, N);
    CHECK(t.runs == N && t.median_ms == 501 && t.p25_ms == 251 && t.p75_ms == 751);
    CHECK(t.min_ms == 1 && t.max_ms == 1001);
}

static hn_timing timing(size_t runs, double p25, double median, double p75)
{
    return (hn_timing){runs, median, p25 - 1e-3, p75 + 1e-3, p25, p75};
}

static void test_speedup(void)
{
    int sig = 99;
    hn_timing a = timing(10, 9, 10, 11);

    /* clearly faster: b's p75 below a's p25 */
    hn_timing b = timing(10, 4, 5, 6);
    CHECK(near(hn_speedup(&a, &b, &sig), 2.0) && sig == 1);
    /* clearly slower */
    sig = 99;
    CHECK(near(hn_speedup(&b, &a, &sig), 0.5) && sig == -1);
    /* overlapping spreads: noise, even though the medians differ */
    b = timing(10, 8.5, 9.5, 10.5);
    sig = 99;
    CHECK(near(hn_speedup(&a, &b, &sig), 10 / 9.5) && sig == 0);
    /* touching is not beyond: b.p75 == a.p25 */
    b = timing(10, 7, 8, 9);
    sig = 99;
    CHECK(near(hn_speedup(&a, &b, &sig), 1.25) && sig == 0);
    b = timing(10, 11, 12, 13); /* b.p25 == a.p75 */
    sig = 99;
    hn_speedup(&a, &b, &sig);
    CHECK(sig == 0);
    /* just beyond */
    b = timing(10, 7, 8, 8.999);
    CHECK(hn_speedup(&a, &b, &sig) > 1 && sig == 1);
    b = timing(10, 11.001, 12, 13);
    CHECK(hn_speedup(&a, &b, &sig) < 1 && sig == -1);
    /* identical */
    CHECK(hn_speedup(&a, &a, &sig) == 1.0 && sig == 0);
    /* significant may be NULL */
    b = timing(10, 4, 5, 6);
    CHECK(near(hn_speedup(&a, &b, NULL), 2.0));
    /* a single run has no spread: never significant */
    hn_timing single = timing(1, 1, 1, 1);
    single.min_ms = single.max_ms = 1;
    CHECK(near(hn_speedup(&a, &single, &sig), 10) && sig == 0);
    CHECK(near(hn_speedup(&single, &a, &sig), 0.1) && sig == 0);
    /* no runs, zero or NaN medians: 0 and not significant */
    hn_timing none = {0};
    sig = 99;
    CHECK(hn_speedup(&a, &none, &sig) == 0 && sig == 0);
    sig = 99;
    CHECK(hn_speedup(&none, &a, &sig) == 0 && sig == 0);
    hn_timing zero = timing(10, 0, 0, 0);
    CHECK(hn_speedup(&a, &zero, &sig) == 0 && sig == 0);
    hn_timing nan_median = timing(10, 1, NAN, 2);
    CHECK(hn_speedup(&a, &nan_median, &sig) == 0 && sig == 0);

    /* end to end from samples */
    double slow[7] = {10.2, 10.0, 10.1, 9.9, 10.3, 10.0, 9.8};
    double fast[7] = {5.1, 5.0, 4.9, 5.2, 5.0, 5.05, 4.95};
    double noisy[7] = {6, 14, 9, 11, 10, 8, 12};
    hn_timing ts, tf, tn;
    hn_timing_summarise(slow, 7, &ts);
    hn_timing_summarise(fast, 7, &tf);
    hn_timing_summarise(noisy, 7, &tn);
    CHECK(near(hn_speedup(&ts, &tf, &sig), 2.0) && sig == 1);
    CHECK(near(hn_speedup(&ts, &tn, &sig), 1.0) && sig == 0);
}

int main(void)
{
    test_summaries();
    test_speedup();
    return CHECK_REPORT("test_stats");
}
