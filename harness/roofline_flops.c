/*
 * roofline_flops.c: a captured launch's floating-point operations from
 * the frontend's model of the kernel body: each loop's and if's own count
 * (frontend/extract_body.c) times the trip counts of the loops around it
 * and the threads its guards let through, evaluated with the captured
 * scalar arguments and launch shape.  Any part it cannot evaluate makes
 * the answer unknown (NaN), never a guess.
 */
#include "roofline_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_BINDINGS = 128, MAX_CONJUNCTS = 16 };

/* how threadIdx and blockIdx evaluate: their least, largest or mean value */
typedef enum index_mode { INDEX_MIN, INDEX_MAX, INDEX_MEAN } index_mode;

typedef struct flop_walk {
    const tu_model *m;
    const kernel *k;
    const hn_capture *c;
    arena *a;
    double param_value[HN_MAX_ARGS];
    int param_known[HN_MAX_ARGS];
    /* loop variables at their mean, thread variables a guard narrowed */
    const char *bind_name[MAX_BINDINGS];
    double bind_value[MAX_BINDINGS];
    int nbind;
    index_mode mode;
    int depth; /* of locals defined by locals */
} flop_walk;

/* ---- the captured scalar arguments ------------------------------------------- */

static int hex_digit(char ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* a parameter's captured bytes as a number, by its type */
static int scalar_value(const kernel_param *p, const unsigned char *b, size_t n, double *out)
{
    const char *t = p->canonical_type ? p->canonical_type : p->type;
    if (!t || p->is_pointer || strchr(t, '*') || strchr(t, '['))
        return -1;
    if (strstr(t, "float") && n == 4) {
        float f;
        memcpy(&f, b, 4);
        *out = f;
        return 0;
    }
    if (strstr(t, "double") && n == 8) {
        double d;
        memcpy(&d, b, 8);
        *out = d;
        return 0;
    }
    if (strstr(t, "float") || strstr(t, "double") || strstr(t, "half") || (n != 1 && n != 2 && n != 4 && n != 8))
        return -1;
    uint64_t u = 0;
    for (size_t i = 0; i < n; i++) /* little-endian */
        u |= (uint64_t)b[i] << (8 * i);
    int is_unsigned = strstr(t, "unsigned") || strstr(t, "size_t") || strncmp(t, "uint", 4) == 0 ||
                      strcmp(t, "bool") == 0;
    if (!is_unsigned && n < 8 && (u >> (8 * n - 1)) & 1)
        u |= ~(uint64_t)0 << (8 * n); /* sign-extend */
    *out = is_unsigned ? (double)u : (double)(int64_t)u;
    return 0;
}

/* the `arg N value SIZE HEX` lines of c->dir/meta */
static void read_values(flop_walk *w)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/meta", w->c->dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    static char line[16384];
    static char hex[8200];
    while (fgets(line, sizeof line, f)) {
        int i;
        size_t n;
        if (sscanf(line, "arg %d value %zu %8199s", &i, &n, hex) != 3 || i < 0 ||
            i >= HN_MAX_ARGS || (size_t)i >= w->k->params.len || n > 8 || strlen(hex) != 2 * n)
            continue;
        unsigned char bytes[8];
        int ok = 1;
        for (size_t b = 0; b < n; b++) {
            int hi = hex_digit(hex[2 * b]), lo = hex_digit(hex[2 * b + 1]);
            ok &= hi >= 0 && lo >= 0;
            bytes[b] = (unsigned char)(hi * 16 + lo);
        }
        if (ok && scalar_value(&w->k->params.items[i], bytes, n, &w->param_value[i]) == 0)
            w->param_known[i] = 1;
    }
    fclose(f);
}

/* ---- names ----------------------------------------------------------------------- */

static const char *node_text(const flop_walk *w, const src_range *r)
{
    const source_file *sf = model_file(w->m, r->file);
    if (!sf || r->end > sf->len || r->begin > r->end)
        return NULL;
    return arena_strndup(w->a, sf->text + r->begin, r->end - r->begin);
}

