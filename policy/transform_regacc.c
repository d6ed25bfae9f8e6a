/*
 * transform_regacc.c: `regacc` (scalar replacement): an element a loop
 * reads and writes on every iteration at an index the loop does not change
 * ("C[i*n+j] += A[..]*B[..]" inside "for k") is kept in a register across
 * the loop, loaded before it and stored once after it, instead of a global
 * read-modify-write per iteration.
 */
#include <string.h>

#include "internal.h"

typedef struct candidate {
    long loop;
    const char *base;
    const char *index;         /* as written at the first access */
    const char *index_squeezed;
} candidate;

/* does anything inside loop L assign one of the index's identifiers? */
static int index_invariant(const tu_model *m, const kernel *k, size_t loop, const char *index,
                           arena *a)
{
    const body_node *L = &k->body.items[loop];
    if (strchr(index, '[') || strchr(index, '(') || strstr(index, "++") || strstr(index, "--"))
        return 0;
    const char **ids;
    size_t n = pol_identifiers(index, a, &ids);
    for (size_t i = 0; i < n; i++) {
        if (L->loop_var && strcmp(ids[i], L->loop_var) == 0)
            return 0;
        for (size_t j = 0; j < k->body.len; j++) {
            const body_node *b = &k->body.items[j];
            if (b->kind == BODY_ASSIGN && pol_node_inside(k, j, loop) &&
                strcmp(pol_squeeze(pol_text(m, &b->target, a), a), ids[i]) == 0)
                return 0;
        }
    }
    return 1;
}

/* every access to base inside the loop is base[index], and one of them is
 * directly in the loop (not under an if or an inner loop) */
static int accesses_uniform(const tu_model *m, const kernel *k, size_t loop, const char *base,
                            const char *squeezed, int need_direct, arena *a)
{
    const body_node *L = &k->body.items[loop];
    size_t len;
    const char *text = pol_file_text(m, &L->range, &len);
    size_t subscripts = 0, direct = 0;
    for (size_t j = 0; j < k->body.len; j++) {
        const body_node *b = &k->body.items[j];
        if (!pol_node_inside(k, j, loop))
            continue;
        if (b->kind == BODY_SYNC)
            return 0;
        if (b->kind != BODY_SUBSCRIPT || !b->base || strcmp(b->base, base) != 0)
            continue;
        if (strcmp(pol_squeeze(pol_text(m, &b->index, a), a), squeezed) != 0)
            return 0;
        subscripts++;
        if (b->parent == (long)loop)
            direct++;
    }
    return (direct > 0 || !need_direct) &&
           subscripts == pol_count_identifier(text, L->range.begin, L->range.end, base);
}

/* need_direct: one access runs on every iteration of the loop itself (for
 * an outer loop, that its inner loop runs on every iteration suffices) */
static int qualifies(const tu_model *m, const kernel *k, size_t loop, const char *base,
                     const char *index, const char *squeezed, int need_direct, arena *a)
{
    const body_node *L = &k->body.items[loop];
    return !L->range.in_macro && index_invariant(m, k, loop, index, a) &&
           accesses_uniform(m, k, loop, base, squeezed, need_direct, a);
}

/* where the loop statement ends: after the ';' of a body without braces */
static size_t loop_end(const char *text, size_t len, const body_node *L)
{
    size_t end = L->range.end;
    if (end > 0 && (text[end - 1] == '}' || text[end - 1] == ';'))
        return end;
    while (end < len && text[end] != ';')
        end++;
    return end < len ? end + 1 : L->range.end;
}

int pol_transform_regacc(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                         pol_edit_vec *out, const char **why)
{
    (void)f;
    size_t len;
    const char *text = pol_file_text(m, &k->decl_range, &len);
    if (!text || pol_count_identifier(text, k->decl_range.begin, k->decl_range.end, "cl1_acc0")) {
        *why = "no source text, or names of ours in use";
        return 1;
    }
    VEC(candidate) found = {0};
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *s = &k->body.items[i];
        if (s->kind != BODY_SUBSCRIPT || !s->is_write || !s->base || s->range.in_macro)
            continue;
        const kernel_param *p = pol_param(k, s->base);
        if (!p || !p->is_pointer || p->pointee_const || !pol_pointee_type(p, a))
            continue;
        long loop = pol_enclosing_loop(k, i, 1);
        const char *index = pol_text(m, &s->index, a);
        const char *squeezed = pol_squeeze(index, a);
        if (loop < 0 || !qualifies(m, k, (size_t)loop, s->base, index, squeezed, 1, a))
            continue;
        /* widen to the outermost loop the element stays fixed in */
        for (;;) {
            long up = pol_enclosing_loop(k, (size_t)loop, 1);
            if (up < 0 || !qualifies(m, k, (size_t)up, s->base, index, squeezed, 0, a))
                break;
            loop = up;
        }
        int dup = 0;
        for (size_t c = 0; c < found.len && !dup; c++)
            dup = found.items[c].loop == loop && strcmp(found.items[c].base, s->base) == 0;
        /* two elements of one array in one loop could be the same element */
        for (size_t c = 0; c < found.len; c++)
            if (strcmp(found.items[c].base, s->base) == 0 && found.items[c].loop != loop &&
                (pol_node_inside(k, (size_t)found.items[c].loop, (size_t)loop) ||
                 pol_node_inside(k, (size_t)loop, (size_t)found.items[c].loop)))
                dup = 1;
        if (!dup) {
            candidate c = {loop, s->base, index, squeezed};
            vec_push(&found, c);
        }
    }
    if (!found.len) {
        vec_free(&found);
        *why = "no array element updated in a loop at a fixed index";
        return 1;
    }
    for (size_t c = 0; c < found.len; c++) {
        const candidate *cd = &found.items[c];
        const body_node *L = &k->body.items[cd->loop];
        const char *type = pol_pointee_type(pol_param(k, cd->base), a);
        const char *acc = arena_printf(a, "cl1_acc%zu", c);
        int blanks;
        size_t ls = pol_line_start(text, L->range.begin, &blanks);
        if (pol_pragma_before(text, ls))
            ls = pol_line_start(text, ls - 1, &blanks); /* keep "#pragma unroll" on its loop */
        /* several accumulators around one loop nest: first opened, last closed */
        pol_edit pre = {blanks ? ls : L->range.begin, 0, NULL, (int)c};
        pre.end = pre.begin;
        pre.text = arena_printf(a, "%s{ %s %s = %s[%s];%s", blanks ? pol_indent(text, ls, a) : "",
                                type, acc, cd->base, cd->index,
                                blanks ? pol_newline(text, len, ls) : " ");
        vec_push(out, pre);
        size_t end = loop_end(text, len, L);
        pol_edit post = {end, end, arena_printf(a, " %s[%s] = %s; }", cd->base, cd->index, acc),
                         1000 - (int)c};
        vec_push(out, post);
        for (size_t j = 0; j < k->body.len; j++) {
            const body_node *b = &k->body.items[j];
            if (b->kind == BODY_SUBSCRIPT && b->base && strcmp(b->base, cd->base) == 0 &&
                pol_node_inside(k, j, (size_t)cd->loop)) {
                pol_edit e = {b->range.begin, b->range.end, acc, 0};
                vec_push(out, e);
            }
        }
    }
    vec_free(&found);
    return 0;
}
