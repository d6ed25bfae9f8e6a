/*
 * transform_warp_rows.c: `warp_rows` (a warp per row).  The loop that
 * `stage` stages (each thread of a one-dimensional block walks its own row
 * "A[i*N+j]" and sums into elements it owns) is instead run by a warp per
 * row: the 32 lanes take every 32nd column, so each warp load is one
 * coalesced row segment, and the lanes' partial sums meet in a shuffle
 * reduction.  A block still covers the same rows (the warp w takes rows
 * 32w..32w+31 of the block's), so the launch is unchanged; the warped path
 * runs only for the captured block size, any other runs the original.
 * Sums are reassociated: the judge's float tolerance decides.
 *
 * `warp_rows4` and `warp_rows8` sum 4 or 8 rows of the warp's at once,
 * each with its own accumulators, in one column loop: on a grid of few
 * blocks (16 blocks of 256 rows on 132 SMs) one row at a time leaves too
 * few loads in flight to use the memory bandwidth.  They need loop bounds
 * that do not depend on the row.
 *
 * `wide_rows` gives each row a warp of its own on a grid X/W times as tall
 * (core/launch_rule.h; X rows and W warps a block: 32 for a one-dimensional
 * block, 4 for a 32x8 one): block (x, y) takes rows y*W+w, y*W+w+H*W, ...
 * of block x's (H the grid's height), so any height is right; the original
 * statement runs for blockIdx.y == 0 only when blockDim differs.
 *
 * `wide_rows_vec` is wide_rows whose lanes load the row's float arrays 16
 * bytes at a time (the reads vec_loads finds: read-only, at "E + j"): lane
 * l takes the 4-element chunks l, l + 32, ..., a warp a 512-byte segment a
 * step, four times the bytes in flight of one float a lane; rows whose
 * reads do not start on 16 bytes run wide_rows' loop.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "stage_plan.h"

/* the next ';'-separated statement of text (NULL: of the text before;
 * strtok_r's state in *save), its leading blanks skipped, empty ones
 * passed over; NULL after the last */
static char *next_statement(char *text, char **save)
{
    for (char *st = strtok_r(text, ";", save); st; st = strtok_r(NULL, ";", save)) {
        while (*st == ' ' || *st == '\t' || *st == '\n' || *st == '\r')
            st++;
        if (*st)
            return st;
    }
    return NULL;
}

/* every statement of the body is "cl1_accN += EXPR" with EXPR free of the
 * accumulators: a sum the lanes may split */
int stage_sums_only(const char *body, arena *a)
{
    const char *open = strchr(body, '{'), *close = strrchr(body, '}');
    const char *from = open && close > open ? open + 1 : body;
    size_t n = open && close > open ? (size_t)(close - from) : strlen(body);
    char *text = arena_printf(a, "%.*s", (int)n, from);
    if (strchr(text, '{') || strchr(text, '?') || strstr(text, "if"))
        return 0;
    int statements = 0;
    char *save;
    for (char *st = next_statement(text, &save); st; st = next_statement(NULL, &save)) {
        if (strncmp(st, "cl1_acc", 7) != 0 || !(st[7] >= '0' && st[7] <= '9'))
            return 0;
        const char *op = st + 8;
        while (*op == ' ' || *op == '\t')
            op++;
        if (strncmp(op, "+=", 2) != 0 || strstr(op, "cl1_acc"))
            return 0;
        statements++;
    }
    return statements > 0;
}

/* st (a statement of the text before the loop) is "BASE[INDEX] = E" for
 * one of p's indexed accumulators, E free of calls, assignments and every
 * accumulated array: that accumulator's number, with *rhs = E; else -1 */
