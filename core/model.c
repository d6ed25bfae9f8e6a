/*
 * model.c: lifetime of a tu_model.
 */
#include "model.h"

#include <stdlib.h>
#include <string.h>

void model_init(tu_model *m)
{
    memset(m, 0, sizeof *m);
    arena_init(&m->strings);
}

void model_free(tu_model *m)
{
    for (size_t i = 0; i < m->kernels.len; i++) {
        kernel *k = &m->kernels.items[i];
        vec_free(&k->params);
        vec_free(&k->template_params);
        vec_free(&k->deps);
        vec_free(&k->body);
    }
    for (size_t i = 0; i < m->launches.len; i++)
        vec_free(&m->launches.items[i].args);
    vec_free(&m->kernels);
    vec_free(&m->launches);
    vec_free(&m->decls);
    vec_free(&m->files);
    vec_free(&m->skipped);
    arena_free(&m->strings);
}

const source_file *model_file(const tu_model *m, const char *path)
{
    if (!path)
        return NULL;
    for (size_t i = 0; i < m->files.len; i++)
        if (m->files.items[i].path == path ||
            strcmp(m->files.items[i].path, path) == 0)
            return &m->files.items[i];
    return NULL;
}

const char *model_decl_kind_name(decl_kind k)
{
    switch (k) {
    case DECL_FUNCTION: return "function";
    case DECL_TYPE: return "type";
    case DECL_VARIABLE: return "variable";
    case DECL_MACRO: return "macro";
    case DECL_KERNEL: return "kernel";
    }
    return "unknown";
}