static int builtin_value(const flop_walk *w, const char *name, size_t len, double *out)
{
    if (len < 8 || name[len - 2] != '.' || name[len - 1] < 'x' || name[len - 1] > 'z')
        return -1;
    int d = name[len - 1] - 'x';
    double block = w->c->block[d] ? w->c->block[d] : 1, grid = w->c->grid[d] ? w->c->grid[d] : 1;
    size_t base = len - 2;
    int thread = base == 9 && strncmp(name, "threadIdx", 9) == 0;
    int blockidx = base == 8 && strncmp(name, "blockIdx", 8) == 0;
    if (base == 8 && strncmp(name, "blockDim", 8) == 0)
        *out = block;
    else if (base == 7 && strncmp(name, "gridDim", 7) == 0)
        *out = grid;
    else if (thread || blockidx) {
        double extent = thread ? block : grid;
        *out = w->mode == INDEX_MIN ? 0 : w->mode == INDEX_MAX ? extent - 1 : (extent - 1) / 2;
    } else
        return -1;
    return 0;
}

static int lookup(void *data, const char *name, size_t len, double *out);

/* a local the body defines outside every loop, by one value */
static int local_value(flop_walk *w, const char *name, size_t len, double *out)
{
    const char *value = NULL;
    for (size_t i = 0; i < w->k->body.len; i++) {
        const body_node *n = &w->k->body.items[i];
        if (n->kind != BODY_ASSIGN || !n->op)
            continue;
        const char *target = node_text(w, &n->target);
        if (!target || strlen(target) != len || strncmp(target, name, len) != 0)
            continue;
        if (n->loop_depth > 0 || (strcmp(n->op, "decl") != 0 && strcmp(n->op, "=") != 0) ||
            !n->expr || (value && strcmp(value, n->expr) != 0))
            return -1; /* changes in a loop, or has two values */
        value = n->expr;
    }
    if (!value || w->depth > 16)
        return -1;
    w->depth++;
    int rc = rl_eval(value, lookup, w, out);
    w->depth--;
    return rc;
}

static int lookup(void *data, const char *name, size_t len, double *out)
{
    flop_walk *w = data;
    for (int b = w->nbind - 1; b >= 0; b--)
        if (strlen(w->bind_name[b]) == len && strncmp(w->bind_name[b], name, len) == 0) {
            *out = w->bind_value[b];
            return 0;
        }
    if (builtin_value(w, name, len, out) == 0)
        return 0;
    for (size_t i = 0; i < w->k->params.len && i < HN_MAX_ARGS; i++) {
        const char *p = w->k->params.items[i].name;
        if (p && strlen(p) == len && strncmp(p, name, len) == 0)
            return w->param_known[i] ? (*out = w->param_value[i], 0) : -1;
    }
    return local_value(w, name, len, out);
}

static int bind(flop_walk *w, const char *name, double value)
{
    if (w->nbind == MAX_BINDINGS)
        return -1;
    w->bind_name[w->nbind] = name;
    w->bind_value[w->nbind++] = value;
    return 0;
}

/* text evaluated with the thread indices at their least, largest or mean */
static int eval_at(flop_walk *w, const char *text, index_mode mode, double *out)
{
    index_mode saved = w->mode;
    w->mode = mode;
    int rc = rl_eval(text, lookup, w, out);
    w->mode = saved;
    return rc;
}

/* ---- guards ------------------------------------------------------------------------ */

/* one variable side of a guard's comparisons: its range over the threads
 * and the part of it the comparisons keep */
typedef struct guard_side {
    const char *text;
    double lo, hi, keep_lo, keep_hi;
} guard_side;

static const char *const compare_ops[] = {" <= ", " >= ", " == ", " != ", " < ", " > "};

/* the comparison's side that varies with the thread (narrowed by it) and
 * the constant it is compared with; 0, or -1 when it is no such thing */
