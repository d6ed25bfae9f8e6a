/*
 * transform_tile_pairs.c: `tile_pairs64`: block and register tiling of a
 * one-dimensional kernel whose threads each run an outer loop over a second
 * index and sum, in every iteration, the products of two columns
 * (covariance, correlation):
 *
 *     for (j2 = j1; j2 < M; j2++) {
 *         sym[j1*M + j2] = 0.0;
 *         for (i = 0; i < N; i++)
 *             sym[j1*M + j2] += data[i*M + j1] * data[i*M + j2];
 *         sym[j2*M + j1] = sym[j1*M + j2];
 *     }
 *
 * (or the sum in a float declared in the iteration, "float s = 0; ... s +=
 * ...; sym[..] = s;").  The pairs (j1, j2) are the outputs of a matrix
 * product.  split_loop's proof (split_loop.h) that the outer loop's
 * iterations touch no element in common lets them run in any order, and
 * tile_dot's tiles (transform_tile_dot_emit.c) compute them: 64x64 pairs a
 * block, 4x4 a thread, both columns staged in shared memory, each sum's
 * terms added in the original's order (`tile_pairs64_split4`: 8x8 a thread,
 * the sum split over four groups of the block's threads, the judge's
 * tolerance deciding; `tile_pairs64_ahead2`: each stage's loads two
 * stages ahead of the one summed).  The grid is made 64 times taller,
 * as split_loop's, and its blocks take the tiles in turn (those with no
 * pair of the triangle are left at once); the guard's statements around the
 * loop run once, in the first slice.  Another block shape, or bounds the
 * proof needs failing at run time, runs split_loop's variant.
 */
#include <string.h>

#include "split_loop.h"
#include "transform_tile_dot.h"

/* text [b, e) of the kernel's file, trimmed */
static const char *span(const split_plan *sp, size_t b, size_t e, arena *a)
{
    return b < e ? pol_trim(sp->text + b, e - b, a) : "";
}

/* the statements of the outer loop's body: one inner loop, assignments
 * before and after it, nothing else; the inner loop one assignment */
static long inner_loop(const kernel *k, const split_plan *sp, const char **why)
{
    long inner = -1;
    for (size_t j = 0; j < k->body.len; j++) {
        const body_node *b = &k->body.items[j];
        if (b->parent != sp->loop)
            continue;
        if (b->kind == BODY_IF || b->kind == BODY_SYNC || (b->kind == BODY_LOOP && inner >= 0)) {
            *why = "the loop's body holds an if, or more than one inner loop";
            return -1;
        }
        if (b->kind == BODY_LOOP)
            inner = (long)j;
    }
    if (inner < 0 || k->body.items[inner].has_inner_loop) {
        *why = "the loop's body is not one inner loop with statements around it";
        return -1;
    }
    /* the header's assignments (i = 0, i++) are the loop's too: count
     * those of its body */
    const src_range *body = &k->body.items[inner].loop_body;
    size_t assigns = 0;
    for (size_t j = 0; j < k->body.len; j++) {
        const body_node *b = &k->body.items[j];
        if (b->parent != inner || b->range.begin < body->begin || b->range.end > body->end)
            continue;
        if (b->kind == BODY_IF || b->kind == BODY_CALL || b->kind == BODY_LOOP)
            assigns += 2;
        assigns += b->kind == BODY_ASSIGN;
    }
    if (assigns != 1) {
        *why = "the inner loop is not one statement";
        return -1;
    }
    return inner;
}

/* a value the same in every thread and iteration: no memory read */
static int uniform_value(const tu_model *m, const kernel *k, const split_plan *sp, const char *v, arena *a)
{
    return *v && !strchr(v, '[') && !strchr(v, '(') && !pol_mentions(v, sp->tvar) &&
           !pol_mentions(v, sp->lvar) && pol_block_uniform(m, k, v, a);
}

/* the statement before the inner loop: "ACC = INIT" (acc an element) or
 * "float ACC = INIT" (a scalar), or none for an element; fills t->start
 * and, for a scalar, t->finish */
