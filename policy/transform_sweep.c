/*
 * transform_sweep.c: `sweep8`, `sweep16` (a thread's sequential walk, its
 * loads issued T steps ahead).  In "t = blockIdx.x*blockDim.x + threadIdx.x;
 * if (G) { for (int v = L; v < U; v++) { W[..] = EXPR; ... } }" each thread
 * walks its own line (a row "A[t*N + v]" or a column "A[v*N + t]", forward
 * or backward: adi's sweeps, a tridiagonal solve, a recurrence along a
 * row), one step after another, and each step waits for its loads: on
 * PolyBench's adi (1024 threads: 32 warps on 132 SMs) a step takes a
 * memory latency, 0.2-0.5 us.  The variant walks T steps at a time: first
 * every element the T steps read is loaded into registers (T independent
 * loads an array, one latency for all of them), then the T steps run as
 * they did, in order, their stores in place.  A read of an element an
 * earlier step of the same T wrote takes the value that step stored (a
 * register); one written before the T began is loaded after that store (in
 * the thread's program order), and one written later is read before it, as
 * the original read it.  Which element of a written array a read touches,
 * relative to the write, is decided at transform time by evaluating both
 * index expressions at random values of every name (the read at step s is
 * the write's element at step s + d for one d in [-16, 16], the same at
 * every trial; else refused).  Same operations in the same order: the
 * results are the original's bits.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "stage_plan.h"

enum { max_accesses = 24, max_distance = 16, trials = 4 };

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

/* index at loop value v in trial; 0 when it is not a sum of products of
 * names and numbers */
static int eval_index(const char *index, const char *loop_var, uint64_t v, int trial, uint64_t *out)
{
    evaluator e = {index, loop_var, v, trial, 0};
    *out = eval_sum(&e);
    skip_blanks(&e);
    return !e.bad && *e.s == '\0';
}

