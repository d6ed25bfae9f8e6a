/*
 * transform_tile_dot.c: `tile_dot64`, `tile_dot128`: block and register
 * tiling of a thread-per-output dot product.  The kernel's threads each own
 * one output (i, j) (i the y index, j the x index) inside a guard, and sum
 * over k the products of two read-only float arrays, one read by i, one by
 * j, each row- or column-major (X[i*S + k] or X[k*S + i]), times factors the
 * same in every thread: "c[..] += alpha * a[i*nk+k] * b[k*nj+j]" (gemm,
 * 2mm, 3mm, syrk, transposed operands; a guard such as "j <= i" too), or
 * the sum of two such products a step (syr2k); or the sum kept in a float
 * variable and stored after the loop, the textbook matrix product "float s
 * = 0; for (k...) s += A[i*K+k] * B[k*N+j]; C[i*N+j] = s;" (scalar_sum).  This
 * file checks the shape; transform_tile_dot_emit.c writes the tiled loop.
 */
#include <string.h>

#include "transform_tile_dot.h"


/* the same in every thread and at every k: no thread index, no loop
 * variable, nothing the kernel assigns, no memory read */
static int uniform(const tu_model *m, const kernel *k, const stage_plan *p, const char *expr, arena *a)
{
    return !pol_mentions(expr, p->loop_var) && !pol_mentions(expr, p->thread_var[0]) &&
           !pol_mentions(expr, p->thread_var[1]) && pol_block_uniform(m, k, expr, a);
}

/* an identifier, a number or a parenthesised expression without calls */
static int atom(const char *s)
{
    size_t n = strlen(s);
    if (n >= 2 && s[0] == '(' && s[n - 1] == ')')
        return 1;
    for (size_t i = 0; i < n; i++)
        if (!pol_ident_char(s[i]) && s[i] != '.')
            return 0;
    return n > 0;
}

/* "X[idx]" as a whole: its base (in a) and index, else NULL */
static const char *subscript(const char *s, const char **index, arena *a)
{
    const char *open = strchr(s, '[');
    size_t n = strlen(s);
    if (!open || open == s || s[n - 1] != ']')
        return NULL;
    for (const char *c = s; c < open; c++)
        if (!pol_ident_char(*c))
            return NULL;
    int depth = 0;
    for (const char *c = open; *c; c++) {
        depth += *c == '[' ? 1 : *c == ']' ? -1 : 0;
        if (depth == 0 && c[1])
            return NULL;
    }
    *index = arena_printf(a, "%.*s", (int)(n - (size_t)(open - s) - 2), open + 1);
    return arena_printf(a, "%.*s", (int)(open - s), s);
}

/* index "o*S+k" or "k*S+o" (terms and factors in either order), o a thread
 * index: which one (0 y, 1 x; -1 when neither), S and the layout */
static int operand_index(const tu_model *m, const kernel *k, const stage_plan *p, const char *sq,
                         tile_operand *op, arena *a)
{
    const char *terms[3], *factors[3];
    const char *v = p->loop_var, *ti = p->thread_var[1], *tj = p->thread_var[0];
    if (strchr(sq, '-') || stage_split_top(sq, "+", a, terms, 2) != 2)
        return -1;
    for (int t = 0; t < 2; t++) {
        const char *lone = terms[t], *scaled = terms[1 - t];
        if (stage_split_top(scaled, "*", a, factors, 2) != 2)
            continue;
        for (int f = 0; f < 2; f++) {
            const char *mul = factors[f], *stride = factors[1 - f];
            if (!uniform(m, k, p, stride, a))
                continue;
            int side = -1;
            if (strcmp(lone, v) == 0)
                side = strcmp(mul, ti) == 0 ? 0 : strcmp(mul, tj) == 0 ? 1 : -1;
            else if (strcmp(mul, v) == 0)
                side = strcmp(lone, ti) == 0 ? 0 : strcmp(lone, tj) == 0 ? 1 : -1;
            if (side >= 0) {
                op->stride = stride;
                op->k_contiguous = strcmp(lone, v) == 0;
                return side;
            }
        }
    }
    return -1;
}

