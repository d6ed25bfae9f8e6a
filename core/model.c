/*
 * model.c: lifetime of a tu_model, and the text of the shared enums
 * (declaration kinds, verdicts).
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

/* index = verdict_kind: the one place verdicts are spelled */
static const char *const verdict_names[] = {
    [VERDICT_PENDING] = "pending",     [VERDICT_PASS] = "pass",
    [VERDICT_WRONG] = "wrong",         [VERDICT_BUILD_ERROR] = "build_error",
    [VERDICT_CRASH] = "crash",         [VERDICT_TIMEOUT] = "timeout",
    [VERDICT_SANITIZER] = "sanitizer", [VERDICT_ERROR] = "error",
    [VERDICT_NOT_RUN] = "not_run",     [VERDICT_BAD_REPLY] = "bad_reply",
    [VERDICT_UNKNOWN] = "unknown",
};

const char *verdict_name(verdict_kind v)
{
    size_t n = sizeof verdict_names / sizeof verdict_names[0];
    return (size_t)v < n ? verdict_names[v] : "unknown";
}

int verdict_parse(const char *text, verdict_kind *out)
{
    size_t n = sizeof verdict_names / sizeof verdict_names[0];
    for (size_t i = 0; text && i + 1 < n; i++)
        if (strcmp(text, verdict_names[i]) == 0) {
            *out = (verdict_kind)i;
            return 0;
        }
    *out = VERDICT_UNKNOWN;
    return -1;
}
