/*
 * sweep_plan.c: what the sweeps (transform_sweep.c, transform_sweep_tile.c)
 * find in a kernel whose threads each walk their own line one step after
 * another: the guard, the loop, every array access in it, and where each
 * read of a written array lies relative to its write.  Index expressions
 * are compared by evaluating them at random values of every name.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "sweep_plan.h"

enum { max_distance = 16, trials = 4 };

/* ---- index expressions evaluated at random values ------------------------------ */

typedef struct evaluator {
    const char *s;
    const char *loop_var;
    uint64_t v;   /* the loop variable's value */
    int trial;    /* which random value every other name takes */
    int bad;
} evaluator;

static uint64_t name_value(const char *name, size_t n, int trial)
{
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)(trial + 1) * 0x9E3779B97F4A7C15ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)name[i]) * 1099511628211ULL;
    return h | 1;
}

static void skip_blanks(evaluator *e)
{
    while (*e->s == ' ' || *e->s == '\t' || *e->s == '\n' || *e->s == '\r')
        e->s++;
}

static uint64_t eval_sum(evaluator *e);

static uint64_t eval_atom(evaluator *e)
{
    skip_blanks(e);
    char c = *e->s;
    if (c == '(') {
        e->s++;
        uint64_t v = eval_sum(e);
        skip_blanks(e);
        if (*e->s != ')')
            e->bad = 1;
        else
            e->s++;
        return v;
    }
    if (c == '-' || c == '+') {
        e->s++;
        uint64_t v = eval_atom(e);
        return c == '-' ? (uint64_t)0 - v : v;
    }
    if (c >= '0' && c <= '9') {
        uint64_t v = 0;
        while (*e->s >= '0' && *e->s <= '9')
            v = v * 10 + (uint64_t)(*e->s++ - '0');
        while (*e->s == 'u' || *e->s == 'U' || *e->s == 'l' || *e->s == 'L')
            e->s++;
        return v;
    }
    if (pol_ident_char(c) && !(c >= '0' && c <= '9')) {
        const char *start = e->s;
        while (pol_ident_char(*e->s))
            e->s++;
        size_t n = (size_t)(e->s - start);
        skip_blanks(e);
        if (*e->s == '(' || *e->s == '[' || *e->s == '.')
            e->bad = 1; /* a call, a subscript, a member: not a plain name */
        if (strlen(e->loop_var) == n && strncmp(start, e->loop_var, n) == 0)
            return e->v;
        return name_value(start, n, e->trial);
    }
    e->bad = 1;
    return 0;
}

static uint64_t eval_product(evaluator *e)
{
    uint64_t v = eval_atom(e);
    for (;;) {
        skip_blanks(e);
        if (*e->s != '*')
            return v;
        e->s++;
        v *= eval_atom(e);
    }
}

static uint64_t eval_sum(evaluator *e)
{
    uint64_t v = eval_product(e);
    for (;;) {
        skip_blanks(e);
        char c = *e->s;
        if (c != '+' && c != '-')
            return v;
        e->s++;
        uint64_t w = eval_product(e);
        v = c == '+' ? v + w : v - w;
    }
}

int sweep_eval_index(const char *index, const char *loop_var, uint64_t v, int trial, uint64_t *out)
{
    evaluator e = {index, loop_var, v, trial, 0};
    *out = eval_sum(&e);
    skip_blanks(&e);
    return !e.bad && *e.s == '\0';
}

int sweep_distance(const char *read, const char *write, const char *loop_var, int *found)
{
    *found = 0;
    for (int d = -max_distance; d <= max_distance; d++) {
        int all = 1;
        for (int t = 0; t < trials && all; t++) {
            uint64_t v = name_value("cl1_v", 5, t + 7) >> 8, r, w;
            if (!sweep_eval_index(read, loop_var, v, t, &r) ||
                !sweep_eval_index(write, loop_var, v + (uint64_t)(int64_t)d, t, &w))
                return 0;
            all = r == w;
        }
        if (all) {
            *found = 1;
            return d;
        }
    }
    return 0;
}

/* 1 when name in an index means one value the evaluator may stand in
 * for: the loop variable, the thread's index, a scalar parameter, or a
 * macro of the kernel's whose definition is one number or such a name (a
 * macro "N+1" would be evaluated as text, not as its expansion) */
