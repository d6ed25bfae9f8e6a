/* splice_launch.c: a variant for another launch configuration, launched as a copy */
#include "splice_launch.h"

#include <string.h>

#include "harness.h"

/* a grid or block expression that may be evaluated twice: names, numbers,
 * members, arithmetic, casts and dim3(...); no assignment, increment or
 * other call */
static int repeatable(const char *s)
{
    static const char *const calls[] = {"dim3", "sizeof", NULL};
    return expr_text_without_effects(s, calls);
}

/* the launch names the kernel as "k", "ns::k" or "::ns::k" (no template
 * arguments): the copy, beside it in the same scope, is named the same way */
static int names_plainly(const char *called, const char *name)
{
    size_t c = strlen(called), n = strlen(name);
    if (strchr(called, '<') || strchr(called, ' ') || c < n || strcmp(called + c - n, name) != 0)
        return 0;
    return c == n || (c >= n + 2 && strncmp(called + c - n - 2, "::", 2) == 0);
}

static const char *copy_suffix(const launch_rule *r)
{
    return r->grid_y > 1        ? "__cl1cc_tall"
           : r->grid_x_div > 1 ? "__cl1cc_strided"
           : r->grid_sm        ? "__cl1cc_persistent"
                               : "__cl1cc_reshaped";
}

/* the host function beside a "grid.x sm" copy that sizes its grid: the
 * copy's name and this */
#define SIZER_SUFFIX "_grid"

/* site launching the "grid.x sm" copy on a grid sized at run time, the
 * original grid's x passed last; NULL when this site cannot: its block or
 * shared memory may not be evaluated twice, or it does not end in ")" */
static const char *sm_site_launch(const launch_site *s, const char *text, const char *g,
                                  const char *callee, arena *a)
{
    if (!s->block.text || !repeatable(s->block.text) || s->block.range.end > s->range.end ||
        (s->shmem.text && !repeatable(s->shmem.text)) || s->range.end <= s->grid.range.end ||
        text[s->range.end - 1] != ')')
        return NULL;
    const char *b = arena_printf(a, "dim3(%s)", s->block.text);
    const char *shmem = s->shmem.text ? arena_printf(a, "(size_t)(%s)", s->shmem.text) : "0";
    /* ", 256>>>(x, n" of "k<<<g, 256>>>(x, n)" */
    const char *open_args = arena_printf(a, "%.*s", (int)(s->range.end - 1 - s->grid.range.end),
                                         text + s->grid.range.end);
    return arena_printf(a, "%s<<<dim3(%s%s(%s, %s, %s), %s.y, %s.z)%s%s%s.x)", callee, callee,
                        SIZER_SUFFIX, g, b, shmem, g, g, open_args,
                        s->args.len ? ", " : "", g);
}

/* one dimension of the reshaped grid (block: 0) or block (1): "g.x / 2u",
 * "b.y * 4u", "g.z" */
static const char *reshaped_dim(const char *v, char dim, int mul, int div, int block, arena *a)
{
    int times = block ? mul : div, by = block ? div : mul;
    return arena_printf(a, "%s.%c%s%s", v, dim,
                        by > 1 ? arena_printf(a, " / %du", by) : "",
                        times > 1 ? arena_printf(a, " * %du", times) : "");
}

/* the launch of the copy for site s, or NULL when this site cannot pick it */
static const char *site_launch(const launch_site *s, const char *text, const launch_rule *r,
                               const char *callee, arena *a)
{
    const char *site = arena_printf(a, "%.*s", (int)(s->range.end - s->range.begin),
                                    text + s->range.begin);
    /* dim3(g), not helpers: a helper defined beside a kernel in a
     * namespace would not be seen from a launch outside it */
    const char *g = arena_printf(a, "dim3(%s)", s->grid.text);
    const char *after_grid = arena_printf(a, "%.*s", (int)(s->range.end - s->grid.range.end),
                                          text + s->grid.range.end);
    if (r->grid_y > 1)
        return arena_printf(a, "(%s.y == 1 && %s.z == 1 ? %s<<<dim3(%s.x, %s.y * %du, %s.z)%s : %s)",
                            g, g, callee, g, g, r->grid_y, g, after_grid, site);
    if (r->grid_x_div > 1)
        return arena_printf(a, "(%s.x %% %du == 0 ? %s<<<dim3(%s.x / %du, %s.y, %s.z)%s : %s)", g,
                            r->grid_x_div, callee, g, r->grid_x_div, g, g, after_grid, site);
    if (r->grid_sm)
        return sm_site_launch(s, text, g, callee, a);
    if (!s->block.text || !repeatable(s->block.text) || s->block.range.end > s->range.end ||
        s->block.range.begin < s->grid.range.end)
        return NULL;
    const char *b = arena_printf(a, "dim3(%s)", s->block.text);
    const char *rest = arena_printf(a, "%.*s", (int)(s->range.end - s->block.range.end),
                                    text + s->block.range.end);
    strbuf c;
    sb_init(&c);
    if (r->x_mul > 1)
        sb_printf(&c, " && %s.x %% %du == 0", g, r->x_mul);
    if (r->y_mul > 1)
        sb_printf(&c, " && %s.y %% %du == 0", g, r->y_mul);
    if (r->x_div > 1)
        sb_printf(&c, " && %s.x %% %du == 0 && %s.x <= 0x7fffffffu / %du", b, r->x_div, g, r->x_div);
    if (r->y_div > 1)
        sb_printf(&c, " && %s.y %% %du == 0 && %s.y <= 65535u / %du", b, r->y_div, g, r->y_div);
    const char *bx = reshaped_dim(b, 'x', r->x_mul, r->x_div, 1, a);
    const char *by = reshaped_dim(b, 'y', r->y_mul, r->y_div, 1, a);
    if (r->x_mul > 1 || r->y_mul > 1)
        sb_printf(&c, " && (%s) * (%s) * %s.z <= 1024u", bx, by, b);
    const char *launch = arena_printf(
        a, "(%s ? %s<<<dim3(%s, %s, %s.z), dim3(%s, %s, %s.z)%s : %s)", sb_str(&c) + 4, callee,
        reshaped_dim(g, 'x', r->x_mul, r->x_div, 0, a), reshaped_dim(g, 'y', r->y_mul, r->y_div, 0, a),
        g, bx, by, b, rest, site);
    sb_free(&c);
    return launch;
}

