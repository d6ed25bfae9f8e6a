/*
 * search.c: the built-in policy's search over combinations of transforms
 * for one kernel.  Round one tries each transform that applies on its own,
 * in the chooser's order; later rounds extend the best verified
 * combination by one more transform that did not fail on its own, since
 * gains multiply and some transforms only pay after another.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "launch_rule.h"

typedef struct candidate {
    const char *label;
    const char *source;
} candidate;
typedef VEC(candidate) candidate_vec;

static const pol_sample *find_sample(const pol_context *ctx, const char *label)
{
    const pol_sample *found = NULL;
    for (size_t i = 0; i < ctx->n_history; i++)
        if (ctx->history[i].label && strcmp(ctx->history[i].label, label) == 0)
            found = &ctx->history[i];
    return found;
}

static int source_seen(const pol_context *ctx, const candidate_vec *c, const char *source)
{
    for (size_t i = 0; i < ctx->n_history; i++)
        if (ctx->history[i].source && strcmp(ctx->history[i].source, source) == 0)
            return 1;
    for (size_t i = 0; i < c->len; i++)
        if (strcmp(c->items[i].source, source) == 0)
            return 1;
    return 0;
}

static int passed(const pol_sample *s)
{
    return s && s->verdict && strcmp(s->verdict, "pass") == 0 && isfinite(s->speedup);
}

/* "b+a" in catalogue order */
static const char *combine(const char *base, const char *extra, arena *a)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t t = 0; t < pol_transform_count(); t++) {
        const char *name = pol_transform_name(t);
        int in = strcmp(name, extra) == 0;
        for (const char *p = base; p && *p && !in;) {
            const char *end = strchr(p, '+');
            size_t n = end ? (size_t)(end - p) : strlen(p);
            in = strlen(name) == n && strncmp(p, name, n) == 0;
            p = end ? end + 1 : NULL;
        }
        if (in) {
            if (sb.len)
                sb_puts(&sb, "+");
            sb_puts(&sb, name);
        }
    }
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

static void consider(const pol_context *ctx, const pol_search_options *o,
                     const char *label, arena *a, candidate_vec *out)
{
    if (find_sample(ctx, label))
        return;
    for (size_t i = 0; i < out->len; i++)
        if (strcmp(out->items[i].label, label) == 0)
            return;
    const kernel *k = &ctx->model->kernels.items[ctx->kernel_index];
    const char *source, *why;
    strbuf err;
    sb_init(&err);
    int rc = pol_apply_combination(label, ctx->model, k, &o->facts, a, &source, &why, &err);
    sb_free(&err);
    if (rc != 0 || source_seen(ctx, out, source) || strcmp(source, ctx->kernel_source) == 0)
        return;
    if (ctx->same_launch_only) {
        launch_rule rule = launch_rule_of(source);
        if (!launch_rule_is_none(&rule))
            return;
    }
    candidate c = {label, source};
    vec_push(out, c);
}

static void order(candidate_vec *c, const pol_search_options *o, const double *features)
{
    if (o->random_order) {
        unsigned long long s = o->seed * 2862933555777941757ULL + 3037000493ULL;
        for (size_t i = c->len; i > 1; i--) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            size_t j = (size_t)(s % i);
            candidate t = c->items[i - 1];
            c->items[i - 1] = c->items[j];
            c->items[j] = t;
        }
        return;
    }
    if (!o->chooser || c->len < 2)
        return;
    /* by score, catalogue order breaking ties (the order chooser_replay
     * replays); where memory runs out, catalogue order */
    const char **labels = malloc(c->len * sizeof *labels);
    size_t *rank = malloc(c->len * sizeof *rank);
    candidate *sorted = malloc(c->len * sizeof *sorted);
    if (labels && rank && sorted) {
        for (size_t i = 0; i < c->len; i++)
            labels[i] = c->items[i].label;
        if (pol_rank(o->chooser, features, labels, c->len, 0, rank) == 0) {
            for (size_t i = 0; i < c->len; i++)
                sorted[i] = c->items[rank[i]];
            memcpy(c->items, sorted, c->len * sizeof *sorted);
        }
    }
    free(labels), free(rank), free(sorted);
}

size_t pol_builtin_propose(const pol_context *ctx, const pol_search_options *o, arena *a,
                           pol_proposal_vec *out)
{
    const kernel *k = &ctx->model->kernels.items[ctx->kernel_index];
    double features[POL_NFEATURES];
    pol_kernel_features(ctx->model, k, &o->facts, features);
    candidate_vec c = {0};
    for (size_t t = 0; t < pol_transform_count(); t++)
        consider(ctx, o, pol_transform_name(t), a, &c);
    if (!c.len) {
        /* every single tried: grow the best verified combination */
        const pol_sample *best = NULL;
        for (size_t i = 0; i < ctx->n_history; i++)
            if (passed(&ctx->history[i]) && ctx->history[i].speedup > 1 &&
                (!best || ctx->history[i].speedup > best->speedup))
                best = &ctx->history[i];
        for (size_t t = 0; best && t < pol_transform_count(); t++) {
            const pol_sample *single = find_sample(ctx, pol_transform_name(t));
            if (passed(single) && single->speedup >= 0.9)
                consider(ctx, o, combine(best->label, pol_transform_name(t), a), a, &c);
        }
    }
    order(&c, o, features);
    size_t n = 0;
    for (size_t i = 0; i < c.len && (int)n < ctx->max_proposals; i++, n++) {
        pol_proposal p = {c.items[i].source, c.items[i].label, NULL};
        vec_push(out, p);
    }
    vec_free(&c);
    return n;
}
