/*
 * transform_sweep_warp.c: `sweep_warp` (a thread's walk, a chain included,
 * run by a warp: the lanes load and store, every lane runs every step).
 * In the sweeps' kernels ("t = blockIdx.x*blockDim.x + threadIdx.x; if (G)
 * { for (int v = L; v < U; v++) { W[..] = EXPR; ... } }", sweep_plan.c) a
 * walk along a row whose steps read what an earlier step wrote (adi's
 * forward sweep: X[v] = X[v] - X[v-1] * A[v] / B[v-1], B likewise) is a
 * chain: its steps cannot run at once (`sweep_lanes` refuses it), and a
 * thread a walk makes every load of its warp touch 32 lines, one a lane,
 * on a few warps (adi: 1024 walks, 32 warps for 132 SMs), so each step
 * waits for memory.  The variant gives each walk a warp of its own on a
 * grid 32 times as tall (`sweep_lanes`' mapping): 32 steps at a time, lane
 * l loads what step v0 + l reads (one or two lines a warp load, the next
 * 32 steps' loads issued before these steps run), then every lane runs the
 * 32 steps in order, each step's loaded values taken from the lane that
 * loaded them (__shfl_sync), a value an earlier step wrote from registers
 * every lane holds (the last |d| values of each written array), and lane
 * l keeps what step v0 + l wrote; after the 32 steps each lane stores its
 * step's values (one or two lines a warp store).  No step's load reads
 * what these 32 steps or the next 32 store (a read of an earlier step's
 * element comes from the registers; one of the same or a later step's is
 * of an element not yet written), so no barrier is needed.  Each step's
 * operations are the original's on the same values, in the same order:
 * the results are its bits.
 */
#include <string.h>

#include "sweep_plan.h"

enum { lanes = 32 };

/* how a read of the walk gets its value */
typedef enum { READ_LOADED, READ_CHAIN, READ_SAME_STEP } read_kind;

static read_kind kind_of(const sweep_access *x)
{
    if (x->write >= 0 && x->forwarded_now)
        return READ_SAME_STEP;
    if (x->write >= 0 && x->distance < 0)
        return READ_CHAIN;
    return READ_LOADED;
}

/* 1 when __shfl_sync takes the element type of base (its canonical type:
 * a macro or typedef resolved) */
static int shufflable(const kernel *k, const char *base, arena *a)
{
    static const char *const types[] = {"float", "double", "int", "unsigned int", "long", "unsigned long",
                                        "long long", "unsigned long long", NULL};
    const kernel_param *prm = pol_param(k, base);
    if (!prm || !prm->is_pointer || !prm->canonical_type)
        return 0;
    kernel_param canonical = *prm;
    canonical.type = prm->canonical_type;
    const char *t = pol_pointee_type(&canonical, a);
    for (int i = 0; t && types[i]; i++)
        if (strcmp(t, types[i]) == 0)
            return 1;
    return 0;
}

/* the history registers of write w before the walk: cl1_hW_K holds the
 * element the write's step lower - K touches, written by no step, the
 * value the original reads there.  Loaded by a read that reaches it (one
 * |d| >= K back, at step lower + |d| - K): the same element, at the same
 * index, only where the original's walk gets to that step */
static void emit_history_loads(strbuf *sb, const sweep_plan *s, size_t w, int most)
{
    const stage_plan *p = &s->p;
    for (int h = 1; h <= most; h++) {
        /* the read nearest back that reaches it: the first step to read
         * it (any later read of it is at a later step) */
        const sweep_access *nearest = NULL;
        for (size_t i = 0; i < s->n; i++) {
            const sweep_access *x = &s->acc[i];
            if (!x->is_write && x->write == (int)w && kind_of(x) == READ_CHAIN && -x->distance >= h &&
                (!nearest || x->distance > nearest->distance))
                nearest = x;
        }
        sb_printf(sb, "\t\t\t{\n\t\t\t\tconst %s %s = (%s)(%s) + %d;\n\t\t\t\tif (%s < (%s))\n", p->var_type,
                  p->loop_var, p->var_type, p->lower, -nearest->distance - h, p->loop_var, p->upper);
        sb_printf(sb, "\t\t\t\t\tcl1_h%zu_%d = %s[%s];\n\t\t\t}\n", w, h, nearest->base, nearest->index);
    }
}