static int plain_name(const tu_model *m, const kernel *k, const stage_plan *p, const char *name,
                      int depth, arena *a)
{
    if (depth > 8)
        return 0;
    if (strcmp(name, p->loop_var) == 0 || (p->thread_var[0] && strcmp(name, p->thread_var[0]) == 0))
        return 1;
    const kernel_param *prm = pol_param(k, name);
    if (prm)
        return !prm->is_pointer;
    for (size_t i = 0; i < k->deps.len; i++) {
        const dependency *d = &m->decls.items[k->deps.items[i]];
        if (d->kind != DECL_MACRO || strcmp(d->name, name) != 0)
            continue;
        /* "#define N 1024", "#define N (1024)", "#define N M" */
        const char *def = pol_text(m, &d->range, a);
        const char *at = strstr(def, name);
        if (!at)
            return 0;
        at += strlen(name);
        if (*at == '(')
            return 0; /* function-like */
        char token[128];
        size_t n = 0;
        for (; *at && n + 1 < sizeof token; at++)
            if (*at != ' ' && *at != '\t' && *at != '(' && *at != ')' && *at != '\n' && *at != '\r')
                token[n++] = *at;
        token[n] = '\0';
        if (!n)
            return 0;
        if (token[0] >= '0' && token[0] <= '9') {
            for (size_t c = 0; c < n; c++)
                if (!((token[c] >= '0' && token[c] <= '9') || strchr("uUlL", token[c])))
                    return 0;
            return 1;
        }
        for (size_t c = 0; c < n; c++)
            if (!pol_ident_char(token[c]))
                return 0;
        return plain_name(m, k, p, token, depth + 1, a);
    }
    return 0; /* a local, a global, a macro not the kernel's own */
}

/* every name in index is plain_name's */
static int plain_names(const tu_model *m, const kernel *k, const stage_plan *p, const char *index,
                       arena *a)
{
    for (const char *c = index; *c;) {
        if (pol_ident_char(*c) && !(*c >= '0' && *c <= '9')) {
            const char *start = c;
            while (pol_ident_char(*c))
                c++;
            if (!plain_name(m, k, p, arena_printf(a, "%.*s", (int)(c - start), start), 0, a))
                return 0;
        } else if (*c >= '0' && *c <= '9') {
            while (pol_ident_char(*c))
                c++;
        } else {
            c++;
        }
    }
    return 1;
}

/* 1 for a call that writes no memory: a math function, or an intrinsic
 * of one (a call that stored could change an element loaded T steps
 * ahead) */
static int pure_call(const char *callee)
{
    static const char *const intrinsics[] = {
        "__fdividef", "__expf", "__exp10f", "__logf", "__log2f", "__log10f", "__sinf", "__cosf",
        "__tanf", "__powf", "__saturatef", "__fsqrt_rn", "__frcp_rn", "__fmul_rn", "__fadd_rn",
        "__fsub_rn", "__fmaf_rn", "__fdiv_rn", "__ldg", NULL};
    for (int i = 0; callee && intrinsics[i]; i++)
        if (strcmp(callee, intrinsics[i]) == 0)
            return 1;
    return pol_math_call(callee);
}

/* ---- the plan ------------------------------------------------------------------ */

/* the assignment whose target is the write subscript at body node w */
const body_node *sweep_assignment_of(const kernel *k, size_t w)
{
    for (size_t i = 0; i < k->body.len; i++)
        if (k->body.items[i].kind == BODY_ASSIGN &&
            k->body.items[i].target.begin == k->body.items[w].range.begin)
            return &k->body.items[i];
    return NULL;
}

