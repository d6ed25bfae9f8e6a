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

/* the namespaces a kernel defined in a header is reopened in at the end of
 * the TU, where its variants go: "namespace a { namespace {" and the closing
 * braces */
static void scope_open_close(const kernel *k, strbuf *open, strbuf *close)
{
    size_t qn = strlen(k->qualified_name), n = strlen(k->name);
    const char *q = k->qualified_name, *end = k->qualified_name + (qn > n ? qn - n : 0);
    while (q < end) {
        const char *sep = strstr(q, "::");
        if (!sep || sep >= end)
            break;
        if (sep - q == 11 && strncmp(q, "(anonymous)", 11) == 0)
            sb_puts(open, "namespace { ");
        else
            sb_printf(open, "namespace %.*s { ", (int)(sep - q), q);
        sb_puts(close, "} ");
        q = sep + 2;
    }
}

/* "<128, float>" of an instantiation "ns::k<128, float>" (the namespaces
 * hold no '<'), or NULL */
static const char *instance_args(const char *instance)
{
    return strchr(instance, '<');
}

/* the kernel's __constant__ and __device__ variables, which a capture saves
 * by these names and the driver restores before each run */
static void put_symbols(strbuf *out, const tu_model *m, const kernel *k, arena *a)
{
    const dependency *vars[HN_MAX_STATE_VARS];
    size_t n = hn_state_vars(m, k, vars, HN_MAX_STATE_VARS);
    sb_puts(out, "static const cl1cc_replay::symbol_ref cl1cc_symbols[] = {\n");
    for (size_t i = 0; i < n; i++) {
        const char *e = hn_state_var_expr(vars[i], a);
        sb_printf(out, "    {\"%s\", (const void *)&::%s, sizeof ::%s},\n", e, e, e);
    }
    sb_puts(out, "    {0, 0, 0},\n};\n");
}

/* the table of kernels, their launch rules and grid sizers (one row of
 * kernels and sizers per instantiation of a template kernel), the
 * kernel's variables and main */
