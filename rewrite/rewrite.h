/*
 * rewrite.h: splicing new text into a user's file.  Pure functions: given
 * the original bytes and a set of non-overlapping edits, produce the new
 * bytes.  Everything outside the edits is copied unchanged, byte for byte.
 */
#ifndef CL1CC_REWRITE_H
#define CL1CC_REWRITE_H

#include "core.h"

typedef struct rw_edit {
    size_t begin, end;       /* [begin, end) in the original bytes */
    const char *replacement; /* NUL-terminated */
} rw_edit;

typedef enum rw_status { RW_OK = 0, RW_BAD_EDITS = 1 } rw_status;

/* Applies edits (any order; they must not overlap and must lie within the
 * text) to text, appending the result to out.  With line_directives set,
 * the result is for the compiler only: it starts with #line 1 "path" and
 * each replacement is followed by a #line that puts the rest of the file
 * back at its original line numbers, so diagnostics, -lineinfo and
 * debuggers point at the user's file. */
rw_status rw_splice(const char *text, size_t len, const char *path,
                    rw_edit *edits, size_t n_edits, int line_directives,
                    strbuf *out, strbuf *err);

#endif
