/*
 * transform_tile_dot_emit.c: the tiled path of `tile_dot*` (see
 * transform_tile_dot.c for the shape it takes).  The launch stays: the
 * grid's blocks take the BM x BN output tiles in turn (block b of G takes
 * tiles b, 2G-1-b, 2G+b, ...: each pass over the grid in the other
 * direction; blocks past the last tile leave at once, and a tile with no
 * output the guard admits is left after one barrier), the
 * outputs being those the original's threads own (i < gridDim.y *
 * blockDim.y, j < gridDim.x * blockDim.x, the guard).  A block stages BK
 * steps of the sum of both operands in shared memory, the row operand
 * stored transposed, double-buffered (the next stage loaded into registers
 * while this one is summed, one barrier a stage); each thread sums TM x TN
 * outputs from float4 reads of the stage, every output's terms added in the
 * original's order (the same roundings; where the sum adds two products a
 * step, both operands of each are staged and the two added as the original
 * adds them).  Global loads are float4 where the
 * array, its stride and the sum's start are 16-byte aligned and the four
 * elements are wanted, else scalar with bounds checks; an operand's row is
 * read only when some output of the tile reads it.  Runs only for the
 * captured block shape on a grid one deep; any other launch runs the
 * original.  tile_pairs (transform_tile_pairs.c) gives its own extents,
 * entry condition, types and statements through the plan's last fields.
 *
 * Split shapes (KS > 1, the `_split` variants): the block's threads form KS
 * groups, each summing its own BK/KS steps of every stage into outputs of
 * its own, the first group from the sum's start, the others from zero;
 * after the last stage the other groups' sums are added to the first's,
 * group by group in order, through shared memory, and the first group
 * stores.  Fewer outputs a block (more blocks for a small output) at as
 * many outputs a thread as the next larger tile: the sum's roundings are
 * no longer the original's, the judge's tolerance decides.
 *
 * Two stages ahead (AHEAD 2, the `_ahead2` variants): the global loads of
 * stage s + 2 go out while stage s is summed, into a second set of
 * registers, so that a load's latency is hidden by two stages' arithmetic
 * where one stage's is shorter (512 x 512 products: 16 stages of a few
 * hundred cycles each, each waiting about a microsecond for its loads).
 */
#include <string.h>

#include "transform_tile_dot.h"

/* e with the row index (side 0) and column index (side 1) renamed */
static const char *at(const stage_plan *p, const char *e, const char *i, const char *j, arena *a)
{
    e = stage_substitute(e, p->thread_var[1], i, a);
    return stage_substitute(e, p->thread_var[0], j, a);
}

/* per side: its tile extent, thread var, shared array, registers and
 * alignment flag (product 0's names; product 1's end in "1") */
typedef struct side_info {
    int ext;
    const char *var, *type, *sh, *ok, *reg, *vec, *o, *origin;
} side_info;

/* the type of side's index (0 the rows, 1 the columns) */
static const char *index_type(const tile_dot_plan *t, int side, arena *a)
{
    return t->type[side] ? t->type[side] : arena_printf(a, "decltype(%s)", t->p.thread_var[1 - side]);
}

static void sides(const tile_dot_plan *t, const tile_dot_shape *s, side_info *d, arena *a)
{
    d[0] = (side_info){s->bm, t->p.thread_var[1], index_type(t, 0, a), "cl1_sr", "cl1_okr", "cl1_xr", "cl1_vr", "cl1_or", "cl1_r0"};
    d[1] = (side_info){s->bn, t->p.thread_var[0], index_type(t, 1, a), "cl1_sc", "cl1_okc", "cl1_xc", "cl1_vc", "cl1_oc", "cl1_c0"};
}

/* name for product q: product 0's own, product 1's with "1" after it */
static const char *for_product(const char *name, int q, arena *a)
{
    return q ? arena_printf(a, "%s1", name) : name;
}

/* the operand's value from element text v */
static const char *value(const tile_operand *op, const char *v, arena *a)
{
    return stage_substitute(op->value, "cl1_v", arena_printf(a, "(%s)", v), a);
}

