/*
 * kernel_key.c: see kernel_key.h.  Nothing of the including TU goes in but
 * the texts: no path, and a header kernel's dependencies in the order of
 * their texts (the frontend orders them by the TU's include order), so
 * every TU that includes the header finds the same entry.
 */
#include "kernel_key.h"

#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "tunedb.h"

static int by_text(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

void kernel_key(const tu_model *m, const kernel *k, const char *arch,
                const char *const *codegen_flags, size_t n_flags, char out[65])
{
    arena a;
    arena_init(&a);
    const char *text = fe_range_text(m, &k->decl_range, &a);
    const char **deps = arena_alloc(&a, (k->deps.len + 1) * sizeof *deps);
    for (size_t i = 0; i < k->deps.len; i++) {
        const dependency *d = &m->decls.items[k->deps.items[i]];
        const char *dep_text = fe_range_text(m, &d->range, &a);
        /* a macro's extent is its name and body: say what it is */
        deps[i] = arena_printf(&a, "%s %s", model_decl_kind_name(d->kind),
                               dep_text ? dep_text : "");
    }
    if (k->deps.len > 1 && k->decl_range.file && m->main_file &&
        strcmp(k->decl_range.file, m->main_file) != 0)
        qsort(deps, k->deps.len, sizeof *deps, by_text);
    tunedb_key_input in;
    in.kernel_source = text ? text : "";
    in.dep_sources = deps;
    in.n_deps = k->deps.len;
    in.arch = arch;
    in.codegen_flags = codegen_flags;
    in.n_flags = n_flags;
    in.launch_signature = "";
    tunedb_kernel_key(&in, out);
    arena_free(&a);
}