static int apply_comparison(flop_walk *w, const char *conj, guard_side *sides, int *nsides,
                            double *fixed_fraction)
{
    const char *parts[3];
    const char *op = NULL;
    for (size_t i = 0; i < sizeof compare_ops / sizeof compare_ops[0] && !op; i++)
        if (rl_split(conj, compare_ops[i], parts, 3, w->a) == 2)
            op = compare_ops[i];
    if (!op || strcmp(op, " != ") == 0)
        return -1;
    double l[2], r[2];
    if (eval_at(w, parts[0], INDEX_MIN, &l[0]) || eval_at(w, parts[0], INDEX_MAX, &l[1]) ||
        eval_at(w, parts[1], INDEX_MIN, &r[0]) || eval_at(w, parts[1], INDEX_MAX, &r[1]))
        return -1;
    int l_varies = l[0] != l[1], r_varies = r[0] != r[1];
    if (l_varies && r_varies)
        return -1;
    if (!l_varies && !r_varies) {
        double yes;
        if (rl_eval(conj, lookup, w, &yes) != 0)
            return -1;
        *fixed_fraction *= yes != 0;
        return 0;
    }
    /* var OP value, the var on the left */
    static const char *const flipped[][2] = {{" <= ", " >= "}, {" >= ", " <= "}, {" < ", " > "},
                                             {" > ", " < "},   {" == ", " == "}};
    const char *var = parts[0];
    double value = r[0], lo = l[0], hi = l[1];
    if (r_varies) {
        var = parts[1], value = l[0], lo = r[0], hi = r[1];
        for (size_t i = 0; i < 5; i++)
            if (strcmp(op, flipped[i][0]) == 0) {
                op = flipped[i][1];
                break;
            }
    }
    if (lo > hi) {
        double t = lo;
        lo = hi, hi = t;
    }
    guard_side *s = NULL;
    for (int i = 0; i < *nsides && !s; i++)
        if (strcmp(sides[i].text, var) == 0)
            s = &sides[i];
    if (!s) {
        if (*nsides == MAX_CONJUNCTS)
            return -1;
        s = &sides[(*nsides)++];
        *s = (guard_side){var, lo, hi, lo, hi};
    }
    double below = strcmp(op, " < ") == 0 ? ceil(value) - 1 : floor(value);
    double above = strcmp(op, " > ") == 0 ? floor(value) + 1 : ceil(value);
    if (strcmp(op, " < ") == 0 || strcmp(op, " <= ") == 0 || strcmp(op, " == ") == 0)
        s->keep_hi = fmin(s->keep_hi, below);
    if (strcmp(op, " > ") == 0 || strcmp(op, " >= ") == 0 || strcmp(op, " == ") == 0)
        s->keep_lo = fmax(s->keep_lo, above);
    return 0;
}

static int is_name(const char *t)
{
    for (const char *p = t; *p; p++)
        if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9')))
            return 0;
    return *t && !(*t >= '0' && *t <= '9');
}

/* the negation of a comparison "a OP b" (for an early return's condition) */
static const char *negated(const char *conj, arena *a)
{
    static const char *const pairs[][2] = {{" <= ", " > "}, {" >= ", " < "}, {" < ", " >= "},
                                           {" > ", " <= "}};
    const char *parts[3];
    for (size_t i = 0; i < 4; i++)
        if (rl_split(conj, pairs[i][0], parts, 3, a) == 2)
            return arena_printf(a, "%s%s%s", parts[0], pairs[i][1], parts[1]);
    return NULL;
}

/* The threads' fraction that passes the conjuncts, with each narrowed
 * variable bound to its mean among them; 0, or -1 when unknown */
static int apply_guard(flop_walk *w, const char *const *conj, size_t n, double *fraction)
{
    guard_side sides[MAX_CONJUNCTS];
    int nsides = 0;
    double f = 1;
    for (size_t i = 0; i < n; i++)
        if (!conj[i] || apply_comparison(w, conj[i], sides, &nsides, &f) != 0)
            return -1;
    for (int i = 0; i < nsides; i++) {
        guard_side *s = &sides[i];
        double kept = fmax(0, s->keep_hi - s->keep_lo + 1);
        f *= fmin(1, kept / (s->hi - s->lo + 1));
        if (is_name(s->text) && kept > 0 && bind(w, s->text, (s->keep_lo + s->keep_hi) / 2) != 0)
            return -1;
    }
    *fraction *= f;
    return 0;
}

/* an if of the guard kind ("if (...)" without else), outside every loop */
static int guard_if(flop_walk *w, const body_node *n, const char **text_out)
{
    const char *text = node_text(w, &n->range);
    *text_out = text;
    return text && strncmp(text, "if", 2) == 0 && !strstr(text, "else");
}