static int reset_of(const stage_plan *p, const char *st, arena *a, const char **rhs)
{
    const char *eq = strchr(st, '=');
    if (!eq || eq == st || eq[1] == '=' || strchr("!<>+-*/%&|^", eq[-1]))
        return -1;
    const char *lhs = pol_squeeze(arena_printf(a, "%.*s", (int)(eq - st), st), a);
    const char *e = eq + 1;
    while (*e == ' ' || *e == '\t' || *e == '\n' || *e == '\r')
        e++;
    if (!*e || strchr(e, '=') || strstr(e, "++") || strstr(e, "--"))
        return -1;
    for (const char *c = strchr(e, '('); c; c = strchr(c + 1, '(')) {
        const char *b = c;
        while (b > e && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (b > e && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
            return -1; /* a call: it ran before the loop */
    }
    int found = -1;
    for (size_t c = 0; c < p->n_accs; c++) {
        if (pol_mentions(e, p->accs[c].base))
            return -1;
        if (p->accs[c].index && strcmp(lhs, arena_printf(a, "%s[%s]", p->accs[c].base, p->accs[c].squeezed)) == 0)
            found = (int)c;
    }
    *rhs = e;
    return found;
}

/* stage_reset_seeds' work; seeds may be half filled when it returns 0 */
static int collect_seeds(const stage_plan *p, const char *pre, arena *a, const char **seeds)
{
    char *text = arena_printf(a, "%s", pre);
    if (strchr(text, '{') || strchr(text, '}') || strchr(text, '?') || strchr(text, ','))
        return 0;
    int n = 0;
    char *save;
    for (char *st = next_statement(text, &save); st; st = next_statement(NULL, &save)) {
        const char *rhs;
        int c = reset_of(p, st, a, &rhs);
        if (c < 0 || seeds[c])
            return 0;
        seeds[c] = arena_printf(a, "%s", rhs);
        n++;
    }
    return n > 0;
}

int stage_reset_seeds(const stage_plan *p, const char *pre, arena *a, const char **seeds)
{
    for (size_t c = 0; c < p->n_accs; c++)
        seeds[c] = NULL;
    if (pre[0] && collect_seeds(p, pre, a, seeds))
        return 1;
    for (size_t c = 0; c < p->n_accs; c++)
        seeds[c] = NULL;
    return 0;
}

/* the element an accumulator's sum ends in: "BASE[INDEX] = (SEED) + ACC"
 * where the element was reset to SEED before the loop (stage_reset_seeds),
 * else "BASE[INDEX] = BASE[INDEX] + ACC" (BASE for a scalar sum) */
const char *stage_sum_store(const stage_plan *p, size_t c, const char *seed, const char *acc, arena *a)
{
    const char *out = p->accs[c].index ? arena_printf(a, "%s[%s]", p->accs[c].base, p->accs[c].index)
                                       : p->accs[c].base;
    return seed ? arena_printf(a, "%s = (%s) + %s;", out, seed, acc)
                : arena_printf(a, "%s = %s + %s;", out, out, acc);
}

int stage_only_thread_vars_before(const kernel *k, const stage_plan *p, arena *a)
{
    size_t guard_begin = k->body.items[p->guard].range.begin;
    if (k->body_range.begin >= guard_begin)
        return 0;
    const char *open = memchr(p->text + k->body_range.begin, '{', guard_begin - k->body_range.begin);
    if (!open)
        return 0;
    char *before = arena_printf(a, "%.*s", (int)(p->text + guard_begin - open - 1), open + 1);
    for (char *c = before; *c; c++) /* comments read as blanks */
        if (c[0] == '/' && c[1] == '*') {
            char *e = strstr(c + 2, "*/");
            for (char *end = e ? e + 2 : c + strlen(c); c < end; c++)
                *c = ' ';
            c--;
        } else if (c[0] == '/' && c[1] == '/') {
            for (; *c && *c != '\n'; c++)
                *c = ' ';
            c--;
        }
    char *save;
    for (char *st = next_statement(before, &save); st; st = next_statement(NULL, &save)) {
        const char *eq = strchr(st, '=');
        int known = 0;
        for (int d = 0; eq && d < 3; d++) {
            const char *name = p->thread_var[d];
            size_t n = name ? strlen(name) : 0;
            const char *end = eq;
            while (end > st && (end[-1] == ' ' || end[-1] == '\t'))
                end--;
            known |= n && (size_t)(end - st) > n && strncmp(end - n, name, n) == 0 &&
                     (end[-n - 1] == ' ' || end[-n - 1] == '\t');
        }
        if (!known)
            return 0;
    }
    const char *guard = arena_printf(a, "%.*s", (int)(p->guard_end - guard_begin), p->text + guard_begin);
    return !strstr(guard, "threadIdx");
}

/* body with every cl1_accN renamed cl1_accN_R */
static const char *rename_accs(const char *body, int r, arena *a)
{
    strbuf sb;
    sb_init(&sb);
    for (const char *p = body; *p;) {
        const char *q = strstr(p, "cl1_acc");
        if (!q) {
            sb_puts(&sb, p);
            break;
        }
        const char *d = q + 7;
        while (*d >= '0' && *d <= '9')
            d++;
        sb_append(&sb, p, (size_t)(d - p));
        if (d > q + 7 && !(isalnum((unsigned char)*d) || *d == '_'))
            sb_printf(&sb, "_%d", r);
        p = d;
    }
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

/* the warp's rows cl1_row..cl1_row+rows-1 at once: accumulators per row,
 * one column loop, each row's statements behind its own condition */
static void render_rows_at_once(strbuf *sb, const stage_plan *p, const char *body, const char *pre,
                                const char *post, const char *pre_decls, int rows, const char *decl,
                                arena *a)
{
    const char *i = p->thread_var[0], *v = p->loop_var;
    if (pre_decls[0])
        sb_printf(sb, "\t\t%s\n", pre_decls);
    const char *seeds[max_accs];
    if (stage_reset_seeds(p, pre, a, seeds))
        pre = "";
    if (pre[0]) {
        sb_puts(sb, "\t\tif (cl1_lane == 0) {\n");
        for (int r = 0; r < rows; r++)
            sb_printf(sb, "\t\t\t{ const int %s = cl1_row + %d; if (%s) {%s } }\n", i, r, p->cond, pre);
        sb_puts(sb, "\t\t}\n\t\t__syncwarp();\n");
    }
    for (int r = 0; r < rows; r++)
        for (size_t c = 0; c < p->n_accs; c++)
            sb_printf(sb, "\t\t%s cl1_acc%zu_%d = 0;\n", p->accs[c].type, c, r);
    sb_printf(sb, "\t\t#pragma unroll 4\n\t\tfor (%s%s = (%s) + cl1_lane; %s < (%s); %s += 32) {\n",
              decl, v, p->lower, v, p->upper, v);
    for (int r = 0; r < rows; r++)
        sb_printf(sb, "\t\t\t{ const int %s = cl1_row + %d; if (%s) %s }\n", i, r, p->cond,
                  rename_accs(body, r, a));
    sb_puts(sb, "\t\t}\n\t\tfor (int cl1_o = 16; cl1_o > 0; cl1_o /= 2) {\n");
    for (int r = 0; r < rows; r++)
        for (size_t c = 0; c < p->n_accs; c++)
            sb_printf(sb, "\t\t\tcl1_acc%zu_%d += __shfl_down_sync(0xffffffffu, cl1_acc%zu_%d, cl1_o);\n",
                      c, r, c, r);
    sb_puts(sb, "\t\t}\n\t\tif (cl1_lane == 0) {\n");
    for (int r = 0; r < rows; r++) {
        sb_printf(sb, "\t\t\t{ const int %s = cl1_row + %d; if (%s) {", i, r, p->cond);
        for (size_t c = 0; c < p->n_accs; c++)
            sb_printf(sb, " %s", stage_sum_store(p, c, seeds[c], arena_printf(a, "cl1_acc%zu_%d", c, r), a));
        sb_printf(sb, "%s } }\n", post);
    }
    sb_puts(sb, "\t\t}\n");
}

static int shuffles(const char *type)
{
    return strcmp(type, "float") == 0 || strcmp(type, "double") == 0 || strcmp(type, "int") == 0;
}

/* the float arrays a row's loop reads at "E + j", loaded 16 bytes a lane
 * (wide_rows_vec) */
enum { max_row_vectors = 6 };
typedef struct row_vectors {
    size_t n;
    const char *base[max_row_vectors], *index[max_row_vectors]; /* index squeezed */
} row_vectors;

/* body with each vectorized read "B[I]" as component s of its vector and
 * the loop variable as cl1_vj + s elsewhere */
static const char *vector_step(const char *body, const row_vectors *rv, const char *var, int s, arena *a)
{
    strbuf sb;
    sb_init(&sb);
    size_t n = strlen(body);
    for (size_t i = 0; i < n;) {
        size_t e = i;
        while (e < n && pol_ident_char((unsigned char)body[e]))
            e++;
        if (e == i || (i > 0 && pol_ident_char((unsigned char)body[i - 1]))) {
            sb_putc(&sb, body[i]);
            i = e > i ? e : i + 1;
            continue;
        }
        size_t open = ctext_skip_blanks(body, n, e);
        size_t close = open < n && body[open] == '[' ? ctext_close_bracket(body, n, open) : 0;
        int hit = -1;
        for (size_t c = 0; close && c < rv->n && hit < 0; c++)
            if (strlen(rv->base[c]) == e - i && strncmp(body + i, rv->base[c], e - i) == 0 &&
                strcmp(pol_squeeze(arena_printf(a, "%.*s", (int)(close - open - 1), body + open + 1), a),
                       rv->index[c]) == 0)
                hit = (int)c;
        if (hit >= 0) {
            sb_printf(&sb, "cl1_vv%d.%c", hit, "xyzw"[s]);
            i = close + 1;
        } else {
            sb_append(&sb, body + i, e - i);
            i = e;
        }
    }
    const char *out = stage_substitute(sb_str(&sb), var, arena_printf(a, "(cl1_vj + %d)", s), a);
    sb_free(&sb);
    return out;
}

/* s on one line: runs of blanks as one space, in one pair of braces */
static const char *one_line(const char *s, arena *a)
{
    strbuf sb;
    sb_init(&sb);
    for (const char *c = s; *c; c++) {
        if (isspace((unsigned char)*c)) {
            while (isspace((unsigned char)c[1]))
                c++;
            if (sb.len && c[1])
                sb_putc(&sb, ' ');
        } else
            sb_putc(&sb, *c);
    }
    const char *t = arena_strdup(a, sb_str(&sb));
    size_t n = strlen(t);
    sb_free(&sb);
    if (n >= 2 && t[0] == '{' && ctext_close_bracket(t, n, 0) == n - 1)
        return t;
    return arena_printf(a, "{ %s }", t);
}

/* the row's loop with 16-byte loads: lane l takes the 4-element chunks l,
 * l + 32, ... of the row (one 512-byte segment a warp a step), the chunks'
 * iterations in their order; what no whole chunk covers, and a row whose
 * reads do not start on 16 bytes, the lanes take one by one */
static void render_vector_loop(strbuf *sb, const stage_plan *p, const char *body, const row_vectors *rv,
                               const char *decl, arena *a)
{
    const char *v = p->loop_var;
    const char *type = p->var_type ? p->var_type : arena_printf(a, "decltype(%s)", v);
    sb_puts(sb, "\t\t\tif (((");
    for (size_t c = 0; c < rv->n; c++)
        sb_printf(sb, "%s(unsigned long long)(const void *)&%s[%s]", c ? " | " : "", rv->base[c],
                  stage_substitute(rv->index[c], v, arena_printf(a, "(%s)", p->lower), a));
    sb_puts(sb, ") & 15) == 0) {\n");
    sb_printf(sb, "\t\t\t\t#pragma unroll 2\n\t\t\t\tfor (%s cl1_vj = (%s) + 4 * cl1_lane; cl1_vj + 3 < (%s); "
                  "cl1_vj += 128) {\n",
              type, p->lower, p->upper);
    for (size_t c = 0; c < rv->n; c++)
        sb_printf(sb, "\t\t\t\t\tconst float4 cl1_vv%zu = *(const float4 *)&%s[%s];\n", c, rv->base[c],
                  stage_substitute(rv->index[c], v, "cl1_vj", a));
    for (int s = 0; s < 4; s++)
        sb_printf(sb, "\t\t\t\t\t%s\n", one_line(vector_step(body, rv, v, s, a), a));
    sb_puts(sb, "\t\t\t\t}\n");
    sb_printf(sb, "\t\t\t\tfor (%s%s = (%s) + ((%s) > (%s) ? ((%s) - (%s)) / 4 * 4 : 0) + cl1_lane; %s < (%s); "
                  "%s += 32)%s\n",
              decl, v, p->lower, p->upper, p->lower, p->upper, p->lower, v, p->upper, v, body);
    sb_printf(sb, "\t\t\t} else\n\t\t\t\tfor (%s%s = (%s) + cl1_lane; %s < (%s); %s += 32)%s\n", decl, v,
              p->lower, v, p->upper, v, body);
}

/* one row per pass: i the row, its sum split over the lanes (the
 * statements inside the row loop of warp_rows and wide_rows); rv: the
 * reads loaded 16 bytes at a time, or NULL */
static void render_one_row(strbuf *sb, const stage_plan *p, const char *body, const char *pre_decls,
                           const char *pre, const char *post, const char *decl, const row_vectors *rv,
                           arena *a)
{
    const char *v = p->loop_var;
    sb_printf(sb, "\t\tif (%s) {\n", p->cond);
    if (pre_decls[0])
        sb_printf(sb, "\t\t\t%s\n", pre_decls);
    /* an element reset before the loop joins the sum at its end instead */
    const char *seeds[max_accs];
    if (stage_reset_seeds(p, pre, a, seeds))
        pre = "";
    if (pre[0])
        sb_printf(sb, "\t\t\tif (cl1_lane == 0) {%s }\n\t\t\t__syncwarp();\n", pre);
    for (size_t c = 0; c < p->n_accs; c++)
        sb_printf(sb, "\t\t\t%s cl1_acc%zu = 0;\n", p->accs[c].type, c);
    if (rv)
        render_vector_loop(sb, p, body, rv, decl, a);
    else
        sb_printf(sb, "\t\t\t#pragma unroll 4\n\t\t\tfor (%s%s = (%s) + cl1_lane; %s < (%s); %s += 32)%s\n",
                  decl, v, p->lower, v, p->upper, v, body);
    sb_puts(sb, "\t\t\tfor (int cl1_o = 16; cl1_o > 0; cl1_o /= 2) {\n");
    for (size_t c = 0; c < p->n_accs; c++)
        sb_printf(sb, "\t\t\t\tcl1_acc%zu += __shfl_down_sync(0xffffffffu, cl1_acc%zu, cl1_o);\n", c, c);
    sb_puts(sb, "\t\t\t}\n\t\t\tif (cl1_lane == 0) {");
    for (size_t c = 0; c < p->n_accs; c++)
        sb_printf(sb, " %s", stage_sum_store(p, c, seeds[c], arena_printf(a, "cl1_acc%zu", c), a));
    sb_printf(sb, "%s }\n\t\t}\n", post);
}

/* "if (blockDim == the captured shape) {", the thread's number in the
 * block (threadIdx.x in a one-dimensional block, else cl1_t) and its lane
 * cl1_lane; returns the number's name */
static const char *open_warped_block(strbuf *sb, const pol_facts *f)
{
    stage_open_shape_guard(sb, f);
    const char *tid = "threadIdx.x";
    if (f->block[1] * f->block[2] != 1) {
        sb_printf(sb, "\tconst int cl1_t = threadIdx.x + %d * (threadIdx.y + %d * threadIdx.z);\n",
                  f->block[0], f->block[1]);
        tid = "cl1_t";
    }
    sb_printf(sb, "\tconst int cl1_lane = %s %% 32;\n", tid);
    return tid;
}

/* the preconditions of warp_rows; 1 with *why when refused */
static int analyse(const tu_model *m, const kernel *k, const pol_facts *f, int rows, arena *a,
                   stage_plan *p, strbuf *pre_decls, strbuf *pre, strbuf *post_decls, strbuf *post,
                   const char **body_out, const char **why)
{
    int bad = stage_analyse(m, k, f, STAGE_NEED_TILES | STAGE_SCALAR_SUMS, a, p, pre_decls, pre, post_decls,
                            post, why);
    int threads = f->block[0] * f->block[1] * f->block[2];
    if (!bad && (threads % 32 || !p->thread_var[0] || p->thread_var[1] || p->thread_var[2])) {
        *why = "the block is not whole warps, or the kernel indexes threads along y or z";
        bad = 1;
    }
    /* a block whose y and z threads repeat the x threads' work (the kernel
     * reads nothing but its x index): its warps share the block's rows */
    const char *other = bad || threads == f->block[0] ? NULL : pol_other_thread_identity(m, k, 1);
    if (!bad && other) {
        *why = arena_printf(a, "the block is not one-dimensional, and something besides the x "
                               "index tells its threads apart (%s)", other);
        bad = 1;
    }
    int per_warp = bad ? 0 : f->block[0] / (threads / 32);
    if (!bad && (f->block[0] % (threads / 32) || per_warp % rows)) {
        *why = "the block's rows do not split evenly over its warps, or into groups of rows";
        bad = 1;
    }
    if (!bad && !stage_only_thread_vars_before(k, p, a)) {
        *why = "something besides the thread index is declared before the guard, or the guard "
               "reads threadIdx";
        bad = 1;
    }
    for (size_t t = 0; !bad && t < p->n_tiles; t++)
        if (p->tiles[t].dim != 0) {
            *why = "a row is read by a thread index other than x";
            bad = 1;
        }
    for (size_t c = 0; !bad && c < p->n_accs; c++)
        if (!shuffles(p->accs[c].type)) {
            *why = "an accumulator of a type without a warp shuffle";
            bad = 1;
        } else if (!p->accs[c].index && rows > 1) {
            /* the rows at once would share the one variable */
            *why = "the sum is kept in a variable: one row at a time only (warp_rows, wide_rows)";
            bad = 1;
        }
    const char *body = bad ? NULL : stage_render_body(m, k, p, 0, a);
    if (!bad && (!p->n_accs || !stage_sums_only(body, a))) {
        *why = "the loop does not only add to elements the thread owns";
        bad = 1;
    }
    const char *decls = pre_decls->len ? sb_str(pre_decls) + 1 : "";
    if (!bad && rows > 1 &&
        (pol_mentions(p->lower, p->thread_var[0]) || pol_mentions(p->upper, p->thread_var[0]) ||
         pol_mentions(decls, p->thread_var[0]))) {
        *why = "the column loop's bounds (or what is declared before it) depend on the row";
        bad = 1;
    }
    *body_out = body;
    return bad;
}

int pol_transform_warp_rows(const tu_model *m, const kernel *k, const pol_facts *f, int rows,
                            arena *a, pol_edit_vec *out, const char **why)
{
    stage_plan p;
    strbuf pre_decls, pre, post_decls, post;
    sb_init(&pre_decls), sb_init(&pre), sb_init(&post_decls), sb_init(&post);
    const char *body = NULL;
    if (analyse(m, k, f, rows, a, &p, &pre_decls, &pre, &post_decls, &post, &body, why)) {
        sb_free(&pre_decls), sb_free(&pre), sb_free(&post_decls), sb_free(&post);
        return 1;
    }
    const char *decls = pre_decls.len ? sb_str(&pre_decls) + 1 : "";
    const char *decl = p.var_type ? arena_printf(a, "%s ", p.var_type) : "";
    /* warp w takes the block's rows w*P .. w*P+P-1 (P = rows per warp: 32
     * in a one-dimensional block, whose lanes' own rows those are) */
    int warps = f->block[0] * f->block[1] * f->block[2] / 32, per_warp = f->block[0] / warps;
    strbuf sb;
    sb_init(&sb);
    const char *tid = open_warped_block(&sb, f);
    if (rows > 1) {
        sb_printf(&sb, "\tfor (int cl1_r = 0; cl1_r < %d; cl1_r += %d) {\n"
                       "\t\tconst int cl1_row = blockIdx.x * %d + (%s / 32) * %d + cl1_r;\n",
                  per_warp, rows, f->block[0], tid, per_warp);
        render_rows_at_once(&sb, &p, body, sb_str(&pre), sb_str(&post), decls, rows, decl, a);
    } else {
        sb_printf(&sb, "\tfor (int cl1_r = 0; cl1_r < %d; cl1_r++) {\n"
                       "\t\tconst int %s = blockIdx.x * %d + (%s / 32) * %d + cl1_r;\n",
                  per_warp, p.thread_var[0], f->block[0], tid, per_warp);
        render_one_row(&sb, &p, body, decls, sb_str(&pre), sb_str(&post), decl, NULL, a);
    }
    sb_puts(&sb, "\t}\n");
    stage_replace_guard(k, &p, sb_str(&sb), NULL, a, out);
    sb_free(&sb);
    sb_free(&pre_decls), sb_free(&pre), sb_free(&post_decls), sb_free(&post);
    return 0;
}

int pol_transform_wide_rows(const tu_model *m, const kernel *k, const pol_facts *f, int vec, arena *a,
                            pol_edit_vec *out, const char **why)
{
    stage_plan p;
    strbuf pre_decls, pre, post_decls, post;
    sb_init(&pre_decls), sb_init(&pre), sb_init(&post_decls), sb_init(&post);
    const char *body = NULL;
    int bad = analyse(m, k, f, 1, a, &p, &pre_decls, &pre, &post_decls, &post, &body, why);
    if (!bad) {
        const char *def = pol_squeeze(arena_printf(a, "%.*s",
                                                   (int)(k->decl_range.end - k->decl_range.begin),
                                                   p.text + k->decl_range.begin), a);
        if (f->block[0] * 32 <= f->block[0] * f->block[1] * f->block[2]) {
            *why = "the block has a warp for each of its rows already (warp_rows)";
            bad = 1;
        } else if (strstr(def, "blockIdx.y") || strstr(def, "gridDim.y") || !f->flat_grid) {
            *why = "the kernel reads blockIdx.y or gridDim.y, which the taller grid changes, or a "
                   "captured grid was not one block high and deep";
            bad = 1;
        }
    }
    row_vectors rv = {0};
    if (!bad && vec) {
        rv.n = vec_loads_unit_reads(m, k, &p, rv.base, rv.index, max_row_vectors, a);
        if (!rv.n) {
            *why = "the loop reads no read-only float array at E + its variable (or stores by it)";
            bad = 1;
        }
    }
    if (bad) {
        sb_free(&pre_decls), sb_free(&pre), sb_free(&post_decls), sb_free(&post);
        return 1;
    }
    /* the block's X rows, a warp each, on a grid X / warps times as tall */
    int warps = f->block[0] * f->block[1] * f->block[2] / 32, factor = f->block[0] / warps;
    const char *decls = pre_decls.len ? sb_str(&pre_decls) + 1 : "";
    const char *decl = p.var_type ? arena_printf(a, "%s ", p.var_type) : "";
    strbuf sb;
    sb_init(&sb);
    const char *tid = open_warped_block(&sb, f), *bx, *by;
    pol_taller_block_ids(m, k, factor, &sb, &bx, &by);
    /* on the taller grid a warp has one row, without a loop (as in
     * col_split: a loop of one trip cost the column sums 13 points of the
     * copy bandwidth); on another grid each warp loops over its rows */
    strbuf row;
    sb_init(&row);
    sb_printf(&row, "\t\tconst int %s = %s * %d + cl1_r;\n", p.thread_var[0], bx, f->block[0]);
    render_one_row(&row, &p, body, decls, sb_str(&pre), sb_str(&post), decl, vec ? &rv : NULL, a);
    sb_printf(&sb,
              "\tif (gridDim.y == %d) {\n\t\tconst int cl1_r = (int)(%s * %d + %s / 32);\n%s"
              "\t} else for (int cl1_r = (int)(%s * %d + %s / 32); cl1_r < %d; cl1_r += (int)(gridDim.y * %d)) {\n"
              "%s\t}\n",
              factor, by, warps, tid, sb_str(&row), by, warps, tid, f->block[0], warps, sb_str(&row));
    sb_free(&row);
    stage_replace_guard(k, &p, sb_str(&sb), "blockIdx.y == 0", a, out);
    sb_free(&sb);
    vec_push(out, pol_grid_y_marker(m, k, factor, a));
    sb_free(&pre_decls), sb_free(&pre), sb_free(&post_decls), sb_free(&post);
    return 0;
}
