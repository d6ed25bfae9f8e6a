/*
 * rewrite.h: splicing new text into a user's file.  Pure functions: given
 * the original bytes and a set of non-overlapping edits, produce the new
 * bytes.  Everything outside the edits is copied unchanged, byte for byte.
 */
#ifndef CL1CC_REWRITE_H
#define CL1CC_REWRITE_H

#include "core.h"
#include "text_edit.h"

/* an edit of the original bytes: [begin, end) replaced by text (the core's
 * one edit type, core/text_edit.h) */
typedef text_edit rw_edit;

typedef enum rw_status { RW_OK = 0, RW_BAD_EDITS = 1 } rw_status;

/* Applies edits (any order, sorted in place as text_edits_sort_check sorts
 * them; they must not overlap and must lie within the text) to text,
 * appending the result to out.  With line_directives set,
 * the result is for the compiler only: it starts with #line 1 "path" and
 * each replacement is followed by a #line that puts the rest of the file
 * back at its original line numbers, so diagnostics, -lineinfo and
 * debuggers point at the user's file. */
rw_status rw_splice(const char *text, size_t len, const char *path,
                    rw_edit *edits, size_t n_edits, int line_directives,
                    strbuf *out, strbuf *err);

/* ---- rewriting a user's file in place, with provenance markers ------------
 * (marker.c; the format is documented in docs/REWRITE.md)
 *
 * A rewritten kernel is preceded by a block comment, the marker, that says
 * where the variant came from and holds the original bytes (zlib, base64)
 * with their length and SHA-256, so that rw_revert restores the file byte
 * for byte without the tuning database.  An edited launch-configuration
 * argument carries a short inline comment holding its original text. */

typedef struct rw_provenance {
    const char *kernel;       /* qualified name */
    double speedup;
    const char *arch;         /* "sm_90" */
    const char *gpu_name;     /* NULL or "": "unknown" */
    const char *date;         /* "2025-01-31" */
    const char *key;          /* the kernel's tuning-database key */
    const char *variant_hash; /* tunedb_variant_hash of the variant */
} rw_provenance;

typedef struct rw_launch_change {
    size_t begin, end; /* one launch-configuration argument, or <<<...>>> */
    const char *text;  /* what replaces it */
} rw_launch_change;

typedef struct rw_kernel_change {
    size_t begin, end;   /* the kernel's definition (decl_range) */
    const char *variant; /* the replacement definition, as the db holds it */
    rw_provenance prov;
    const rw_launch_change *launches;
    size_t n_launches;
} rw_kernel_change;

/* Applies the changes to text (a whole file), appending the new file to out:
 * each kernel gets its marker, each launch change its inline comment, and
 * everything else is copied unchanged.  A CRLF file gets CRLF in what is
 * inserted.  RW_BAD_EDITS with a message in err when the changes overlap
 * or lie outside the text. */
rw_status rw_apply(const char *text, size_t len, const char *path,
                   const rw_kernel_change *changes, size_t n_changes,
                   strbuf *out, strbuf *err);

/* 1 when the kernel whose definition starts at offset was put there by
 * rw_apply (a marker ends right before it): never rewrite or splice it
 * again. */
int rw_is_rewritten(const char *text, size_t len, size_t offset);

/* Restores every marked kernel and launch argument of text, appending the
 * original file to out.  Returns how many were restored (0: out is a copy of
 * text), or -1 with "path:LINE: message" in err when a marker is damaged or
 * the text it covers was edited since (then nothing is restored). */
long rw_revert(const char *text, size_t len, const char *path, strbuf *out,
               strbuf *err);

/* ---- unified diffs (diff.c) ------------------------------------------------ */

/* Appends to out a unified diff of a file from old_text to new_text, headed
 * "diff --git a/PATH b/PATH", with `context` lines around each change, as
 * `git apply` and `patch -p1` take it.  Nothing when the texts are equal. */
void rw_unified_diff(const char *path, const char *old_text, size_t old_len,
                     const char *new_text, size_t new_len, int context,
                     strbuf *out);

#endif