/* which rows of the operand this thread loads, and whether some output
 * of the tile reads each */
static void emit_rows(strbuf *sb, const tile_dot_plan *t, const tile_dot_shape *s, const side_info *d,
                      int side, arena *a)
{
    const side_info *me = &d[side], *other = &d[1 - side];
    const tile_operand *op = &t->op[0][side]; /* each product's the same layout */
    int per = op->k_contiguous ? 1 : 4;
    if (op->k_contiguous)
        sb_printf(sb, "\t\tconst %s %s = (%s)(%s + cl1_tid / %d);\n", me->type, me->o, me->type, me->origin,
                  s->bk / 4);
    else
        sb_printf(sb, "\t\tconst %s %s = (%s)(%s + cl1_tid %% %d * 4);\n", me->type, me->o, me->type,
                  me->origin, me->ext / 4);
    const char *lim = side == 0 ? "cl1_ey" : "cl1_ex", *olim = side == 0 ? "cl1_ex" : "cl1_ey";
    sb_printf(sb, "\t\tbool %s[%d];\n\t\t#pragma unroll\n\t\tfor (int cl1_q = 0; cl1_q < %d; cl1_q++) {\n", me->ok,
              per, per);
    sb_printf(sb, "\t\t\tconst %s cl1_u = (%s)(%s + cl1_q);\n\t\t\t%s[cl1_q] = false;\n", me->type,
              me->type, me->o, me->ok);
    sb_printf(sb, "\t\t\tfor (int cl1_w = 0; cl1_u < %s && cl1_w < %d && !%s[cl1_q]; cl1_w++) {\n", lim,
              other->ext, me->ok);
    sb_printf(sb, "\t\t\t\tconst %s cl1_w2 = (%s)(%s + cl1_w);\n", other->type, other->type, other->origin);
    const char *cond = side == 0 ? at(&t->p, t->p.cond, "cl1_u", "cl1_w2", a) : at(&t->p, t->p.cond, "cl1_w2", "cl1_u", a);
    sb_printf(sb, "\t\t\t\t%s[cl1_q] = cl1_w2 < %s && (%s);\n\t\t\t}\n\t\t}\n", me->ok, olim, cond);
}

/* loads stage cl1_k0 of product q's operand into its registers */
static void emit_load(strbuf *sb, const tile_dot_plan *t, const tile_dot_shape *s, const side_info *me,
                      int side, int q, arena *a)
{
    const tile_operand *op = &t->op[q][side];
    const char *reg = for_product(me->reg, q, a), *vec = for_product(me->vec, q, a);
    const char *up = t->p.upper;
    static const char comp[] = "xyzw";
    if (op->k_contiguous) {
        sb_printf(sb, "\t\t\t{\n\t\t\t\tconst int cl1_k = cl1_k0 + cl1_tid %% %d * 4;\n", s->bk / 4);
        const char *addr = arena_printf(a, "%s[(%s) * (%s) + cl1_k", op->base, me->o, op->stride);
        sb_printf(sb, "\t\t\t\tif (%s[0] && %s && cl1_k + 4 <= (%s)) {\n", me->ok, vec, up);
        sb_printf(sb, "\t\t\t\t\tconst float4 cl1_v4 = *(const float4 *)&%s];\n", addr);
        for (int e = 0; e < 4; e++)
            sb_printf(sb, "\t\t\t\t\t%s.%c = %s;\n", reg, comp[e],
                      value(op, arena_printf(a, "cl1_v4.%c", comp[e]), a));
        sb_puts(sb, "\t\t\t\t} else {\n");
        for (int e = 0; e < 4; e++)
            sb_printf(sb, "\t\t\t\t\t%s.%c = %s[0] && cl1_k + %d < (%s) ? %s : 0.0f;\n", reg, comp[e], me->ok,
                      e, up, value(op, arena_printf(a, "%s + %d]", addr, e), a));
    } else {
        sb_printf(sb, "\t\t\t{\n\t\t\t\tconst int cl1_k = cl1_k0 + cl1_tid / %d;\n", me->ext / 4);
        sb_printf(sb, "\t\t\t\tconst bool cl1_kin = cl1_k < (%s);\n", up);
        const char *addr = arena_printf(a, "%s[(cl1_k) * (%s) + %s", op->base, op->stride, me->o);
        sb_printf(sb, "\t\t\t\tif (cl1_kin && %s && %s[0] && %s[1] && %s[2] && %s[3]) {\n", vec, me->ok,
                  me->ok, me->ok, me->ok);
        sb_printf(sb, "\t\t\t\t\tconst float4 cl1_v4 = *(const float4 *)&%s];\n", addr);
        for (int e = 0; e < 4; e++)
            sb_printf(sb, "\t\t\t\t\t%s.%c = %s;\n", reg, comp[e],
                      value(op, arena_printf(a, "cl1_v4.%c", comp[e]), a));
        sb_puts(sb, "\t\t\t\t} else {\n");
        for (int e = 0; e < 4; e++)
            sb_printf(sb, "\t\t\t\t\t%s.%c = cl1_kin && %s[%d] ? %s : 0.0f;\n", reg, comp[e], me->ok, e,
                      value(op, arena_printf(a, "%s + %d]", addr, e), a));
    }
    sb_puts(sb, "\t\t\t\t}\n\t\t\t}\n");
}

