/*
 * transform_stencil.c: `stencil_tile`: shared-memory tiling of a
 * two-dimensional stencil.  The kernel's threads are the points (i, j) of a
 * grid ("int j = blockIdx.x * blockDim.x + threadIdx.x", the same in y for
 * i), and under one guard, `if (COND) BODY`, each reads a read-only array
 * at (i + di) * W + (j + dj) for a few small offsets, (0, 0) among them:
 *
 *     if (i > 0 && i < n - 1 && j > 0 && j < n - 1)
 *         b[i * n + j] = 0.2f * (a[i * n + j] + a[i * n + j - 1] + a[(i - 1) * n + j] ...);
 *
 * The variant first puts each thread's own element, a[i * n + j], in a
 * shared tile (when its guard holds: the original reads that element
 * then, so it is there to read), and marks which threads did; after a
 * barrier every read of a neighbour (i + di, j + dj) that lies in the same
 * block and was loaded comes from the tile, the others from global memory
 * as before:
 *
 *     (cl1cc_tiled && (unsigned)((int)threadIdx.y + (-1)) < 8u && cl1cc_held[...][...]
 *          ? cl1cc_tile_a[(int)threadIdx.y + (-1)][threadIdx.x] : a[(i - 1) * n + j])
 *
 * The tile is the captured block's shape; a launch on another block shape
 * (cl1cc_tiled false) reads everything from global memory.  Results are
 * bit-identical: the tile holds the array's own values, which nothing
 * writes while the kernel runs.
 *
 * Refused unless the reads are provably where the rewrite needs them:
 * every read of the array directly in the guarded body (no nested
 * condition, loop, ?:, && or ||), the guard free of effects, nothing
 * before it that can return, i, j and the row width never assigned.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

enum { MAX_SYMS = 16, MAX_MONOS = 48, MAX_FACTORS = 4, MAX_OFFSET = 4, MAX_ARRAYS = 4 };

/* ---- an index expression as a polynomial over its identifiers ---------- */

typedef struct mono {
    long coef;
    int n;                  /* how many symbols */
    int sym[MAX_FACTORS];   /* their ids, sorted */
} mono;

typedef struct poly {
    int n;
    mono m[MAX_MONOS];
} poly;

typedef struct symtab {
    int n;
    const char *name[MAX_SYMS]; /* 0: i, 1: j */
} symtab;

static int sym_id(symtab *t, const char *s, size_t len, arena *a)
{
    for (int i = 0; i < t->n; i++)
        if (strlen(t->name[i]) == len && strncmp(t->name[i], s, len) == 0)
            return i;
    if (t->n == MAX_SYMS)
        return -1;
    t->name[t->n] = arena_printf(a, "%.*s", (int)len, s);
    return t->n++;
}

static int mono_same_syms(const mono *x, const mono *y)
{
    if (x->n != y->n)
        return 0;
    for (int i = 0; i < x->n; i++)
        if (x->sym[i] != y->sym[i])
            return 0;
    return 1;
}

/* adds m to p, combining like terms: 0, or -1 when p is full */
static int poly_add(poly *p, const mono *m)
{
    for (int i = 0; i < p->n; i++)
        if (mono_same_syms(&p->m[i], m)) {
            p->m[i].coef += m->coef;
            return 0;
        }
    if (p->n == MAX_MONOS)
        return -1;
    p->m[p->n++] = *m;
    return 0;
}

static int poly_mul(const poly *x, const poly *y, poly *out)
{
    out->n = 0;
    for (int a = 0; a < x->n; a++)
        for (int b = 0; b < y->n; b++) {
            const mono *p = &x->m[a], *q = &y->m[b];
            if (p->n + q->n > MAX_FACTORS)
                return -1;
            mono r = {p->coef * q->coef, 0, {0}};
            for (int i = 0; i < p->n; i++)
                r.sym[r.n++] = p->sym[i];
            for (int i = 0; i < q->n; i++)
                r.sym[r.n++] = q->sym[i];
            for (int i = 1; i < r.n; i++) /* insertion sort */
                for (int j = i; j > 0 && r.sym[j - 1] > r.sym[j]; j--) {
                    int t = r.sym[j];
                    r.sym[j] = r.sym[j - 1], r.sym[j - 1] = t;
                }
            if (poly_add(out, &r) != 0)
                return -1;
        }
    return 0;
}

typedef struct parser {
    const char *s; /* squeezed text: no blanks */
    symtab *syms;
    arena *a;
} parser;

static int parse_sum(parser *p, poly *out);

