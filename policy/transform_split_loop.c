/*
 * transform_split_loop.c: `split_loop` and `split_loop256`: a
 * one-dimensional kernel whose threads each run an outer loop of
 * independent iterations (covariance: "for (j2 = j1; j2 < M; j2++)
 * symmat[j1*M+j2] = sum over i ...") keeps few threads busy for a long
 * time: 2048 threads on 132 SMs, each summing thousands of rows.  The
 * variant runs on a grid F times as tall (F = 64 or 256,
 * core/launch_rule.h) and hands the loop's iterations out over it: slice y
 * takes y, y + F, y + 2F, ...
 *
 *     for (j2 = (LOWER) + cl1cc_y0; j2 < UPPER; j2 += cl1cc_ystep)
 *
 * and the guard's statements before and after the loop run in slice 0
 * only.  The iterations must be independent, which is proven, not assumed:
 * every array the guard writes is a pointer parameter indexed as
 * "H * S + L" (or "L") with H and L the thread's index or the loop
 * variable, so that, while both lie in [0, S), two accesses meet only when
 * their digits are equal; the digits' equalities must then force the same
 * iteration (or contradict "j2 > j1" where the loop starts at "j1 + c").
 * The bounds that argument needs ("guard bound <= S", "upper <= S", "lower
 * >= 0") are checked at run time: where they fail, slice 0 runs the
 * original loop and the other slices leave.  Scalars the loop assigns are
 * its own declarations or inner loop counters.
 */
#include <stdlib.h>
#include <string.h>

#include "split_loop.h"

enum { digit_zero, digit_thread, digit_loop, digit_loop2, digit_count, max_terms = 8 };

typedef struct access {
    int hi, lo;         /* digit_* of "hi * S + lo" */
    const char *stride; /* S, NULL when the index is one digit */
    int write, in_loop;
} access;

typedef VEC(access) access_vec;

/* offsets of the top-level occurrences of sep (one character, or "&&") in
 * s[begin, end) */
static size_t split_at(const char *s, size_t begin, size_t end, const char *sep, size_t *at,
                       size_t max)
{
    size_t n = 0, seplen = strlen(sep);
    int depth = 0;
    for (size_t i = begin; i < end; i++) {
        if (s[i] == '(' || s[i] == '[')
            depth++;
        else if (s[i] == ')' || s[i] == ']')
            depth--;
        else if (depth == 0 && i + seplen <= end && strncmp(s + i, sep, seplen) == 0) {
            if (n == max)
                return max + 1;
            at[n++] = i;
            i += seplen - 1;
        }
    }
    return n;
}

/* s without one pair of parentheses around all of it */
static const char *unparen(const char *s, arena *a)
{
    size_t n = strlen(s);
    while (n >= 2 && s[0] == '(' && ctext_close_bracket(s, n, 0) == n - 1) {
        s = arena_printf(a, "%.*s", (int)(n - 2), s + 1);
        n -= 2;
    }
    return s;
}

/* no memory read, call, assignment or increment, and nothing the kernel
 * assigns but the identifiers in allowed (NULL-terminated) */
static int plain_expression(const tu_model *m, const kernel *k, const char *s,
                            const char *const *allowed, arena *a)
{
    if (strchr(s, '[') || strchr(s, '=') || strstr(s, "++") || strstr(s, "--"))
        return 0;
    for (size_t i = 0; s[i]; i++) {
        size_t b = i;
        while (s[i] == '(' && b > 0 && s[b - 1] == ' ')
            b--;
        if (s[i] == '(' && b > 0 && pol_ident_char((unsigned char)s[b - 1]))
            return 0; /* a call */
    }
    const char **ids;
    size_t n = pol_identifiers(s, a, &ids);
    for (size_t i = 0; i < n; i++) {
        int ok = 0;
        for (size_t j = 0; allowed && allowed[j]; j++)
            ok |= strcmp(ids[i], allowed[j]) == 0;
        for (size_t j = 0; !ok && j < k->body.len; j++) {
            const body_node *b = &k->body.items[j];
            if (b->kind == BODY_ASSIGN && strcmp(pol_squeeze(pol_text(m, &b->target, a), a), ids[i]) == 0)
                return 0;
        }
    }
    return 1;
}