/* a read-only float pointer parameter */
static int float_input(const tu_model *m, const kernel *k, const char *base, arena *a)
{
    const kernel_param *prm = pol_param(k, base);
    const char *type = prm && prm->is_pointer ? pol_pointee_type(prm, a) : NULL;
    return type && strcmp(type, "float") == 0 && pol_param_read_only(m, k, base);
}

/* one term of the sum, "F1 * F2 * ...": two factors reading the operands
 * into op[0] (the row's) and op[1] (the column's), the rest the same
 * everywhere; 1 with *why when refused */
static int parse_term(const tu_model *m, const kernel *k, const stage_plan *p, const char *term,
                      tile_operand op[2], arena *a, const char **why)
{
    const char *factors[9];
    size_t nf = stage_split_top(term, "*", a, factors, 8);
    int reads[2] = {-1, -1}, n_reads = 0;
    for (size_t i = 0; nf <= 8 && i < nf; i++) {
        const char *index, *base = subscript(factors[i], &index, a);
        if (!base) {
            if (!atom(factors[i]) || !uniform(m, k, p, factors[i], a)) {
                *why = "a factor of the product is neither an array read nor the same in every thread";
                return 1;
            }
            continue;
        }
        tile_operand o = {base, NULL, 0, NULL};
        int side = operand_index(m, k, p, index, &o, a);
        if (side < 0 || n_reads == 2 || reads[side] >= 0 || !float_input(m, k, base, a)) {
            *why = "the product does not read one read-only float array by the row index and one "
                   "by the column index (X[i*S+k] or X[k*S+i])";
            return 1;
        }
        op[side] = o;
        reads[side] = (int)i;
        n_reads++;
    }
    if (nf > 8 || n_reads != 2 || pol_mentions(term, "cl1_acc0")) {
        *why = "the loop's sum is not one product of two array reads";
        return 1;
    }
    /* the factors other than the second read go with the first: the
     * product ((u * X) * Y) keeps its roundings */
    int first = reads[0] < reads[1] ? 0 : 1;
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < nf; i++)
        if ((int)i != reads[1 - first])
            sb_printf(&sb, "%s%s", sb.len ? " * " : "", (int)i == reads[first] ? "cl1_v" : factors[i]);
    op[first].value = arena_strdup(a, sb_str(&sb));
    op[1 - first].value = "cl1_v";
    sb_free(&sb);
    return 0;
}

int tile_dot_parse_product(const tu_model *m, const kernel *k, tile_dot_plan *t, const char *body,
                           arena *a, const char **why)
{
    const char *s = pol_squeeze(body, a);
    size_t n = strlen(s);
    while (n >= 2 && s[0] == '{' && s[n - 1] == '}')
        s = arena_printf(a, "%.*s", (int)(n - 2), s + 1), n -= 2;
    if (strncmp(s, "cl1_acc0+=", 10) != 0 || n < 12 || s[n - 1] != ';' || memchr(s, ';', n - 1)) {
        *why = "the loop is not one statement adding to the output (c[..] += ...)";
        return 1;
    }
    const char *expr = arena_printf(a, "%.*s", (int)(n - 11), s + 10);
    const char *terms[TILE_DOT_PRODUCTS + 1];
    size_t nt = stage_split_top(expr, "+", a, terms, TILE_DOT_PRODUCTS + 1);
    if (nt > TILE_DOT_PRODUCTS || stage_split_top(expr, "-", a, terms + TILE_DOT_PRODUCTS, 1) != 1) {
        *why = "the loop's sum adds more than two products a step, or subtracts";
        return 1;
    }
    for (size_t q = 0; q < nt; q++)
        if (parse_term(m, k, &t->p, terms[q], t->op[q], a, why))
            return 1;
    if (nt == 2 && (t->op[0][0].k_contiguous != t->op[1][0].k_contiguous ||
                    t->op[0][1].k_contiguous != t->op[1][1].k_contiguous)) {
        *why = "the two products read one side's arrays in different layouts";
        return 1;
    }
    t->n_products = (int)nt;
    return 0;
}

/* 1 when the declarations before the loop name nothing but the loop
 * variable (any other would be shared by the thread's outputs) */