/* the register a loaded read takes: the first loaded read of the same
 * element (three reads of A[v] load once) */
static size_t register_of(const sweep_plan *s, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (!s->acc[j].is_write && kind_of(&s->acc[j]) == kind_of(&s->acc[i]) &&
            strcmp(s->acc[j].base, s->acc[i].base) == 0 && strcmp(s->acc[j].index, s->acc[i].index) == 0 &&
            s->acc[j].distance == s->acc[i].distance)
            return j;
    return i;
}

/* the longest distance back any read of write w reaches (0: none) */
static int history_of(const sweep_plan *s, size_t w)
{
    int most = 0;
    for (size_t i = 0; i < s->n; i++)
        if (!s->acc[i].is_write && s->acc[i].write == (int)w && kind_of(&s->acc[i]) == READ_CHAIN &&
            -s->acc[i].distance > most)
            most = -s->acc[i].distance;
    return most;
}

/* the loads of the steps from `first` on, lane l's step first + l, into
 * registers named prefix (the reads READ_LOADED) */
static void emit_loads(strbuf *sb, const sweep_plan *s, const char *first, const char *prefix, const char *tabs)
{
    const stage_plan *p = &s->p;
    sb_printf(sb, "%s{\n%s\tconst %s %s = %s + cl1_lane;\n%s\tif (%s < (%s)) {\n", tabs, tabs, p->var_type,
              p->loop_var, first, tabs, p->loop_var, p->upper);
    for (size_t i = 0; i < s->n; i++) {
        const sweep_access *x = &s->acc[i];
        if (x->is_write || kind_of(x) != READ_LOADED || register_of(s, i) != i)
            continue;
        sb_printf(sb, "%s\t\t%s%zu = %s[%s];\n", tabs, prefix, i, x->base, x->index);
    }
    sb_printf(sb, "%s\t}\n%s}\n", tabs, tabs);
}

/* in one step's body each write's target becomes its value's register,
 * each read its value (the loading lane's, an earlier step's, this
 * step's) */
static const char *step_text(const sweep_plan *s, size_t i, void *ctx)
{
    arena *a = ctx;
    const sweep_access *x = &s->acc[i];
    if (x->is_write)
        return arena_printf(a, "cl1_c%zu", i);
    switch (kind_of(x)) {
    case READ_SAME_STEP:
        return arena_printf(a, "cl1_c%d", x->write);
    case READ_CHAIN:
        return arena_printf(a, "cl1_h%d_%d", x->write, -x->distance);
    case READ_LOADED:
        break;
    }
    return arena_printf(a, "cl1_x%zu", register_of(s, i));
}

