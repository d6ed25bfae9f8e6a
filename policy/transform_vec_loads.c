/*
 * transform_vec_loads.c: `vec_loads`: a thread's own loop over j that
 * reads read-only float (double) arrays at "E + j" takes 4 (2) iterations a
 * step with one 16-byte load per array, then runs the iterations' bodies in
 * their order, so every sum is formed as before, bit for bit:
 *
 *     for (j = 0; j < n; j++) s += A[i*n + j] * x[j];
 * becomes
 *     { int cl1_vj0 = (0);
 *       if ((((unsigned long long)&A[i*n + cl1_vj0] | ...) & 15) == 0)
 *         for (; cl1_vj0 + 3 < (n); cl1_vj0 += 4) {
 *           const float4 cl1_v0_0 = *(const float4 *)&A[i*n + cl1_vj0]; ...
 *           { s += cl1_v0_0.x * cl1_v0_1.x; } ... { ... .w ...; }
 *         }
 *       for (j = cl1_vj0; j < n; j++) s += A[i*n + j] * x[j]; }
 *
 * The loads of later iterations move ahead of the earlier iterations'
 * stores: the arrays are read-only in the kernel and every captured launch
 * passed distinct allocations.  Rows that do not start on 16 bytes run the
 * original loop whole; the remainder runs it as the scalar tail.  An
 * element the loop updates at an index it does not change ("out[i] +=")
 * is kept in a register across both loops, as `regacc` does (the two
 * rewrite the same loop, so they do not combine otherwise).  A plain store
 * "B[E + j] = value" to an array the loop uses nowhere else is gathered:
 * the step's bodies write the components of a local vector, and one
 * 16-byte store follows them.
 */
#include <string.h>

#include "stage_plan.h"

enum { max_vectors = 6, max_sums = 4 };

typedef struct vec_access {
    const char *base, *index; /* index as written, with the loop variable */
    const char *squeezed;
} vec_access;

typedef struct vec_loop {
    long node;
    stage_plan p;
    int width;                /* 4 for float, 2 for double */
    const char *vector_type;  /* "float4", "double2" */
    vec_access acc[max_vectors];
    size_t n_acc;
    vec_access stores[max_vectors]; /* "B[E + j] = ..." stored 16 bytes at once */
    size_t n_stores;
    vec_access sums[max_sums]; /* elements kept in registers */
    const char *sum_type[max_sums];
    size_t n_sums;
} vec_loop;

static const char *const components = "xyzw";

/* is something inside loop L assigned one of expr's identifiers (or the
 * loop variable, which the steps own)? */
static int assigned_in_loop(const tu_model *m, const kernel *k, size_t loop, const char *expr,
                            arena *a)
{
    const char **ids;
    size_t n = pol_identifiers(expr, a, &ids);
    for (size_t j = 0; j < k->body.len; j++) {
        const body_node *b = &k->body.items[j];
        if (b->kind != BODY_ASSIGN || !pol_node_inside(k, j, loop) ||
            b->range.begin < k->body.items[loop].loop_body.begin)
            continue;
        const char *target = pol_squeeze(pol_text(m, &b->target, a), a);
        for (size_t i = 0; i < n; i++)
            if (strcmp(target, ids[i]) == 0)
                return 1;
    }
    return 0;
}

/* "E + j" (j at the top level of a sum, E free of j and loop-invariant) */
static int unit_stride(const tu_model *m, const kernel *k, size_t loop, const char *sq,
                       const char *var, arena *a)
{
    if (strpbrk(sq, "?<>&|^=,") || strstr(sq, "++") || strstr(sq, "--"))
        return 0;
    if (strcmp(sq, var) == 0)
        return 1;
    const char *terms[5];
    size_t n = stage_split_top(sq, "+", a, terms, 4);
    if (n < 2 || n > 4)
        return 0;
    size_t at = n;
    for (size_t t = 0; t < n; t++) {
        if (strcmp(terms[t], var) == 0 && at == n)
            at = t;
        else if (pol_mentions(terms[t], var))
            return 0;
    }
    /* "a - b + j" splits as "a - b", "j": fine; "a + j - b" leaves j in "j-b" */
    if (at == n)
        return 0;
    for (size_t t = 0; t < n; t++)
        if (t != at && (strchr(terms[t], '[') || assigned_in_loop(m, k, loop, terms[t], a)))
            return 0;
    return 1;
}

/* a store the step can gather into one vector: "B[E + j] = value" with B
 * a float (double) pointer parameter that the loop uses nowhere else, so
 * the step's bodies write its components and one 16-byte store follows */