/* the stage loads of every product and side into the registers of d */
static const char *emit_loads(const tile_dot_plan *t, const tile_dot_shape *s, const side_info *d, arena *a)
{
    strbuf inner;
    sb_init(&inner);
    for (int q = 0; q < t->n_products; q++)
        for (int side = 0; side < 2; side++)
            emit_load(&inner, t, s, &d[side], side, q, a);
    const char *loads = arena_strdup(a, sb_str(&inner));
    sb_free(&inner);
    return loads;
}

/* text, each line indented by `more` tabs more */
static void put_indented(strbuf *sb, const char *text, int more)
{
    for (const char *c = text; *c; c++) {
        if (c == text || c[-1] == '\n')
            for (int i = 0; i < more; i++)
                sb_putc(sb, '\t');
        sb_putc(sb, *c);
    }
}

/* stores product q's registers into buffer buf of the operand's stage */
static void emit_store(strbuf *sb, const tile_dot_plan *t, const tile_dot_shape *s, const side_info *me,
                       int side, int q, const char *buf, arena *a)
{
    static const char comp[] = "xyzw";
    const char *sh = for_product(me->sh, q, a), *reg = for_product(me->reg, q, a);
    if (t->op[q][side].k_contiguous)
        for (int e = 0; e < 4; e++)
            sb_printf(sb, "\t\t\t%s[%s][cl1_tid %% %d * 4 + %d][cl1_tid / %d] = %s.%c;\n", sh, buf, s->bk / 4,
                      e, s->bk / 4, reg, comp[e]);
    else
        sb_printf(sb, "\t\t\t*(float4 *)&%s[%s][cl1_tid / %d][cl1_tid %% %d * 4] = %s;\n", sh, buf,
                  me->ext / 4, me->ext / 4, reg);
}

/* the output (m, n) of the thread: its row and column */
static void emit_output_indices(strbuf *sb, const side_info *d, const tile_dot_shape *s, const char *ind)
{
    /* a thread's outputs: groups of w (float4s or, in 32-wide tiles,
     * float2s of the stage) spread over the tile */
    int w = s->tm < 4 ? s->tm : 4;
    sb_printf(sb, "%sconst %s cl1_i = (%s)(cl1_r0 + cl1_m / %d * %d + cl1_ty * %d + cl1_m %% %d);\n", ind, d[0].type,
              d[0].type, w, s->bm / (s->tm / w), w, w);
    sb_printf(sb, "%sconst %s cl1_j = (%s)(cl1_c0 + cl1_n / %d * %d + cl1_tx * %d + cl1_n %% %d);\n", ind, d[1].type,
              d[1].type, w, s->bn / (s->tn / w), w, w);
}