/* the guard of if node g for what it encloses; 0, or -1 when unknown */
static int enter_if(flop_walk *w, const body_node *g, double *fraction)
{
    const char *text;
    if (!guard_if(w, g, &text))
        return 0; /* ?: or if/else: every thread, both arms counted */
    if (!g->expr)
        return -1;
    const char *conj[MAX_CONJUNCTS];
    size_t n = rl_flatten(g->expr, " && ", conj, MAX_CONJUNCTS, w->a);
    return n ? apply_guard(w, conj, n, fraction) : -1;
}

/* an early `if (cond) return;` outside every loop: the threads that go
 * on past it (cond negated) */
static int early_return(flop_walk *w, const body_node *g, double *fraction)
{
    const char *disj[MAX_CONJUNCTS];
    size_t n = g->expr ? rl_flatten(g->expr, " || ", disj, MAX_CONJUNCTS, w->a) : 0;
    if (!n)
        return -1;
    const char *conj[MAX_CONJUNCTS];
    for (size_t i = 0; i < n; i++)
        conj[i] = negated(disj[i], w->a);
    return apply_guard(w, conj, n, fraction);
}

static int is_early_return(flop_walk *w, size_t index)
{
    const body_node *g = &w->k->body.items[index];
    const char *text;
    if (g->kind != BODY_IF || g->loop_depth > 0 || !guard_if(w, g, &text) || !strstr(text, "return"))
        return 0;
    for (size_t j = index + 1; j < w->k->body.len; j++) {
        const body_node *n = &w->k->body.items[j];
        if (n->range.begin >= g->range.end)
            break;
        if (n->kind == BODY_LOOP || n->flops)
            return 0;
    }
    return 1;
}

/* ---- loops ---------------------------------------------------------------------------- */

/* loop l's trip count with what is bound now, and its variable bound to
 * its mean for what it encloses; 0, or -1 when unknown */
static int enter_loop(flop_walk *w, const body_node *l, double *trips)
{
    double lo, hi, step;
    if (!l->loop_var || !l->loop_cmp || eval_at(w, l->loop_lower, INDEX_MEAN, &lo) ||
        eval_at(w, l->loop_bound, INDEX_MEAN, &hi) || eval_at(w, l->loop_step, INDEX_MEAN, &step))
        return -1;
    double t;
    const char *cmp = l->loop_cmp;
    /* whole bounds: exact; a mean (a bound that depends on an outer loop's
     * variable or the thread): the average trip count, exact for unit
     * steps and linear bounds (a triangle) */
    int exact = lo == floor(lo) && hi == floor(hi);
    double span = step > 0 ? (hi - lo) / step : (lo - hi) / -step;
    if (step > 0 && strcmp(cmp, "<") == 0)
        t = exact ? ceil(span) : span;
    else if (step > 0 && strcmp(cmp, "<=") == 0)
        t = (exact ? floor(span) : span) + 1;
    else if (step < 0 && strcmp(cmp, ">") == 0)
        t = exact ? ceil(span) : span;
    else if (step < 0 && strcmp(cmp, ">=") == 0)
        t = (exact ? floor(span) : span) + 1;
    else if (strcmp(cmp, "!=") == 0 && step != 0 && fmod(hi - lo, step) == 0 && (hi - lo) / step >= 0)
        t = (hi - lo) / step;
    else
        return -1;
    t = t > 0 ? t : 0;
    *trips = t;
    return bind(w, l->loop_var, lo + step * (t > 1 ? t - 1 : 0) / 2);
}

/* ---- the sum ----------------------------------------------------------------------------- */

/* how many times node `index` (or, -1, the body outside every loop and
 * if) runs over the launch: the loops around it times the threads that
 * reach it; NaN when unknown */
static double node_runs(flop_walk *w, long index, const long *exits, size_t n_exits)
{
    long chain[256];
    size_t depth = 0;
    for (long p = index; p >= 0 && depth < 256; p = w->k->body.items[p].parent)
        chain[depth++] = p;
    w->nbind = 0;
    double threads = 1;
    for (int d = 0; d < 3; d++)
        threads *= (w->c->grid[d] ? w->c->grid[d] : 1) * (double)(w->c->block[d] ? w->c->block[d] : 1);
    double fraction = 1, trips = 1;
    unsigned begin = index >= 0 ? w->k->body.items[index].range.begin : ~0u;
    for (size_t e = 0; e < n_exits; e++)
        if (begin >= w->k->body.items[exits[e]].range.end &&
            early_return(w, &w->k->body.items[exits[e]], &fraction) != 0)
            return NAN;
    int in_loop = 0;
    for (size_t d = depth; d-- > 0;) {
        const body_node *n = &w->k->body.items[chain[d]];
        double t;
        if (n->kind == BODY_LOOP) {
            if (enter_loop(w, n, &t) != 0)
                return NAN;
            trips *= t;
            in_loop = 1;
        } else if (n->kind == BODY_IF && !in_loop && enter_if(w, n, &fraction) != 0) {
            return NAN;
        }
    }
    return trips * fraction * threads;
}

