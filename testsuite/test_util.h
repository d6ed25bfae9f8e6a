/*
 * test_util.h: what the C test programs share besides CHECK (check.h):
 * a fixture TU parsed into a model, and a file's line count.
 */
#ifndef CL1CC_TEST_UTIL_H
#define CL1CC_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "frontend.h"

/* path parsed into m (model_init'ed here), with the kernels' bodies when
 * with_bodies, under the clang flags; 0, or 1 with the diagnostics on
 * stderr */
static inline int parse_fixture(const char *path, int with_bodies, const char *const *flags,
                                size_t n_flags, tu_model *m)
{
    model_init(m);
    fe_options fo;
    memset(&fo, 0, sizeof fo);
    fo.with_bodies = with_bodies;
    fo.flags = flags;
    fo.n_flags = n_flags;
    strbuf diags;
    sb_init(&diags);
    int rc = fe_parse(path, &fo, m, &diags) == FE_OK ? 0 : 1;
    if (rc)
        fputs(sb_str(&diags), stderr);
    sb_free(&diags);
    return rc;
}

/* the lines of the file at path (0 when it cannot be read) */
static inline int file_line_count(const char *path)
{
    char *text = NULL;
    size_t len = 0;
    if (file_read_all(path, 0, &text, &len) != 0)
        return 0;
    int n = 0;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    free(text);
    return n;
}

#endif
