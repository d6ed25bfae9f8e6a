/*
 * apply_choose.c: apply.h's places and entries: which kernels are places,
 * which database entry applies to one, and the cheap test of whether a TU
 * names any kernel with an entry at all.
 */
#include "apply.h"

#include <ctype.h>
#include <string.h>

#include "kernel_key.h"
#include "opt_out.h"

apply_where apply_place_of_kernel(apply_place *p, const tu_model *m, size_t i,
                                  const nvcc_cmdline *cl, const char *const *archs,
                                  size_t n_archs, unsigned launch_edits, arena *a,
                                  const char **why)
{
    memset(p, 0, sizeof *p);
    p->model = m;
    p->kernel_index = i;
    p->archs = archs;
    p->n_archs = n_archs;
    p->codegen_flags = (const char *const *)cl->codegen_flags.items;
    p->n_flags = cl->codegen_flags.len;
    p->launch_edits = launch_edits;
    const kernel *k = &m->kernels.items[i];
    if (kernel_opted_out(m, k)) /* `// cl1cc: off` */
        return APPLY_NOT_A_PLACE;
    if (!k->is_definition || k->decl_range.in_macro || !k->decl_range.file)
        return APPLY_NOT_A_PLACE;
    p->file = k->decl_range.file;
    p->in_header = strcmp(p->file, m->main_file) != 0;
    /* a header kernel: a user file the frontend kept, asked for */
    const source_file *sf = model_file(m, p->file);
    if (!sf || (p->in_header && !(launch_edits & APPLY_HEADER_KERNELS)))
        return APPLY_NOT_A_PLACE;
    if (rw_is_rewritten(sf->text, sf->len, k->decl_range.begin))
        return APPLY_REWRITTEN;
    if (p->in_header && apply_header_include(m, p->file, cl, a, &p->include, why) != 0)
        return APPLY_UNREACHABLE;
    return APPLY_HERE;
}

static int same_text(const char *x, const char *y)
{
    return strcmp(x ? x : "", y ? y : "") == 0;
}

int apply_choose(tunedb *db, const apply_place *p, arena *a, apply_choice *out, strbuf *err)
{
    const kernel *k = &p->model->kernels.items[p->kernel_index];
    for (size_t i = 0; i < p->n_archs; i++) {
        char key[65];
        kernel_key(p->model, k, p->archs[i], p->codegen_flags, p->n_flags, key);
        tunedb_variant v;
        int rc = tunedb_best_variant(db, key, p->archs[i], a, &v, err);
        if (rc <= 0)
            return rc;
        if (i == 0)
            out->key = arena_strdup(a, key);
        else if (!same_text(v.source, out->variant.source) ||
                 !same_text(v.launch_edits, out->variant.launch_edits))
            return 0;
        out->variant = v;
    }
    return p->n_archs ? 1 : 0;
}

int apply_kernel_names(tunedb *db, const char *const *archs, size_t n_archs, arena *a,
                       cstr_vec *out, strbuf *err)
{
    for (size_t i = 0; i < n_archs; i++) {
        tunedb_name_list nl;
        if (tunedb_applicable_kernel_names(db, archs[i], a, &nl, err) != 0)
            return -1;
        for (size_t j = 0; j < nl.len; j++) {
            const char *last = strrchr(nl.items[j], ':');
            vec_push(out, last ? last + 1 : nl.items[j]);
        }
    }
    return 0;
}

static int is_word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

int apply_mentions_any(const char *text, const cstr_vec *names)
{
    for (size_t i = 0; i < names->len; i++) {
        size_t n = strlen(names->items[i]);
        for (const char *p = text; n && (p = strstr(p, names->items[i])) != NULL; p += n)
            if (!(p > text && is_word_char(p[-1])) && !is_word_char(p[n]))
                return 1;
    }
    return 0;
}
