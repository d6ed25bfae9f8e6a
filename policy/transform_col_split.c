/*
 * transform_col_split.c: `col_split`, `col_split16`, `col_split8`,
 * `col_split4` (a column's sum split over the block).  In "j = blockIdx.x*blockDim.x + threadIdx.x; if (G) {
 * P; for (v = L; v < U; v++) X[..j..] += EXPR(j, v); Q }" neighbouring
 * threads own neighbouring columns and already read coalesced, but each
 * thread walks its whole column alone: on PolyBench's column sums that is
 * 8-16 blocks of 256 threads for 132 SMs (a 1-D block), or 8 threads of a
 * 32x8 block doing the same column's work (a kernel that ignores
 * threadIdx.y).  The variant makes the block's T threads W columns (W = 32,
 * 16 or 8: a row segment of whole 32-byte sectors; 4: half a sector, whose
 * other half the next slice reads at the same time, from L2, for twice the
 * blocks: PolyBench's column sums went 12.6x, 20.9x, 28.9x from W = 32 to 8,
 * the blocks in flight deciding) by T/W row phases: phase r sums
 * iterations L+r, L+r+T/W, ..., the phases' partial sums meet in shared
 * memory, and phase 0 adds them, in order, to the element and runs Q.  A
 * block of X columns becomes X/W slices; with more than one, the variant
 * asks for a grid X/W times as tall (core/launch_rule.h) and block (x, y)
 * takes slices y, y + gridDim.y, ... of block x's columns, so any height
 * is right.  Sums are reassociated: the judge's float tolerance decides.
 *
 * A second loop after the sum that updates the column element by element
 * ("for (i...) A[i*S + j] -= B[i*S + k] * X[..j..]": gramschmidt's third
 * kernel) is split over the row phases too, after a barrier, when its
 * iterations touch only their own elements: each array it writes is
 * accessed at one index, i*S + T with S a stride tested non-zero at run
 * time (zero: phase 0 runs the loop as it was).
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "stage_plan.h"

/* a loop after the sum that updates the column element by element */
typedef struct update_loop {
    stage_plan loop;          /* its loop_var, var_type, lower, upper, body */
    const char *before, *after; /* the statements between the sum and it, after it */
    const char *stride_test;  /* "(S1) != 0 && ...": iterations touch their own elements */
} update_loop;

/* index "v*S + T" (terms and factors in any order, T free of v): S, or
 * NULL */
static const char *stride_of(const char *index, const char *v, arena *a)
{
    const char *terms[8], *factors[2], *whole[1], *stride = NULL;
    size_t n = stage_split_top(index, "+", a, terms, 8);
    if (n > 8 || stage_split_top(index, "-", a, whole, 1) != 1) /* no '-' at the top */
        return NULL;
    for (size_t t = 0; t < n; t++) {
        if (!pol_mentions(terms[t], v))
            continue;
        if (stride || stage_split_top(terms[t], "*", a, factors, 2) != 2)
            return NULL;
        int f = strcmp(factors[0], v) == 0 ? 0 : strcmp(factors[1], v) == 0 ? 1 : -1;
        if (f < 0 || pol_mentions(factors[1 - f], v) || strpbrk(factors[1 - f], "=+-"))
            return NULL;
        stride = factors[1 - f];
    }
    return stride;
}

/* the update loop after the sum, if any: 0 found (in *u), -1 none, 1
 * refused (*why) */
