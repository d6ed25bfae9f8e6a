/*
 * chooser_replay.c [--diverse] MODEL.json [BUDGET...]: how the learned
 * chooser orders the single transforms against random order at equal
 * budget, replayed on the measurements a model holds.  For each kernel the
 * chooser is trained on every other kernel (leave one out), its top BUDGET
 * transforms in the search's order (pol_rank by score; --diverse: spread
 * over families, an order the search does not use) are "tried", and the best measured
 * speedup among them is the result; random order gives the expected best
 * over every subset of that size.  Prints a table and the geomeans.
 * --save OUT first writes the model as loaded (refitted on its
 * observations, with the catalogue as built) to OUT.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"

static int is_single(const char *c)
{
    return strchr(c, '+') == NULL;
}

/* expected max over all k-subsets of v[0..n) */
static double expected_best(const double *v, size_t n, size_t k)
{
    if (k >= n) {
        double m = 0;
        for (size_t i = 0; i < n; i++)
            m = v[i] > m ? v[i] : m;
        return m;
    }
    double sum = 0;
    size_t count = 0;
    for (unsigned mask = 0; mask < (1u << n); mask++) {
        if ((size_t)__builtin_popcount(mask) != k)
            continue;
        double m = 0;
        for (size_t i = 0; i < n; i++)
            if (mask & (1u << i))
                m = v[i] > m ? v[i] : m;
        sum += m;
        count++;
    }
    return count ? sum / (double)count : 0;
}

int main(int argc, char **argv)
{
    int diversify = 0;
    const char *save = NULL;
    for (;;) {
        if (argc > 1 && strcmp(argv[1], "--diverse") == 0) {
            diversify = 1;
            argv++, argc--;
        } else if (argc > 2 && strcmp(argv[1], "--save") == 0) {
            save = argv[2];
            argv += 2, argc -= 2;
        } else {
            break;
        }
    }
    if (argc < 2) {
        fprintf(stderr, "usage: chooser_replay [--diverse] [--save OUT] MODEL.json [BUDGET...]\n");
        return 2;
    }
    strbuf err;
    sb_init(&err);
    pol_chooser *all;
    if (pol_chooser_load(argv[1], &all, &err) != 0) {
        fprintf(stderr, "chooser_replay: %s\n", sb_str(&err));
        return 1;
    }
    if (save && pol_chooser_save(all, save, &err) != 0) {
        fprintf(stderr, "chooser_replay: %s\n", sb_str(&err));
        return 1;
    }
    int budgets[8] = {1, 2, 3};
    int nb = 3;
    if (argc > 2) {
        nb = 0;
        for (int i = 2; i < argc && nb < 8; i++)
            budgets[nb++] = atoi(argv[i]);
    }
    size_t n_obs = pol_chooser_observation_count(all);
    double log_learned[8] = {0}, log_random[8] = {0}, log_best = 0;
    size_t kernels = 0;
    printf("%-7s %-8s", "kernel", "best");
    for (int b = 0; b < nb; b++)
        printf("  learned@%d random@%d", budgets[b], budgets[b]);
    printf("\n");
    for (size_t i = 0; i < n_obs; i++) {
        const double *f, *sp;
        const char *const *cs;
        size_t n;
        pol_chooser_observation(all, i, &f, &cs, &sp, &n);
        /* the singles measured for this kernel */
        const char *names[16];
        double speed[16];
        size_t ns = 0;
        for (size_t v = 0; v < n && ns < 16; v++)
            if (is_single(cs[v])) {
                names[ns] = cs[v];
                speed[ns++] = sp[v] > 0 ? sp[v] : 1e-3;
            }
        if (ns < 2)
            continue;
        pol_chooser *loo = pol_chooser_new();
        for (size_t j = 0; j < n_obs; j++) {
            const double *f2, *sp2;
            const char *const *cs2;
            size_t n2;
            if (j != i && pol_chooser_observation(all, j, &f2, &cs2, &sp2, &n2) == 0)
                pol_chooser_learn(loo, f2, cs2, sp2, n2);
        }
        /* the search's order, ties in catalogue order (the order measured) */
        size_t order[16];
        if (pol_rank(loo, f, names, ns, diversify, order) != 0) {
            fprintf(stderr, "chooser_replay: out of memory\n");
            return 1;
        }
        double best = 0;
        for (size_t k = 0; k < ns; k++)
            best = speed[k] > best ? speed[k] : best;
        printf("%-7zu %-8.2f", i, best);
        for (int b = 0; b < nb; b++) {
            double got = 0;
            for (int k = 0; k < budgets[b] && (size_t)k < ns; k++)
                got = speed[order[k]] > got ? speed[order[k]] : got;
            double rnd = expected_best(speed, ns, (size_t)budgets[b]);
            printf("  %9.2f %8.2f", got, rnd);
            log_learned[b] += log(got);
            log_random[b] += log(rnd);
        }
        printf("   (first: %s)\n", names[order[0]]);
        log_best += log(best);
        kernels++;
        pol_chooser_free(loo);
    }
    if (kernels) {
        printf("geomean over %zu kernels: best single %.2fx", kernels, exp(log_best / (double)kernels));
        for (int b = 0; b < nb; b++)
            printf("; budget %d: learned %.2fx, random %.2fx", budgets[b],
                   exp(log_learned[b] / (double)kernels), exp(log_random[b] / (double)kernels));
        printf("\n");
    }
    pol_chooser_free(all);
    sb_free(&err);
    return 0;
}