static void emit_outputs_open(strbuf *sb, const side_info *d, const tile_dot_shape *s)
{
    sb_printf(sb, "\t\t#pragma unroll\n\t\tfor (int cl1_m = 0; cl1_m < %d; cl1_m++) {\n", s->tm);
    sb_printf(sb, "\t\t\t#pragma unroll\n\t\t\tfor (int cl1_n = 0; cl1_n < %d; cl1_n++) {\n", s->tn);
    emit_output_indices(sb, d, s, "\t\t\t\t");
}

/* split shapes: the other groups' sums added to the first group's, group
 * by group in order, through cl1_part (one group's outputs); the stage
 * loop's last barrier has passed */
static void emit_split_sum(strbuf *sb, const tile_dot_shape *s, int group)
{
    const char *each = "\t\t\t\t#pragma unroll\n\t\t\t\tfor (int cl1_m = 0; cl1_m < %d; cl1_m++)\n"
                       "\t\t\t\t\t#pragma unroll\n\t\t\t\t\tfor (int cl1_n = 0; cl1_n < %d; cl1_n++)\n";
    sb_printf(sb, "\t\tfor (int cl1_r = 1; cl1_stages > 0 && cl1_r < %d; cl1_r++) {\n", s->ks);
    sb_puts(sb, "\t\t\tif (cl1_grp == cl1_r)\n");
    sb_printf(sb, each, s->tm, s->tn);
    sb_printf(sb, "\t\t\t\t\t\tcl1_part[(cl1_m * %d + cl1_n) * %d + cl1_lt] = cl1_acc[cl1_m][cl1_n];\n", s->tn, group);
    sb_puts(sb, "\t\t\t__syncthreads();\n\t\t\tif (cl1_grp == 0)\n");
    sb_printf(sb, each, s->tm, s->tn);
    sb_printf(sb, "\t\t\t\t\t\tcl1_acc[cl1_m][cl1_n] += cl1_part[(cl1_m * %d + cl1_n) * %d + cl1_lt];\n", s->tn, group);
    sb_puts(sb, "\t\t\t__syncthreads();\n\t\t}\n");
}