static int digit_of(const split_plan *p, const char *s, int in_loop)
{
    if (strcmp(s, p->tvar) == 0)
        return digit_thread;
    if (in_loop && strcmp(s, p->lvar) == 0)
        return digit_loop;
    return -1;
}

/* "H * S + L", "L + H * S", "L" (parentheses allowed around terms) */
static int parse_index(const tu_model *m, const kernel *k, const split_plan *p, const char *index,
                       access *out, arena *a)
{
    const char *sq = unparen(pol_squeeze(index, a), a);
    size_t n = strlen(sq), at[max_terms];
    size_t terms = split_at(sq, 0, n, "+", at, max_terms - 1);
    if (terms > 1 || strchr(sq, '-'))
        return 1;
    out->hi = out->lo = digit_zero;
    out->stride = NULL;
    for (size_t t = 0; t <= terms; t++) {
        size_t b = t ? at[t - 1] + 1 : 0, e = t < terms ? at[t] : n;
        const char *term = unparen(arena_printf(a, "%.*s", (int)(e - b), sq + b), a);
        size_t star[2], tl = strlen(term);
        size_t stars = split_at(term, 0, tl, "*", star, 1);
        int d;
        if (stars == 0) {
            if ((d = digit_of(p, term, out->in_loop)) < 0 || out->lo != digit_zero)
                return 1;
            out->lo = d;
            continue;
        }
        if (stars != 1 || out->hi != digit_zero)
            return 1;
        const char *left = unparen(arena_printf(a, "%.*s", (int)star[0], term), a);
        const char *right = unparen(term + star[0] + 1, a);
        const char *stride = right;
        if ((d = digit_of(p, left, out->in_loop)) < 0) {
            d = digit_of(p, right, out->in_loop);
            stride = left;
        }
        if (d < 0 || pol_mentions(stride, p->tvar) || pol_mentions(stride, p->lvar) ||
            !plain_expression(m, k, stride, NULL, a))
            return 1;
        out->hi = d;
        out->stride = stride;
    }
    return 0;
}

static int uf_find(int *parent, int x)
{
    while (parent[x] != x)
        x = parent[x];
    return x;
}

/* the digit equalities of P (iteration j2) meeting Q (iteration j2'):
 * can they hold for two different iterations (both in the loop) or at all
 * (P outside it)? */
static int may_meet(const split_plan *p, const access *P, const access *Q)
{
    int parent[digit_count] = {0, 1, 2, 3};
    int qhi = Q->hi == digit_loop ? digit_loop2 : Q->hi, qlo = Q->lo == digit_loop ? digit_loop2 : Q->lo;
    parent[uf_find(parent, P->hi)] = uf_find(parent, qhi);
    parent[uf_find(parent, P->lo)] = uf_find(parent, qlo);
    int t = uf_find(parent, digit_thread), v = uf_find(parent, digit_loop),
        v2 = uf_find(parent, digit_loop2);
    if (p->lower_above_thread && (t == v || t == v2))
        return 0; /* j2 > j1 in every iteration */
    return !(P->in_loop && v == v2);
}

