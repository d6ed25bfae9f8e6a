/* splice_launch.c: a variant for another launch configuration, launched as a
 * copy: which sites can pick it (their launches' text is core/launch_rule.c's) */
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

/* the launch of the copy for site s (core/launch_rule.c writes it), or NULL
 * when this site cannot pick it */
static const char *site_launch(const launch_site *s, const char *text, const launch_rule *r,
                               const char *callee, arena *a)
{
    launch_rule_site t = {0};
    t.callee = callee;
    t.original = arena_printf(a, "%.*s", (int)(s->range.end - s->range.begin), text + s->range.begin);
    t.grid = s->grid.text;
    t.after_grid = arena_printf(a, "%.*s", (int)(s->range.end - s->grid.range.end),
                                text + s->grid.range.end);
    /* the block and shared memory only where they may be evaluated twice */
    if (s->block.text && repeatable(s->block.text) && s->block.range.end <= s->range.end) {
        t.block = s->block.text;
        if (s->block.range.begin >= s->grid.range.end)
            t.after_block = arena_printf(a, "%.*s", (int)(s->range.end - s->block.range.end),
                                         text + s->block.range.end);
    }
    t.shmem = s->shmem.text;
    t.shmem_repeatable = !s->shmem.text || repeatable(s->shmem.text);
    /* ", 256>>>(x, n" of "k<<<g, 256>>>(x, n)" */
    if (s->range.end > s->grid.range.end && text[s->range.end - 1] == ')')
        t.open_args = arena_printf(a, "%.*s", (int)(s->range.end - 1 - s->grid.range.end),
                                   text + s->grid.range.end);
    t.has_args = s->args.len > 0;
    return launch_rule_site_launch(r, &t, a);
}

size_t launch_copy_plan(const tu_model *m, size_t kernel_index, const char *variant,
                        const launch_rule *r, arena *a, rw_edit_vec *out, const char **copy_text,
                        strbuf *why)
{
    const kernel *k = &m->kernels.items[kernel_index];
    const source_file *sf = model_file(m, m->main_file);
    const char *copy_name = arena_printf(a, "%s%s", k->name, launch_rule_copy_suffix(r));
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
        const char *callee = arena_printf(a, "%s%s", s->kernel_name, launch_rule_copy_suffix(r));
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
    *copy_text = launch_rule_copy_text(r, k->name, copy_name, copy, a);
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