static int gathers_store(const tu_model *m, const kernel *k, const vec_loop *v, size_t node,
                         const char *sq, int width, arena *a)
{
    const body_node *b = &k->body.items[node];
    const body_node *L = &k->body.items[v->node];
    int plain = 0;
    for (size_t j = 0; j < k->body.len && !plain; j++) {
        const body_node *x = &k->body.items[j];
        plain = x->kind == BODY_ASSIGN && x->op && strcmp(x->op, "=") == 0 &&
                x->target.begin == b->range.begin && x->target.end == b->range.end;
    }
    size_t same, uses = stage_subscripts_in(m, k, v->node, b->base, sq, a, &same);
    return plain && width && uses == 1 &&
           pol_count_variable(v->p.text, L->range.begin, L->range.end, b->base) == 1 &&
           unit_stride(m, k, (size_t)v->node, sq, L->loop_var, a);
}

/* the loop's accesses that can be loaded 16 bytes at a time; 0 when none */
static int find_vectors(const tu_model *m, const kernel *k, vec_loop *v, arena *a,
                        const char **why)
{
    const body_node *L = &k->body.items[v->node];
    for (size_t j = 0; j < k->body.len; j++) {
        const body_node *b = &k->body.items[j];
        if (!pol_node_inside(k, j, (size_t)v->node))
            continue;
        if (b->kind == BODY_SYNC || b->kind == BODY_IF || b->kind == BODY_LOOP) {
            *why = "the loop holds a barrier, an if or an inner loop";
            return 0;
        }
        if (b->kind == BODY_ASSIGN && b->range.begin >= v->p.body_begin &&
            strcmp(pol_squeeze(pol_text(m, &b->target, a), a), L->loop_var) == 0) {
            *why = "the loop's body assigns its variable";
            return 0;
        }
        if (b->kind != BODY_SUBSCRIPT || !b->base || b->range.in_macro ||
            b->range.begin < v->p.body_begin || b->range.end > v->p.body_end)
            continue;
        const kernel_param *prm = pol_param(k, b->base);
        const char *type = prm && prm->is_pointer ? pol_pointee_type(prm, a) : NULL;
        int width = !type ? 0 : strcmp(type, "float") == 0 ? 4 : strcmp(type, "double") == 0 ? 2 : 0;
        const char *index = pol_text(m, &b->index, a), *sq = pol_squeeze(index, a);
        if (b->is_write) {
            if (!prm || prm->pointee_const || (v->width && v->width != width) ||
                v->n_stores == max_vectors || !gathers_store(m, k, v, j, sq, width, a))
                continue;
            v->width = width;
            v->vector_type = width == 4 ? "float4" : "double2";
            v->stores[v->n_stores++] = (vec_access){b->base, index, sq};
            continue;
        }
        if (!width || !pol_param_read_only(m, k, b->base))
            continue;
        if (!unit_stride(m, k, (size_t)v->node, sq, L->loop_var, a))
            continue;
        if (v->width && v->width != width)
            continue; /* one vector width a loop */
        int dup = 0;
        for (size_t c = 0; c < v->n_acc && !dup; c++)
            dup = strcmp(v->acc[c].base, b->base) == 0 && strcmp(v->acc[c].squeezed, sq) == 0;
        if (dup)
            continue;
        if (v->n_acc == max_vectors) {
            *why = "more arrays read by the loop variable than we load at once";
            return 0;
        }
        v->width = width;
        v->vector_type = width == 4 ? "float4" : "double2";
        v->acc[v->n_acc++] = (vec_access){b->base, index, sq};
    }
    if (!v->n_acc && !v->n_stores)
        *why = "no float or double array read (read-only) or stored at E + the loop variable";
    return v->n_acc + v->n_stores > 0;
}

/* "f(" in a squeezed expression: a call (parentheses after an operator
 * only group or cast) */
static int calls_something(const char *sq)
{
    for (const char *p = strchr(sq, '('); p; p = strchr(p + 1, '('))
        if (p > sq && pol_ident_char((unsigned char)p[-1]))
            return 1;
    return 0;
}

/* the elements the loop updates at one index it does not change, every
 * use of the array in the loop being that element: kept in registers */