int sweep_analyse(const tu_model *m, const kernel *k, const pol_facts *f, sweep_plan *s, arena *a,
                  const char **why)
{
    stage_plan *p = &s->p;
    if (stage_prepare(m, k, f, p, a, why) || stage_find_shape(m, k, p, 0, a, why))
        return 1;
    if (!p->thread_var[0] || p->thread_var[1] || p->thread_var[2]) {
        *why = "the kernel has no thread index along x, or one along y or z";
        return 1;
    }
    if (!p->var_type) {
        *why = "the loop variable is declared before the loop";
        return 1;
    }
    if (!stage_only_thread_vars_before(k, p, a)) {
        *why = "something besides the thread index is declared before the guard";
        return 1;
    }
    const body_node *loop = &k->body.items[p->loop];
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *b = &k->body.items[i];
        int in_loop = b->range.begin >= p->body_begin && b->range.end <= p->body_end;
        if ((long)i == p->loop || b->range.begin < loop->range.begin)
            continue;
        if (!in_loop) {
            if (stage_in_guard(k, p, i) && b->kind != BODY_LOOP) {
                *why = "the guard holds more than the loop";
                return 1;
            }
            continue;
        }
        if (b->range.in_macro) {
            *why = "a statement of the loop comes from a macro";
            return 1;
        }
        if (b->kind == BODY_ASSIGN) {
            const char *target = pol_text(m, &b->target, a);
            if (strcmp(b->op, "=") != 0 || !strchr(target, '[')) {
                *why = "the loop assigns other than an array element with '='";
                return 1;
            }
        } else if (b->kind == BODY_SUBSCRIPT) {
            if (s->n == sweep_max_accesses) {
                *why = "too many array accesses in the loop";
                return 1;
            }
            const kernel_param *prm = b->base ? pol_param(k, b->base) : NULL;
            const char *index = pol_text(m, &b->index, a);
            if (!prm || !prm->is_pointer || strchr(index, '[')) {
                *why = "an access in the loop is not a pointer parameter's element at a plain index";
                return 1;
            }
            sweep_access *x = &s->acc[s->n++];
            memset(x, 0, sizeof *x);
            x->node = i;
            x->base = b->base;
            x->index = index;
            x->type = pol_pointee_type(prm, a);
            x->is_write = b->is_write;
            x->write = -1;
            uint64_t v0, v1;
            if (!x->type || !sweep_eval_index(index, p->loop_var, 5, 0, &v0) ||
                !sweep_eval_index(index, p->loop_var, 6, 0, &v1)) {
                *why = "an index in the loop is not a sum of products of names and numbers";
                return 1;
            }
            if (v0 == v1) {
                *why = "an access in the loop does not move with the loop variable";
                return 1;
            }
            if (!plain_names(m, k, p, index, a)) {
                *why = "an index in the loop names something other than the loop variable, the "
                       "thread's index, scalar parameters and macros of one value";
                return 1;
            }
        } else if (b->kind == BODY_CALL) {
            if (!pure_call(b->callee)) {
                *why = "the loop calls a function that may write memory";
                return 1;
            }
        } else {
            *why = "the loop holds a statement other than assignments of array elements";
            return 1;
        }
    }
    /* in the order of their position in the text (the emitters splice
     * them in that order; none lies inside another: no nested subscripts) */
    for (size_t i = 1; i < s->n; i++)
        for (size_t j = i; j > 0 && k->body.items[s->acc[j].node].range.begin <
                                        k->body.items[s->acc[j - 1].node].range.begin;
             j--) {
            sweep_access t = s->acc[j];
            s->acc[j] = s->acc[j - 1];
            s->acc[j - 1] = t;
        }
    /* each written array: one write a step; its reads at a fixed distance */
    size_t writes = 0;
    for (size_t i = 0; i < s->n; i++) {
        sweep_access *x = &s->acc[i];
        if (!x->is_write)
            continue;
        writes++;
        for (size_t j = 0; j < s->n; j++)
            if (j != i && s->acc[j].is_write && strcmp(s->acc[j].base, x->base) == 0) {
                *why = "an array is written twice in a step";
                return 1;
            }
    }
    if (!writes) {
        *why = "the loop writes no array element";
        return 1;
    }
    for (size_t i = 0; i < s->n; i++) {
        sweep_access *r = &s->acc[i];
        if (r->is_write)
            continue;
        for (size_t j = 0; j < s->n; j++) {
            const sweep_access *w = &s->acc[j];
            if (!w->is_write || strcmp(w->base, r->base) != 0)
                continue;
            int found;
            int d = sweep_distance(r->index, w->index, p->loop_var, &found);
            if (!found) {
                *why = "a read of a written array is no fixed number of steps from its write";
                return 1;
            }
            r->write = (int)j;
            r->distance = d;
            /* the same step's element, read after the statement that wrote
             * it (a read in that statement's value comes before the store) */
            const body_node *as = sweep_assignment_of(k, w->node);
            size_t stored = as ? as->range.end : k->body.items[w->node].range.end;
            r->forwarded_now = d == 0 && k->body.items[r->node].range.begin >= stored;
        }
    }
    return 0;
}

const char *sweep_render_body(const kernel *k, const sweep_plan *s,
                              const char *(*text_of)(const sweep_plan *s, size_t i, void *ctx), void *ctx,
                              arena *a)
{
    const stage_plan *p = &s->p;
    strbuf sb;
    sb_init(&sb);
    size_t at = p->body_begin;
    for (size_t i = 0; i < s->n; i++) { /* s->acc in order of position, none inside another */
        const char *text = text_of(s, i, ctx);
        if (!text)
            continue;
        const body_node *b = &k->body.items[s->acc[i].node];
        sb_append(&sb, p->text + at, b->range.begin - at);
        sb_puts(&sb, text);
        at = b->range.end;
    }
    sb_append(&sb, p->text + at, p->body_end - at);
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}
