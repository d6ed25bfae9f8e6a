/*
 * transform_sweep.c: `sweep8`, `sweep16` (a thread's sequential walk, its
 * loads issued T steps ahead).  In "t = blockIdx.x*blockDim.x + threadIdx.x;
 * if (G) { for (int v = L; v < U; v++) { W[..] = EXPR; ... } }" each thread
 * walks its own line (a row "A[t*N + v]" or a column "A[v*N + t]", forward
 * or backward: adi's sweeps, a tridiagonal solve, a recurrence along a
 * row), one step after another, and each step waits for its loads: on
 * PolyBench's adi (1024 threads: 32 warps on 132 SMs) a step takes a
 * memory latency, 0.2-0.5 us.  The variant walks T steps at a time: first
 * every element the T steps read is loaded into registers (T independent
 * loads an array, one latency for all of them), then the T steps run as
 * they did, in order, their stores in place.  A read of an element an
 * earlier step of the same T wrote takes the value that step stored (a
 * register); one written before the T began is loaded after that store (in
 * the thread's program order), and one written later is read before it, as
 * the original read it.  Which element of a written array a read touches,
 * relative to the write, is decided at transform time by evaluating both
 * index expressions at random values of every name (the read at step s is
 * the write's element at step s + d for one d in [-16, 16], the same at
 * every trial; else refused).  Same operations in the same order: the
 * results are the original's bits.
 */
#include <stdio.h>
#include <string.h>

#include "sweep_plan.h"

/* ---- the variant ------------------------------------------------------------------ */

typedef struct replacement {
    size_t begin, end;
    const char *text;
} replacement;

/* the loop body with reads replaced and the stored values kept */
static const char *render_step(const kernel *k, const sweep_plan *s, arena *a)
{
    const stage_plan *p = &s->p;
    replacement r[2 * sweep_max_accesses];
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) {
        const sweep_access *x = &s->acc[i];
        const body_node *b = &k->body.items[x->node];
        if (!x->is_write) {
            const char *reg = arena_printf(a, "cl1_r%zu[cl1_s]", i);
            if (x->write >= 0 && x->forwarded_now)
                reg = arena_printf(a, "cl1_w%d[cl1_s]", x->write);
            else if (x->write >= 0 && x->distance < 0)
                reg = arena_printf(a, "(cl1_s + (%d) >= 0 ? cl1_w%d[cl1_s + (%d)] : cl1_r%zu[cl1_s])",
                                   x->distance, x->write, x->distance, i);
            r[n++] = (replacement){b->range.begin, b->range.end, reg};
            continue;
        }
        /* "W[i] = E" becomes "W[i] = cl1_wN[cl1_s] = E": the value kept */
        const body_node *as = sweep_assignment_of(k, x->node);
        if (as) {
            size_t eq = as->target.end;
            while (eq < p->len && p->text[eq] != '=')
                eq++;
            r[n++] = (replacement){eq + 1, eq + 1, arena_printf(a, " cl1_w%zu[cl1_s] =", i)};
        }
    }
    /* in order of position (the reads never overlap: no nested subscripts) */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && r[j].begin < r[j - 1].begin; j--) {
            replacement t = r[j];
            r[j] = r[j - 1];
            r[j - 1] = t;
        }
    strbuf sb;
    sb_init(&sb);
    size_t at = p->body_begin;
    for (size_t i = 0; i < n; i++) {
        sb_append(&sb, p->text + at, r[i].begin - at);
        sb_puts(&sb, r[i].text);
        at = r[i].end;
    }
    sb_append(&sb, p->text + at, p->body_end - at);
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

/* a read that needs its register loaded at step s: not the same step's
 * stored value, and for an earlier step's only where that step came
 * before this T */
static const char *load_condition(const sweep_access *x, arena *a)
{
    if (x->write < 0 || (x->distance >= 0 && !x->forwarded_now))
        return "true";
    if (x->forwarded_now)
        return NULL;
    return arena_printf(a, "cl1_s + (%d) < 0", x->distance);
}

int pol_transform_sweep(const tu_model *m, const kernel *k, const pol_facts *f, int steps, arena *a,
                        pol_edit_vec *out, const char **why)
{
    sweep_plan s;
    memset(&s, 0, sizeof s);
    if (sweep_analyse(m, k, f, &s, a, why))
        return 1;
    const stage_plan *p = &s.p;
    const char *v = p->loop_var, *vt = p->var_type;
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "if (%s) {\n", p->cond);
    sb_printf(&sb, "\tfor (%s cl1_v0 = (%s); cl1_v0 < (%s); cl1_v0 += %d) {\n", vt, p->lower, p->upper, steps);
    for (size_t i = 0; i < s.n; i++) {
        const sweep_access *x = &s.acc[i];
        if (x->is_write)
            sb_printf(&sb, "\t\t%s cl1_w%zu[%d];\n", x->type, i, steps);
        else if (load_condition(x, a))
            sb_printf(&sb, "\t\t%s cl1_r%zu[%d];\n", x->type, i, steps);
    }
    /* the loads of the T steps, before any of them runs */
    sb_printf(&sb, "\t\t#pragma unroll\n\t\tfor (int cl1_s = 0; cl1_s < %d; cl1_s++) {\n", steps);
    sb_printf(&sb, "\t\t\tconst %s %s = cl1_v0 + cl1_s;\n\t\t\tif (%s < (%s)) {\n", vt, v, v, p->upper);
    for (size_t i = 0; i < s.n; i++) {
        const sweep_access *x = &s.acc[i];
        const char *cond = x->is_write ? NULL : load_condition(x, a);
        if (!cond)
            continue;
        sb_printf(&sb, "\t\t\t\tif (%s) cl1_r%zu[cl1_s] = %s[%s];\n", cond, i, x->base, x->index);
    }
    sb_puts(&sb, "\t\t\t}\n\t\t}\n");
    /* the T steps, in order, their stores in place */
    sb_printf(&sb, "\t\t#pragma unroll\n\t\tfor (int cl1_s = 0; cl1_s < %d; cl1_s++) {\n", steps);
    sb_printf(&sb, "\t\t\tconst %s %s = cl1_v0 + cl1_s;\n\t\t\tif (%s < (%s))\n\t\t\t%s\n", vt, v, v, p->upper,
              render_step(k, &s, a));
    sb_puts(&sb, "\t\t}\n\t}\n");
    stage_replace_guard(k, p, sb_str(&sb), NULL, a, out);
    sb_free(&sb);
    return 0;
}
