/*
 * replay_gen.c: the source of a replay driver for one kernel: the user's
 * whole translation unit (so every type, macro, include and namespace the
 * kernel needs is there, exactly as compiled), each variant renamed and
 * placed right after the original in the same scope, the user's main
 * renamed out of the way, and cl1cc_replay.cuh's main at the end.
 */
#include "harness.h"

#include <ctype.h>
#include <string.h>

#include "launch_rule.h"
#include "rewrite.h"

static int is_ident(char c) { return isalnum((unsigned char)c) || c == '_'; }

char *hn_rename_kernel(const char *text, const char *name, const char *new_name, arena *a)
{
    const char *g = strstr(text, "__global__");
    if (!g)
        return NULL;
    size_t n = strlen(name);
    for (const char *p = g; (p = strstr(p, name)) != NULL; p += n) {
        if ((p > text && is_ident(p[-1])) || is_ident(p[n]))
            continue;
        return arena_printf(a, "%.*s%s%s", (int)(p - text), text, new_name, p + n);
    }
    return NULL;
}

/* ns::(anonymous)::k -> ns::k: what names it from the end of the TU */
static char *scope_prefix(const kernel *k, arena *a)
{
    size_t qn = strlen(k->qualified_name), n = strlen(k->name);
    strbuf sb;
    sb_init(&sb);
    if (qn > n) {
        const char *q = k->qualified_name;
        size_t end = qn - n;
        while (q < k->qualified_name + end) {
            const char *sep = strstr(q, "::");
            if (!sep || sep >= k->qualified_name + end)
                break;
            if (strncmp(q, "(anonymous)", (size_t)(sep - q)) != 0 || sep - q != 11)
                sb_printf(&sb, "%.*s::", (int)(sep - q), q);
            q = sep + 2;
        }
    }
    char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

int hn_replay_source(const tu_model *m, size_t kernel_index, const char *const *variants,
                     size_t n_variants, const char *replay_header, strbuf *out, strbuf *err)
{
    if (kernel_index >= m->kernels.len) {
        sb_puts(err, "no such kernel");
        return -1;
    }
    const kernel *k = &m->kernels.items[kernel_index];
    const source_file *sf = model_file(m, m->main_file);
    if (!sf || strcmp(k->decl_range.file, m->main_file) != 0 || k->decl_range.in_macro) {
        sb_printf(err, "%s: kernel %s is not the main file's own text", m->main_file,
                  k->qualified_name);
        return -1;
    }
    arena a;
    arena_init(&a);
    strbuf side;
    sb_init(&side);
    for (size_t i = 0; i < n_variants; i++) {
        char *name = arena_printf(&a, "cl1cc_variant_%zu", i);
        char *renamed = hn_rename_kernel(variants[i], k->name, name, &a);
        if (!renamed) {
            sb_printf(err, "variant %zu: no __global__ %s in it", i, k->name);
            sb_free(&side);
            arena_free(&a);
            return -1;
        }
        sb_printf(&side, "\n/* cl1cc variant %zu */\n%s\n", i, renamed);
    }
    rw_edit edits[2];
    size_t n_edits = 0;
    edits[n_edits++] = (rw_edit){k->decl_range.end, k->decl_range.end, sb_str(&side), 0};
    if (m->main_function_name.present && !m->main_function_name.in_macro &&
        strcmp(m->main_function_name.file, m->main_file) == 0)
        edits[n_edits++] = (rw_edit){m->main_function_name.begin, m->main_function_name.end,
                                     "cl1cc_user_main", 0};
    int rc = rw_splice(sf->text, sf->len, m->main_file, edits, n_edits, 1, out, err) == RW_OK ? 0 : -1;
    if (rc == 0) {
        const char *scope = scope_prefix(k, &a);
        sb_printf(out, "\n#include \"%s\"\nstatic const void *const cl1cc_kernels[] = {\n", replay_header);
        sb_printf(out, "    (const void *)&%s%s,\n", scope, k->name);
        for (size_t i = 0; i < n_variants; i++)
            sb_printf(out, "    (const void *)&%scl1cc_variant_%zu,\n", scope, i);
        /* how each one's launch differs from the captured one; a "grid.x
         * sm" variant's grid sized as the wrapper's launch sizes it */
        launch_rule *rules = arena_alloc(&a, (n_variants + 1) * sizeof *rules);
        launch_rule none = launch_rule_none();
        sb_printf(out, "};\nstatic const unsigned cl1cc_launch_rules[][6] = {\n    %s,\n",
                  launch_rule_replay_row(&none, &a));
        for (size_t i = 0; i < n_variants; i++) {
            rules[i] = launch_rule_of(variants[i]);
            sb_printf(out, "    %s,\n", launch_rule_replay_row(&rules[i], &a));
        }
        sb_puts(out, "};\n");
        const char **sizers = arena_alloc(&a, (n_variants + 1) * sizeof *sizers);
        for (size_t i = 0; i < n_variants; i++) {
            const char *name = arena_printf(&a, "cl1cc_sm_grid_%zu", i);
            const char *sizer = launch_rule_replay_sizer(
                &rules[i], name, arena_printf(&a, "%scl1cc_variant_%zu", scope, i), &a);
            sizers[i] = sizer ? name : "0";
            if (sizer)
                sb_puts(out, sizer);
        }
        sb_puts(out, "static const cl1cc_replay::sm_grid_fn cl1cc_sm_grids[] = {\n    0,\n");
        for (size_t i = 0; i < n_variants; i++)
            sb_printf(out, "    %s,\n", sizers[i]);
        sb_printf(out, "};\nint main(int argc, char **argv)\n{\n"
                       "    return cl1cc_replay::run(argc, argv, cl1cc_kernels, %zu, cl1cc_launch_rules, "
                       "cl1cc_sm_grids);\n}\n",
                  n_variants + 1);
    }
    sb_free(&side);
    arena_free(&a);
    return rc;
}
