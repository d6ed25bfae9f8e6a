/*
 * transform_sweep_lanes.c: `sweep_lanes`, `sweep_lanes4` (a thread's walk
 * whose steps read nothing an earlier step wrote, run by a warp).  In the
 * sweeps' kernels ("t = blockIdx.x*blockDim.x + threadIdx.x; if (G) { for
 * (int v = L; v < U; v++) { W[..] = EXPR; ... } }", sweep_plan.c) a thread
 * that walks a row makes every load of its warp touch 32 lines, one a
 * lane.  Where no read of a written array lies an earlier step away (its
 * distance to the write is 0 or more: it reads the element its own step
 * writes, or one a later step writes, the value from before the walk), the
 * steps depend on nothing but the walk's first values, and any number of
 * them may run at once as long as each reads before any of them writes.
 * adi's back substitution (X[N-2-v] = (X[N-2-v] - X[N-3-v] * A[..]) /
 * B[..]) is such a walk.  The variant gives each thread's walk a warp of
 * its own on a grid 32 times as tall (as `wide_rows`): the lanes take
 * consecutive steps, Q a lane at a time (32Q steps: lane l step v0 + 32q +
 * l), every read of those steps loaded first (a read of the element its
 * own step wrote before it stays where it is), then __syncwarp(), then the
 * steps, their stores in place (the next 32Q's barrier comes after every
 * lane's loads and stores of these: no other is needed).  A
 * row's steps touch neighbouring elements, so each load and store of a
 * warp is one or two lines.  Only where the write moves one element a step
 * (a walk along a column is the original's coalesced case already).  Each
 * step's operations are the original's: the results are its bits.
 */
#include <string.h>

#include "sweep_plan.h"

/* 1 when the step's index moves one element a step (either way) */
int sweep_moves_one_element(const char *index, const char *loop_var)
{
    for (int trial = 0; trial < 4; trial++) {
        uint64_t v0, v1;
        if (!sweep_eval_index(index, loop_var, 5 + (uint64_t)trial * 7, trial, &v0) ||
            !sweep_eval_index(index, loop_var, 6 + (uint64_t)trial * 7, trial, &v1))
            return 0;
        if (v1 - v0 != 1 && v0 - v1 != 1)
            return 0;
    }
    return 1;
}

int sweep_open_warp_walk(const tu_model *m, const kernel *k, const pol_facts *f, sweep_plan *s,
                         strbuf *sb, arena *a, int *factor, const char **why)
{
    memset(s, 0, sizeof *s);
    if (sweep_analyse(m, k, f, s, a, why))
        return 1;
    const stage_plan *p = &s->p;
    for (size_t i = 0; i < s->n; i++)
        if (s->acc[i].is_write && !sweep_moves_one_element(s->acc[i].index, p->loop_var)) {
            *why = "a write does not move one element a step: the walk is not along a row";
            return 1;
        }
    const char *def = pol_squeeze(arena_printf(a, "%.*s", (int)(k->decl_range.end - k->decl_range.begin),
                                               p->text + k->decl_range.begin), a);
    int threads = f->block[0] * f->block[1] * f->block[2];
    if (f->block[1] != 1 || f->block[2] != 1 || threads % 32) {
        *why = "the block is not one-dimensional whole warps";
        return 1;
    }
    if (strstr(def, "blockIdx.y") || strstr(def, "gridDim.y") || !f->flat_grid) {
        *why = "the kernel reads blockIdx.y or gridDim.y, which the taller grid changes, or a captured "
               "grid was not one block high and deep";
        return 1;
    }
    /* the walk's text runs on other threads and blocks: any name of
     * theirs in it would change (blockDim and gridDim.x stay) */
    const char *walk = arena_printf(a, "%s %s %s %.*s", p->cond, p->lower, p->upper,
                                    (int)(p->body_end - p->body_begin), p->text + p->body_begin);
    if (strstr(walk, "threadIdx") || strstr(walk, "blockIdx") || strstr(walk, "laneid") ||
        strstr(walk, "warpid")) {
        *why = "the walk reads threadIdx or blockIdx, which a warp a walk changes";
        return 1;
    }
    /* a warp a walk: the block's X walks on a grid X / warps times as tall */
    int warps = threads / 32;
    *factor = f->block[0] / warps;
    const char *t = p->thread_var[0], *bx, *by;
    sb_init(sb);
    stage_open_shape_guard(sb, f);
    sb_puts(sb, "\tconst int cl1_lane = threadIdx.x % 32;\n");
    pol_taller_block_ids(m, k, *factor, sb, &bx, &by);
    sb_printf(sb, "\tfor (int cl1_row = (int)(%s * %d + threadIdx.x / 32); cl1_row < %d; cl1_row += (int)(gridDim.y * %d)) {\n",
              by, warps, f->block[0], warps);
    sb_printf(sb, "\t\tconst decltype(%s) cl1_walk = (decltype(%s))(%s * %d + cl1_row);\n", t, t, bx, f->block[0]);
    sb_printf(sb, "\t\tconst auto %s = cl1_walk;\n", t);
    sb_printf(sb, "\t\tif (%s) {\n", p->cond);
    return 0;
}

