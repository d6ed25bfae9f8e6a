/*
 * transform_misc.c: `launch_bounds` (__launch_bounds__ with the block size
 * every captured launch used, so the compiler may spend registers for it;
 * `launch_bounds2` also asks for two blocks an SM: a register-heavy kernel,
 * a tiled one, gets more warps to hide latency with)
 * and `fast_math` (the float math library calls replaced by their fast
 * intrinsics; only when the user opts in, since results change).
 */
#include <string.h>

#include "internal.h"

int pol_transform_launch_bounds(const tu_model *m, const kernel *k, const pol_facts *f,
                                int min_blocks, arena *a, pol_edit_vec *out, const char **why)
{
    (void)m;
    if (k->launch_bounds) {
        *why = "the kernel has __launch_bounds__ already";
        return 1;
    }
    if (f->block_threads <= 0 || f->block_threads > 1024) {
        *why = "no captured launch tells the block size";
        return 1;
    }
    if (k->name_range.in_macro || !k->name_range.present) {
        *why = "the kernel's name comes from a macro";
        return 1;
    }
    if (min_blocks > 0 && f->block_threads * min_blocks > 2048) {
        *why = "that many blocks of the captured size cannot share an SM";
        return 1;
    }
    pol_edit e = {k->name_range.begin, k->name_range.begin,
                  min_blocks > 0
                      ? arena_printf(a, "__launch_bounds__(%d, %d) ", f->block_threads, min_blocks)
                      : arena_printf(a, "__launch_bounds__(%d) ", f->block_threads),
                  0};
    vec_push(out, e);
    return 0;
}

static const char *const fast_pairs[][2] = {
    {"expf", "__expf"},   {"exp10f", "__exp10f"}, {"logf", "__logf"},
    {"log2f", "__log2f"}, {"log10f", "__log10f"}, {"sinf", "__sinf"},
    {"cosf", "__cosf"},   {"tanf", "__tanf"},     {"powf", "__powf"},
};

int pol_transform_fast_math(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                            pol_edit_vec *out, const char **why)
{
    if (!f->fast_math) {
        *why = "fast intrinsics change results: the user did not opt in (--cl1-fast-math)";
        return 1;
    }
    size_t len, edits = 0;
    const char *text = pol_file_text(m, &k->decl_range, &len);
    for (size_t i = 0; text && i < k->body.len; i++) {
        const body_node *c = &k->body.items[i];
        if (c->kind != BODY_CALL || c->range.in_macro || !c->callee)
            continue;
        for (size_t p = 0; p < sizeof fast_pairs / sizeof fast_pairs[0]; p++) {
            size_t n = strlen(fast_pairs[p][0]);
            if (strcmp(c->callee, fast_pairs[p][0]) == 0 &&
                strncmp(text + c->range.begin, fast_pairs[p][0], n) == 0) {
                pol_edit e = {c->range.begin, c->range.begin + n, fast_pairs[p][1], 0};
                vec_push(out, e);
                edits++;
            }
        }
    }
    (void)a;
    if (!edits) {
        *why = "no float math call with a fast intrinsic";
        return 1;
    }
    return 0;
}