static int find_guard(const tu_model *m, const kernel *k, split_plan *p, arena *a, const char **why)
{
    const char *t = p->text;
    p->guard = -1;
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *b = &k->body.items[i];
        if (b->parent != -1)
            continue;
        if (b->kind == BODY_IF) {
            if (p->guard >= 0) {
                *why = "more than one top-level if";
                return 1;
            }
            p->guard = (long)i;
        } else if (b->kind != BODY_ASSIGN || strcmp(b->op, "decl") != 0) {
            if (b->kind == BODY_SUBSCRIPT || b->kind == BODY_CALL || b->kind == BODY_ASSIGN ||
                b->kind == BODY_LOOP) {
                *why = "statements other than declarations outside the guard";
                return 1;
            }
        }
    }
    if (p->guard < 0) {
        *why = "no guard 'if (...) { ... }' around the loop";
        return 1;
    }
    const body_node *G = &k->body.items[p->guard];
    size_t c = ctext_skip_blanks(t, p->len, G->range.begin + 2);
    size_t cclose = strncmp(t + G->range.begin, "if", 2) == 0 && t[c] == '(' ? ctext_close_bracket(t, p->len, c) : 0;
    p->open = cclose ? ctext_skip_blanks(t, p->len, cclose + 1) : 0;
    p->close = p->open && t[p->open] == '{' ? ctext_close_bracket(t, p->len, p->open) : 0;
    if (!p->close || G->range.in_macro || ctext_skip_blanks(t, p->len, p->close + 1) != k->body_range.end - 1) {
        *why = "the guard is not 'if (...) { ... }' ending the body";
        return 1;
    }
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *b = &k->body.items[i];
        if (b->parent == -1 && b->range.begin > G->range.begin) {
            *why = "statements after the guard";
            return 1;
        }
    }
    p->cond = pol_trim(t + c + 1, cclose - c - 1, a);
    /* G of a conjunct "tvar < G" */
    size_t at[16];
    size_t n = split_at(t, c + 1, cclose, "&&", at, 15);
    p->bound = NULL;
    for (size_t i = 0; n <= 15 && i <= n; i++) {
        size_t b = i ? at[i - 1] + 2 : c + 1, e = i < n ? at[i] : cclose;
        const char *conj = unparen(pol_squeeze(arena_printf(a, "%.*s", (int)(e - b), t + b), a), a);
        size_t tl = strlen(p->tvar);
        if (strncmp(conj, p->tvar, tl) == 0 && conj[tl] == '<' && conj[tl + 1] != '=' &&
            conj[tl + 1] != '<' && plain_expression(m, k, conj + tl + 1, NULL, a) &&
            !pol_mentions(conj + tl + 1, p->tvar))
            p->bound = conj + tl + 1;
    }
    return 0;
}

static int find_loop(const tu_model *m, const kernel *k, split_plan *p, arena *a, const char **why)
{
    const char *t = p->text;
    p->loop = -1;
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *b = &k->body.items[i];
        if (b->parent != p->guard)
            continue;
        if (b->kind == BODY_IF || (b->kind == BODY_LOOP && p->loop >= 0)) {
            *why = "the guard holds more than one loop, or an if";
            return 1;
        }
        if (b->kind == BODY_ASSIGN && strcmp(b->op, "decl") == 0) {
            *why = "a declaration in the guard outside the loop";
            return 1;
        }
        if (b->kind == BODY_LOOP)
            p->loop = (long)i;
    }
    if (p->loop < 0) {
        *why = "no loop in the guard";
        return 1;
    }
    const body_node *L = &k->body.items[p->loop];
    if (!L->has_inner_loop) {
        *why = "the loop has no inner loop: its iterations are short, more threads would not pay";
        return 1;
    }
    size_t h = ctext_skip_blanks(t, p->len, L->range.begin + 3);
    size_t hclose = strncmp(t + L->range.begin, "for", 3) == 0 && t[h] == '(' ? ctext_close_bracket(t, p->len, h) : 0;
    size_t semi[3];
    if (!hclose || !L->loop_var || L->range.in_macro || split_at(t, h + 1, hclose, ";", semi, 2) != 2) {
        *why = "the loop is not 'for (var = lower; var < upper; var++)'";
        return 1;
    }
    p->lvar = L->loop_var;
    const char *init = arena_printf(a, "%.*s", (int)(semi[0] - h - 1), t + h + 1);
    const char *eq = strchr(init, '=');
    const char *lhs = eq ? pol_trim(init, (size_t)(eq - init), a) : "";
    size_t vl = strlen(p->lvar), ll = strlen(lhs);
    if (!eq || eq[1] == '=' || ll < vl || strcmp(lhs + ll - vl, p->lvar) != 0) {
        *why = "the loop's init is not var = lower";
        return 1;
    }
    p->var_type = ll > vl ? pol_trim(lhs, ll - vl, a) : NULL;
    p->lower_begin = h + 1 + (size_t)(eq - init) + 1;
    p->lower_end = semi[0];
    p->lower = pol_trim(t + p->lower_begin, p->lower_end - p->lower_begin, a);
    const char *cond = pol_squeeze(arena_printf(a, "%.*s", (int)(semi[1] - semi[0] - 1), t + semi[0] + 1), a);
    p->step_begin = semi[1] + 1;
    p->step_end = hclose;
    const char *step = pol_squeeze(arena_printf(a, "%.*s", (int)(hclose - semi[1] - 1), t + semi[1] + 1), a);
    if (strncmp(cond, p->lvar, vl) != 0 || cond[vl] != '<' || cond[vl + 1] == '=' || cond[vl + 1] == '<') {
        *why = "the loop's condition is not var < upper";
        return 1;
    }
    p->upper = cond + vl + 1;
    if (strcmp(step, arena_printf(a, "%s++", p->lvar)) != 0 &&
        strcmp(step, arena_printf(a, "++%s", p->lvar)) != 0 &&
        strcmp(step, arena_printf(a, "%s+=1", p->lvar)) != 0) {
        *why = "the loop's step is not var++";
        return 1;
    }
    const char *const thread_only[] = {p->tvar, NULL};
    if (!plain_expression(m, k, pol_squeeze(p->lower, a), thread_only, a) ||
        !plain_expression(m, k, p->upper, thread_only, a) || pol_mentions(p->lower, p->lvar) ||
        pol_mentions(p->upper, p->lvar)) {
        *why = "the loop's bounds read memory or something the kernel assigns";
        return 1;
    }
    const char *low = unparen(pol_squeeze(p->lower, a), a);
    size_t tl = strlen(p->tvar);
    const char *c = NULL;
    if (strncmp(low, p->tvar, tl) == 0 && low[tl] == '+')
        c = low + tl + 1;
    else if (strlen(low) > tl && strcmp(low + strlen(low) - tl, p->tvar) == 0 &&
             low[strlen(low) - tl - 1] == '+')
        c = arena_printf(a, "%.*s", (int)(strlen(low) - tl - 1), low);
    p->lower_above_thread = c && strspn(c, "0123456789") == strlen(c) && atoi(c) >= 1;
    p->lower_per_thread = pol_mentions(low, p->tvar) && strcmp(low, p->tvar) != 0 && !p->lower_above_thread;
    return 0;
}