size_t launch_copy_plan(const tu_model *m, size_t kernel_index, const char *variant,
                        const launch_rule *r, arena *a, rw_edit_vec *out, const char **copy_text,
                        strbuf *why)
{
    const kernel *k = &m->kernels.items[kernel_index];
    const source_file *sf = model_file(m, m->main_file);
    const char *copy_name = arena_printf(a, "%s%s", k->name, copy_suffix(r));
    const char *copy = hn_rename_kernel(variant, k->name, copy_name, a);
    if (!sf || k->is_template || k->is_specialization || !copy) {
        sb_puts(why, "a template, or its text is not at hand");
        return 0;
    }
    size_t sites = 0;
    for (size_t i = 0; i < m->launches.len; i++) {
        const launch_site *s = &m->launches.items[i];
        if (s->kernel_index != (long)kernel_index || s->in_macro || s->range.in_macro ||
            strcmp(s->range.file, m->main_file) != 0 || s->range.begin < k->decl_range.end ||
            s->range.end > sf->len || !s->grid.text || !names_plainly(s->kernel_name, k->name) ||
            !repeatable(s->grid.text) || s->grid.range.end > s->range.end)
            continue; /* this site keeps launching the original */
        const char *callee = arena_printf(a, "%s%s", s->kernel_name, copy_suffix(r));
        const char *text = site_launch(s, sf->text, r, callee, a);
        if (!text)
            continue;
        rw_edit e = {s->range.begin, s->range.end, text, 0};
        vec_push(out, e);
        sites++;
    }
    if (!sites) {
        sb_puts(why, "no launch site after the definition could be edited");
        return 0;
    }
    char rule[LAUNCH_RULE_TEXT_MAX];
    if (r->grid_y > 1)
        *copy_text = arena_printf(a, "\n\n/* cl1cc: a copy of %s for grids %d times as tall */\n%s",
                                  k->name, r->grid_y, copy);
    else if (r->grid_x_div > 1)
        *copy_text = arena_printf(a, "\n\n/* cl1cc: a copy of %s for grids %d times narrower */\n%s",
                                  k->name, r->grid_x_div, copy);
    else if (r->grid_sm)
        *copy_text = arena_printf(
            a, "\n\n/* cl1cc: a copy of %s for grids as wide as the GPU holds at once, and the "
               "function that sizes them */\n%s\n" LAUNCH_SM_GRID_X_FORMAT,
            k->name, copy, arena_printf(a, "%s%s", copy_name, SIZER_SUFFIX), copy_name);
    else
        *copy_text = arena_printf(a, "\n\n/* cl1cc: a copy of %s for reshaped blocks (%s) */\n%s",
                                  k->name, launch_rule_text(r, rule), copy);
    return sites;
}

size_t splice_launch_copy(const tu_model *m, size_t kernel_index, const char *variant,
                          const launch_rule *r, arena *a, rw_edit_vec *out, strbuf *why)
{
    const char *copy = NULL;
    size_t sites = launch_copy_plan(m, kernel_index, variant, r, a, out, &copy, why);
    if (sites) {
        const kernel *k = &m->kernels.items[kernel_index];
        rw_edit e = {k->decl_range.end, k->decl_range.end, copy, 0};
        vec_push(out, e);
    }
    return sites;
}