static int declares_loop_var_only(const char *decls, const char *loop_var, arena *a)
{
    static const char *const words[] = {"int", "unsigned", "long", "float", "double", "size_t",
                                        "short", "char", "bool", "signed", "const", NULL};
    const char **ids;
    size_t n = pol_identifiers(decls, a, &ids);
    for (size_t i = 0; i < n; i++) {
        int word = strcmp(ids[i], loop_var) == 0;
        for (int w = 0; words[w]; w++)
            word |= strcmp(words[w], ids[i]) == 0;
        if (!word)
            return 0;
    }
    return 1;
}

int tile_dot_pure_condition(const char *c)
{
    if (strchr(c, '[') || strstr(c, "++") || strstr(c, "--") || strchr(c, '?'))
        return 0;
    for (const char *s = c; *s; s++) {
        if (*s == '=' && s > c && !strchr("=<>!", s[-1]) && s[1] != '=')
            return 0;
        if (*s == '(' && s > c) {
            const char *b = s - 1;
            while (b > c && (*b == ' ' || *b == '\t'))
                b--;
            if (pol_ident_char(*b))
                return 0;
        }
    }
    return 1;
}

/* the checks both forms share once the plan's guard and loop are known */
static int common_checks(const tu_model *m, const kernel *k, const pol_facts *f, const tile_dot_plan *t,
                         arena *a, const char **why)
{
    const stage_plan *p = &t->p;
    if (!p->thread_var[0] || !p->thread_var[1] || f->block[2] != 1) {
        *why = "not a two-dimensional kernel (i from y, j from x, blocks one deep)";
        return 1;
    }
    if (f->block[0] * f->block[1] != 256) {
        *why = "the tiles are made for blocks of 256 threads";
        return 1;
    }
    if (!stage_only_thread_vars_before(k, p, a) || !declares_loop_var_only(t->pre_decls, p->loop_var, a)) {
        *why = "something besides the thread indices and the loop variable is declared";
        return 1;
    }
    const char *other = pol_other_thread_identity(m, k, 2);
    if (other) {
        *why = arena_printf(a, "something else tells the threads apart (%s)", other);
        return 1;
    }
    if (!tile_dot_pure_condition(p->cond)) {
        *why = "the guard calls, reads memory or assigns";
        return 1;
    }
    return 0;
}

/* a statement a scalar sum's form may hold after its loop: no control,
 * no comment or directive */
static int straight_line(const char *s)
{
    static const char *const words[] = {"return", "break", "continue", "goto", "asm", "if", "for",
                                        "while", "do", "switch", "__syncthreads", NULL};
    for (int i = 0; words[i]; i++)
        if (pol_mentions(s, words[i]))
            return 0;
    return !strchr(s, '{') && !strchr(s, '}') && !strchr(s, '#') && !strstr(s, "//") && !strstr(s, "/*");
}

/* the textbook form: "float s = INIT; for (k ...) s += A[..] * B[..];
 * STATEMENTS reading s" (the loop variable may be declared before, INIT
 * the same everywhere): the sum starts at INIT, and the statements run
 * per output with s its sum (t->start, t->finish) */
