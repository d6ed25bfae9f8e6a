/*
 * features.c: what the chooser knows of a kernel: a few counts over its
 * body and parameters, scaled to about [0, 1], and how far its best time
 * is from its roofline limit once that is measured.
 */
#include <math.h>
#include <string.h>

#include "internal.h"

static const char *const feature_names[POL_NFEATURES] = {
    "bias",          "loops",           "max_loop_depth",  "writes_in_loops",
    "pointer_params", "unqualified_pointers", "subscripts_in_loops", "innermost_for_loops",
    "math_calls",    "barriers",        "two_dimensional", "block_threads_log2",
    "headroom",
};

const char *pol_feature_name(size_t i)
{
    return i < POL_NFEATURES ? feature_names[i] : NULL;
}

static double squash(double count)
{
    return log1p(count) / log(16.0);
}

void pol_kernel_features(const tu_model *m, const kernel *k, const pol_facts *f,
                         double out[POL_NFEATURES])
{
    memset(out, 0, POL_NFEATURES * sizeof out[0]);
    double loops = 0, depth = 0, writes = 0, subs = 0, innermost = 0, calls = 0, syncs = 0;
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *n = &k->body.items[i];
        if (n->kind == BODY_LOOP) {
            loops++;
            if (n->loop_depth + 1 > depth)
                depth = n->loop_depth + 1;
            if (!n->has_inner_loop && n->loop_kind && strcmp(n->loop_kind, "for") == 0)
                innermost++;
        }
        if (n->kind == BODY_SUBSCRIPT && n->loop_depth > 0) {
            subs++;
            writes += n->is_write;
        }
        if (n->kind == BODY_CALL)
            calls++;
        if (n->kind == BODY_SYNC)
            syncs++;
    }
    double pointers = 0, unqualified = 0;
    for (size_t i = 0; i < k->params.len; i++) {
        pointers += k->params.items[i].is_pointer;
        unqualified += k->params.items[i].is_pointer && !k->params.items[i].is_restrict;
    }
    arena a;
    arena_init(&a);
    const char *body = pol_text(m, &k->body_range, &a);
    out[0] = 1;
    out[1] = squash(loops);
    out[2] = depth / 4;
    out[3] = squash(writes);
    out[4] = squash(pointers);
    out[5] = squash(unqualified);
    out[6] = squash(subs);
    out[7] = squash(innermost);
    out[8] = squash(calls);
    out[9] = squash(syncs);
    out[10] = strstr(body, "threadIdx.y") != NULL;
    out[11] = f && f->block_threads > 0 ? log2((double)f->block_threads) / 10 : 0;
    /* known once a judgement measured the kernel against its roofline */
    out[POL_FEATURE_HEADROOM] = f && f->headroom > 0 && f->headroom <= 1 ? f->headroom : 0;
    arena_free(&a);
}
