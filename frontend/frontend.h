/*
 * frontend.h: the libclang frontend.  Parses one CUDA translation unit with
 * the user's own flags and fills a tu_model (core/model.h): every
 * __global__ kernel with its parameters, extents and dependencies, and every
 * <<<...>>> launch site.
 */
#ifndef CL1CC_FRONTEND_H
#define CL1CC_FRONTEND_H

#include "core.h"
#include "model.h"

typedef struct fe_options {
    /* the user's flags in clang spelling: -I, -isystem, -D, -U, -include,
     * -std (wrapper/wrapper.h's frontend_flags give exactly these) */
    const char *const *flags;
    size_t n_flags;
    const char *cuda_path;  /* NULL: $CUDA_PATH, else /usr/local/cuda */
    const char *stub_dir;   /* NULL: <exe>/../share/cl1cc/clang-stubs */
    size_t max_source_bytes;/* 0: 64 MiB */
    int max_errors;         /* diagnostics reported before giving up; 0: 10 */
    int with_bodies;        /* also fill each kernel's body (model.h) */
} fe_options;

typedef enum fe_status {
    FE_OK = 0,
    FE_USER_ERROR = 1, /* the source does not parse: diagnostics say where */
    FE_INTERNAL = 2    /* libclang or the environment failed */
} fe_status;

/* Parses path into *out (which must be model_init'ed).  Diagnostics of the
 * user's code go to diags as "file:line:col: error: message" lines; a
 * failure of ours goes there as one line too.  Never aborts on bad input. */
fe_status fe_parse(const char *path, const fe_options *opt, tu_model *out,
                   strbuf *diags);


/* The text of a range, read through the model's file cache; NULL if the
 * file cannot be read. */
const char *fe_range_text(const tu_model *m, const src_range *r, arena *a);

/* The compile command of file in BUILD_DIR/compile_commands.json: its
 * arguments after the compiler's name into args, its directory into
 * *directory (strings in a).  0, or -1 with the reason in err. */
int fe_compdb_command(const char *build_dir, const char *file, arena *a, str_vec *args,
                      const char **directory, strbuf *err);

/* ---- JSON view of a model (cl1cc inspect, prompts, reports) ----------- */
struct cJSON;
struct cJSON *fe_model_to_json(const tu_model *m, int with_text);

#endif