/* the operations node `index` (-1: the body outside loops and ifs)
 * performs over the launch; NaN when unknown */
static double node_flops(flop_walk *w, long index, const long *exits, size_t n_exits)
{
    long count = index >= 0 ? w->k->body.items[index].flops : w->k->body_flops;
    return (double)count * node_runs(w, index, exits, n_exits);
}

/* a call of a __device__ function of the TU: its operations are not counted */
static int calls_user_function(const flop_walk *w)
{
    for (size_t i = 0; i < w->k->body.len; i++) {
        const body_node *n = &w->k->body.items[i];
        if (n->kind != BODY_CALL || !n->callee)
            continue;
        for (size_t d = 0; d < w->k->deps.len; d++) {
            const dependency *dep = &w->m->decls.items[w->k->deps.items[d]];
            if (dep->kind == DECL_FUNCTION && dep->name && strcmp(dep->name, n->callee) == 0)
                return 1;
        }
    }
    return 0;
}

/* the body's early returns, into exits (at most 64) */
static size_t find_exits(flop_walk *w, long *exits)
{
    size_t n_exits = 0;
    for (size_t i = 0; i < w->k->body.len && n_exits < 64; i++)
        if (is_early_return(w, i))
            exits[n_exits++] = (long)i;
    return n_exits;
}

double hn_roofline_flops(const tu_model *m, const kernel *k, const hn_capture *c)
{
    arena a;
    arena_init(&a);
    flop_walk *w = xcalloc(1, sizeof *w);
    w->m = m, w->k = k, w->c = c, w->a = &a, w->mode = INDEX_MEAN;
    read_values(w);
    double total = calls_user_function(w) ? NAN : 0;
    long exits[64];
    size_t n_exits = find_exits(w, exits);
    if (k->body_flops)
        total += node_flops(w, -1, exits, n_exits);
    for (size_t i = 0; i < k->body.len && isfinite(total); i++)
        if (k->body.items[i].flops)
            total += node_flops(w, (long)i, exits, n_exits);
    free(w);
    arena_free(&a);
    return total;
}

/* the pointer parameter a subscript's base names, or -1 */
static int pointer_param(const kernel *k, const char *base)
{
    for (size_t p = 0; base && p < k->params.len; p++) {
        const kernel_param *kp = &k->params.items[p];
        if (kp->name && strcmp(kp->name, base) == 0 && kp->is_pointer)
            return (int)p;
    }
    return -1;
}

double hn_roofline_access_bytes(const tu_model *m, const kernel *k, const hn_capture *c,
                                const hn_dtype *param_dtypes, size_t n_dtypes)
{
    arena a;
    arena_init(&a);
    flop_walk *w = xcalloc(1, sizeof *w);
    w->m = m, w->k = k, w->c = c, w->a = &a, w->mode = INDEX_MEAN;
    read_values(w);
    long exits[64];
    size_t n_exits = find_exits(w, exits);
    double total = calls_user_function(w) ? NAN : 0;
    for (size_t i = 0; i < k->body.len && isfinite(total); i++) {
        const body_node *n = &k->body.items[i];
        if (n->kind != BODY_SUBSCRIPT)
            continue;
        int p = pointer_param(k, n->base);
        size_t size = p >= 0 && (size_t)p < n_dtypes ? hn_dtype_size(param_dtypes[p]) : 0;
        if (p < 0 || !size) {
            total = NAN; /* another base (a local pointer, a pointer's pointee): no bound */
            break;
        }
        total += (double)size * node_runs(w, (long)i, exits, n_exits);
    }
    free(w);
    arena_free(&a);
    return total;
}