/* a number, an identifier, (sum), or a sign before one of them */
static int parse_factor(parser *p, poly *out)
{
    out->n = 0;
    char c = *p->s;
    if (c == '+' || c == '-') {
        p->s++;
        if (parse_factor(p, out) != 0)
            return -1;
        for (int i = 0; c == '-' && i < out->n; i++)
            out->m[i].coef = -out->m[i].coef;
        return 0;
    }
    if (c == '(') {
        p->s++;
        if (parse_sum(p, out) != 0 || *p->s != ')')
            return -1;
        p->s++;
        return 0;
    }
    if (c >= '0' && c <= '9') {
        long v = 0;
        while (*p->s >= '0' && *p->s <= '9') {
            if (v > 100000000L)
                return -1;
            v = v * 10 + (*p->s++ - '0');
        }
        while (*p->s == 'u' || *p->s == 'U' || *p->s == 'l' || *p->s == 'L')
            p->s++;
        if (pol_ident_char((unsigned char)*p->s) || *p->s == '.')
            return -1; /* 0x10, 1e3, 1.5 */
        mono m = {v, 0, {0}};
        return poly_add(out, &m);
    }
    if (pol_ident_char((unsigned char)c)) {
        const char *start = p->s;
        while (pol_ident_char((unsigned char)*p->s))
            p->s++;
        if (*p->s == '(' || *p->s == '.' || *p->s == '[' || (p->s[0] == '-' && p->s[1] == '>'))
            return -1; /* a call, a member, an element */
        int id = sym_id(p->syms, start, (size_t)(p->s - start), p->a);
        if (id < 0)
            return -1;
        mono m = {1, 1, {id}};
        return poly_add(out, &m);
    }
    return -1;
}

static int parse_product(parser *p, poly *out)
{
    if (parse_factor(p, out) != 0)
        return -1;
    while (*p->s == '*') {
        p->s++;
        poly rhs, prod;
        if (parse_factor(p, &rhs) != 0 || poly_mul(out, &rhs, &prod) != 0)
            return -1;
        *out = prod;
    }
    return 0;
}

static int parse_sum(parser *p, poly *out)
{
    if (parse_product(p, out) != 0)
        return -1;
    while (*p->s == '+' || *p->s == '-') {
        int minus = *p->s == '-';
        p->s++;
        poly rhs;
        if (parse_product(p, &rhs) != 0)
            return -1;
        for (int i = 0; i < rhs.n; i++) {
            if (minus)
                rhs.m[i].coef = -rhs.m[i].coef;
            if (poly_add(out, &rhs.m[i]) != 0)
                return -1;
        }
    }
    return 0;
}

/* the index, as (i + di) * W + (j + dj): 1 with the offsets and W (its
 * symbols, as a mono of coefficient 1), or 0 when it is not of that form */
static int stencil_offsets(const char *index, symtab *syms, arena *a, int *di, int *dj, mono *w)
{
    poly p;
    parser ps = {pol_squeeze(index, a), syms, a};
    if (parse_sum(&ps, &p) != 0 || *ps.s)
        return 0;
    int have_iw = 0, have_j = 0;
    mono width = {1, 0, {0}};
    for (int k = 0; k < p.n; k++) { /* the i * W term: W is the row width */
        const mono *m = &p.m[k];
        int has_i = 0;
        for (int s = 0; s < m->n; s++)
            has_i += m->sym[s] == 0;
        if (!m->coef || !has_i)
            continue;
        if (has_i != 1 || m->coef != 1 || m->n < 2 || have_iw)
            return 0;
        have_iw = 1;
        for (int s = 0; s < m->n; s++)
            if (m->sym[s] != 0)
                width.sym[width.n++] = m->sym[s];
    }
    if (!have_iw)
        return 0;
    for (int s = 0; s < width.n; s++)
        if (width.sym[s] == 1)
            return 0; /* j in the width */
    *di = *dj = 0;
    for (int k = 0; k < p.n; k++) {
        const mono *m = &p.m[k];
        if (!m->coef)
            continue;
        if (m->n == 1 && m->sym[0] == 1) {
            if (m->coef != 1)
                return 0;
            have_j = 1;
        } else if (m->n == 0) {
            *dj = (int)m->coef;
        } else if (mono_same_syms(m, &width)) {
            *di = (int)m->coef;
        } else {
            int has_i = 0;
            for (int s = 0; s < m->n; s++)
                has_i |= m->sym[s] == 0;
            if (!has_i)
                return 0; /* another term */
        }
    }
    if (!have_j || *di < -MAX_OFFSET || *di > MAX_OFFSET || *dj < -MAX_OFFSET || *dj > MAX_OFFSET)
        return 0;
    *w = width;
    return 1;
}

