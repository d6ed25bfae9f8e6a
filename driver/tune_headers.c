/*
 * tune_headers.c: which kernels `cl1cc tune FILE.cu` tunes: those FILE
 * defines and those of the project headers it includes (the frontend keeps
 * user files only, never system headers), each once per run.
 */
#include "tune.h"

#include <string.h>

int tune_kernel_of_file(const tu_model *m, const kernel *k, const tune_target *targets,
                        size_t n_targets)
{
    if (!k->is_definition || !k->decl_range.file || k->decl_range.in_macro)
        return 0;
    if (strcmp(k->decl_range.file, m->main_file) == 0)
        return 1;
    if (!model_file(m, k->decl_range.file))
        return 0; /* not a user file the frontend kept */
    /* a header kernel another file of this run brought already */
    for (size_t i = 0; i < n_targets; i++)
        if (targets[i].k && strcmp(targets[i].k->qualified_name, k->qualified_name) == 0 &&
            targets[i].k->decl_range.file &&
            strcmp(targets[i].k->decl_range.file, k->decl_range.file) == 0)
            return 0;
    return 1;
}
