/*
 * test_chooser.c: the chooser learns from measured variants which
 * transforms pay for which kernels, generalises through the features, and
 * keeps what it learned across a save and load.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "check.h"

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "chooser-test.json";
    /* a matrix-product-like kernel: updates in loops; an elementwise one */
    double product[POL_NFEATURES] = {1, 0.25, 0.25, 0.5, 0.5, 0.5, 0.6, 0.25, 0, 0, 1, 0.8};
    double elementwise[POL_NFEATURES] = {1, 0.25, 0.25, 0, 0.4, 0.4, 0.3, 0.25, 0.5, 0, 0, 0.8};

    pol_chooser *c = pol_chooser_new();
    CHECK(pol_chooser_score(c, product, "regacc") == 0);
    CHECK(pol_chooser_pairs_seen(c) == 0);

    const char *combos1[] = {"regacc", "unroll4", "restrict", "regacc+restrict"};
    double speed1[] = {3.5, 1.0, 0, 3.9};
    size_t pairs = pol_chooser_learn(c, product, combos1, speed1, 4);
    CHECK(pairs == 6); /* every pair differs */
    CHECK(pol_chooser_score(c, product, "regacc") > pol_chooser_score(c, product, "unroll4"));
    CHECK(pol_chooser_score(c, product, "unroll4") > pol_chooser_score(c, product, "restrict"));
    CHECK(pol_chooser_score(c, product, "regacc+restrict") >
          pol_chooser_score(c, product, "unroll4"));

    const char *combos2[] = {"regacc", "unroll4", "fast_math"};
    double speed2[] = {0, 1.3, 1.0};
    pol_chooser_learn(c, elementwise, combos2, speed2, 3);
    CHECK(pol_chooser_score(c, elementwise, "unroll4") >
          pol_chooser_score(c, elementwise, "regacc"));
    /* the product kernel still prefers regacc: the features tell them apart */
    CHECK(pol_chooser_score(c, product, "regacc") > pol_chooser_score(c, product, "unroll4"));

    /* the order kernels were tuned in does not matter */
    pol_chooser *reversed = pol_chooser_new();
    pol_chooser_learn(reversed, elementwise, combos2, speed2, 3);
    pol_chooser_learn(reversed, product, combos1, speed1, 4);
    for (size_t t = 0; t < pol_transform_count(); t++)
        CHECK(fabs(pol_chooser_score(c, product, pol_transform_name(t)) -
                   pol_chooser_score(reversed, product, pol_transform_name(t))) < 1e-6);
    pol_chooser_free(reversed);

    /* every transform of the catalogue learns, the last ones included (the
     * model once had room for 32 and ignored the rest) */
    {
        size_t n = pol_transform_count();
        CHECK(n >= 34);
        const char *last = pol_transform_name(n - 1), *before = pol_transform_name(n - 2);
        const char *combos[] = {last, before, "restrict"};
        double speeds[] = {0.5, 2.0, 1.0};
        pol_chooser *fresh = pol_chooser_new();
        CHECK(pol_chooser_learn(fresh, product, combos, speeds, 3) == 3);
        CHECK(pol_chooser_score(fresh, product, before) > pol_chooser_score(fresh, product, "restrict"));
        CHECK(pol_chooser_score(fresh, product, "restrict") > pol_chooser_score(fresh, product, last));
        pol_chooser_free(fresh);
    }

    /* every row of the catalogue is learnable: measured faster than another
     * transform, it scores higher; measured slower, lower (the model is
     * sized from the catalogue, nothing beyond a fixed bound is dropped) */
    for (size_t t = 0; t < pol_transform_count(); t++) {
        const char *name = pol_transform_name(t);
        const char *other = pol_transform_name(t == 0 ? 1 : 0);
        const char *combos[] = {name, other};
        double faster[] = {2.0, 1.0}, slower[] = {0.5, 1.0};
        pol_chooser *up = pol_chooser_new(), *down = pol_chooser_new();
        CHECK(pol_chooser_learn(up, product, combos, faster, 2) == 1);
        CHECK(pol_chooser_learn(down, product, combos, slower, 2) == 1);
        CHECK(pol_chooser_score(up, product, name) > pol_chooser_score(up, product, other));
        CHECK(pol_chooser_score(down, product, name) < pol_chooser_score(down, product, other));
        pol_chooser_free(up);
        pol_chooser_free(down);
        /* each transform is its own family's member, the names unique */
        CHECK(pol_same_family(name, name));
        for (size_t u = 0; u < t; u++)
            CHECK(strcmp(pol_transform_name(u), name) != 0);
    }
    CHECK(pol_transform_name(pol_transform_count()) == NULL);
    /* families come from the catalogue, not from the names' digits */
    CHECK(pol_same_family("block_wide2", "block_wide4"));
    CHECK(!pol_same_family("block_wide2", "block_narrow2"));
    CHECK(pol_same_family("grid_stride4", "grid_stride16"));
    CHECK(!pol_same_family("grid_stride4", "grid_sm"));
    CHECK(pol_same_family("col_split", "col_split8"));
    CHECK(pol_same_family("regblock2x1", "regblock4x4"));

    /* equal speedups teach nothing */
    const char *same[] = {"unroll2", "unroll8"};
    double flat[] = {1.0, 1.0};
    CHECK(pol_chooser_learn(c, product, same, flat, 2) == 0);

    strbuf err;
    sb_init(&err);
    CHECK(pol_chooser_save(c, path, &err) == 0);
    pol_chooser *back = NULL;
    CHECK(pol_chooser_load(path, &back, &err) == 0);
    if (back) {
        for (size_t t = 0; t < pol_transform_count(); t++) {
            const char *name = pol_transform_name(t);
            CHECK(fabs(pol_chooser_score(c, product, name) -
                       pol_chooser_score(back, product, name)) < 1e-4);
        }
        CHECK(pol_chooser_pairs_seen(back) == pol_chooser_pairs_seen(c));
    }
    pol_chooser_free(back);

    /* the search's order: by score, ties as given; --diverse spreads over families */
    CHECK(pol_same_family("regblock2x2", "regblock4x4"));
    CHECK(pol_same_family("unroll2", "unroll8"));
    CHECK(pol_same_family("warp_rows", "warp_rows8"));
    CHECK(pol_same_family("split_loop", "split_loop256"));
    CHECK(pol_same_family("restrict+unroll2", "restrict+unroll4"));
    CHECK(!pol_same_family("restrict+unroll2", "restrict"));
    CHECK(!pol_same_family("regacc", "restrict"));
    CHECK(!pol_same_family("warp_rows", "wide_rows"));
    {
        const char *labels[] = {"unroll2", "unroll4", "restrict", "regacc"};
        size_t order[4];
        CHECK(pol_rank(NULL, product, labels, 4, 0, order) == 0);
        CHECK(order[0] == 0 && order[1] == 1 && order[2] == 2 && order[3] == 3);
        CHECK(pol_rank(NULL, product, labels, 4, 1, order) == 0);
        CHECK(order[0] == 0 && order[1] == 2 && order[2] == 3 && order[3] == 1);
        const char *measured[] = {"unroll4", "restrict", "regacc", "regacc+restrict"};
        CHECK(pol_rank(c, product, measured, 4, 0, order) == 0);
        for (size_t i = 1; i < 4; i++)
            CHECK(pol_chooser_score(c, product, measured[order[i - 1]]) >=
                  pol_chooser_score(c, product, measured[order[i]]));
    }
    /* a label never measured (unroll2, unroll8: only unroll4 was) is tried
     * just after its family's best measured one, in the first tier */
    CHECK(pol_chooser_measured(c, "unroll4") && pol_chooser_measured(c, "regacc+restrict"));
    CHECK(!pol_chooser_measured(c, "unroll2") && !pol_chooser_measured(c, "regacc+unroll2"));
    CHECK(!pol_chooser_measured(NULL, "unroll4"));
    {
        const char *labels[] = {"unroll2", "restrict", "regacc", "unroll4", "fast_math"};
        size_t order[5];
        double s_unroll4 = pol_chooser_score(c, elementwise, "unroll4");
        CHECK(s_unroll4 > pol_chooser_score(c, elementwise, "regacc"));
        CHECK(pol_rank(c, elementwise, labels, 5, 0, order) == 0);
        /* unroll4 scores highest here: unroll2 comes right after it */
        CHECK(order[0] == 3 && order[1] == 0);
        CHECK(pol_rank(c, elementwise, labels, 5, 1, order) == 0);
        CHECK(order[0] == 3 && order[1] == 0);
        /* without a measured sibling among the labels it keeps its own score */
        const char *alone[] = {"unroll2", "restrict"};
        size_t o2[2];
        CHECK(pol_rank(c, elementwise, alone, 2, 1, o2) == 0);
        CHECK((pol_chooser_score(c, elementwise, "restrict") > 0) == (o2[0] == 1));
    }

    /* not a model: an error naming the file, nothing loaded */
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("{\"weights\": 3", f);
        fclose(f);
    }
    pol_chooser *bad = NULL;
    sb_clear(&err);
    CHECK(pol_chooser_load(path, &bad, &err) == -1);
    CHECK(bad == NULL);
    CHECK(strstr(sb_str(&err), path) != NULL);
    sb_clear(&err);
    CHECK(pol_chooser_load("/nonexistent/chooser.json", &bad, &err) == -1);

    sb_free(&err);
    pol_chooser_free(c);
    return CHECK_REPORT("policy_chooser");
}