/* ---- the guard ----------------------------------------------------------- */

typedef struct guard {
    long node;                    /* the BODY_IF */
    size_t cond_begin, cond_end;  /* inside the parentheses */
    size_t then_begin, then_end;
} guard;

/* node n is "if (COND) STATEMENT" with no else: 1 and g filled.  A
 * statement's range ends before its ';' (libclang), so the then-branch
 * that is not a block is read up to its ';', within the body (limit) */
static int plain_if(const char *text, const body_node *n, long index, size_t limit, guard *g)
{
    size_t p = n->range.begin, end = n->range.end;
    if (strncmp(text + p, "if", 2) != 0 || pol_ident_char((unsigned char)text[p + 2]))
        return 0;
    p = ctext_skip_blanks(text, end, p + 2);
    if (p >= end || text[p] != '(')
        return 0;
    size_t close = ctext_close_bracket(text, end, p);
    if (!close)
        return 0;
    g->node = index;
    g->cond_begin = p + 1, g->cond_end = close;
    p = ctext_skip_blanks(text, end, close + 1);
    g->then_begin = p;
    if (p < end && text[p] == '{') {
        size_t brace = ctext_close_bracket(text, end, p);
        g->then_end = brace ? brace + 1 : 0;
    } else {
        int depth = 0;
        for (; p < limit && (text[p] != ';' || depth > 0); p++) {
            if (text[p] == '(' || text[p] == '[' || text[p] == '{')
                depth++;
            else if (text[p] == ')' || text[p] == ']' || text[p] == '}')
                depth--;
            else if (text[p] == '"' || text[p] == '\'')
                return 0;
        }
        g->then_end = p < limit ? p + 1 : 0;
    }
    if (!g->then_end || g->then_end < end)
        return 0;
    size_t next = ctext_skip_blanks(text, limit, g->then_end);
    return !(next + 4 <= limit && strncmp(text + next, "else", 4) == 0 &&
             !pol_ident_char((unsigned char)text[next + 4]));
}

/* text [begin, end) names word as a whole identifier */
static int has_word(const char *text, size_t begin, size_t end, const char *word)
{
    return pol_count_identifier(text, begin, end, word) > 0;
}

/* the variable is assigned somewhere but at its declaration, or has its
 * address taken */
static int assigned(const tu_model *m, const kernel *k, const char *name, arena *a)
{
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *b = &k->body.items[i];
        if (b->kind == BODY_ASSIGN && strcmp(b->op, "decl") != 0 &&
            strcmp(pol_squeeze(pol_text(m, &b->target, a), a), name) == 0)
            return 1;
    }
    size_t len;
    const char *text = pol_file_text(m, &k->body_range, &len);
    const char *amp = arena_printf(a, "&%s", name);
    const char *s = pol_squeeze(arena_printf(a, "%.*s", (int)(k->body_range.end - k->body_range.begin),
                                             text + k->body_range.begin), a);
    for (const char *p = strstr(s, amp); p; p = strstr(p + 1, amp))
        if (!pol_ident_char((unsigned char)p[strlen(amp)]) && (p == s || p[-1] != '&'))
            return 1;
    return 0;
}

/* name is declared in the body: a local variable, which may differ from
 * thread to thread (a parameter, a macro or a constant does not) */
static int declared(const tu_model *m, const kernel *k, const char *name, arena *a)
{
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *b = &k->body.items[i];
        if (b->kind == BODY_ASSIGN && strcmp(b->op, "decl") == 0 &&
            strcmp(pol_squeeze(pol_text(m, &b->target, a), a), name) == 0)
            return 1;
    }
    return 0;
}

/* ---- the transform ------------------------------------------------------- */

/* the read of t at offsets (di, dj), for a block of bx x by threads */
static const char *tiled_read(const char *name, const char *original, int di, int dj, int bx, int by,
                              arena *a)
{
    if (!di && !dj)
        return arena_printf(a, "(cl1cc_tiled ? cl1cc_tile_%s[threadIdx.y][threadIdx.x] : %s)", name,
                            original);
    const char *y = di ? arena_printf(a, "(int)threadIdx.y + (%d)", di) : "threadIdx.y";
    const char *x = dj ? arena_printf(a, "(int)threadIdx.x + (%d)", dj) : "threadIdx.x";
    strbuf c;
    sb_init(&c);
    sb_puts(&c, "cl1cc_tiled");
    if (di)
        sb_printf(&c, " && (unsigned)(%s) < %du", y, by);
    if (dj)
        sb_printf(&c, " && (unsigned)(%s) < %du", x, bx);
    const char *r = arena_printf(a, "(%s && cl1cc_held[%s][%s] ? cl1cc_tile_%s[%s][%s] : %s)", sb_str(&c),
                                 y, x, name, y, x, original);
    sb_free(&c);
    return r;
}