/* the d with read(v) == write(v + d) at every trial, or 0 with *found 0 */
static int distance(const char *read, const char *write, const char *loop_var, int *found)
{
    *found = 0;
    for (int d = -max_distance; d <= max_distance; d++) {
        int all = 1;
        for (int t = 0; t < trials && all; t++) {
            uint64_t v = name_value("cl1_v", 5, t + 7) >> 8, r, w;
            if (!eval_index(read, loop_var, v, t, &r) ||
                !eval_index(write, loop_var, v + (uint64_t)(int64_t)d, t, &w))
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

typedef struct access {
    size_t node;          /* its BODY_SUBSCRIPT */
    const char *base, *index, *type;
    int is_write;
    int write;            /* a read of a written array: that write's access; -1 */
    int distance;         /* the write's step minus this read's */
    int forwarded_now;    /* distance 0, after the write in the step: its value */
} access;

typedef struct sweep_plan {
    stage_plan p;
    access acc[max_accesses];
    size_t n;
} sweep_plan;

/* the assignment whose target is the write subscript at body node w */
static const body_node *assignment_of(const kernel *k, size_t w)
{
    for (size_t i = 0; i < k->body.len; i++)
        if (k->body.items[i].kind == BODY_ASSIGN &&
            k->body.items[i].target.begin == k->body.items[w].range.begin)
            return &k->body.items[i];
    return NULL;
}

static int analyse(const tu_model *m, const kernel *k, const pol_facts *f, sweep_plan *s, arena *a,
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
            if (s->n == max_accesses) {
                *why = "too many array accesses in the loop";
                return 1;
            }
            const kernel_param *prm = b->base ? pol_param(k, b->base) : NULL;
            const char *index = pol_text(m, &b->index, a);
            if (!prm || !prm->is_pointer || strchr(index, '[')) {
                *why = "an access in the loop is not a pointer parameter's element at a plain index";
                return 1;
            }
            access *x = &s->acc[s->n++];
            memset(x, 0, sizeof *x);
            x->node = i;
            x->base = b->base;
            x->index = index;
            x->type = pol_pointee_type(prm, a);
            x->is_write = b->is_write;
            x->write = -1;
            uint64_t v0, v1;
            if (!x->type || !eval_index(index, p->loop_var, 5, 0, &v0) ||
                !eval_index(index, p->loop_var, 6, 0, &v1)) {
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
    /* each written array: one write a step; its reads at a fixed distance */
    size_t writes = 0;
    for (size_t i = 0; i < s->n; i++) {
        access *x = &s->acc[i];
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
        access *r = &s->acc[i];
        if (r->is_write)
            continue;
        for (size_t j = 0; j < s->n; j++) {
            const access *w = &s->acc[j];
            if (!w->is_write || strcmp(w->base, r->base) != 0)
                continue;
            int found;
            int d = distance(r->index, w->index, p->loop_var, &found);
            if (!found) {
                *why = "a read of a written array is no fixed number of steps from its write";
                return 1;
            }
            r->write = (int)j;
            r->distance = d;
            /* the same step's element, read after the statement that wrote
             * it (a read in that statement's value comes before the store) */
            const body_node *as = assignment_of(k, w->node);
            size_t stored = as ? as->range.end : k->body.items[w->node].range.end;
            r->forwarded_now = d == 0 && k->body.items[r->node].range.begin >= stored;
        }
    }
    return 0;
}

/* ---- the variant ------------------------------------------------------------------ */

typedef struct replacement {
    size_t begin, end;
    const char *text;
} replacement;

/* the loop body with reads replaced and the stored values kept */
static const char *render_step(const kernel *k, const sweep_plan *s, arena *a)
{
    const stage_plan *p = &s->p;
    replacement r[2 * max_accesses];
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) {
        const access *x = &s->acc[i];
        const body_node *b = &k->body.items[x->node];
        if (!x->is_write) {
            const char *reg = arena_printf(a, "cl1_r%zu[cl1_s]", i);
            if (x->write >= 0 && x->forwarded_now)
                reg = arena_printf(a, "cl1_w%d[cl1_s]", x->write);
            else if (x->write >= 0 && x->distance < 0)
                reg = arena_printf(a, "(cl1_s + (%d) >= 0 ? cl1_w%d[cl1_s + (%d)] : cl1_r%zu[cl1_s])",
                                   x->distance, x->write, x->distance, i);
            r[n++] = (replacement){b->range.begin, b->range.end, reg};
            continue;
        }
        /* "W[i] = E" becomes "W[i] = cl1_wN[cl1_s] = E": the value kept */
        const body_node *as = assignment_of(k, x->node);
        if (as) {
            size_t eq = as->target.end;
            while (eq < p->len && p->text[eq] != '=')
                eq++;
            r[n++] = (replacement){eq + 1, eq + 1, arena_printf(a, " cl1_w%zu[cl1_s] =", i)};
        }
    }
    /* in order of position (the reads never overlap: no nested subscripts) */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && r[j].begin < r[j - 1].begin; j--) {
            replacement t = r[j];
            r[j] = r[j - 1];
            r[j - 1] = t;
        }
    strbuf sb;
    sb_init(&sb);
    size_t at = p->body_begin;
    for (size_t i = 0; i < n; i++) {
        sb_append(&sb, p->text + at, r[i].begin - at);
        sb_puts(&sb, r[i].text);
        at = r[i].end;
    }
    sb_append(&sb, p->text + at, p->body_end - at);
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

/* a read that needs its register loaded at step s: not the same step's
 * stored value, and for an earlier step's only where that step came
 * before this T */
static const char *load_condition(const access *x, arena *a)
{
    if (x->write < 0 || (x->distance >= 0 && !x->forwarded_now))
        return "true";
    if (x->forwarded_now)
        return NULL;
    return arena_printf(a, "cl1_s + (%d) < 0", x->distance);
}

int pol_transform_sweep(const tu_model *m, const kernel *k, const pol_facts *f, int steps, arena *a,
                        pol_edit_vec *out, const char **why)
{
    sweep_plan s;
    memset(&s, 0, sizeof s);
    if (analyse(m, k, f, &s, a, why))
        return 1;
    const stage_plan *p = &s.p;
    const char *v = p->loop_var, *vt = p->var_type;
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "if (%s) {\n", p->cond);
    sb_printf(&sb, "\tfor (%s cl1_v0 = (%s); cl1_v0 < (%s); cl1_v0 += %d) {\n", vt, p->lower, p->upper, steps);
    for (size_t i = 0; i < s.n; i++) {
        const access *x = &s.acc[i];
        if (x->is_write)
            sb_printf(&sb, "\t\t%s cl1_w%zu[%d];\n", x->type, i, steps);
        else if (load_condition(x, a))
            sb_printf(&sb, "\t\t%s cl1_r%zu[%d];\n", x->type, i, steps);
    }
    /* the loads of the T steps, before any of them runs */
    sb_printf(&sb, "\t\t#pragma unroll\n\t\tfor (int cl1_s = 0; cl1_s < %d; cl1_s++) {\n", steps);
    sb_printf(&sb, "\t\t\tconst %s %s = cl1_v0 + cl1_s;\n\t\t\tif (%s < (%s)) {\n", vt, v, v, p->upper);
    for (size_t i = 0; i < s.n; i++) {
        const access *x = &s.acc[i];
        const char *cond = x->is_write ? NULL : load_condition(x, a);
        if (!cond)
            continue;
        sb_printf(&sb, "\t\t\t\tif (%s) cl1_r%zu[cl1_s] = %s[%s];\n", cond, i, x->base, x->index);
    }
    sb_puts(&sb, "\t\t\t}\n\t\t}\n");
    /* the T steps, in order, their stores in place */
    sb_printf(&sb, "\t\t#pragma unroll\n\t\tfor (int cl1_s = 0; cl1_s < %d; cl1_s++) {\n", steps);
    sb_printf(&sb, "\t\t\tconst %s %s = cl1_v0 + cl1_s;\n\t\t\tif (%s < (%s))\n\t\t\t%s\n", vt, v, v, p->upper,
              render_step(k, &s, a));
    sb_puts(&sb, "\t\t}\n\t}\n");
    stage_replace_guard(k, p, sb_str(&sb), NULL, a, out);
    sb_free(&sb);
    return 0;
}
