/*
 * test_search.c FIXTURE: the built-in search's proposals for matmul in
 * the fixture: every applicable single first (catalogue order, or the
 * chooser's), then the best verified combination grown by each transform
 * that was not slower on its own; nothing tried twice; the budget kept.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "check.h"
#include "frontend.h"
#include "test_util.h"

static size_t propose(const pol_context *ctx, const pol_search_options *o, arena *a,
                      const char **labels, size_t max)
{
    pol_proposal_vec out = {0};
    size_t n = pol_builtin_propose(ctx, o, a, &out);
    for (size_t i = 0; i < n && i < max; i++)
        labels[i] = out.items[i].label;
    vec_free(&out);
    return n;
}

static int has(const char **labels, size_t n, const char *label)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(labels[i], label) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_search FIXTURE\n");
        return 2;
    }
    tu_model m;
    if (parse_fixture(argv[1], 1, NULL, 0, &m) != 0)
        return 1;
    size_t index = 0;
    while (index < m.kernels.len && strcmp(m.kernels.items[index].name, "matmul") != 0)
        index++;
    CHECK(index < m.kernels.len);
    if (index == m.kernels.len)
        return CHECK_REPORT("policy_search");
    arena a;
    arena_init(&a);
    const kernel *k = &m.kernels.items[index];
    pol_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.model = &m;
    ctx.kernel_index = index;
    ctx.kernel_source = fe_range_text(&m, &k->decl_range, &a);
    ctx.max_proposals = 16;
    pol_search_options so;
    memset(&so, 0, sizeof so);
    so.facts.block_threads = 256;
    so.facts.pointers_distinct = 1;

    /* round one: the singles that apply, in catalogue order */
    const char *l[16];
    size_t n = propose(&ctx, &so, &a, l, 16);
    CHECK(n == 8);
    const char *singles[] = {"regacc",  "restrict", "launch_bounds", "launch_bounds2",
                             "unroll2", "unroll4",  "unroll8",       "ldg"};
    for (size_t i = 0; i < 8 && i < n; i++)
        CHECK(strcmp(l[i], singles[i]) == 0);
    CHECK(!has(l, n, "fast_math")); /* not opted in */

    /* the budget */
    ctx.max_proposals = 2;
    CHECK(propose(&ctx, &so, &a, l, 16) == 2);
    ctx.max_proposals = 16;

    /* a chooser that learned unroll4 pays for kernels like this one puts it first */
    pol_chooser *c = pol_chooser_new();
    double f[POL_NFEATURES];
    pol_kernel_features(&m, k, &so.facts, f);
    const char *combos[] = {"unroll4", "regacc", "restrict"};
    double speed[] = {2.0, 1.0, 0.5};
    pol_chooser_learn(c, f, combos, speed, 3);
    so.chooser = c;
    n = propose(&ctx, &so, &a, l, 16);
    CHECK(n == 8 && strcmp(l[0], "unroll4") == 0);
    so.chooser = NULL;

    /* random order: the same set, shuffled reproducibly */
    so.random_order = 1;
    so.seed = 7;
    const char *r1[16], *r2[16];
    size_t n1 = propose(&ctx, &so, &a, r1, 16), n2 = propose(&ctx, &so, &a, r2, 16);
    CHECK(n1 == 8 && n2 == 8);
    for (size_t i = 0; i < 8 && i < n1; i++) {
        CHECK(strcmp(r1[i], r2[i]) == 0);
        CHECK(has(r1, n1, singles[i]));
    }
    so.random_order = 0;

    /* round two: the best grown by each single that passed and was not slower */
    pol_sample h[16];
    const char *verdicts[] = {"pass", "pass", "pass", "pass", "pass", "wrong", "pass", "crash"};
    double speeds[] = {3.0, 2.0, 1.0, 0.7, 0.8, NAN, 1.0, NAN};
    for (size_t i = 0; i < 8; i++) {
        h[i].label = singles[i];
        h[i].verdict = verdicts[i];
        h[i].speedup = speeds[i];
        const char *why;
        strbuf err;
        sb_init(&err);
        CHECK(pol_apply_combination(singles[i], &m, k, &so.facts, &a, &h[i].source, &why, &err) == 0);
        sb_free(&err);
    }
    ctx.history = h;
    ctx.n_history = 8;
    n = propose(&ctx, &so, &a, l, 16);
    CHECK(n == 3);
    CHECK(has(l, n, "regacc+restrict"));
    CHECK(has(l, n, "regacc+launch_bounds"));
    CHECK(has(l, n, "regacc+unroll8"));
    CHECK(!has(l, n, "regacc+unroll2")); /* slower alone */
    CHECK(!has(l, n, "regacc+unroll4")); /* wrong alone */
    CHECK(!has(l, n, "regacc+ldg"));     /* crashed alone */
    CHECK(!has(l, n, "regacc+launch_bounds2")); /* slower alone */

    /* round three: grow the new best */
    h[8] = (pol_sample){NULL, "regacc+restrict", "pass", 3.5};
    h[9] = (pol_sample){NULL, "regacc+launch_bounds", "pass", 2.9};
    h[10] = (pol_sample){NULL, "regacc+unroll8", "pass", 3.1};
    ctx.n_history = 11;
    n = propose(&ctx, &so, &a, l, 16);
    CHECK(n == 2);
    CHECK(has(l, n, "regacc+restrict+launch_bounds"));
    CHECK(has(l, n, "regacc+restrict+unroll8"));

    /* a proposal whose text was tried under another name is not tried again */
    const char *why;
    strbuf err;
    sb_init(&err);
    CHECK(pol_apply_combination("regacc+restrict+unroll8", &m, k, &so.facts, &a, &h[11].source, &why,
                                &err) == 0);
    sb_free(&err);
    h[11].label = "llm:model #1";
    h[11].verdict = "pass";
    h[11].speedup = 3.0;
    ctx.n_history = 12;
    n = propose(&ctx, &so, &a, l, 16);
    CHECK(n == 1 && strcmp(l[0], "regacc+restrict+launch_bounds") == 0);

    /* nothing faster than the original: the search ends after the singles */
    for (size_t i = 0; i < 8; i++)
        h[i].speedup = 1.0;
    ctx.n_history = 8;
    CHECK(propose(&ctx, &so, &a, l, 16) == 0);

    pol_chooser_free(c);
    arena_free(&a);
    model_free(&m);
    return CHECK_REPORT("policy_search");
}