const char *tile_dot_emit(const tile_dot_plan *t, const tile_dot_shape *s, const pol_facts *f, arena *a)
{
    const stage_plan *p = &t->p;
    side_info d[2];
    sides(t, s, d, a);
    const char *cond = at(p, p->cond, "cl1_i", "cl1_j", a);
    /* the output element, where the plan sums in place (no start/finish) */
    const char *acc = p->n_accs ? at(p, arena_printf(a, "%s[%s]", p->accs[0].base, p->accs[0].index), "cl1_i", "cl1_j", a)
                                : "";
    /* split shapes: the group of cl1_grp, its threads, a stage's steps each */
    const int split = s->ks > 1, group = split ? 256 / s->ks : 256, steps = split ? s->bk / s->ks : s->bk;
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "if (%s%sblockDim.x == %d && blockDim.y == %d && blockDim.z == 1 && gridDim.z == 1) {\n",
              t->enter ? t->enter : "", t->enter ? " && " : "", f->block[0], f->block[1]);
    for (int q = 0; q < t->n_products; q++) {
        sb_printf(&sb, "\t__shared__ __align__(16) float %s[2][%d][%d];\n", for_product("cl1_sr", q, a), s->bk,
                  s->bm + 4);
        sb_printf(&sb, "\t__shared__ __align__(16) float %s[2][%d][%d];\n", for_product("cl1_sc", q, a), s->bk,
                  s->bn + 4);
    }
    if (split)
        sb_printf(&sb, "\t__shared__ float cl1_part[%d];\n", s->tm * s->tn * group);
    /* the kernel's own declarations before its loop declare only the
     * loop's variable (declares_loop_var_only), which the tiles do not use:
     * they stay in the original's path alone */
    sb_printf(&sb, "\tconst int cl1_tid = threadIdx.x + %d * threadIdx.y;\n", f->block[0]);
    if (split) {
        sb_printf(&sb, "\tconst int cl1_grp = cl1_tid / %d, cl1_lt = cl1_tid %% %d;\n", group, group);
        sb_printf(&sb, "\tconst int cl1_tx = cl1_lt %% %d, cl1_ty = cl1_lt / %d;\n", s->bn / s->tn, s->bn / s->tn);
    } else
        sb_printf(&sb, "\tconst int cl1_tx = cl1_tid %% %d, cl1_ty = cl1_tid / %d;\n", s->bn / s->tn, s->bn / s->tn);
    const char *ey = t->row_extent ? t->row_extent : arena_printf(a, "gridDim.y * %d", f->block[1]);
    const char *ex = t->col_extent ? t->col_extent : arena_printf(a, "gridDim.x * %d", f->block[0]);
    sb_printf(&sb, "\tconst long long cl1_ey = (long long)(%s), cl1_ex = (long long)(%s);\n", ey, ex);
    sb_printf(&sb, "\tconst int cl1_nx = (int)((cl1_ex + %d) / %d);\n", s->bn - 1, s->bn);
    sb_printf(&sb, "\tconst int cl1_tiles = cl1_nx * (int)((cl1_ey + %d) / %d);\n", s->bm - 1, s->bm);
    for (int q = 0; q < t->n_products; q++)
        for (int side = 0; side < 2; side++) {
            const tile_operand *op = &t->op[q][side];
            sb_printf(&sb, "\tconst bool %s = ((unsigned long long)(%s) & 15) == 0 && (%s) %% 4 == 0",
                      for_product(d[side].vec, q, a), op->base, op->stride);
            sb_printf(&sb, op->k_contiguous ? " && (%s) %% 4 == 0;\n" : ";\n", p->lower);
        }
    sb_printf(&sb, "\tconst long long cl1_kn = (long long)(%s) - (long long)(%s);\n", p->upper, p->lower);
    sb_printf(&sb, "\tconst int cl1_stages = cl1_kn > 0 ? (int)((cl1_kn + %d) / %d) : 0;\n", s->bk - 1, s->bk);
    if (t->prologue)
        sb_printf(&sb, "\t%s\n", t->prologue);
    /* block b takes tiles b, 2G-1-b, 2G+b, 4G-1-b, ... (G blocks): each
     * pass over the grid in the other direction, so that where the live
     * tiles thin out along the order (a triangle), every block gets its
     * share */
    sb_puts(&sb, "\tconst int cl1_nb = (int)(gridDim.x * gridDim.y), cl1_bi = (int)(blockIdx.x + gridDim.x * blockIdx.y);\n");
    sb_puts(&sb, "\tfor (int cl1_p = 0;; cl1_p++) {\n"
                 "\t\tconst int cl1_t = cl1_p & 1 ? (cl1_p + 1) * cl1_nb - 1 - cl1_bi : cl1_p * cl1_nb + cl1_bi;\n"
                 "\t\tif (cl1_t >= cl1_tiles)\n\t\t\tbreak;\n");
    sb_printf(&sb, "\t\tconst long long cl1_r0 = (long long)(cl1_t / cl1_nx) * %d, cl1_c0 = (long long)(cl1_t %% "
                   "cl1_nx) * %d;\n",
              s->bm, s->bn);
    /* the outputs: the statements before the loop, the sum's start */
    sb_printf(&sb, "\t\tfloat cl1_acc[%d][%d];\n\t\tint cl1_live = 0;\n", s->tm, s->tn);
    emit_outputs_open(&sb, d, s);
    sb_puts(&sb, "\t\t\t\tcl1_acc[cl1_m][cl1_n] = 0.0f;\n");
    sb_printf(&sb, "\t\t\t\tif (cl1_i < cl1_ey && cl1_j < cl1_ex && (%s)) {", cond);
    /* the statements before the loop and the sum's start: the first group's */
    if (split)
        sb_puts(&sb, " if (cl1_grp == 0) {");
    if (*t->pre)
        sb_puts(&sb, at(p, t->pre, "cl1_i", "cl1_j", a));
    sb_printf(&sb, " cl1_acc[cl1_m][cl1_n] = %s;%s cl1_live = 1; }\n\t\t\t}\n\t\t}\n",
              t->start ? at(p, t->start, "cl1_i", "cl1_j", a) : acc, split ? " }" : "");
    /* a tile without outputs (a triangle's other half) is left at once */
    sb_puts(&sb, "\t\tif (!__syncthreads_or(cl1_live))\n\t\t\tcontinue;\n");
    /* the rows each thread loads */
    for (int side = 0; side < 2; side++)
        emit_rows(&sb, t, s, d, side, a);
    sb_puts(&sb, t->n_products == 2 ? "\t\tfloat4 cl1_xr, cl1_xc, cl1_xr1, cl1_xc1;\n" : "\t\tfloat4 cl1_xr, cl1_xc;\n");
    /* two stages ahead: stage s + 2's loads go to the y registers */
    const int ahead = s->ahead == 2;
    side_info dy[2] = {d[0], d[1]};
    dy[0].reg = "cl1_yr", dy[1].reg = "cl1_yc";
    if (ahead)
        sb_puts(&sb, t->n_products == 2 ? "\t\tfloat4 cl1_yr, cl1_yc, cl1_yr1, cl1_yc1;\n" : "\t\tfloat4 cl1_yr, cl1_yc;\n");
    sb_printf(&sb, "\t\tif (cl1_stages > 0) {\n\t\t\tconst int cl1_k0 = (%s);\n", p->lower);
    const char *loads = emit_loads(t, s, d, a);
    sb_puts(&sb, loads);
    for (int q = 0; q < t->n_products; q++)
        for (int side = 0; side < 2; side++)
            emit_store(&sb, t, s, &d[side], side, q, "0", a);
    if (ahead) {
        /* stage 1 into the x registers, stored during stage 0 */
        sb_printf(&sb, "\t\t\tif (cl1_stages > 1) {\n\t\t\t\tconst int cl1_k0 = (%s) + %d;\n", p->lower, s->bk);
        put_indented(&sb, loads, 1);
        sb_puts(&sb, "\t\t\t}\n");
    }
    sb_puts(&sb, "\t\t\t__syncthreads();\n\t\t}\n");
    sb_puts(&sb, "\t\tfor (int cl1_s = 0; cl1_s < cl1_stages; cl1_s++) {\n\t\t\tconst int cl1_buf = cl1_s & 1;\n");
    sb_printf(&sb, "\t\t\tconst int cl1_k0 = (%s) + (cl1_s + %d) * %d;\n\t\t\tif (cl1_s + %d < cl1_stages) {\n",
              p->lower, ahead ? 2 : 1, s->bk, ahead ? 2 : 1);
    /* the loads of the stage one (two) ahead, one level deeper */
    put_indented(&sb, ahead ? emit_loads(t, s, dy, a) : loads, 1);
    sb_puts(&sb, "\t\t\t}\n");
    sb_printf(&sb, "\t\t\t#pragma unroll\n\t\t\tfor (int cl1_kk = 0; cl1_kk < %d; cl1_kk++) {\n", steps);
    /* the stage's row this group sums at step cl1_kk */
    const char *row = split ? arena_printf(a, "cl1_grp * %d + cl1_kk", steps) : "cl1_kk";
    const int tiles[2] = {s->tm, s->tn};
    const char *own[2] = {"cl1_ty", "cl1_tx"};
    for (int q = 0; q < t->n_products; q++)
        sb_printf(&sb, "\t\t\t\tfloat %s[%d], %s[%d];\n", for_product("cl1_a", q, a), s->tm,
                  for_product("cl1_b", q, a), s->tn);
    for (int qs = 0; qs < 2 * t->n_products; qs++) {
        const int q = qs / 2, side = qs % 2;
        const char *val = for_product(side ? "cl1_b" : "cl1_a", q, a), *sh = for_product(d[side].sh, q, a);
        int w = tiles[side] < 4 ? tiles[side] : 4;
        sb_printf(&sb, "\t\t\t\t#pragma unroll\n\t\t\t\tfor (int cl1_g = 0; cl1_g < %d; cl1_g++) {\n",
                  tiles[side] / w);
        if (w == 4) {
            sb_printf(&sb,
                      "\t\t\t\t\tconst float4 cl1_v4 = *(const float4 *)&%s[cl1_buf][%s][cl1_g * %d + %s * 4];\n",
                      sh, row, d[side].ext / (tiles[side] / 4), own[side]);
            sb_printf(&sb,
                      "\t\t\t\t\t%s[cl1_g * 4] = cl1_v4.x, %s[cl1_g * 4 + 1] = cl1_v4.y, %s[cl1_g * 4 + 2] = "
                      "cl1_v4.z, %s[cl1_g * 4 + 3] = cl1_v4.w;\n\t\t\t\t}\n",
                      val, val, val, val);
        } else {
            sb_printf(&sb,
                      "\t\t\t\t\tconst float2 cl1_v2 = *(const float2 *)&%s[cl1_buf][%s][cl1_g * %d + %s * 2];\n",
                      sh, row, d[side].ext / (tiles[side] / 2), own[side]);
            sb_printf(&sb, "\t\t\t\t\t%s[cl1_g * 2] = cl1_v2.x, %s[cl1_g * 2 + 1] = cl1_v2.y;\n\t\t\t\t}\n",
                      val, val);
        }
    }
    sb_printf(&sb, "\t\t\t\t#pragma unroll\n\t\t\t\tfor (int cl1_m = 0; cl1_m < %d; cl1_m++)\n", s->tm);
    sb_printf(&sb, "\t\t\t\t\t#pragma unroll\n\t\t\t\t\tfor (int cl1_n = 0; cl1_n < %d; cl1_n++)\n", s->tn);
    sb_puts(&sb, t->n_products == 2
                     ? "\t\t\t\t\t\tcl1_acc[cl1_m][cl1_n] += cl1_a[cl1_m] * cl1_b[cl1_n] + cl1_a1[cl1_m] * cl1_b1[cl1_n];\n\t\t\t}\n"
                     : "\t\t\t\t\t\tcl1_acc[cl1_m][cl1_n] += cl1_a[cl1_m] * cl1_b[cl1_n];\n\t\t\t}\n");
    sb_puts(&sb, "\t\t\tif (cl1_s + 1 < cl1_stages) {\n");
    for (int qs = 0; qs < 2 * t->n_products; qs++) {
        strbuf st;
        sb_init(&st);
        emit_store(&st, t, s, &d[qs % 2], qs % 2, qs / 2, "cl1_buf ^ 1", a);
        put_indented(&sb, sb_str(&st), 1);
        sb_free(&st);
    }
    /* two stages ahead: the next stage's registers are the y ones */
    for (int q = 0; ahead && q < t->n_products; q++)
        sb_printf(&sb, "\t\t\t\t%s = %s, %s = %s;\n", for_product("cl1_xr", q, a), for_product("cl1_yr", q, a),
                  for_product("cl1_xc", q, a), for_product("cl1_yc", q, a));
    sb_puts(&sb, "\t\t\t}\n\t\t\t__syncthreads();\n\t\t}\n");
    if (split)
        emit_split_sum(&sb, s, group);
    /* the outputs: the sums stored, the statements after the loop */
    emit_outputs_open(&sb, d, s);
    const char *finish = t->finish ? stage_substitute(at(p, t->finish, "cl1_i", "cl1_j", a), "cl1_s",
                                                      "cl1_acc[cl1_m][cl1_n]", a)
                                   : arena_printf(a, "%s = cl1_acc[cl1_m][cl1_n];", acc);
    sb_printf(&sb, "\t\t\t\tif (%scl1_i < cl1_ey && cl1_j < cl1_ex && (%s)) { %s", split ? "cl1_grp == 0 && " : "",
              cond, finish);
    if (*t->post)
        sb_puts(&sb, at(p, t->post, "cl1_i", "cl1_j", a));
    sb_puts(&sb, " }\n\t\t\t}\n\t\t}\n\t}\n");
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}