static int forbidden(const char *s)
{
    static const char *const words[] = {"return", "break", "continue", "goto", "asm", NULL};
    for (int i = 0; words[i]; i++)
        if (pol_mentions(s, words[i]))
            return 1;
    return strstr(s, "//") || strstr(s, "/*") || strchr(s, '#');
}

/* scalars the loop's body assigns: its own declarations, or counters of
 * inner for loops that no statement of the body reads outside them; none
 * read after the loop */
static int scalars_private(const tu_model *m, const kernel *k, const split_plan *p, arena *a,
                           const char **why)
{
    const body_node *L = &k->body.items[p->loop];
    for (size_t j = 0; j < k->body.len; j++) {
        const body_node *b = &k->body.items[j];
        if (b->kind != BODY_ASSIGN || b->range.begin < L->loop_body.begin || b->range.end > L->loop_body.end)
            continue;
        const char *name = pol_squeeze(pol_text(m, &b->target, a), a);
        if (strchr(name, '['))
            continue; /* an array element: the accesses' check */
        if (!pol_ident_char((unsigned char)name[0]) || strspn(name, "abcdefghijklmnopqrstuvwxyz"
                                                                "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
                                                          strlen(name)) {
            *why = arena_printf(a, "the loop assigns through %s", name);
            return 1;
        }
        if (strcmp(name, p->lvar) == 0) {
            *why = "the loop's body assigns its variable";
            return 1;
        }
        int declared = 0;
        for (size_t d = 0; d < k->body.len && !declared; d++) {
            const body_node *e = &k->body.items[d];
            declared = e->kind == BODY_ASSIGN && strcmp(e->op, "decl") == 0 &&
                       e->range.begin >= L->loop_body.begin && e->range.end <= L->loop_body.end &&
                       strcmp(pol_squeeze(pol_text(m, &e->target, a), a), name) == 0;
        }
        if (declared)
            continue;
        /* an inner counter: every mention inside some inner loop on it */
        size_t mentions = pol_count_identifier(p->text, L->loop_body.begin, L->loop_body.end, name);
        size_t inside = 0;
        for (size_t d = 0; d < k->body.len; d++) {
            const body_node *e = &k->body.items[d];
            if (e->kind == BODY_LOOP && e->loop_var && strcmp(e->loop_var, name) == 0 &&
                e->range.begin >= L->loop_body.begin && e->range.end <= L->loop_body.end)
                inside += pol_count_identifier(p->text, e->range.begin, e->range.end, name);
        }
        if (!inside || inside != mentions) {
            *why = arena_printf(a, "the loop carries %s from one iteration to the next", name);
            return 1;
        }
    }
    return 0;
}

/* every array the guard writes: digit-indexed, and no two iterations (nor
 * an iteration and the statements outside the loop) meet on an element */
static int accesses_independent(const tu_model *m, const kernel *k, const pol_facts *f,
                                const split_plan *p, arena *a, const char ***strides,
                                size_t *n_strides, int *thread_strided, int *loop_strided,
                                const char **why)
{
    const body_node *L = &k->body.items[p->loop];
    *n_strides = 0;
    *thread_strided = *loop_strided = 0;
    *strides = arena_alloc(a, (k->body.len + 1) * sizeof **strides);
    int writes_any = 0;
    for (size_t j = 0; j < k->body.len; j++) {
        const body_node *s = &k->body.items[j];
        if (s->kind == BODY_ASSIGN && strchr(pol_text(m, &s->target, a), '[')) {
            /* its subscript node must carry a plain base */
            int found = 0;
            for (size_t i = 0; i < k->body.len; i++)
                found |= k->body.items[i].kind == BODY_SUBSCRIPT && k->body.items[i].is_write &&
                         k->body.items[i].base && k->body.items[i].range.begin == s->target.begin;
            if (!found) {
                *why = "an element is assigned through an expression, not a parameter";
                return 1;
            }
        }
        if (s->kind != BODY_SUBSCRIPT || !s->is_write)
            continue;
        writes_any = 1;
        const kernel_param *prm = pol_param(k, s->base);
        if (!prm || !prm->is_pointer) {
            *why = arena_printf(a, "the loop writes %s, not a pointer parameter", s->base ? s->base : "an array");
            return 1;
        }
    }
    if (!writes_any) {
        *why = "the guard writes no array";
        return 1;
    }
    size_t pointers = 0;
    for (size_t i = 0; i < k->params.len; i++)
        pointers += k->params.items[i].is_pointer;
    if (pointers > 1 && (!f->pointers_distinct || !pol_launch_sites_distinct(m, k))) {
        *why = "the pointer arguments may alias (not distinct at every captured launch)";
        return 1;
    }
    for (size_t i = 0; i < k->params.len; i++) {
        const kernel_param *prm = &k->params.items[i];
        int written = 0;
        for (size_t j = 0; j < k->body.len; j++)
            written |= k->body.items[j].kind == BODY_SUBSCRIPT && k->body.items[j].is_write &&
                       k->body.items[j].base && strcmp(k->body.items[j].base, prm->name) == 0;
        if (!written)
            continue;
        access_vec acc = {0};
        size_t subscripts = 0;
        const char *stride = NULL;
        int rc = 0;
        for (size_t j = 0; j < k->body.len && !rc; j++) {
            const body_node *s = &k->body.items[j];
            if (s->kind != BODY_SUBSCRIPT || !s->base || strcmp(s->base, prm->name) != 0)
                continue;
            subscripts++;
            access x = {0};
            x.write = s->is_write;
            x.in_loop = s->range.begin >= L->loop_body.begin && s->range.end <= L->loop_body.end;
            if (parse_index(m, k, p, pol_text(m, &s->index, a), &x, a)) {
                *why = arena_printf(a, "%s[%s] is not indexed as digits \"i * S + j\" of the thread and the loop",
                                    prm->name, pol_text(m, &s->index, a));
                rc = 1;
            } else if (x.stride && stride && strcmp(x.stride, stride) != 0) {
                *why = arena_printf(a, "%s is indexed with two strides", prm->name);
                rc = 1;
            }
            if (x.stride) {
                stride = x.stride;
                *thread_strided |= x.hi == digit_thread || x.lo == digit_thread;
                *loop_strided |= x.hi == digit_loop || x.lo == digit_loop;
            }
            vec_push(&acc, x);
        }
        if (!rc && subscripts != pol_count_identifier(p->text, k->body_range.begin, k->body_range.end, prm->name)) {
            *why = arena_printf(a, "%s is used other than by subscripts", prm->name);
            rc = 1;
        }
        /* a digit of a one-digit access where others have a stride is
         * compared as "0 * S + d": the same bounds apply */
        for (size_t x = 0; !rc && stride && x < acc.len; x++) {
            *thread_strided |= acc.items[x].lo == digit_thread;
            *loop_strided |= acc.items[x].lo == digit_loop;
        }
        for (size_t x = 0; !rc && x < acc.len; x++)
            for (size_t y = 0; !rc && y < acc.len; y++) {
                const access *P = &acc.items[x], *Q = &acc.items[y];
                if (!Q->in_loop || !(P->write || Q->write) || !may_meet(p, P, Q))
                    continue;
                *why = arena_printf(a, P->in_loop ? "two iterations of the loop may touch the same element of %s"
                                                  : "the loop may touch an element of %s that the statements "
                                                    "around it touch",
                                    prm->name);
                rc = 1;
            }
        vec_free(&acc);
        if (rc)
            return 1;
        if (stride) {
            int seen = 0;
            for (size_t s = 0; s < *n_strides; s++)
                seen |= strcmp((*strides)[s], stride) == 0;
            if (!seen)
                (*strides)[(*n_strides)++] = stride;
        }
    }
    if (*thread_strided && !p->bound) {
        *why = "the guard does not bound the thread's index (\"i < N\")";
        return 1;
    }
    return 0;
}

/* the edit wrapping text [begin, end) (trimmed) in "if (cl1cc_y0 == 0) { ... }" */
static int slice_zero_only(const split_plan *p, size_t begin, size_t end, arena *a, pol_edit_vec *out)
{
    size_t b = ctext_skip_blanks(p->text, end, begin), e = end;
    while (e > b && strchr(" \t\r\n", p->text[e - 1]))
        e--;
    if (b >= e)
        return 0;
    const char *s = arena_printf(a, "%.*s", (int)(e - b), p->text + b);
    if (forbidden(s))
        return 1;
    pol_edit open = {b, b, "if (cl1cc_y0 == 0) { ", 0}, close = {e, e, " }", 0};
    vec_push(out, open);
    vec_push(out, close);
    return 0;
}

int split_loop_analyse(const tu_model *m, const kernel *k, const pol_facts *f, split_plan *p, arena *a,
                       const char **why)
{
    memset(p, 0, sizeof *p);
    if (!f->flat_grid) {
        *why = "the captured grids are not one block high (the variant's grid is taller)";
        return 1;
    }
    p->text = pol_file_text(m, &k->decl_range, &p->len);
    size_t init;
    if (!p->text || pol_thread_index_decl(m, k, 'x', a, &p->tvar, &init) < 0) {
        *why = "no \"i = blockIdx.x * blockDim.x + threadIdx.x\" at the top of the body";
        return 1;
    }
    const char *other = pol_other_thread_identity(m, k, 1);
    if (other) {
        *why = arena_printf(a, "something else tells the threads apart (%s)", other);
        return 1;
    }
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *b = &k->body.items[i];
        if (b->kind == BODY_SYNC || (b->kind == BODY_CALL && b->callee && strncmp(b->callee, "atomic", 6) == 0)) {
            *why = "a barrier or an atomic";
            return 1;
        }
    }
    if (find_guard(m, k, p, a, why) || find_loop(m, k, p, a, why))
        return 1;
    const body_node *L = &k->body.items[p->loop];
    /* the loop statement's end, its ';' included */
    p->loop_end = L->range.end;
    if (p->loop_end > 0 && p->text[p->loop_end - 1] != '}' && p->text[p->loop_end - 1] != ';') {
        while (p->loop_end < p->len && p->text[p->loop_end] != ';')
            p->loop_end++;
        p->loop_end += p->loop_end < p->len;
    }
    const char *body = arena_printf(a, "%.*s", (int)(L->loop_body.end - L->loop_body.begin), p->text + L->loop_body.begin);
    if (forbidden(body)) {
        *why = "the loop's body leaves it early, or holds comments or directives";
        return 1;
    }
    for (size_t i = p->open + 1; i < p->close; i++)
        if (p->text[i] == '&' && p->text[i + 1] != '&' && p->text[i - 1] != '&') {
            *why = "an address is taken";
            return 1;
        }
    if (pol_count_identifier(p->text, p->loop_end, k->body_range.end, p->lvar)) {
        *why = "the loop's variable is read after the loop";
        return 1;
    }
    if (scalars_private(m, k, p, a, why))
        return 1;
    const char **strides;
    size_t n_strides;
    int thread_strided, loop_strided;
    if (accesses_independent(m, k, f, p, a, &strides, &n_strides, &thread_strided, &loop_strided, why))
        return 1;
    /* the scalars the loop assigns are not read after it */
    for (size_t j = 0; j < k->body.len; j++) {
        const body_node *b = &k->body.items[j];
        if (b->kind == BODY_ASSIGN && b->range.begin >= L->loop_body.begin && b->range.end <= L->loop_body.end) {
            const char *name = pol_squeeze(pol_text(m, &b->target, a), a);
            if (!strchr(name, '[') && pol_count_identifier(p->text, p->loop_end, k->body_range.end, name)) {
                *why = arena_printf(a, "%s is read after the loop", name);
                return 1;
            }
        }
    }
    strbuf checks;
    sb_init(&checks);
    for (size_t s = 0; s < n_strides; s++) {
        if (thread_strided)
            sb_printf(&checks, "%s(%s) <= (%s)", checks.len ? " && " : "", p->bound, strides[s]);
        if (loop_strided)
            sb_printf(&checks, "%s(%s) <= (%s) && (%s) >= 0", checks.len ? " && " : "", p->upper,
                      strides[s], p->lower);
    }
    p->checks = arena_strdup(a, sb_str(&checks));
    sb_free(&checks);
    return 0;
}

