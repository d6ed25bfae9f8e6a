/*
 * transform_reshape.c: the launch configuration.  `block_wide2`,
 * `block_wide4`, `block_narrow2`: the block's shape.  A two-dimensional block of X×Y
 * threads becomes (F·X)×(Y/F) (or (X/F)×(F·Y)), a one-dimensional one F·X
 * (or X/F) threads, the grid changed the other way (core/launch_rule.h:
 * "block x*2 y/2"), so the same threads run.  The variant computes each
 * thread's coordinates in the launch the kernel was written for from the
 * new ones, and its body reads those instead of threadIdx, blockIdx,
 * blockDim and gridDim:
 *
 *     x*F:  threadIdx.x % (blockDim.x / F), blockIdx.x * F + threadIdx.x / (blockDim.x / F),
 *           blockDim.x / F, gridDim.x * F
 *     y/F:  blockIdx.y % F * blockDim.y + threadIdx.y, blockIdx.y / F,
 *           blockDim.y * F, gridDim.y / F
 *
 * a one-to-one map onto the original launch's threads, so any kernel whose
 * threads share nothing but global memory computes the same.  What changes
 * is which threads share a warp and an SM: 16-wide blocks give whole-warp
 * rows, wider blocks fewer row segments (and halo loads) per block.
 *
 * `grid_stride4`, `grid_stride16`: a grid-stride loop.  The grid is F times
 * narrower along x ("grid.x /F") and each block runs the original body for
 * blocks blockIdx.x, blockIdx.x + gridDim.x, ... (F of them), the body
 * wrapped in a lambda called once a turn, so its `return`s end one block's
 * turn and each turn starts from the parameters as passed (captured by
 * value, `mutable` for a body that changes them).  Fewer, longer blocks: less block
 * scheduling, and the F turns' loads in flight together once unrolled.
 *
 * `grid_sm`: the same loop on a grid sized at run time ("grid.x sm"): as
 * many blocks as the GPU's SMs hold at once (the launch asks the occupancy
 * API), each running the original's blocks blockIdx.x, blockIdx.x +
 * gridDim.x, ... below the original grid's width, which the kernel gets as
 * one more parameter, last (`unsigned int cl1cc_grid_x`).
 */
#include <string.h>

#include "internal.h"