typedef struct tiled_array {
    const char *name, *type;
    long center;        /* the node of its (0, 0) read */
    pol_edit_vec reads; /* each read made a tiled one */
} tiled_array;

/* the arrays of k whose every read is a stencil read in g's body, with a
 * (0, 0) read and a neighbour inside a block, each with its reads' edits;
 * how many */
static int find_arrays(const tu_model *m, const kernel *k, const guard *g, const pol_facts *f,
                       symtab *syms, arena *a, tiled_array *out)
{
    int n = 0;
    for (size_t p = 0; p < k->params.len && n < MAX_ARRAYS; p++) {
        const kernel_param *param = &k->params.items[p];
        const char *type = pol_pointee_type(param, a);
        if (!param->is_pointer || !type || !pol_param_read_only(m, k, param->name))
            continue;
        int ok = 1, neighbour = 0, first = 1;
        long center = -1;
        mono width = {1, 0, {0}};
        pol_edit_vec reads = {0};
        for (size_t i = 0; ok && i < k->body.len; i++) {
            const body_node *b = &k->body.items[i];
            if (b->kind != BODY_SUBSCRIPT || !b->base || strcmp(b->base, param->name) != 0)
                continue;
            int di, dj;
            mono w;
            ok = b->parent == g->node && !b->range.in_macro && b->range.begin >= g->then_begin &&
                 b->range.end <= g->then_end &&
                 stencil_offsets(pol_text(m, &b->index, a), syms, a, &di, &dj, &w) &&
                 (first || mono_same_syms(&w, &width));
            first = 0, width = w;
            if (ok && di == 0 && dj == 0)
                center = (long)i;
            if (ok && (di || dj) && (di < 0 ? -di : di) < f->block[1] && (dj < 0 ? -dj : dj) < f->block[0])
                neighbour = 1;
            if (ok) {
                pol_edit e = {b->range.begin, b->range.end,
                              tiled_read(param->name, pol_text(m, &b->range, a), di, dj, f->block[0],
                                         f->block[1], a),
                              0};
                vec_push(&reads, e);
            }
        }
        /* the same row width in every thread: parameters, macros and
         * constants that nothing assigns */
        for (int s = 0; ok && s < width.n; s++)
            ok = !assigned(m, k, syms->name[width.sym[s]], a) && !declared(m, k, syms->name[width.sym[s]], a);
        if (!ok || center < 0 || !neighbour) {
            vec_free(&reads);
            continue;
        }
        tiled_array t = {param->name, type, center, reads};
        out[n++] = t;
    }
    return n;
}

/* a guard and what stands before it allow a barrier there: NULL, or why not */
static const char *guard_problem(const kernel *k, const char *text, const guard *g, arena *a)
{
    static const char *const no_calls[] = {NULL};
    const char *cond = arena_printf(a, "%.*s", (int)(g->cond_end - g->cond_begin), text + g->cond_begin);
    if (!expr_text_without_effects(cond, no_calls))
        return "the guard has effects or calls";
    size_t before = k->body.items[g->node].range.begin;
    if (has_word(text, k->body_range.begin, before, "return") ||
        has_word(text, k->body_range.begin, before, "goto"))
        return "a return before the guard: not every thread would reach the barrier";
    const char *then = arena_printf(a, "%.*s", (int)(g->then_end - g->then_begin), text + g->then_begin);
    if (strstr(then, "&&") || strstr(then, "||") || strchr(then, '?'))
        return "the guarded body has &&, || or ?: (a read there may not run)";
    if (has_word(text, k->body_range.begin, k->body_range.end, "switch"))
        return "a switch: not every thread would reach the barrier";
    return NULL;
}

