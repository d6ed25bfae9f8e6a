/*
 * transform_regblock.c: `regblock2x2`, `regblock4x2`, `regblock4x4`:
 * register blocking for the two-dimensional loop nests `stage` stages
 * (matrix multiply: "C[i*n+j] += A[i*n+k] * B[k*n+j]" with i, j the
 * thread's y and x indices).  Each thread computes RY x RX outputs instead
 * of one, so a value it loads (B's element, a row of the staged tile) feeds
 * RY (RX) multiply-adds from registers rather than one.  The launch stays
 * as it is: blocks are folded, block (bx, by) doing the work of the
 * original blocks (bx*RX + c, by*RY + r) for c < RX, r < RY, and thread
 * (tx, ty) computing what their thread (tx, ty) computed:
 *
 *     i_r = (blockIdx.y * RY + r) * blockDim.y + threadIdx.y
 *     j_c = (blockIdx.x * RX + c) * blockDim.x + threadIdx.x
 *
 * each only where that original block exists (< gridDim); blocks with no
 * such block leave at once.  The rows the thread reads by its own index
 * are staged in shared memory as `stage` does, RY (RX) block heights of
 * them.  The blocked path runs only for the block shape the captures
 * showed, on a grid one block deep; any other launch runs the original.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "stage_plan.h"

static const char *replace_all(const char *s, const char *what, const char *with, arena *a)
{
    strbuf sb;
    sb_init(&sb);
    size_t n = strlen(what);
    for (const char *p = s; *p;) {
        if (strncmp(p, what, n) == 0) {
            sb_puts(&sb, with);
            p += n;
        } else {
            sb_append(&sb, p, 1);
            p++;
        }
    }
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

/* expr as output (r, c) sees it: its i and j, its accumulators, its rows
 * of the tiles */
static const char *for_output(const stage_plan *p, const char *expr, int r, int c, const int *block,
                              arena *a)
{
    const char *s = stage_substitute(expr, p->thread_var[0], arena_printf(a, "cl1_j%d", c), a);
    s = stage_substitute(s, p->thread_var[1], arena_printf(a, "cl1_i%d", r), a);
    for (size_t n = 0; n < p->n_accs; n++)
        s = stage_substitute(s, arena_printf(a, "cl1_acc%zu", n), arena_printf(a, "cl1_acc%zu_%d_%d", n, r, c),
                             a);
    s = replace_all(s, "[threadIdx.x]", arena_printf(a, "[threadIdx.x + %d]", c * block[0]), a);
    return replace_all(s, "[threadIdx.y]", arena_printf(a, "[threadIdx.y + %d]", r * block[1]), a);
}

/* 1 when the declarations before the loop (" int k; float t;") name
 * nothing but the loop variable: any other would be one variable shared
 * by the thread's outputs, each needing its own */
static int declares_loop_var_only(const char *decls, const char *loop_var)
{
    static const char *const words[] = {"int", "unsigned", "long", "float", "double", "size_t",
                                        "short", "char", "bool", "signed", "const", NULL};
    for (const char *p = decls; *p;) {
        if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) {
            p++;
            continue;
        }
        const char *b = p;
        while (*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
            p++;
        size_t n = (size_t)(p - b);
        int word = 0;
        for (int w = 0; words[w]; w++)
            word |= strlen(words[w]) == n && strncmp(words[w], b, n) == 0;
        if (!word && !(strlen(loop_var) == n && strncmp(loop_var, b, n) == 0))
            return 0;
    }
    return 1;
}

/* 1 when the loop body, its accumulators and tiles replaced, still stores
 * to memory ("x[e] = ...", "x[e] += ...", "x[e]++", "++x[e]", "*p = ...",
 * an atomic) or names an accumulated array: a thread's RY x RX outputs run
 * interleaved, so one output's store could reach another's reads, which
 * the original's threads never saw in that order */
