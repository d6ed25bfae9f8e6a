/*
 * rewrite_plan.h: what `cl1cc rewrite`, `cl1cc revert` and `cl1cc ci` share:
 * a user's files rewritten with the verified variants of the tuning database
 * that the nvcc wrapper would splice (the one decision of apply.h), in
 * place, as a patch, or only checked.
 */
#ifndef CL1CC_REWRITE_PLAN_H
#define CL1CC_REWRITE_PLAN_H

#include "core.h"
#include "wrapper.h"

typedef enum rewrite_mode {
    REWRITE_IN_PLACE, /* write each changed file atomically */
    REWRITE_PATCH,    /* append a unified diff to the result */
    REWRITE_CHECK     /* change nothing; say what would be rewritten */
} rewrite_mode;

typedef struct rewrite_request {
    const char *const *files;
    size_t n_files;
    const nvcc_cmdline *flags; /* the compile's flags: parsing and keys */
    const char *const *archs;  /* looked up (apply_archs); a kernel gets a
                                  variant only when every arch has the same
                                  best one */
    size_t n_archs;
    rewrite_mode mode;
} rewrite_request;

typedef struct rewrite_kernel_info {
    const char *file; /* absolute, symlinks resolved */
    const char *kernel;
    const char *arch;
    const char *key; /* for the first arch */
    const char *variant_hash;
    double speedup;
    unsigned line;
} rewrite_kernel_info;

typedef struct rewrite_result {
    arena strings;
    VEC(rewrite_kernel_info) applied; /* rewritten (or would be, for CHECK) */
    VEC(rewrite_kernel_info) already; /* rewritten before: left alone */
    cstr_vec notes;                   /* kernels left out, and why */
    strbuf patch;                     /* REWRITE_PATCH */
    size_t files_changed, errors;
} rewrite_result;

/* Errors (a file that cannot be read, parsed or written, the database) are
 * reported on stderr as they happen and counted: such a file is left as it
 * was and the others are still done.  0 when there was none, else 1. */
int rewrite_run(const rewrite_request *rq, rewrite_result *res);
void rewrite_result_free(rewrite_result *res);

/* A file's path in a patch: relative to the git top level when the current
 * directory is in a work tree holding it, else relative to the current
 * directory, else as given. */
const char *rewrite_patch_path(const char *file, arena *a);

#endif