static const char *const builtins[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", NULL};

/* 8 blocks for each SM of a 132-SM GPU (H100, H200): a launch change that
 * leaves fewer blocks can only take parallelism away (measured: the
 * correlation kernel's 8 blocks of 256 as 4 of 512 ran at 0.55x) */
enum { MIN_BLOCKS = 1056 };

/* the blocks of the largest captured grid made divide times narrower */
static unsigned long long blocks_after(const pol_facts *f, int divide)
{
    return (unsigned long long)f->grid_max[0] / (unsigned)divide * (f->grid_max[1] ? f->grid_max[1] : 1) *
           (f->grid_max[2] ? f->grid_max[2] : 1);
}

/* the captured grids are known and their x a multiple of n: NULL, or why not */
static const char *grid_x_divides(const pol_facts *f, int n)
{
    if (!f->grid_gcd[0] || !f->grid_max[0])
        return "the captured grids are not known";
    if (f->grid_gcd[0] % (unsigned)n)
        return "a captured grid's x is not a multiple of the factor";
    return NULL;
}

/* the rule for factor on the captured launches: NULL, or why not */
static const char *choose_rule(const pol_facts *f, int factor, launch_rule *r)
{
    int n = factor > 0 ? factor : -factor, two_d = f->block[1] > 1;
    *r = launch_rule_none();
    if (f->block[0] <= 0)
        return "the captured launches do not agree on one block shape";
    if (factor > 0) {
        r->x_mul = n;
        const char *why = grid_x_divides(f, n);
        if (why)
            return why;
        if (!two_d && f->block[0] * n > 1024)
            return "blocks of more than 1024 threads";
        if (two_d && f->block[1] % n)
            return "the block's y is not a multiple of the factor";
        if (two_d && f->grid_max[1] * (unsigned)n > 65535u)
            return "a grid too tall";
        if (!two_d && blocks_after(f, n) < MIN_BLOCKS)
            return "the grid of larger blocks would have fewer than 1056 blocks (8 an SM)";
        if (two_d)
            r->y_div = n;
    } else {
        r->x_div = n;
        const char *why = grid_x_divides(f, 1);
        if (why)
            return why;
        if (f->block[0] % n || f->block[0] / n < (two_d ? 8 : 32))
            return "the block's x does not split into that many parts of 8 (1-D: 32) threads";
        if ((unsigned long long)f->grid_max[0] * (unsigned)n > 0x7fffffffull)
            return "a grid too wide";
        if (two_d && (f->grid_gcd[1] % (unsigned)n || f->block[1] * n > 1024))
            return "a captured grid's y is not a multiple of the factor";
        if (two_d)
            r->y_mul = n;
    }
    return NULL;
}

/* text[at] starts one of the builtins (a whole identifier, not a member
 * name): its index, or -1; -2 when written "::threadIdx" */
static int builtin_at(const char *text, size_t begin, size_t at)
{
    if (at > begin && pol_ident_char((unsigned char)text[at - 1]))
        return -1;
    for (int b = 0; builtins[b]; b++) {
        size_t n = strlen(builtins[b]);
        if (strncmp(text + at, builtins[b], n) != 0 || pol_ident_char((unsigned char)text[at + n]))
            continue;
        size_t p = at;
        while (p > begin && strchr(" \t\r\n", text[p - 1]))
            p--;
        if (p > begin && (text[p - 1] == '.' || (text[p - 1] == '>' && p - 1 > begin && text[p - 2] == '-')))
            return -1;
        if (p > begin + 1 && text[p - 1] == ':' && text[p - 2] == ':')
            return -2;
        return b;
    }
    return -1;
}

/* each use of a builtin in the body replaced by cl1cc_<name>; uses[b] set
 * for each one used.  0, or 1 with *why */
static int replace_uses(const char *text, size_t begin, size_t end, const int wanted[4],
                        int uses[4], arena *a, pol_edit_vec *out, const char **why)
{
    for (size_t p = begin; p < end; p++) {
        size_t after = ctext_skip_comment(text, end, p);
        if (after != p) {
            p = after - 1;
            continue;
        }
        after = ctext_skip_literal(text, end, p);
        if (after != p) {
            p = after - 1;
            continue;
        }
        int b = builtin_at(text, begin, p);
        if (b == -2) {
            *why = "a builtin named with its scope (::threadIdx)";
            return 1;
        }
        if (b < 0 || !wanted[b])
            continue;
        size_t n = strlen(builtins[b]);
        pol_edit e = {p, p + n, arena_printf(a, "cl1cc_%s", builtins[b]), 0};
        vec_push(out, e);
        uses[b] = 1;
        p += n - 1;
    }
    return 0;
}

/* the coordinates along one dimension: [0] thread, [1] block, [2] block
 * size, [3] grid size */
static void coordinates(char d, int mul, int div, arena *a, const char *out[4])
{
    if (mul > 1) {
        const char *width = arena_printf(a, "(blockDim.%c / %du)", d, mul);
        out[0] = arena_printf(a, "threadIdx.%c %% %s", d, width);
        out[1] = arena_printf(a, "blockIdx.%c * %du + threadIdx.%c / %s", d, mul, d, width);
        out[2] = arena_printf(a, "blockDim.%c / %du", d, mul);
        out[3] = arena_printf(a, "gridDim.%c * %du", d, mul);
    } else if (div > 1) {
        out[0] = arena_printf(a, "blockIdx.%c %% %du * blockDim.%c + threadIdx.%c", d, div, d, d);
        out[1] = arena_printf(a, "blockIdx.%c / %du", d, div);
        out[2] = arena_printf(a, "blockDim.%c * %du", d, div);
        out[3] = arena_printf(a, "gridDim.%c / %du", d, div);
    } else {
        out[0] = arena_printf(a, "threadIdx.%c", d);
        out[1] = arena_printf(a, "blockIdx.%c", d);
        out[2] = arena_printf(a, "blockDim.%c", d);
        out[3] = arena_printf(a, "gridDim.%c", d);
    }
}

/* a macro the kernel uses names a builtin: its uses would not be replaced */
static const char *macro_with_builtin(const tu_model *m, const kernel *k, arena *a)
{
    for (size_t i = 0; i < k->deps.len; i++) {
        const dependency *d = &m->decls.items[k->deps.items[i]];
        if (d->kind != DECL_MACRO)
            continue;
        const char *def = pol_text(m, &d->range, a);
        for (int b = 0; builtins[b]; b++)
            if (pol_mentions(def, builtins[b]))
                return d->name;
    }
    return NULL;
}

/* what every launch change needs of the kernel: NULL, or why not */
static const char *movable(const tu_model *m, const kernel *k, arena *a)
{
    if (k->is_template || k->is_specialization)
        return "a template (the wrapper launches a copy of the kernel, by name)";
    for (size_t i = 0; i < k->body.len; i++)
        if (k->body.items[i].kind == BODY_SYNC)
            return "a barrier: the block's threads work together";
    const char *shared = pol_block_sharing(m, k);
    if (shared)
        return arena_printf(a, "the block's threads share more than memory (%s)", shared);
    const char *macro = macro_with_builtin(m, k, a);
    if (macro)
        return arena_printf(a, "the macro %s names the thread's coordinates", macro);
    return NULL;
}

/* the body's text and the edits renaming the wanted builtins' uses: 0, or
 * 1 with *why */
static int rename_builtins(const tu_model *m, const kernel *k, const int wanted[4], int uses[4],
                           arena *a, pol_edit_vec *mine, const char **text, size_t *len,
                           const char **why)
{
    *text = pol_file_text(m, &k->body_range, len);
    size_t open = k->body_range.begin;
    if (!*text || open >= *len || (*text)[open] != '{' || k->body_range.end > *len) {
        *why = "no body text";
        return 1;
    }
    if (replace_uses(*text, open + 1, k->body_range.end - 1, wanted, uses, a, mine, why) != 0)
        return 1;
    if (!uses[0] && !uses[1] && !uses[2] && !uses[3]) {
        *why = "the kernel does not read its thread's coordinates";
        return 1;
    }
    return 0;
}

/* the indentation of the body's first statement ("    " when unknown) */
static const char *body_indent(const kernel *k, const char *text, arena *a)
{
    if (k->body.len) {
        int blanks;
        size_t ls = pol_line_start(text, k->body.items[0].range.begin, &blanks);
        if (blanks && ls > k->body_range.begin)
            return pol_indent(text, ls, a);
    }
    return "    ";
}

int pol_transform_reshape(const tu_model *m, const kernel *k, const pol_facts *f, int factor,
                          arena *a, pol_edit_vec *out, const char **why)
{
    launch_rule r;
    if ((*why = choose_rule(f, factor, &r)) != NULL || (*why = movable(m, k, a)) != NULL)
        return 1;
    if (factor > 0 && f->block[1] <= 1 && k->launch_bounds) {
        *why = "larger blocks than its __launch_bounds__ allow";
        return 1;
    }
    static const int all[4] = {1, 1, 1, 1};
    pol_edit_vec mine = {0};
    int uses[4] = {0, 0, 0, 0};
    size_t len, open = k->body_range.begin;
    const char *text;
    if (rename_builtins(m, k, all, uses, a, &mine, &text, &len, why) != 0) {
        vec_free(&mine);
        return 1;
    }
    const char *x[4], *y[4];
    coordinates('x', r.x_mul, r.x_div, a, x);
    coordinates('y', r.y_mul, r.y_div, a, y);
    static const char *const types[] = {"uint3", "uint3", "dim3", "dim3"};
    const char *nl = pol_newline(text, len, open);
    const char *indent = body_indent(k, text, a);
    char rule[LAUNCH_RULE_TEXT_MAX];
    strbuf head;
    sb_init(&head);
    sb_printf(&head, "%s%s/* cl1cc: the thread's coordinates in the launch this kernel was "
                     "written for (reshaped: %s) */",
              nl, indent, launch_rule_text(&r, rule));
    for (int b = 0; b < 4; b++)
        if (uses[b])
            sb_printf(&head, "%s%sconst %s cl1cc_%s = {%s, %s, %s.z};", nl, indent, types[b],
                      builtins[b], x[b], y[b], builtins[b]);
    pol_edit decls = {open + 1, open + 1, arena_strdup(a, sb_str(&head)), 0};
    sb_free(&head);
    vec_push(out, pol_launch_marker(m, k, &r, a));
    vec_push(out, decls);
    for (size_t i = 0; i < mine.len; i++)
        vec_push(out, mine.items[i]);
    vec_free(&mine);
    return 0;
}

/* the grid-stride loop's head: the loop over the original's blocks this
 * block runs, opening the lambda (factor 0: "grid.x sm", the original's
 * width in the parameter cl1cc_grid_x) */
static const char *stride_head(int factor, int uses_grid, const char *nl, const char *indent, arena *a)
{
    strbuf head;
    sb_init(&head);
    if (factor)
        sb_printf(&head, "%s%s/* cl1cc: a grid %d times narrower; each block runs the original's "
                         "blocks blockIdx.x + t * gridDim.x in turn (t < %d), each turn with the "
                         "parameters as passed */",
                  nl, indent, factor, factor);
    else
        sb_printf(&head, "%s%s/* cl1cc: a grid as wide as the GPU holds at once, sized at run time; "
                         "each block runs the original's blocks blockIdx.x, blockIdx.x + gridDim.x, "
                         "... below cl1cc_grid_x (the original grid's width) in turn, each turn with "
                         "the parameters as passed */",
                  nl, indent);
    if (uses_grid)
        sb_printf(&head, "%s%sconst dim3 cl1cc_gridDim = {%s, gridDim.y, gridDim.z};", nl, indent,
                  factor ? arena_printf(a, "gridDim.x * %du", factor) : "cl1cc_grid_x");
    if (factor)
        sb_printf(&head, "%s%sfor (unsigned cl1cc_turn = 0; cl1cc_turn < %du; cl1cc_turn++) {", nl,
                  indent, factor);
    else
        sb_printf(&head, "%s%sfor (unsigned cl1cc_bx = blockIdx.x; cl1cc_bx < cl1cc_grid_x; "
                         "cl1cc_bx += gridDim.x) {", nl, indent);
    sb_printf(&head, "%s%s%sconst uint3 cl1cc_blockIdx = {%s, blockIdx.y, blockIdx.z};", nl, indent,
              indent, factor ? "blockIdx.x + cl1cc_turn * gridDim.x" : "cl1cc_bx");
    sb_printf(&head, "%s%s%s[=]() mutable {", nl, indent, indent);
    const char *text = arena_strdup(a, sb_str(&head));
    sb_free(&head);
    return text;
}

/* the edit adding "unsigned int cl1cc_grid_x" after the last parameter:
 * 0, or 1 with *why */
static int add_grid_x_param(const tu_model *m, const kernel *k, pol_edit *e, const char **why)
{
    if (!k->params.len) {
        *why = "no parameters (the original grid's width comes as one more)";
        return 1;
    }
    const src_range *last = &k->params.items[k->params.len - 1].range;
    if (!last->present || last->in_macro || strcmp(last->file, m->main_file) != 0 ||
        last->end > k->body_range.begin) {
        *why = "the parameters are not the main file's own text";
        return 1;
    }
    pol_edit add = {last->end, last->end, ", unsigned int cl1cc_grid_x", 0};
    *e = add;
    return 0;
}

/* factor > 1: "grid.x /factor"; 0: "grid.x sm" (pol_transform_grid_sm) */
int pol_transform_grid_stride(const tu_model *m, const kernel *k, const pol_facts *f, int factor,
                              arena *a, pol_edit_vec *out, const char **why)
{
    if (factor) {
        if ((*why = grid_x_divides(f, factor)) != NULL)
            return 1;
        if (blocks_after(f, factor) < MIN_BLOCKS) {
            *why = "the narrower grid would have fewer than 1056 blocks (8 an SM)";
            return 1;
        }
    } else {
        if (!f->grid_max[0]) {
            *why = "the captured grids are not known";
            return 1;
        }
        if (blocks_after(f, 1) < 2 * MIN_BLOCKS || f->grid_max[0] < 8) {
            *why = "a grid of fewer than 2112 blocks (two of 8 an SM), or fewer than 8 wide: "
                   "the GPU holds most of it at once";
            return 1;
        }
    }
    if ((*why = movable(m, k, a)) != NULL)
        return 1;
    pol_edit param = {0, 0, NULL, 0};
    if (!factor && add_grid_x_param(m, k, &param, why) != 0)
        return 1;
    static const int block_and_grid[4] = {0, 1, 0, 1};
    pol_edit_vec mine = {0};
    int uses[4] = {0, 0, 0, 0};
    size_t len, open = k->body_range.begin, close = k->body_range.end - 1;
    const char *text;
    if (rename_builtins(m, k, block_and_grid, uses, a, &mine, &text, &len, why) != 0) {
        vec_free(&mine);
        return 1;
    }
    if (!uses[1]) {
        vec_free(&mine);
        *why = "the kernel does not read blockIdx";
        return 1;
    }
    launch_rule r = launch_rule_none();
    if (factor)
        r.grid_x_div = factor;
    else
        r.grid_sm = 1;
    const char *nl = pol_newline(text, len, open);
    const char *indent = body_indent(k, text, a);
    /* the lambda and the loop close on lines of their own before the
     * body's brace */
    int blanks;
    size_t ls = pol_line_start(text, close, &blanks);
    size_t at = blanks ? ls : close;
    const char *tail = arena_printf(a, "%s%s%s}();%s%s}%s", blanks ? "" : nl, indent, indent, nl,
                                    indent, nl);
    pol_edit open_edit = {open + 1, open + 1, stride_head(factor, uses[3], nl, indent, a), 0};
    pol_edit close_edit = {at, at, tail, 1};
    vec_push(out, pol_launch_marker(m, k, &r, a));
    if (!factor)
        vec_push(out, param);
    vec_push(out, open_edit);
    for (size_t i = 0; i < mine.len; i++)
        vec_push(out, mine.items[i]);
    vec_push(out, close_edit);
    vec_free(&mine);
    return 0;
}

int pol_transform_grid_sm(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                          pol_edit_vec *out, const char **why)
{
    return pol_transform_grid_stride(m, k, f, 0, a, out, why);
}