int split_loop_emit(const tu_model *m, const kernel *k, const split_plan *p, int factor,
                    const char *before_guard, arena *a, pol_edit_vec *out, const char **why)
{
    const body_node *G = &k->body.items[p->guard], *L = &k->body.items[p->loop];
    int blanks;
    size_t ls = pol_line_start(p->text, G->range.begin, &blanks);
    const char *indent = blanks ? pol_indent(p->text, ls, a) : "    ";
    const char *nl = pol_newline(p->text, p->len, ls);
    const char *head;
    if (*p->checks)
        head = arena_printf(a,
                            "const bool cl1cc_split = %s;%s"
                            "%sif (!cl1cc_split && blockIdx.y != 0)%s%s    return;%s"
                            "%sconst int cl1cc_y0 = cl1cc_split ? (int)blockIdx.y : 0;%s"
                            "%sconst int cl1cc_ystep = cl1cc_split ? (int)gridDim.y : 1;%s%s",
                            p->checks, nl, indent, nl, indent, nl, indent, nl, indent, nl, indent);
    else
        head = arena_printf(a, "const int cl1cc_y0 = (int)blockIdx.y;%s%sconst int cl1cc_ystep = (int)gridDim.y;%s%s",
                            nl, indent, nl, indent);
    if (before_guard)
        head = arena_printf(a, "%s%s", head, before_guard);
    pol_edit_vec mine = {0};
    vec_push(&mine, pol_grid_y_marker(m, k, factor, a));
    pol_edit h = {G->range.begin, G->range.begin, head, 0};
    vec_push(&mine, h);
    int refuse = slice_zero_only(p, p->open + 1, L->range.begin, a, &mine) ||
                 slice_zero_only(p, p->loop_end, p->close, a, &mine);
    if (refuse) {
        vec_free(&mine);
        *why = "the statements around the loop leave early, or hold comments or directives";
        return 1;
    }
    pol_edit lo_open = {p->lower_begin + (size_t)(ctext_skip_blanks(p->text, p->lower_end, p->lower_begin) - p->lower_begin),
                        0, "(", 0};
    lo_open.end = lo_open.begin;
    size_t lo_e = p->lower_end;
    while (lo_e > p->lower_begin && strchr(" \t", p->text[lo_e - 1]))
        lo_e--;
    pol_edit lo_close = {lo_e, lo_e, ") + cl1cc_y0", 0};
    size_t st_b = ctext_skip_blanks(p->text, p->step_end, p->step_begin), st_e = p->step_end;
    while (st_e > st_b && strchr(" \t\r\n", p->text[st_e - 1]))
        st_e--;
    pol_edit step = {st_b, st_e, arena_printf(a, "%s += cl1cc_ystep", p->lvar), 0};
    vec_push(&mine, lo_open);
    vec_push(&mine, lo_close);
    vec_push(&mine, step);
    for (size_t i = 0; i < mine.len; i++)
        vec_push(out, mine.items[i]);
    vec_free(&mine);
    return 0;
}

int pol_transform_split_loop(const tu_model *m, const kernel *k, const pol_facts *f, int factor,
                             arena *a, pol_edit_vec *out, const char **why)
{
    split_plan p;
    return split_loop_analyse(m, k, f, &p, a, why) || split_loop_emit(m, k, &p, factor, NULL, a, out, why);
}
