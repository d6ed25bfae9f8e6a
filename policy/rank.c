/*
 * rank.c: the order in which the search tries candidates.  By the chooser's
 * score (ties in the order given), then spread over families: variants of
 * one idea with different factors (regblock2x2/4x2/4x4, unroll2/4/8,
 * warp_rows/4/8, split_loop/256) share their features' weights and so score
 * alike, and three of them first would spend a round on one idea.  With
 * diversify, each family's best-scored member comes first (in score order),
 * then each family's second, and so on.  Families are the catalogue's
 * (catalogue.c).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* the family of the n bytes at name (catalogue.c); a name the catalogue
 * does not know is its own family */
static void family_of(const char *name, size_t n, const char **family, size_t *len)
{
    long t = pol_transform_index(name, n);
    if (t >= 0) {
        *family = pol_catalogue_at((size_t)t)->family;
        *len = strlen(*family);
    } else {
        *family = name;
        *len = n;
    }
}

int pol_same_family(const char *a, const char *b)
{
    for (;;) {
        size_t la = strcspn(a, "+"), lb = strcspn(b, "+");
        const char *ma, *mb;
        size_t fa, fb;
        family_of(a, la, &ma, &fa);
        family_of(b, lb, &mb, &fb);
        if (fa != fb || strncmp(ma, mb, fa) != 0)
            return 0;
        a += la, b += lb;
        if (!*a || !*b)
            return !*a && !*b;
        a++, b++;
    }
}

typedef struct {
    size_t index;
    double score;
    size_t rank_in_family;
    int measured;
} ranked;

static int by_rank(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    if (a->rank_in_family != b->rank_in_family)
        return a->rank_in_family < b->rank_in_family ? -1 : 1;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

int pol_rank(const pol_chooser *c, const double features[POL_NFEATURES], const char *const *labels,
             size_t n, int diversify, size_t *order)
{
    ranked *r = malloc((n ? n : 1) * sizeof *r);
    if (!r)
        return -1;
    for (size_t i = 0; i < n; i++)
        r[i] = (ranked){i, c ? pol_chooser_score(c, features, labels[i]) : 0, 0,
                        pol_chooser_measured(c, labels[i])};
    /* a label never measured takes the score of its family's best measured
     * label, just under it (the measured one first) */
    int *borrowed = calloc(n ? n : 1, sizeof *borrowed);
    if (!borrowed) {
        free(r);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (r[i].measured)
            continue;
        for (size_t j = 0; j < n; j++)
            if (r[j].measured && pol_same_family(labels[i], labels[j]) &&
                (!borrowed[i] || r[j].score > r[i].score + 1e-9)) {
                r[i].score = r[j].score - 1e-9;
                borrowed[i] = 1;
            }
    }
    qsort(r, n, sizeof *r, by_rank); /* by score: every rank is 0 yet */
    if (diversify) {
        /* a family's tiers count its measured labels; one that borrowed its
         * best's score shares that one's tier */
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < i; j++)
                if (pol_same_family(labels[r[i].index], labels[r[j].index]) &&
                    (r[j].measured || !borrowed[r[j].index]))
                    r[i].rank_in_family++;
            if (borrowed[r[i].index] && r[i].rank_in_family > 0)
                r[i].rank_in_family--;
        }
        qsort(r, n, sizeof *r, by_rank);
    }
    free(borrowed);
    for (size_t i = 0; i < n; i++)
        order[i] = r[i].index;
    free(r);
    return 0;
}