static int body_touches_memory(const char *body, const stage_plan *p)
{
    static const char *const assign[] = {"<<=", ">>=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
                                         "++",  "--",  NULL};
    char prev = ';';
    for (const char *q = body; *q; q++) {
        if (*q == ']' || (*q == '*' && (prev == ';' || prev == '{' || prev == '}'))) {
            const char *r = q + 1;
            while (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r')
                r++;
            if (r[0] == '=' && r[1] != '=')
                return 1;
            for (int i = 0; assign[i]; i++)
                if (strncmp(r, assign[i], strlen(assign[i])) == 0)
                    return 1;
        }
        if ((q[0] == '+' && q[1] == '+') || (q[0] == '-' && q[1] == '-')) {
            const char *r = q + 2;
            while (*r == ' ' || *r == '\t')
                r++;
            while (pol_ident_char(*r))
                r++;
            while (*r == ' ' || *r == '\t')
                r++;
            if (*r == '[')
                return 1;
        }
        if (pol_ident_char(*q) && (q == body || !pol_ident_char(q[-1]))) {
            const char *e = q;
            while (pol_ident_char(*e))
                e++;
            size_t n = (size_t)(e - q);
            if (n >= 6 && strncmp(q, "atomic", 6) == 0)
                return 1;
            q = e - 1;
        }
        if (*q != ' ' && *q != '\t' && *q != '\n' && *q != '\r')
            prev = *q;
    }
    for (size_t a = 0; a < p->n_accs; a++)
        if (pol_mentions(body, p->accs[a].base))
            return 1;
    return 0;
}

int pol_transform_regblock(const tu_model *m, const kernel *k, const pol_facts *f, int ry, int rx,
                           arena *a, pol_edit_vec *out, const char **why)
{
    static const char dims[] = "xyz";
    stage_plan p;
    strbuf pre_decls, pre, post_decls, post;
    sb_init(&pre_decls), sb_init(&pre), sb_init(&post_decls), sb_init(&post);
    int bad = stage_analyse(m, k, f, STAGE_NEED_TILES, a, &p, &pre_decls, &pre, &post_decls, &post, why);
    const int *B = f->block;
    if (!bad && (!p.thread_var[0] || !p.thread_var[1] || B[2] != 1)) {
        *why = "not a two-dimensional kernel (i from y, j from x, blocks one deep)";
        bad = 1;
    }
    if (!bad && !stage_only_thread_vars_before(k, &p, a)) {
        *why = "something besides the thread indices is declared before the guard, or the guard "
               "reads threadIdx";
        bad = 1;
    }
    if (!bad && !declares_loop_var_only(sb_str(&pre_decls), p.loop_var)) {
        *why = "a variable declared before the loop would be shared by the thread's outputs";
        bad = 1;
    }
    const char *other = bad ? NULL : pol_other_thread_identity(m, k, 2);
    if (other) {
        *why = arena_printf(a, "something else tells the threads apart (%s)", other);
        bad = 1;
    }
    int rows[max_tiles], tk = 0;
    for (size_t t = 0; !bad && t < p.n_tiles; t++) {
        if (p.tiles[t].dim > 1) {
            *why = "a row is read by the z index";
            bad = 1;
        }
        rows[t] = p.tiles[t].dim == 1 ? ry * B[1] : rx * B[0];
    }
    if (!bad && !(tk = stage_tile_columns(&p, rows))) {
        *why = "the tiles do not fit in shared memory";
        bad = 1;
    }
    const char *rowconds[max_tiles];
    for (size_t t = 0; !bad && t < p.n_tiles; t++)
        bad = !(rowconds[t] = stage_row_condition(&p, &p.tiles[t], a, why));
    if (bad) {
        if (!*why)
            *why = "the statements around the loop are not simple";
        sb_free(&pre_decls), sb_free(&pre), sb_free(&post_decls), sb_free(&post);
        return 1;
    }
    const char *body = stage_render_body(m, k, &p, 1, a);
    if (body_touches_memory(body, &p)) {
        *why = "the loop stores to memory other than through its accumulators, or reads an "
               "accumulated array";
        sb_free(&pre_decls), sb_free(&pre), sb_free(&post_decls), sb_free(&post);
        return 1;
    }
    int nt = B[0] * B[1];
    const char *v = p.loop_var, *decl = p.var_type ? arena_printf(a, "%s ", p.var_type) : "";
    strbuf sb, all, fast, guarded;
    sb_init(&sb), sb_init(&all), sb_init(&fast), sb_init(&guarded);
    sb_printf(&sb, "if (blockDim.x == %d && blockDim.y == %d && blockDim.z == 1 && gridDim.z == 1) {\n", B[0],
              B[1]);
    sb_printf(&sb, "\tif (blockIdx.x * %d >= gridDim.x || blockIdx.y * %d >= gridDim.y)\n\t\treturn;\n", rx, ry);
    for (size_t t = 0; t < p.n_tiles; t++)
        sb_printf(&sb, "\t__shared__ %s cl1_tile%zu[%d][%d];\n", p.tiles[t].type, t, rows[t], tk + 1);
    for (int c = 0; c < rx; c++)
        sb_printf(&sb, "\tconst decltype(%s) cl1_j%d = (blockIdx.x * %d + %d) * %d + threadIdx.x;\n",
                  p.thread_var[0], c, rx, c, B[0]);
    for (int r = 0; r < ry; r++)
        sb_printf(&sb, "\tconst decltype(%s) cl1_i%d = (blockIdx.y * %d + %d) * %d + threadIdx.y;\n",
                  p.thread_var[1], r, ry, r, B[1]);
    if (pre_decls.len)
        sb_printf(&sb, "\t%s\n", sb_str(&pre_decls) + 1);
    for (int r = 0; r < ry; r++)
        for (int c = 0; c < rx; c++) {
            sb_printf(&sb, "\tconst bool cl1_in%d_%d = blockIdx.y * %d + %d < gridDim.y && blockIdx.x * %d + %d < "
                           "gridDim.x && (%s);\n",
                      r, c, ry, r, rx, c, for_output(&p, p.cond, r, c, B, a));
            sb_printf(&all, "%scl1_in%d_%d", all.len ? " && " : "", r, c);
            const char *b = for_output(&p, body, r, c, B, a);
            sb_printf(&fast, " %s", b);
            sb_printf(&guarded, " if (cl1_in%d_%d) %s", r, c, b);
        }
    sb_printf(&sb, "\tconst bool cl1_all = %s;\n", sb_str(&all));
    for (int r = 0; r < ry; r++)
        for (int c = 0; c < rx; c++) {
            if (pre.len)
                sb_printf(&sb, "\tif (cl1_in%d_%d) {%s }\n", r, c, for_output(&p, sb_str(&pre), r, c, B, a));
            for (size_t n = 0; n < p.n_accs; n++)
                sb_printf(&sb, "\t%s cl1_acc%zu_%d_%d = 0;\n\tif (cl1_in%d_%d) cl1_acc%zu_%d_%d = %s[%s];\n",
                          p.accs[n].type, n, r, c, r, c, n, r, c, p.accs[n].base,
                          for_output(&p, p.accs[n].index, r, c, B, a));
        }
    sb_printf(&sb, "\tconst int cl1_tid = threadIdx.x + %d * threadIdx.y;\n", B[0]);
    sb_printf(&sb, "\tfor (int cl1_k0 = (%s); cl1_k0 < (%s); cl1_k0 += %d) {\n\t\t__syncthreads();\n", p.lower,
              p.upper, tk);
    for (size_t t = 0; t < p.n_tiles; t++) {
        const staged *st = &p.tiles[t];
        sb_printf(&sb,
                  "\t\tfor (int cl1_t = cl1_tid; cl1_t < %d; cl1_t += %d) {\n"
                  "\t\t\tconst int cl1_row = blockIdx.%c * %d + cl1_t / %d;\n"
                  "\t\t\tconst int cl1_kx = cl1_k0 + cl1_t %% %d;\n"
                  "\t\t\tcl1_tile%zu[cl1_t / %d][cl1_t %% %d] = (cl1_kx < (%s) && %s) ? "
                  "%s[(cl1_row) * (%s) + cl1_kx] : (%s)0;\n\t\t}\n",
                  rows[t] * tk, nt, dims[st->dim], rows[t], tk, tk, t, tk, tk, p.upper, rowconds[t], st->base,
                  st->stride, st->type);
    }
    sb_printf(&sb,
              "\t\t__syncthreads();\n"
              "\t\tif (cl1_all && cl1_k0 + %d <= (%s)) {\n\t\t\t#pragma unroll\n"
              "\t\t\tfor (%s%s = cl1_k0; %s < cl1_k0 + %d; %s++) {%s }\n"
              "\t\t} else {\n\t\t\tfor (%s%s = cl1_k0; %s < cl1_k0 + %d && %s < (%s); %s++) {%s }\n\t\t}\n\t}\n",
              tk, p.upper, decl, v, v, tk, v, sb_str(&fast), decl, v, v, tk, v, p.upper, v, sb_str(&guarded));
    for (int r = 0; r < ry; r++)
        for (int c = 0; c < rx; c++) {
            strbuf tail;
            sb_init(&tail);
            for (size_t n = 0; n < p.n_accs; n++)
                sb_printf(&tail, " %s[%s] = cl1_acc%zu_%d_%d;", p.accs[n].base,
                          for_output(&p, p.accs[n].index, r, c, B, a), n, r, c);
            if (post.len)
                sb_puts(&tail, for_output(&p, sb_str(&post), r, c, B, a));
            if (tail.len)
                sb_printf(&sb, "\tif (cl1_in%d_%d) {%s }\n", r, c, sb_str(&tail));
            sb_free(&tail);
        }
    stage_replace_guard(k, &p, sb_str(&sb), NULL, a, out);
    sb_free(&sb), sb_free(&all), sb_free(&fast), sb_free(&guarded);
    sb_free(&pre_decls), sb_free(&pre), sb_free(&post_decls), sb_free(&post);
    return 0;
}
