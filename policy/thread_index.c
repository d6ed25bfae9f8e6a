/*
 * thread_index.c: a kernel's thread indices ("int i = blockIdx.x *
 * blockDim.x + threadIdx.x") and whether anything else in it tells its
 * threads apart: what the transforms that renumber threads (interchange,
 * spread) need to know.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* the top-level declaration "T v = blockIdx.D * blockDim.D + threadIdx.D"
 * (any order of the terms): the body node, or -1; *initializer is the
 * file offset just after its '=' */
long pol_thread_index_decl(const tu_model *m, const kernel *k, char dim, arena *a,
                           const char **name, size_t *initializer)
{
    char forms[4][96];
    snprintf(forms[0], 96, "blockIdx.%c*blockDim.%c+threadIdx.%c", dim, dim, dim);
    snprintf(forms[1], 96, "blockDim.%c*blockIdx.%c+threadIdx.%c", dim, dim, dim);
    snprintf(forms[2], 96, "threadIdx.%c+blockIdx.%c*blockDim.%c", dim, dim, dim);
    snprintf(forms[3], 96, "threadIdx.%c+blockDim.%c*blockIdx.%c", dim, dim, dim);
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *b = &k->body.items[i];
        if (b->kind != BODY_ASSIGN || strcmp(b->op, "decl") != 0 || b->parent != -1 ||
            b->range.in_macro)
            continue;
        const char *s = pol_squeeze(pol_text(m, &b->range, a), a);
        const char *eq = strchr(s, '=');
        for (int f = 0; eq && f < 4; f++)
            if (strcmp(eq + 1, forms[f]) == 0) {
                size_t len, at = b->target.end;
                const char *text = pol_file_text(m, &b->range, &len);
                while (text && at < b->range.end && text[at] != '=')
                    at++;
                if (!text || at >= b->range.end)
                    return -1;
                *name = pol_squeeze(pol_text(m, &b->target, a), a);
                *initializer = at + 1;
                return (long)i;
            }
    }
    return -1;
}

static const char *const builtins[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", NULL};
static const char *const sharing[] = {
    "__shared__", "__syncwarp", "__shfl_sync",
    "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__any_sync",
    "__all_sync", "__activemask", "__match_any_sync", "__match_all_sync", "__reduce_add_sync",
    "warpSize", "asm", NULL};

int pol_math_call(const char *callee)
{
    static const char *const math[] = {
        "sqrt", "rsqrt", "cbrt", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p",
        "pow", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "fabs",
        "fmin", "fmax", "fma", "floor", "ceil", "round", "trunc", "fmod", "erf", "erfc", "hypot",
        "copysign", "min", "max", "abs", "llabs", "labs", NULL};
    if (!callee)
        return 0;
    size_t n = strlen(callee);
    for (int i = 0; math[i]; i++) {
        size_t m = strlen(math[i]);
        if (strncmp(callee, math[i], m) == 0 && (n == m || (n == m + 1 && callee[m] == 'f')))
            return 1;
    }
    return 0;
}

/* callees that cannot read the thread's identity: the math functions,
 * atomics and "__" intrinsics (the warp ones are in `distinguishing`) */
static int identity_free_call(const char *callee)
{
    return strncmp(callee, "__", 2) == 0 || strncmp(callee, "atomic", 6) == 0 ||
           pol_math_call(callee);
}

const char *pol_block_sharing(const tu_model *m, const kernel *k)
{
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *c = &k->body.items[i];
        if (c->kind == BODY_CALL && (!c->callee || !identity_free_call(c->callee)))
            return c->callee ? c->callee : "a call through a pointer";
    }
    size_t len;
    const char *text = pol_file_text(m, &k->body_range, &len);
    if (!text)
        return "no source text";
    for (int d = 0; sharing[d]; d++)
        if (pol_count_identifier(text, k->body_range.begin, k->body_range.end, sharing[d]))
            return sharing[d];
    return NULL;
}

const char *pol_other_thread_identity(const tu_model *m, const kernel *k, size_t decls)
{
    const char *shared = pol_block_sharing(m, k);
    if (shared)
        return shared;
    size_t len;
    const char *text = pol_file_text(m, &k->body_range, &len);
    /* threadIdx, blockIdx and blockDim once in each declaration */
    for (int d = 0; builtins[d]; d++) {
        size_t uses = pol_count_identifier(text, k->body_range.begin, k->body_range.end, builtins[d]);
        if (uses != (d < 3 ? decls : 0u))
            return builtins[d];
    }
    return NULL;
}