static int parse_start(const tu_model *m, const kernel *k, const split_plan *sp, const char *pre,
                       const char *acc, tile_dot_plan *t, arena *a, const char **why)
{
    const char *stmts[3];
    const char *sq = pol_squeeze(pre, a);
    size_t n = *sq ? stage_split_top(sq, ";", a, stmts, 2) : 0;
    if (n && *stmts[n - 1] == '\0')
        n--;
    int element = strchr(acc, '[') != NULL;
    if (n == 0 && element)
        return 0; /* the sum goes on from the element's value */
    const char *eq = n == 1 ? strchr(stmts[0], '=') : NULL;
    if (!eq || eq[1] == '=' || eq == stmts[0] || strchr("+-*/%<>!&|^", eq[-1])) {
        *why = "the inner loop's sum does not start from one assignment before it";
        return 1;
    }
    const char *lhs = arena_printf(a, "%.*s", (int)(eq - stmts[0]), stmts[0]), *init = eq + 1;
    if (!uniform_value(m, k, sp, init, a)) {
        *why = "the sum's first value differs between threads or reads memory";
        return 1;
    }
    if (element ? strcmp(lhs, acc) != 0 : strcmp(lhs, arena_printf(a, "float%s", acc)) != 0) {
        *why = "the statement before the inner loop does not start its sum (\"s = 0\", \"float s = 0\")";
        return 1;
    }
    t->start = init;
    if (!element)
        t->finish = arena_printf(a, "float %s = cl1_s;", acc);
    return 0;
}

/* the sum's accumulator "OUT[A]" (a float pointer parameter) or "s" */
static int accumulator_ok(const tu_model *m, const kernel *k, const char *acc, tile_dot_plan *t, arena *a)
{
    const char *open = strchr(acc, '[');
    if (!open) {
        t->p.accs[0] = (accum){acc, "0", acc, "float"};
        for (const char *c = acc; *c; c++)
            if (!pol_ident_char((unsigned char)*c))
                return 0;
        return *acc != '\0';
    }
    size_t n = strlen(acc);
    const char *base = arena_printf(a, "%.*s", (int)(open - acc), acc);
    const kernel_param *prm = pol_param(k, base);
    const char *type = prm && prm->is_pointer ? pol_pointee_type(prm, a) : NULL;
    if (!type || strcmp(type, "float") != 0 || acc[n - 1] != ']' || ctext_close_bracket(acc, n, (size_t)(open - acc)) != n - 1)
        return 0;
    (void)m;
    t->p.accs[0] = (accum){base, arena_printf(a, "%.*s", (int)(n - (size_t)(open - acc) - 2), open + 1), acc, "float"};
    return 1;
}