static int scalar_sum(const tu_model *m, const kernel *k, const pol_facts *f, tile_dot_plan *t, arena *a,
                      const char **why)
{
    memset(t, 0, sizeof *t);
    stage_plan *p = &t->p;
    if (stage_prepare(m, k, f, p, a, why) || stage_find_shape(m, k, p, 0, a, why))
        return 1;
    const body_node *L = &k->body.items[p->loop];
    const char *P = arena_printf(a, "%.*s", (int)(L->range.begin - p->open - 1), p->text + p->open + 1);
    const char *Q = pol_trim(p->text + p->body_end, p->close - p->body_end, a);
    const char *parts[9], *name = NULL, *init = NULL;
    size_t n = stage_split_top(P, ";", a, parts, 8);
    for (size_t i = 0; n <= 8 && i < n; i++) {
        const char *st = pol_trim(parts[i], strlen(parts[i]), a);
        const char **ids, *type, *id, *value;
        if (!*st)
            continue;
        if (!name && stage_summed_declaration(p, st, a, &type, &id, &value) && strcmp(type, "float") == 0) {
            name = id;
            init = value;
        } else if (pol_identifiers(st, a, &ids) == 2 && strcmp(ids[1], p->loop_var) == 0 &&
                   !strpbrk(st, "=([*&")) {
            t->pre_decls = arena_printf(a, "%s;", st);
        } else
            name = NULL, n = 9;
    }
    if (n > 8 || !name) {
        *why = "before the loop, not \"float s = INIT;\" (and the loop variable's declaration) alone, "
               "or the loop not \"s += ...\"";
        return 1;
    }
    if (!*init || !tile_dot_pure_condition(init) || !uniform(m, k, p, init, a)) {
        *why = "the sum's first value is not the same in every thread";
        return 1;
    }
    if (!*Q || !straight_line(Q) || pol_mentions(Q, p->loop_var) || !pol_mentions(Q, name)) {
        *why = "after the loop, not straight-line statements storing the sum";
        return 1;
    }
    if (!t->pre_decls)
        t->pre_decls = "";
    t->pre = t->post = "";
    t->start = init;
    t->finish = stage_substitute(Q, name, "cl1_s", a);
    if (common_checks(m, k, f, t, a, why))
        return 1;
    const char *body = arena_printf(a, "%.*s", (int)(p->body_end - p->body_begin), p->text + p->body_begin);
    return tile_dot_parse_product(m, k, t, stage_substitute(body, name, "cl1_acc0", a), a, why);
}

int tile_dot_analyse(const tu_model *m, const kernel *k, const pol_facts *f, tile_dot_plan *t,
                     arena *a, const char **why)
{
    memset(t, 0, sizeof *t);
    stage_plan *p = &t->p;
    strbuf pre_decls, pre, post_decls, post;
    sb_init(&pre_decls), sb_init(&pre), sb_init(&post_decls), sb_init(&post);
    int bad = stage_analyse(m, k, f, 0, a, p, &pre_decls, &pre, &post_decls, &post, why);
    t->pre_decls = arena_strdup(a, sb_str(&pre_decls));
    t->pre = arena_strdup(a, sb_str(&pre));
    t->post = arena_strdup(a, sb_str(&post));
    sb_free(&pre_decls), sb_free(&pre), sb_free(&post_decls), sb_free(&post);
    if (bad) {
        /* no output element summed in place: the sum in a float variable? */
        const char *first = *why;
        if (!scalar_sum(m, k, f, t, a, why))
            return 0;
        if (strstr(*why, "before the loop, not"))
            *why = first;
        return 1;
    }
    if (common_checks(m, k, f, t, a, why))
        return 1;
    if (p->n_accs != 1 || strcmp(p->accs[0].type, "float") != 0) {
        *why = "not one float output updated in the loop";
        return 1;
    }
    const char *body = stage_render_body(m, k, p, 0, a);
    if (tile_dot_parse_product(m, k, t, body, a, why))
        return 1;
    for (int q = 0; q < t->n_products; q++)
        if (strcmp(t->op[q][0].base, p->accs[0].base) == 0 || strcmp(t->op[q][1].base, p->accs[0].base) == 0) {
            *why = "the output is one of the operands";
            return 1;
        }
    return 0;
}

int pol_transform_tile_dot(const tu_model *m, const kernel *k, const pol_facts *f, int tile, int split,
                           int ahead, arena *a, pol_edit_vec *out, const char **why)
{
    tile_dot_plan t;
    if (tile_dot_analyse(m, k, f, &t, a, why))
        return 1;
    tile_dot_shape s = tile_dot_shape_of(tile, split, ahead);
    stage_replace_guard(k, &t.p, tile_dot_emit(&t, &s, f, a), NULL, a, out);
    return 0;
}

tile_dot_shape tile_dot_shape_of(int tile, int split, int ahead)
{
    tile_dot_shape s = tile == 128  ? (tile_dot_shape){128, 128, 8, 8, 8, 0, 0}
                       : tile == 32 ? (split == 4 ? (tile_dot_shape){32, 32, 32, 4, 4, 4, 0}
                                                  : (tile_dot_shape){32, 32, 32, 2, 2, 0, 0})
                                    : (split == 4 ? (tile_dot_shape){64, 64, 16, 8, 8, 4, 0}
                                                  : (tile_dot_shape){64, 64, 16, 4, 4, 0, 0});
    s.ahead = ahead;
    return s;
}