static int find_update_loop(const tu_model *m, const kernel *k, const stage_plan *p,
                            const char *pre_decls, arena *a, update_loop *u, const char **why)
{
    const body_node *sum = &k->body.items[p->loop];
    long node = -1;
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *b = &k->body.items[i];
        if (b->kind != BODY_LOOP || !stage_in_guard(k, p, i) || (long)i == p->loop ||
            b->range.begin < sum->range.end)
            continue;
        if (node >= 0) {
            *why = "more than one loop after the sum";
            return 1;
        }
        node = (long)i;
    }
    if (node < 0)
        return -1;
    const body_node *L = &k->body.items[node];
    u->loop = *p;
    if (L->has_inner_loop || L->range.in_macro || stage_parse_loop(m, k, &u->loop, node, a, why)) {
        if (!*why)
            *why = "the loop after the sum has an inner loop, or comes from a macro";
        return 1;
    }
    const char *v = u->loop.loop_var;
    u->before = pol_trim(p->text + p->body_end, L->range.begin - p->body_end, a);
    u->after = pol_trim(p->text + u->loop.body_end, p->close - u->loop.body_end, a);
    if (pol_mentions(u->before, p->loop_var) || pol_mentions(u->after, v) ||
        (!u->loop.var_type && !pol_mentions(pre_decls, v))) {
        *why = "a loop variable is read after its loop, or the second loop's is declared after "
               "the sum";
        return 1;
    }
    strbuf test;
    sb_init(&test);
    int bad = 0;
    for (size_t i = 0; i < k->body.len && !bad; i++) {
        const body_node *b = &k->body.items[i];
        if (b->kind == BODY_ASSIGN && strcmp(b->op, "decl") == 0 && b->range.begin >= p->body_end &&
            b->range.end <= L->range.begin) {
            *why = "a declaration between the sum and the loop after it";
            bad = 1;
        }
        /* the loop's statement (not its header, which assigns the loop variable) */
        if (b->range.begin < u->loop.body_begin || b->range.end > u->loop.body_end)
            continue;
        if (b->kind == BODY_LOOP || b->kind == BODY_IF || b->kind == BODY_SYNC ||
            (b->kind == BODY_ASSIGN && (strcmp(b->op, "decl") == 0 ||
                                        !strchr(pol_text(m, &b->target, a), '[')))) {
            *why = "the loop after the sum declares or assigns a variable, or branches";
            bad = 1;
        }
        if (bad || b->kind != BODY_SUBSCRIPT || !b->is_write)
            continue;
        /* every use of a written array in the loop: this one element */
        const char *index = pol_squeeze(pol_text(m, &b->index, a), a);
        const char *stride = b->base ? stride_of(index, v, a) : NULL;
        const kernel_param *prm = b->base ? pol_param(k, b->base) : NULL;
        size_t uses = 0, same = 0;
        for (size_t j = 0; stride && j < k->body.len; j++) {
            const body_node *s = &k->body.items[j];
            if (s->kind == BODY_SUBSCRIPT && s->base && strcmp(s->base, b->base) == 0 &&
                s->range.begin >= u->loop.body_begin && s->range.end <= u->loop.body_end) {
                uses++;
                same += strcmp(pol_squeeze(pol_text(m, &s->index, a), a), index) == 0;
            }
        }
        if (!stride || !prm || !prm->is_pointer || uses != same ||
            uses != pol_count_identifier(p->text, u->loop.body_begin, u->loop.body_end, b->base)) {
            *why = "the loop after the sum writes an element other iterations could touch";
            bad = 1;
        } else if (!strstr(sb_str(&test), arena_printf(a, "(%s) != 0", stride)))
            sb_printf(&test, "%s(%s) != 0", test.len ? " && " : "", stride);
    }
    if (!bad && !test.len) {
        *why = "the loop after the sum writes no array element";
        bad = 1;
    }
    u->stride_test = arena_strdup(a, sb_str(&test));
    sb_free(&test);
    return bad;
}