static void find_sums(const tu_model *m, const kernel *k, vec_loop *v, arena *a)
{
    const body_node *L = &k->body.items[v->node];
    for (size_t j = 0; j < k->body.len && v->n_sums < max_sums; j++) {
        const body_node *b = &k->body.items[j];
        if (b->kind != BODY_SUBSCRIPT || !b->is_write || !b->base || b->range.in_macro ||
            b->range.begin < v->p.body_begin || b->range.end > v->p.body_end)
            continue;
        const kernel_param *prm = pol_param(k, b->base);
        const char *type = prm && prm->is_pointer && !prm->pointee_const ? pol_pointee_type(prm, a) : NULL;
        const char *index = pol_text(m, &b->index, a), *sq = pol_squeeze(index, a);
        if (!type || strchr(sq, '[') || calls_something(sq) || strstr(sq, "++") || strstr(sq, "--") ||
            pol_mentions(sq, L->loop_var) || assigned_in_loop(m, k, (size_t)v->node, sq, a))
            continue;
        int dup = 0;
        for (size_t c = 0; c < v->n_sums; c++)
            dup |= strcmp(v->sums[c].base, b->base) == 0;
        size_t same, uses = stage_subscripts_in(m, k, v->node, b->base, sq, a, &same);
        if (dup || uses != same ||
            uses != pol_count_variable(v->p.text, v->p.body_begin, v->p.body_end, b->base))
            continue;
        v->sum_type[v->n_sums] = type;
        v->sums[v->n_sums++] = (vec_access){b->base, index, sq};
    }
}

/* the body of iteration step + s: vectorized reads by their components,
 * the loop variable by cl1_vjN + s elsewhere */