int pol_transform_sweep_warp(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                             pol_edit_vec *out, const char **why)
{
    sweep_plan s;
    strbuf sb;
    int factor;
    if (sweep_open_warp_walk(m, k, f, &s, &sb, a, &factor, why))
        return 1;
    for (size_t i = 0; i < s.n; i++)
        if (!s.acc[i].is_write && kind_of(&s.acc[i]) == READ_LOADED && !shufflable(k, s.acc[i].base, a)) {
            *why = "an array the walk reads holds a type __shfl_sync does not take";
            sb_free(&sb);
            return 1;
        }
    const stage_plan *p = &s.p;
    const char *v = p->loop_var, *vt = p->var_type;
    /* the registers: the loads of these 32 steps and of the next 32, and
     * the last values of each written array an earlier step's read needs
     * (before the walk, the elements it never writes) */
    for (size_t i = 0; i < s.n; i++) {
        const sweep_access *x = &s.acc[i];
        if (!x->is_write && kind_of(x) == READ_LOADED && register_of(&s, i) == i)
            sb_printf(&sb, "\t\t\t%s cl1_r%zu{}, cl1_n%zu{};\n", x->type, i, i);
        for (int h = 1; x->is_write && h <= history_of(&s, i); h++)
            sb_printf(&sb, "\t\t\t%s cl1_h%zu_%d{};\n", x->type, i, h);
        if (x->is_write)
            emit_history_loads(&sb, &s, i, history_of(&s, i));
    }
    emit_loads(&sb, &s, arena_printf(a, "(%s)(%s)", vt, p->lower), "cl1_r", "\t\t\t");
    sb_printf(&sb, "\t\t\tfor (%s cl1_v0 = (%s); cl1_v0 < (%s); cl1_v0 += %d) {\n", vt, p->lower, p->upper, lanes);
    /* the next 32 steps' loads in flight while these run */
    emit_loads(&sb, &s, arena_printf(a, "cl1_v0 + %d", lanes), "cl1_n", "\t\t\t\t");
    for (size_t i = 0; i < s.n; i++)
        if (s.acc[i].is_write)
            sb_printf(&sb, "\t\t\t\t%s cl1_m%zu{};\n", s.acc[i].type, i);
    /* the steps, in order, on every lane */
    sb_printf(&sb, "\t\t\t\t#pragma unroll\n\t\t\t\tfor (int cl1_s = 0; cl1_s < %d; cl1_s++) {\n", lanes);
    sb_printf(&sb, "\t\t\t\t\tconst %s %s = cl1_v0 + cl1_s;\n\t\t\t\t\tif (%s < (%s)) {\n", vt, v, v, p->upper);
    for (size_t i = 0; i < s.n; i++) {
        const sweep_access *x = &s.acc[i];
        if (x->is_write)
            sb_printf(&sb, "\t\t\t\t\t\t%s cl1_c%zu;\n", x->type, i);
        /* each loaded value once a step (the compiler keeps every shuffle) */
        else if (kind_of(x) == READ_LOADED && register_of(&s, i) == i)
            sb_printf(&sb, "\t\t\t\t\t\tconst %s cl1_x%zu = __shfl_sync(0xffffffffu, cl1_r%zu, cl1_s);\n", x->type,
                      i, i);
    }
    sb_printf(&sb, "\t\t\t\t\t\t%s\n", sweep_render_body(k, &s, step_text, a, a));
    for (size_t i = 0; i < s.n; i++) {
        if (!s.acc[i].is_write)
            continue;
        sb_printf(&sb, "\t\t\t\t\t\tif (cl1_lane == cl1_s)\n\t\t\t\t\t\t\tcl1_m%zu = cl1_c%zu;\n", i, i);
        for (int h = history_of(&s, i); h > 1; h--)
            sb_printf(&sb, "\t\t\t\t\t\tcl1_h%zu_%d = cl1_h%zu_%d;\n", i, h, i, h - 1);
        if (history_of(&s, i) > 0)
            sb_printf(&sb, "\t\t\t\t\t\tcl1_h%zu_1 = cl1_c%zu;\n", i, i);
    }
    sb_puts(&sb, "\t\t\t\t\t}\n\t\t\t\t}\n");
    /* each lane stores its step's values */
    sb_printf(&sb, "\t\t\t\t{\n\t\t\t\t\tconst %s %s = cl1_v0 + cl1_lane;\n\t\t\t\t\tif (%s < (%s)) {\n", vt, v, v,
              p->upper);
    for (size_t i = 0; i < s.n; i++)
        if (s.acc[i].is_write)
            sb_printf(&sb, "\t\t\t\t\t\t%s[%s] = cl1_m%zu;\n", s.acc[i].base, s.acc[i].index, i);
    sb_puts(&sb, "\t\t\t\t\t}\n\t\t\t\t}\n");
    for (size_t i = 0; i < s.n; i++)
        if (!s.acc[i].is_write && kind_of(&s.acc[i]) == READ_LOADED && register_of(&s, i) == i)
            sb_printf(&sb, "\t\t\t\tcl1_r%zu = cl1_n%zu;\n", i, i);
    sb_puts(&sb, "\t\t\t}\n\t\t}\n\t}\n");
    stage_replace_guard(k, p, sb_str(&sb), "blockIdx.y == 0", a, out);
    sb_free(&sb);
    vec_push(out, pol_grid_y_marker(m, k, factor, a));
    return 0;
}