/* the preconditions; 1 with *why when refused */
static int analyse(const tu_model *m, const kernel *k, const pol_facts *f, int width, arena *a,
                   stage_plan *p, strbuf *pre_decls, strbuf *pre, strbuf *post_decls, strbuf *post,
                   const char **body_out, update_loop *update, int *has_update, const char **why)
{
    if (stage_analyse(m, k, f, STAGE_RAW_AFTER | STAGE_LOOPS_AFTER, a, p, pre_decls, pre, post_decls,
                      post, why))
        return 1;
    int found = find_update_loop(m, k, p, sb_str(pre_decls), a, update, why);
    if (found > 0)
        return 1;
    *has_update = found == 0;
    if (!*has_update && pol_mentions(sb_str(post), p->loop_var)) {
        *why = "the loop variable is read after the loop";
        return 1;
    }
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
    update_loop update;
    int has_update = 0;
    if (analyse(m, k, f, width, a, &p, &pre_decls, &pre, &post_decls, &post, &body, &update, &has_update,
                why)) {
        sb_free(&pre_decls), sb_free(&pre), sb_free(&post_decls), sb_free(&post);
        return 1;
    }
    int x = f->block[0], phases = f->block[0] * f->block[1] * f->block[2] / width;
    int slices = x / width;
    const char *v = p.loop_var, *decl = p.var_type ? arena_printf(a, "%s ", p.var_type) : "";
    strbuf sb;
    sb_init(&sb);
    stage_open_shape_guard(&sb, f);
    for (size_t c = 0; c < p.n_accs; c++)
        sb_printf(&sb, "\t__shared__ %s cl1_part%zu[%d][%d];\n", p.accs[c].type, c, phases, width);
    const char *bx, *by;
    pol_taller_block_ids(m, k, slices, &sb, &bx, &by);
    sb_printf(&sb,
              "\tconst int cl1_t = threadIdx.x + %d * (threadIdx.y + %d * threadIdx.z);\n"
              "\tconst int cl1_c = cl1_t %% %d, cl1_r = cl1_t / %d;\n",
              f->block[0], f->block[1], width, width);
    /* one phase of columns (cl1_s): on the taller grid each block has one,
     * without a loop (a loop over one trip cost the sum 13 points of the
     * copy bandwidth on an H100, testsuite/bench/sums_parts.cu); on another
     * grid each block loops over its phases, a barrier between them */
    strbuf ph;
    sb_init(&ph);
    sb_printf(&ph, "\t\tconst int %s = %s * %d + cl1_s * %d + cl1_c;\n\t\tconst bool cl1_in = (%s);\n",
              p.thread_var[0], bx, x, width, p.cond);
    if (pre_decls.len)
        sb_printf(&ph, "\t\t%s\n", sb_str(&pre_decls) + 1);
    /* an element reset before the loop joins the sum at its end instead */
    const char *seeds[max_accs];
    int seeded = stage_reset_seeds(&p, sb_str(&pre), a, seeds);
    if (pre.len && !seeded)
        sb_printf(&ph, "\t\tif (cl1_in && cl1_r == 0) {%s }\n\t\t__syncthreads();\n", sb_str(&pre));
    for (size_t c = 0; c < p.n_accs; c++)
        sb_printf(&ph, "\t\t%s cl1_acc%zu = 0;\n", p.accs[c].type, c);
    sb_printf(&ph,
              "\t\tif (cl1_in) {\n\t\t\t#pragma unroll 8\n"
              "\t\t\tfor (%s%s = (%s) + cl1_r; %s < (%s); %s += %d)%s\n\t\t}\n",
              decl, v, p.lower, v, p.upper, v, phases, body);
    for (size_t c = 0; c < p.n_accs; c++)
        sb_printf(&ph, "\t\tcl1_part%zu[cl1_r][cl1_c] = cl1_acc%zu;\n", c, c);
    sb_puts(&ph, "\t\t__syncthreads();\n\t\tif (cl1_in && cl1_r == 0) {\n"
                 "\t\t\tfor (int cl1_w = 1; cl1_w < ");
    sb_printf(&ph, "%d; cl1_w++) {", phases);
    for (size_t c = 0; c < p.n_accs; c++)
        sb_printf(&ph, " cl1_acc%zu += cl1_part%zu[cl1_w][cl1_c];", c, c);
    sb_puts(&ph, " }\n");
    for (size_t c = 0; c < p.n_accs; c++)
        sb_printf(&ph, "\t\t\t%s\n", stage_sum_store(&p, c, seeds[c], arena_printf(a, "cl1_acc%zu", c), a));
    if (has_update) {
        /* the update loop's iterations over the row phases, after the sum */
        const stage_plan *u = &update.loop;
        const char *uv = u->loop_var, *udecl = u->var_type ? arena_printf(a, "%s ", u->var_type) : "";
        if (update.before[0])
            sb_printf(&ph, "\t\t\t%s\n", update.before);
        sb_printf(&ph,
                  "\t\t}\n\t\t__syncthreads();\n\t\tif (cl1_in) {\n"
                  "\t\t\tconst bool cl1_par = %s;\n\t\t\tif (cl1_par || cl1_r == 0)\n"
                  "\t\t\t\tfor (%s%s = (%s) + (cl1_par ? cl1_r : 0); %s < (%s); %s += (cl1_par ? %d : 1))%.*s\n",
                  update.stride_test, udecl, uv, u->lower, uv, u->upper, uv, phases,
                  (int)(u->body_end - u->body_begin), p.text + u->body_begin);
        if (update.after[0])
            sb_printf(&ph, "\t\t}\n\t\t__syncthreads();\n\t\tif (cl1_in && cl1_r == 0) {\n\t\t\t%s\n",
                      update.after);
    } else if (post.len)
        sb_printf(&ph, "\t\t\t%s\n", sb_str(&post));
    sb_puts(&ph, "\t\t}\n");
    sb_printf(&sb,
              "\tif (gridDim.y == %d) {\n\t\tconst int cl1_s = (int)%s;\n%s"
              "\t} else for (int cl1_s = (int)%s; cl1_s < %d; cl1_s += (int)gridDim.y) {\n%s"
              "\t\t__syncthreads();\n\t}\n",
              slices, by, sb_str(&ph), by, slices, sb_str(&ph));
    sb_free(&ph);
    stage_replace_guard(k, &p, sb_str(&sb), slices > 1 ? "blockIdx.y == 0" : NULL, a, out);
    sb_free(&sb);
    if (slices > 1)
        vec_push(out, pol_grid_y_marker(m, k, slices, a));
    sb_free(&pre_decls), sb_free(&pre), sb_free(&post_decls), sb_free(&post);
    return 0;
}
