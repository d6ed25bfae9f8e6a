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
    }
    for (size_t i = 0; i < m->launches.len; i++)
        vec_free(&m->launches.items[i].args);
    vec_free(&m->kernels);
    vec_free(&m->launches);
    vec_free(&m->decls);
    arena_free(&m->strings);
}
