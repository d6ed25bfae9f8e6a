/*
 * transform_col_split.c: `col_split`, `col_split16` (a column's sum split
 * over the block).  In "j = blockIdx.x*blockDim.x + threadIdx.x; if (G) {
 * P; for (v = L; v < U; v++) X[..j..] += EXPR(j, v); Q }" neighbouring
 * threads own neighbouring columns and already read coalesced, but each
 * thread walks its whole column alone: on PolyBench's column sums that is
 * 8-16 blocks of 256 threads for 132 SMs (a 1-D block), or 8 threads of a
 * 32x8 block doing the same column's work (a kernel that ignores
 * threadIdx.y).  The variant makes the block's T threads W columns (W = 32
 * or 16, a coalesced row segment) by T/W row phases: phase r sums
 * iterations L+r, L+r+T/W, ..., the phases' partial sums meet in shared
 * memory, and phase 0 adds them, in order, to the element and runs Q.  A
 * block of X columns becomes X/W slices; with more than one, the variant
 * asks for a grid X/W times as tall (core/launch_rule.h) and block (x, y)
 * takes slices y, y + gridDim.y, ... of block x's columns, so any height
 * is right.  Sums are reassociated: the judge's float tolerance decides.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "stage_plan.h"

/* the preconditions; 1 with *why when refused */
static int analyse(const tu_model *m, const kernel *k, const pol_facts *f, int width, arena *a,
                   stage_plan *p, strbuf *pre_decls, strbuf *pre, strbuf *post_decls, strbuf *post,
                   const char **body_out, const char **why)
{
    if (stage_analyse(m, k, f, STAGE_RAW_AFTER, a, p, pre_decls, pre, post_decls, post, why))
        return 1;
    int threads = f->block[0] * f->block[1] * f->block[2];
    if (!p->thread_var[0] || p->thread_var[1] || p->thread_var[2]) {
        *why = "the kernel has no thread index along x, or one along y or z";
        return 1;
    }
    if (f->block[0] % width || threads / width < 2) {
        *why = "the block's x size is not whole slices of columns, or leaves one row phase";
        return 1;
    }
    if (!f->flat_grid) {
        *why = "a captured grid was not one block high and deep";
        return 1;
    }
    const char *other = pol_other_thread_identity(m, k, 1);
    if (other) {
        *why = arena_printf(a, "something besides the column index tells threads apart (%s)", other);
        return 1;
    }
    if (!stage_only_thread_vars_before(k, p, a)) {
        *why = "something besides the thread index is declared before the guard";
        return 1;
    }
    if (p->n_tiles) {
        *why = "the thread reads rows by its own index (warp_rows' and stage's case)";
        return 1;
    }
    const char *body = stage_render_body(m, k, p, 0, a);
    if (!p->n_accs || !stage_sums_only(body, a)) {
        *why = "the loop does not only add to elements the thread owns";
        return 1;
    }
    for (size_t c = 0; c < p->n_accs; c++)
        if (!pol_mentions(p->accs[c].index, p->thread_var[0])) {
            *why = "an element summed into is not indexed by the column";
            return 1;
        }
    *body_out = body;
    return 0;
}

int pol_transform_col_split(const tu_model *m, const kernel *k, const pol_facts *f, int width,
                            arena *a, pol_edit_vec *out, const char **why)
{
    stage_plan p;
    strbuf pre_decls, pre, post_decls, post;
    sb_init(&pre_decls), sb_init(&pre), sb_init(&post_decls), sb_init(&post);
    const char *body = NULL;
    if (analyse(m, k, f, width, a, &p, &pre_decls, &pre, &post_decls, &post, &body, why)) {
        sb_free(&pre_decls), sb_free(&pre), sb_free(&post_decls), sb_free(&post);
        return 1;
    }
    int x = f->block[0], phases = f->block[0] * f->block[1] * f->block[2] / width;
    int slices = x / width;
    const char *v = p.loop_var, *decl = p.var_type ? arena_printf(a, "%s ", p.var_type) : "";
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "if (blockDim.x == %d && blockDim.y == %d && blockDim.z == %d) {\n", f->block[0],
              f->block[1], f->block[2]);
    for (size_t c = 0; c < p.n_accs; c++)
        sb_printf(&sb, "\t__shared__ %s cl1_part%zu[%d][%d];\n", p.accs[c].type, c, phases, width);
    sb_printf(&sb,
              "\tconst int cl1_t = threadIdx.x + %d * (threadIdx.y + %d * threadIdx.z);\n"
              "\tconst int cl1_c = cl1_t %% %d, cl1_r = cl1_t / %d;\n"
              "\tfor (int cl1_s = (int)blockIdx.y; cl1_s < %d; cl1_s += (int)gridDim.y) {\n"
              "\t\tconst int %s = blockIdx.x * %d + cl1_s * %d + cl1_c;\n"
              "\t\tconst bool cl1_in = (%s);\n",
              f->block[0], f->block[1], width, width, slices, p.thread_var[0], x, width, p.cond);
    if (pre_decls.len)
        sb_printf(&sb, "\t\t%s\n", sb_str(&pre_decls) + 1);
    if (pre.len)
        sb_printf(&sb, "\t\tif (cl1_in && cl1_r == 0) {%s }\n\t\t__syncthreads();\n", sb_str(&pre));
    for (size_t c = 0; c < p.n_accs; c++)
        sb_printf(&sb, "\t\t%s cl1_acc%zu = 0;\n", p.accs[c].type, c);
    sb_printf(&sb,
              "\t\tif (cl1_in) {\n\t\t\t#pragma unroll 8\n"
              "\t\t\tfor (%s%s = (%s) + cl1_r; %s < (%s); %s += %d)%s\n\t\t}\n",
              decl, v, p.lower, v, p.upper, v, phases, body);
    for (size_t c = 0; c < p.n_accs; c++)
        sb_printf(&sb, "\t\tcl1_part%zu[cl1_r][cl1_c] = cl1_acc%zu;\n", c, c);
    sb_puts(&sb, "\t\t__syncthreads();\n\t\tif (cl1_in && cl1_r == 0) {\n"
                 "\t\t\tfor (int cl1_w = 1; cl1_w < ");
    sb_printf(&sb, "%d; cl1_w++) {", phases);
    for (size_t c = 0; c < p.n_accs; c++)
        sb_printf(&sb, " cl1_acc%zu += cl1_part%zu[cl1_w][cl1_c];", c, c);
    sb_puts(&sb, " }\n");
    for (size_t c = 0; c < p.n_accs; c++)
        sb_printf(&sb, "\t\t\t%s[%s] = %s[%s] + cl1_acc%zu;\n", p.accs[c].base, p.accs[c].index,
                  p.accs[c].base, p.accs[c].index, c);
    if (post.len)
        sb_printf(&sb, "\t\t\t%s\n", sb_str(&post));
    sb_puts(&sb, "\t\t}\n\t\t__syncthreads();\n\t}\n");
    stage_replace_guard(k, &p, sb_str(&sb), slices > 1 ? "blockIdx.y == 0" : NULL, a, out);
    sb_free(&sb);
    if (slices > 1)
        vec_push(out, pol_grid_y_marker(m, k, slices, a));
    sb_free(&pre_decls), sb_free(&pre), sb_free(&post_decls), sb_free(&post);
    return 0;
}