int pol_transform_tile_pairs(const tu_model *m, const kernel *k, const pol_facts *f, int factor, int split, int ahead,
                             arena *a, pol_edit_vec *out, const char **why)
{
    split_plan sp;
    if (split_loop_analyse(m, k, f, &sp, a, why))
        return 1;
    if (f->block[0] != 256 || f->block[1] != 1 || f->block[2] != 1) {
        *why = "the tiles are made for one-dimensional blocks of 256 threads";
        return 1;
    }
    if (!tile_dot_pure_condition(sp.cond)) {
        *why = "the guard calls, reads memory or assigns";
        return 1;
    }
    if (pol_mentions(sp.upper, sp.tvar) || !pol_block_uniform(m, k, sp.upper, a)) {
        *why = "the loop's upper bound differs between threads";
        return 1;
    }
    /* the run-time bounds (cl1cc_split) choose the path for the whole
     * block, whose barriers every thread must reach: a lower bound "j1"
     * or "j1 + c" passes "lower >= 0" in every thread alike */
    if (sp.lower_per_thread) {
        *why = "the loop's lower bound is neither the same in every thread nor the row plus a constant";
        return 1;
    }
    long inner = inner_loop(k, &sp, why);
    if (inner < 0)
        return 1;
    const body_node *L = &k->body.items[sp.loop], *I = &k->body.items[inner];
    tile_dot_plan t;
    memset(&t, 0, sizeof t);
    t.p.text = sp.text;
    t.p.len = sp.len;
    if (stage_parse_loop(m, k, &t.p, inner, a, why))
        return 1;
    if (pol_mentions(t.p.lower, sp.tvar) || pol_mentions(t.p.upper, sp.tvar) || pol_mentions(t.p.lower, sp.lvar) ||
        pol_mentions(t.p.upper, sp.lvar)) {
        *why = "the inner loop's bounds differ between the pairs";
        return 1;
    }
    /* the inner loop: "ACC += PRODUCT;" */
    const char *body = pol_squeeze(span(&sp, t.p.body_begin, t.p.body_end, a), a);
    size_t n = strlen(body);
    while (n >= 2 && body[0] == '{' && body[n - 1] == '}')
        body = arena_printf(a, "%.*s", (int)(n - 2), body + 1), n -= 2;
    const char *plus = strstr(body, "+=");
    if (!plus || n < 4 || body[n - 1] != ';' || memchr(body, ';', n - 1)) {
        *why = "the inner loop is not one sum \"s += a * b\"";
        return 1;
    }
    const char *acc = arena_printf(a, "%.*s", (int)(plus - body), body);
    if (!accumulator_ok(m, k, acc, &t, a)) {
        *why = "the sum is not kept in a float element or a float variable";
        return 1;
    }
    t.p.n_accs = 1;
    t.p.thread_var[0] = sp.lvar; /* the columns */
    t.p.thread_var[1] = sp.tvar; /* the rows */
    if (tile_dot_parse_product(m, k, &t, arena_printf(a, "cl1_acc0+=%s", plus + 2), a, why))
        return 1;
    if (t.n_products != 1) {
        *why = "the inner loop's sum adds more than one product a step";
        return 1;
    }
    if (strcmp(t.op[0][0].base, t.p.accs[0].base) == 0 || strcmp(t.op[0][1].base, t.p.accs[0].base) == 0) {
        *why = "the output is one of the operands";
        return 1;
    }
    /* the outer loop's body: the sum's start before the inner loop, the
     * statements storing it after */
    size_t body_open = L->loop_body.begin, body_close = L->loop_body.end;
    if (sp.text[body_open] == '{')
        body_open++, body_close--;
    const char *pre = span(&sp, body_open, I->range.begin, a);
    const char *post = span(&sp, t.p.body_end, body_close, a);
    if (parse_start(m, k, &sp, pre, acc, &t, a, why))
        return 1;
    if (!strchr(acc, '[') && !*post) {
        *why = "the sum is not stored after the inner loop";
        return 1;
    }
    t.pre = t.pre_decls = "";
    t.post = post;
    t.p.cond = arena_printf(a, "(%s) && (%s) >= (%s) && (%s) < (%s)", sp.cond, sp.lvar, sp.lower, sp.lvar, sp.upper);
    t.enter = *sp.checks ? "cl1cc_split" : NULL;
    t.row_extent = arena_printf(a, "gridDim.x * %d", f->block[0]);
    t.col_extent = sp.upper;
    t.type[1] = sp.var_type;
    /* the guard's statements around the loop, once */
    const char *around = arena_printf(a, "%s %s", span(&sp, sp.open + 1, L->range.begin, a),
                                      span(&sp, sp.loop_end, sp.close, a));
    if (*pol_trim(around, strlen(around), a))
        t.prologue = arena_printf(a, "if (blockIdx.y == 0 && (%s)) { %s }", sp.cond, pol_trim(around, strlen(around), a));
    tile_dot_shape shape = tile_dot_shape_of(64, split, ahead);
    const char *tiled = tile_dot_emit(&t, &shape, f, a);
    int blanks;
    size_t ls = pol_line_start(sp.text, k->body.items[sp.guard].range.begin, &blanks);
    const char *indent = blanks ? pol_indent(sp.text, ls, a) : "    ";
    const char *nl = pol_newline(sp.text, sp.len, ls);
    strbuf sb;
    sb_init(&sb);
    for (const char *c = tiled; *c; c++) {
        if (*c == '\n')
            sb_printf(&sb, "%s%s", nl, indent);
        else
            sb_putc(&sb, *c);
    }
    sb_puts(&sb, "} else ");
    const char *before = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return split_loop_emit(m, k, &sp, factor, before, a, out, why);
}