int pol_transform_stencil_tile(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                               pol_edit_vec *out, const char **why)
{
    if (f->block[0] <= 0 || f->block[1] <= 0 || f->block[2] > 1 || f->block[0] * f->block[1] > 1024) {
        *why = "the captured launches do not agree on one two-dimensional block shape";
        return 1;
    }
    if (!f->pointers_distinct || !pol_launch_sites_distinct(m, k)) {
        *why = "the captured launches do not show the pointers as distinct allocations";
        return 1;
    }
    for (size_t i = 0; i < k->body.len; i++)
        if (k->body.items[i].kind == BODY_SYNC) {
            *why = "a barrier already";
            return 1;
        }
    const char *sharing = pol_block_sharing(m, k);
    if (sharing) {
        *why = arena_printf(a, "the block's threads share more than memory (%s)", sharing);
        return 1;
    }
    const char *iname, *jname;
    size_t init;
    long idecl = pol_thread_index_decl(m, k, 'y', a, &iname, &init);
    long jdecl = pol_thread_index_decl(m, k, 'x', a, &jname, &init);
    if (idecl < 0 || jdecl < 0) {
        *why = "no row and column index (blockIdx.y * blockDim.y + threadIdx.y, the same in x)";
        return 1;
    }
    if (assigned(m, k, iname, a) || assigned(m, k, jname, a)) {
        *why = "the row or column index is assigned after its declaration";
        return 1;
    }
    size_t len;
    const char *text = pol_file_text(m, &k->body_range, &len);
    if (!text || k->body_range.end > len) {
        *why = "no body text";
        return 1;
    }
    symtab syms = {2, {iname, jname}};
    tiled_array arrays[MAX_ARRAYS];
    int n = 0;
    guard g;
    for (size_t i = 0; i < k->body.len && !n; i++) {
        const body_node *b = &k->body.items[i];
        if (b->kind != BODY_IF || b->parent != -1 || b->range.in_macro ||
            b->range.begin < k->body.items[idecl].range.end || b->range.begin < k->body.items[jdecl].range.end ||
            !plain_if(text, b, (long)i, k->body_range.end - 1, &g))
            continue;
        n = find_arrays(m, k, &g, f, &syms, a, arrays);
    }
    if (!n) {
        *why = "no read-only array read at (i + di) * W + j + dj, (0, 0) among them, under one "
               "top-level if without else";
        return 1;
    }
    if ((*why = guard_problem(k, text, &g, a)) != NULL) {
        for (int t = 0; t < n; t++)
            vec_free(&arrays[t].reads);
        return 1;
    }
    int bx = f->block[0], by = f->block[1];
    const body_node *ifn = &k->body.items[g.node];
    int blanks;
    size_t ls = pol_line_start(text, ifn->range.begin, &blanks);
    const char *indent = blanks ? pol_indent(text, ls, a) : "";
    const char *nl = pol_newline(text, len, ifn->range.begin);
    const char *cond = arena_printf(a, "%.*s", (int)(g.cond_end - g.cond_begin), text + g.cond_begin);
    strbuf head;
    sb_init(&head);
    sb_printf(&head, "/* cl1cc: each thread's own element of ");
    for (int t = 0; t < n; t++)
        sb_printf(&head, "%s%s", t ? (t == n - 1 ? " and " : ", ") : "", arrays[t].name);
    sb_printf(&head, " in shared memory (when its guard holds: it reads it then); a neighbour's "
                     "comes from there when it is in the block and was loaded */%s",
              nl);
    for (int t = 0; t < n; t++)
        sb_printf(&head, "%s__shared__ %s cl1cc_tile_%s[%d][%d];%s", indent, arrays[t].type, arrays[t].name,
                  by, bx, nl);
    sb_printf(&head, "%s__shared__ bool cl1cc_held[%d][%d];%s", indent, by, bx, nl);
    sb_printf(&head, "%sconst bool cl1cc_tiled = blockDim.x == %du && blockDim.y == %du && blockDim.z == 1u;%s",
              indent, bx, by, nl);
    sb_printf(&head, "%sconst bool cl1cc_in = (%s);%s", indent, cond, nl);
    sb_printf(&head, "%sif (cl1cc_tiled) {%s%s    cl1cc_held[threadIdx.y][threadIdx.x] = cl1cc_in;%s", indent,
              nl, indent, nl);
    sb_printf(&head, "%s    if (cl1cc_in) {%s", indent, nl);
    for (int t = 0; t < n; t++)
        sb_printf(&head, "%s        cl1cc_tile_%s[threadIdx.y][threadIdx.x] = %s;%s", indent, arrays[t].name,
                  pol_text(m, &k->body.items[arrays[t].center].range, a), nl);
    sb_printf(&head, "%s    }%s%s}%s%s__syncthreads();%s%s", indent, nl, indent, nl, indent, nl, indent);
    pol_edit tile = {ifn->range.begin, ifn->range.begin, arena_strdup(a, sb_str(&head)), 0};
    sb_free(&head);
    pol_edit guard_edit = {g.cond_begin, g.cond_end, "cl1cc_in", 0};
    vec_push(out, tile);
    vec_push(out, guard_edit);
    for (int t = 0; t < n; t++) {
        for (size_t i = 0; i < arrays[t].reads.len; i++)
            vec_push(out, arrays[t].reads.items[i]);
        vec_free(&arrays[t].reads);
    }
    return 0;
}
