/*
 * transform_interchange.c: `interchange`: loop interchange of the grid's
 * two implicit loops.  A kernel with "i = blockIdx.x * blockDim.x +
 * threadIdx.x" and "j = blockIdx.y * blockDim.y + threadIdx.y" that
 * indexes its arrays as P[i * S + j] has neighbouring lanes of a warp a row
 * apart: every load is a separate transaction.  The variant numbers the
 * grid's threads in order and hands them out row by row, so that
 * neighbouring lanes take neighbouring j:
 *
 *     flat = ((blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x * blockDim.y
 *             + threadIdx.y * blockDim.x + threadIdx.x)
 *     i = flat / (gridDim.y * blockDim.y)        j = flat % (gridDim.y * blockDim.y)
 *
 * a one-to-one map of the same (i, j) rectangle, so every pair is still
 * computed once and the launch stays as it is.  Only when nothing else in
 * the kernel tells threads apart (no other threadIdx, blockIdx, blockDim,
 * gridDim; no shared memory, barriers or warp intrinsics).
 */
#include <string.h>

#include "internal.h"

/* the identifier at s[at, at + n) is a factor of a product: '*' next to
 * it, or next to a parenthesis group holding it ("(i + 1) * n") */
static int multiplied(const char *s, size_t at, size_t n)
{
    size_t begin = at, end = at + n;
    for (;;) {
        if ((begin > 0 && s[begin - 1] == '*') || s[end] == '*')
            return 1;
        /* widen to the enclosing parenthesis group, if any */
        int depth = 0;
        size_t b = begin;
        while (b > 0) {
            b--;
            if (s[b] == ')' || s[b] == ']')
                depth++;
            else if (s[b] == '(' || s[b] == '[') {
                if (depth-- == 0)
                    break;
            }
        }
        if (depth >= 0 || s[b] != '(')
            return 0; /* none, or a subscript's bracket */
        if (b > 0 && pol_ident_char(s[b - 1]))
            return 0; /* a call's arguments */
        depth = 0;
        size_t e = end;
        for (; s[e]; e++) {
            if (s[e] == '(' || s[e] == '[')
                depth++;
            else if ((s[e] == ')' || s[e] == ']') && depth-- == 0)
                break;
        }
        if (!s[e])
            return 0;
        begin = b, end = e + 1;
    }
}

/* how name occurs in the squeezed index: 0 not at all, 1 only as a plain
 * term, 2 only as a factor, 3 both */
static int occurrence(const char *sq, const char *name)
{
    size_t n = strlen(name);
    int how = 0;
    for (const char *p = strstr(sq, name); p; p = strstr(p + 1, name)) {
        size_t at = (size_t)(p - sq);
        if ((at > 0 && (pol_ident_char(sq[at - 1]) || sq[at - 1] == '.')) || pol_ident_char(sq[at + n]))
            continue;
        how |= multiplied(sq, at, n) ? 2 : 1;
    }
    return how;
}

int pol_transform_interchange(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                              pol_edit_vec *out, const char **why)
{
    (void)f;
    size_t len;
    const char *text = pol_file_text(m, &k->decl_range, &len);
    const char *x_var = NULL, *y_var = NULL;
    size_t init[2] = {0, 0};
    long x_decl = text ? pol_thread_index_decl(m, k, 'x', a, &x_var, &init[0]) : -1;
    long y_decl = text ? pol_thread_index_decl(m, k, 'y', a, &y_var, &init[1]) : -1;
    if (x_decl < 0 || y_decl < 0) {
        *why = "no \"i = blockIdx.x * blockDim.x + threadIdx.x\" and \"j = blockIdx.y * blockDim.y + "
               "threadIdx.y\" at the top of the body";
        return 1;
    }
    const char *other = pol_other_thread_identity(m, k, 2);
    if (other) {
        *why = arena_printf(a, "something else tells the threads apart (%s)", other);
        return 1;
    }
    for (size_t i = 0; i < k->body.len; i++)
        if (k->body.items[i].kind == BODY_SYNC) {
            *why = "a barrier";
            return 1;
        }
    /* profitable: more subscripts walk rows along x (P[i * S + j]) than
     * along y (P[j * S + i]); P[i] and P[j] read well either way */
    int across = 0, along = 0;
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *s = &k->body.items[i];
        if (s->kind != BODY_SUBSCRIPT)
            continue;
        const char *sq = pol_squeeze(pol_text(m, &s->index, a), a);
        int x = occurrence(sq, x_var), y = occurrence(sq, y_var);
        if (x == 2 && (y & 1))
            across++;
        else if (x == 1 && y == 2)
            along++;
    }
    if (across <= along) {
        *why = "neighbouring threads along x already read neighbouring elements";
        return 1;
    }
    const char *flat = "(((unsigned long long)blockIdx.y * gridDim.x + blockIdx.x) * (blockDim.x * "
                       "blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x)";
    const char *height = "((unsigned long long)gridDim.y * blockDim.y)";
    const long decls[2] = {x_decl, y_decl};
    for (int d = 0; d < 2; d++) {
        const body_node *b = &k->body.items[decls[d]];
        pol_edit e = {init[d], b->range.end,
                      arena_printf(a, " %s %c %s", flat, d == 0 ? '/' : '%', height), 0};
        vec_push(out, e);
    }
    return 0;
}