static const char *step_body(const tu_model *m, const kernel *k, const vec_loop *v, size_t n,
                             int s, arena *a)
{
    const char *t = v->p.text;
    const char *var = v->p.loop_var;
    const char *with = s >= 0 ? arena_printf(a, "(cl1_vj%zu + %d)", n, s) : var;
    strbuf sb;
    sb_init(&sb);
    size_t at = v->p.body_begin;
    for (;;) {
        /* the next vectorized access (not in the tail, s < 0) or register
         * sum at or after `at` */
        size_t best = v->p.body_end, best_end = 0;
        const char *replacement = NULL;
        for (size_t j = 0; j < k->body.len; j++) {
            const body_node *b = &k->body.items[j];
            if (b->kind != BODY_SUBSCRIPT || !b->base || b->range.begin < at ||
                b->range.begin >= best || !pol_node_inside(k, j, (size_t)v->node))
                continue;
            const char *sq = pol_squeeze(pol_text(m, &b->index, a), a);
            for (size_t c = 0; c < v->n_acc && s >= 0 && !b->is_write; c++)
                if (strcmp(v->acc[c].base, b->base) == 0 && strcmp(v->acc[c].squeezed, sq) == 0) {
                    best = b->range.begin, best_end = b->range.end;
                    replacement = arena_printf(a, "cl1_v%zu_%zu.%c", n, c, components[s]);
                    break;
                }
            for (size_t c = 0; c < v->n_stores && s >= 0 && b->is_write; c++)
                if (strcmp(v->stores[c].base, b->base) == 0 && strcmp(v->stores[c].squeezed, sq) == 0) {
                    best = b->range.begin, best_end = b->range.end;
                    replacement = arena_printf(a, "cl1_w%zu_%zu.%c", n, c, components[s]);
                    break;
                }
            for (size_t c = 0; c < v->n_sums; c++)
                if (strcmp(v->sums[c].base, b->base) == 0) {
                    best = b->range.begin, best_end = b->range.end;
                    replacement = arena_printf(a, "cl1_vsum%zu_%zu", n, c);
                    break;
                }
        }
        const char *gap = arena_printf(a, "%.*s", (int)(best - at), t + at);
        sb_puts(&sb, s >= 0 ? stage_substitute(gap, var, with, a) : gap);
        if (best == v->p.body_end)
            break;
        sb_puts(&sb, replacement);
        at = best_end;
    }
    const char *out = s >= 0 ? arena_printf(a, "{ %s }", pol_trim(sb_str(&sb), sb.len, a))
                             : arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

static const char *render(const tu_model *m, const kernel *k, const vec_loop *v, size_t n,
                          const char *indent, const char *nl, arena *a)
{
    const stage_plan *p = &v->p;
    const char *type = p->var_type ? p->var_type : arena_printf(a, "decltype(%s)", p->loop_var);
    const char *vj = arena_printf(a, "cl1_vj%zu", n);
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "{ /* cl1cc vec_loads: %d iterations a step, 16-byte loads%s */%s", v->width,
              v->n_stores ? " and stores" : "", nl);
    for (size_t c = 0; c < v->n_sums; c++)
        sb_printf(&sb, "%s    %s cl1_vsum%zu_%zu = %s[%s];%s", indent, v->sum_type[c], n, c, v->sums[c].base,
                  v->sums[c].index, nl);
    sb_printf(&sb, "%s    %s %s = (%s);%s", indent, type, vj, p->lower, nl);
    sb_printf(&sb, "%s    if (((", indent);
    for (size_t c = 0; c < v->n_acc + v->n_stores; c++) {
        const vec_access *x = c < v->n_acc ? &v->acc[c] : &v->stores[c - v->n_acc];
        sb_printf(&sb, "%s(unsigned long long)(const void *)&%s[%s]", c ? " | " : "", x->base,
                  stage_substitute(x->index, p->loop_var, vj, a));
    }
    sb_printf(&sb, ") & 15) == 0)%s", nl);
    sb_printf(&sb, "%s        for (; %s + %d < (%s); %s += %d) {%s", indent, vj, v->width - 1, p->upper,
              vj, v->width, nl);
    for (size_t c = 0; c < v->n_acc; c++)
        sb_printf(&sb, "%s            const %s cl1_v%zu_%zu = *(const %s *)&%s[%s];%s", indent,
                  v->vector_type, n, c, v->vector_type, v->acc[c].base,
                  stage_substitute(v->acc[c].index, p->loop_var, vj, a), nl);
    for (size_t c = 0; c < v->n_stores; c++)
        sb_printf(&sb, "%s            %s cl1_w%zu_%zu;%s", indent, v->vector_type, n, c, nl);
    for (int s = 0; s < v->width; s++)
        sb_printf(&sb, "%s            %s%s", indent, step_body(m, k, v, n, s, a), nl);
    for (size_t c = 0; c < v->n_stores; c++)
        sb_printf(&sb, "%s            *(%s *)&%s[%s] = cl1_w%zu_%zu;%s", indent, v->vector_type,
                  v->stores[c].base, stage_substitute(v->stores[c].index, p->loop_var, vj, a), n, c, nl);
    sb_printf(&sb, "%s        }%s", indent, nl);
    sb_printf(&sb, "%s    for (%s%s%s = %s; %s < %s; %s++)%s%s", indent, p->var_type ? p->var_type : "",
              p->var_type ? " " : "", p->loop_var, vj, p->loop_var, p->upper, p->loop_var,
              step_body(m, k, v, n, -1, a), nl);
    for (size_t c = 0; c < v->n_sums; c++)
        sb_printf(&sb, "%s    %s[%s] = cl1_vsum%zu_%zu;%s", indent, v->sums[c].base, v->sums[c].index, n, c, nl);
    sb_printf(&sb, "%s}", indent);
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

size_t vec_loads_unit_reads(const tu_model *m, const kernel *k, const stage_plan *p, const char **bases,
                            const char **indices, size_t max, arena *a)
{
    vec_loop v = {0};
    v.node = p->loop;
    v.p = *p;
    const char *why;
    if (!find_vectors(m, k, &v, a, &why) || v.width != 4 || v.n_stores || v.n_acc > max)
        return 0;
    for (size_t c = 0; c < v.n_acc; c++)
        bases[c] = v.acc[c].base, indices[c] = v.acc[c].squeezed;
    return v.n_acc;
}

int pol_transform_vec_loads(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                            pol_edit_vec *out, const char **why)
{
    size_t len;
    const char *text = pol_file_text(m, &k->decl_range, &len);
    if (!text || pol_count_identifier(text, k->decl_range.begin, k->decl_range.end, "cl1_vj0")) {
        *why = "no source text, or names of ours in use";
        return 1;
    }
    if (!f->pointers_distinct || !pol_launch_sites_distinct(m, k)) {
        *why = "the captured launches do not show the pointers as distinct allocations";
        return 1;
    }
    size_t done = 0;
    const char *last_why = "no for loop without inner loops";
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *L = &k->body.items[i];
        if (L->kind != BODY_LOOP || L->has_inner_loop || L->range.in_macro || !L->loop_var)
            continue;
        vec_loop v = {0};
        v.node = (long)i;
        v.p.text = text;
        v.p.len = len;
        if (stage_parse_loop(m, k, &v.p, (long)i, a, &last_why) || !find_vectors(m, k, &v, a, &last_why))
            continue;
        find_sums(m, k, &v, a);
        int blanks;
        size_t ls = pol_line_start(text, L->range.begin, &blanks);
        if (pol_pragma_before(text, ls)) {
            last_why = "a #pragma stands before the loop";
            continue;
        }
        const char *indent = blanks ? pol_indent(text, ls, a) : "";
        pol_edit e = {L->range.begin, v.p.body_end,
                      render(m, k, &v, done, indent, pol_newline(text, len, ls), a), 0};
        vec_push(out, e);
        done++;
    }
    if (!done) {
        *why = last_why;
        return 1;
    }
    return 0;
}