static int put_tables(strbuf *out, const tu_model *m, const kernel *k, const char *const *variants,
                      size_t n_variants, const char *const *instances, size_t n_instances,
                      arena *a, strbuf *err)
{
    const char *scope = scope_prefix(k, a);
    size_t rows = k->is_template ? n_instances : 1;
    const char **args = arena_alloc(a, (rows + 1) * sizeof *args);
    for (size_t r = 0; r < rows; r++) {
        args[r] = k->is_template ? instance_args(instances[r]) : "";
        if (!args[r]) {
            sb_printf(err, "instantiation '%s' has no template arguments", instances[r]);
            return -1;
        }
    }
    if (k->is_template) {
        sb_puts(out, "static const char *const cl1cc_instances[] = {\n");
        for (size_t r = 0; r < rows; r++) {
            sb_puts(out, "    \"");
            for (const char *c = instances[r]; *c; c++)
                sb_printf(out, *c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
            sb_puts(out, "\",\n");
        }
        sb_printf(out, "};\nstatic const void *const cl1cc_kernels[][%zu] = {\n", n_variants + 1);
    } else {
        sb_puts(out, "static const void *const cl1cc_kernels[] = {\n");
    }
    const char *in = k->is_template ? "        " : "    ";
    for (size_t r = 0; r < rows; r++) {
        if (k->is_template)
            sb_puts(out, "    {\n");
        sb_printf(out, "%s(const void *)&%s%s%s,\n", in, scope, k->name, args[r]);
        for (size_t i = 0; i < n_variants; i++)
            sb_printf(out, "%s(const void *)&%scl1cc_variant_%zu%s,\n", in, scope, i, args[r]);
        if (k->is_template)
            sb_puts(out, "    },\n");
    }
    /* how each one's launch differs from the captured one; a "grid.x
     * sm" variant's grid sized as the wrapper's launch sizes it */
    launch_rule *rules = arena_alloc(a, (n_variants + 1) * sizeof *rules);
    launch_rule none = launch_rule_none();
    sb_printf(out, "};\nstatic const unsigned cl1cc_launch_rules[][6] = {\n    %s,\n",
              launch_rule_replay_row(&none, a));
    for (size_t i = 0; i < n_variants; i++) {
        rules[i] = launch_rule_of(variants[i]);
        sb_printf(out, "    %s,\n", launch_rule_replay_row(&rules[i], a));
    }
    sb_puts(out, "};\n");
    const char **sizers = arena_alloc(a, (rows * n_variants + 1) * sizeof *sizers);
    for (size_t r = 0; r < rows; r++)
        for (size_t i = 0; i < n_variants; i++) {
            const char *name = k->is_template ? arena_printf(a, "cl1cc_sm_grid_%zu_%zu", r, i)
                                              : arena_printf(a, "cl1cc_sm_grid_%zu", i);
            const char *sizer = launch_rule_replay_sizer(
                &rules[i], name, arena_printf(a, "%scl1cc_variant_%zu%s", scope, i, args[r]), a);
            sizers[r * n_variants + i] = sizer ? name : "0";
            if (sizer)
                sb_puts(out, sizer);
        }
    if (k->is_template)
        sb_printf(out, "static const cl1cc_replay::sm_grid_fn cl1cc_sm_grids[][%zu] = {\n",
                  n_variants + 1);
    else
        sb_puts(out, "static const cl1cc_replay::sm_grid_fn cl1cc_sm_grids[] = {\n");
    for (size_t r = 0; r < rows; r++) {
        sb_printf(out, "%s%s0,\n", k->is_template ? "    {\n" : "", in);
        for (size_t i = 0; i < n_variants; i++)
            sb_printf(out, "%s%s,\n", in, sizers[r * n_variants + i]);
        if (k->is_template)
            sb_puts(out, "    },\n");
    }
    sb_puts(out, "};\n");
    put_symbols(out, m, k, a);
    sb_puts(out, "int main(int argc, char **argv)\n{\n    cl1cc_replay::set_symbols(cl1cc_symbols);\n");
    if (k->is_template)
        sb_printf(out, "    return cl1cc_replay::run_instance(argc, argv, cl1cc_instances, %zu, &cl1cc_kernels[0][0], "
                       "%zu, cl1cc_launch_rules, &cl1cc_sm_grids[0][0]);\n}\n",
                  rows, n_variants + 1);
    else
        sb_printf(out, "    return cl1cc_replay::run(argc, argv, cl1cc_kernels, %zu, cl1cc_launch_rules, "
                       "cl1cc_sm_grids);\n}\n",
                  n_variants + 1);
    return 0;
}

int hn_replay_source(const tu_model *m, size_t kernel_index, const char *const *variants,
                     size_t n_variants, const char *replay_header, strbuf *out, strbuf *err)
{
    return hn_replay_source_instances(m, kernel_index, variants, n_variants, NULL, 0,
                                      replay_header, out, err);
}

int hn_replay_source_instances(const tu_model *m, size_t kernel_index,
                               const char *const *variants, size_t n_variants,
                               const char *const *instances, size_t n_instances,
                               const char *replay_header, strbuf *out, strbuf *err)
{
    if (kernel_index >= m->kernels.len) {
        sb_puts(err, "no such kernel");
        return -1;
    }
    const kernel *k = &m->kernels.items[kernel_index];
    const source_file *sf = model_file(m, m->main_file);
    if (!sf || !k->decl_range.file || k->decl_range.in_macro || !k->is_definition) {
        sb_printf(err, "%s: kernel %s is not a definition of the TU's own text", m->main_file,
                  k->qualified_name);
        return -1;
    }
    if (k->is_template && n_instances == 0) {
        sb_printf(err, "%s: template kernel %s: no captured instantiation to replay", m->main_file,
                  k->qualified_name);
        return -1;
    }
    /* a kernel of the main file gets its variants right after it; one of a
     * header the TU includes, at the end of the TU in its namespaces */
    int in_main = strcmp(k->decl_range.file, m->main_file) == 0;
    arena a;
    arena_init(&a);
    strbuf side, open, close;
    sb_init(&side);
    sb_init(&open);
    sb_init(&close);
    if (!in_main) {
        scope_open_close(k, &open, &close);
        sb_printf(&side, "\n/* cl1cc: the variants of %s (%s) */\n%s", k->qualified_name,
                  k->decl_range.file, sb_str(&open));
    }
    int rc = 0;
    for (size_t i = 0; i < n_variants && rc == 0; i++) {
        char *name = arena_printf(&a, "cl1cc_variant_%zu", i);
        char *renamed = hn_rename_kernel(variants[i], k->name, name, &a);
        if (!renamed) {
            sb_printf(err, "variant %zu: no __global__ %s in it", i, k->name);
            rc = -1;
        } else {
            sb_printf(&side, "\n/* cl1cc variant %zu */\n%s\n", i, renamed);
        }
    }
    if (!in_main)
        sb_printf(&side, "%s\n", sb_str(&close));
    rw_edit edits[2];
    size_t n_edits = 0;
    size_t at = in_main ? k->decl_range.end : sf->len;
    edits[n_edits++] = (rw_edit){at, at, sb_str(&side), 0};
    if (m->main_function_name.present && !m->main_function_name.in_macro &&
        strcmp(m->main_function_name.file, m->main_file) == 0)
        edits[n_edits++] = (rw_edit){m->main_function_name.begin, m->main_function_name.end,
                                     "cl1cc_user_main", 0};
    if (rc == 0)
        rc = rw_splice(sf->text, sf->len, m->main_file, edits, n_edits, 1, out, err) == RW_OK ? 0 : -1;
    if (rc == 0) {
        sb_printf(out, "\n#include \"%s\"\n", replay_header);
        rc = put_tables(out, m, k, variants, n_variants, instances, n_instances, &a, err);
    }
    sb_free(&side);
    sb_free(&open);
    sb_free(&close);
    arena_free(&a);
    return rc;
}
