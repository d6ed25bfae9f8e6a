/* splice_launch.c: a variant for a taller grid, launched as a copy */
#include "splice_launch.h"

#include <string.h>

#include "harness.h"

/* a grid expression that may be evaluated twice: names, numbers, members,
 * arithmetic, casts and dim3(...); no assignment, increment or other call */
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

size_t taller_grid_plan(const tu_model *m, size_t kernel_index, const char *variant, int f,
                        arena *a, rw_edit_vec *out, const char **copy_text, strbuf *why)
{
    const kernel *k = &m->kernels.items[kernel_index];
    const source_file *sf = model_file(m, m->main_file);
    const char *copy_name = arena_printf(a, "%s__cl1cc_tall", k->name);
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
        const char *site = arena_printf(a, "%.*s", (int)(s->range.end - s->range.begin),
                                        sf->text + s->range.begin);
        const char *rest = arena_printf(a, "%.*s", (int)(s->range.end - s->grid.range.end),
                                        sf->text + s->grid.range.end);
        /* dim3(g), not helpers: a helper defined beside a kernel in a
         * namespace would not be seen from a launch outside it */
        const char *g = arena_printf(a, "dim3(%s)", s->grid.text);
        const char *callee = arena_printf(a, "%s__cl1cc_tall", s->kernel_name);
        const char *text = arena_printf(a,
                                        "(%s.y == 1 && %s.z == 1 ? %s<<<dim3(%s.x, %s.y * %du, %s.z)%s : %s)",
                                        g, g, callee, g, g, f, g, rest, site);
        rw_edit e = {s->range.begin, s->range.end, text};
        vec_push(out, e);
        sites++;
    }
    if (!sites) {
        sb_puts(why, "no launch site after the definition could be edited");
        return 0;
    }
    *copy_text = arena_printf(a, "\n\n/* cl1cc: a copy of %s for grids %d times as tall */\n%s",
                              k->name, f, copy);
    return sites;
}

size_t splice_taller_grid(const tu_model *m, size_t kernel_index, const char *variant, int f,
                          arena *a, rw_edit_vec *out, strbuf *why)
{
    const char *copy = NULL;
    size_t sites = taller_grid_plan(m, kernel_index, variant, f, a, out, &copy, why);
    if (sites) {
        const kernel *k = &m->kernels.items[kernel_index];
        rw_edit e = {k->decl_range.end, k->decl_range.end, copy};
        vec_push(out, e);
    }
    return sites;
}