/* a read this variant loads before the warp's steps: every read but one of
 * the element its own step has already stored */
static int loaded_first(const sweep_access *x)
{
    return !x->is_write && !(x->write >= 0 && x->forwarded_now);
}

/* a read loaded first: its register; anything else as written */
static const char *register_text(const sweep_plan *s, size_t i, void *ctx)
{
    arena *a = ctx;
    return loaded_first(&s->acc[i]) ? arena_printf(a, "cl1_r%zu[cl1_q]", i) : NULL;
}

int pol_transform_sweep_lanes(const tu_model *m, const kernel *k, const pol_facts *f, int per_lane,
                              arena *a, pol_edit_vec *out, const char **why)
{
    sweep_plan s;
    strbuf sb;
    int factor;
    if (sweep_open_warp_walk(m, k, f, &s, &sb, a, &factor, why))
        return 1;
    const stage_plan *p = &s.p;
    const char *v = p->loop_var, *vt = p->var_type;
    for (size_t i = 0; i < s.n; i++) {
        const sweep_access *x = &s.acc[i];
        if (!x->is_write && x->write >= 0 && x->distance < 0) {
            *why = "a step reads an element an earlier step wrote: the steps are a chain";
            sb_free(&sb);
            return 1;
        }
    }
    sb_printf(&sb, "\t\t\tfor (%s cl1_v0 = (%s); cl1_v0 < (%s); cl1_v0 += %d) {\n", vt, p->lower, p->upper,
              32 * per_lane);
    for (size_t i = 0; i < s.n; i++)
        if (loaded_first(&s.acc[i]))
            sb_printf(&sb, "\t\t\t\t%s cl1_r%zu[%d];\n", s.acc[i].type, i, per_lane);
    /* every read of the warp's steps, before any of them stores */
    sb_printf(&sb, "\t\t\t\t#pragma unroll\n\t\t\t\tfor (int cl1_q = 0; cl1_q < %d; cl1_q++) {\n", per_lane);
    sb_printf(&sb, "\t\t\t\t\tconst %s %s = cl1_v0 + cl1_q * 32 + cl1_lane;\n\t\t\t\t\tif (%s < (%s)) {\n", vt, v, v,
              p->upper);
    for (size_t i = 0; i < s.n; i++)
        if (loaded_first(&s.acc[i]))
            sb_printf(&sb, "\t\t\t\t\t\tcl1_r%zu[cl1_q] = %s[%s];\n", i, s.acc[i].base, s.acc[i].index);
    sb_puts(&sb, "\t\t\t\t\t}\n\t\t\t\t}\n\t\t\t\t__syncwarp();\n");
    /* the steps, their stores in place */
    sb_printf(&sb, "\t\t\t\t#pragma unroll\n\t\t\t\tfor (int cl1_q = 0; cl1_q < %d; cl1_q++) {\n", per_lane);
    sb_printf(&sb, "\t\t\t\t\tconst %s %s = cl1_v0 + cl1_q * 32 + cl1_lane;\n\t\t\t\t\tif (%s < (%s))\n\t\t\t\t\t%s\n",
              vt, v, v, p->upper, sweep_render_body(k, &s, register_text, a, a));
    sb_puts(&sb, "\t\t\t\t}\n\t\t\t}\n\t\t}\n\t}\n");
    stage_replace_guard(k, p, sb_str(&sb), "blockIdx.y == 0", a, out);
    sb_free(&sb);
    vec_push(out, pol_grid_y_marker(m, k, factor, a));
    return 0;
}
