/*
 * internal.h: what the frontend's files share.  Not part of the public
 * face (frontend.h); nothing outside frontend/ includes it.
 */
#ifndef CL1CC_FRONTEND_INTERNAL_H
#define CL1CC_FRONTEND_INTERNAL_H

#include <clang-c/Index.h>

#include "frontend.h"

/* A macro expansion's extent in one user file, [begin, end) bytes. */
typedef struct macro_span {
    const char *file;
    unsigned begin, end;
    CXCursor expansion; /* CXCursor_MacroExpansion */
} macro_span;

/* A user macro definition, for macro dependencies. */
typedef struct macro_def {
    const char *name;
    CXCursor cursor;
    src_range range;
} macro_def;

typedef VEC(CXCursor) cursor_vec;

typedef struct fe_context {
    CXTranslationUnit tu;
    tu_model *model;
    arena *strings; /* == &model->strings */
    VEC(macro_span) expansions; /* sorted by (file, begin) after parsing */
    VEC(macro_def) macros;
    cursor_vec kernel_cursors; /* parallel to model->kernels */
    cursor_vec decl_cursors;   /* parallel to model->decls */
} fe_context;

/* source_map.c */
int fe_is_user_location(CXSourceLocation loc);
/* Interns the file's path and caches its bytes in the model; returns the
 * interned path or NULL for locations in no file. */
const char *fe_file_path(fe_context *cx, CXFile file);
src_range fe_range_of(fe_context *cx, CXSourceRange r);
src_range fe_cursor_range(fe_context *cx, CXCursor c);
char *fe_cursor_text(fe_context *cx, CXCursor c);
char *fe_text_of(fe_context *cx, const src_range *r);
char *fe_string(fe_context *cx, CXString s); /* copies and disposes */
void fe_index_macro_expansions(fe_context *cx);
int fe_range_in_macro(const fe_context *cx, const src_range *r);
/* the range is exactly one macro invocation, "LAUNCH(k, p)" */
int fe_range_is_invocation(const fe_context *cx, const src_range *r);

/* clang_args.c: the clang arguments a parse uses; the strings live in a */
size_t fe_clang_args(const fe_options *opt, arena *a, const char ***args_out);

/* parse.c: fe_parse's work, in this process (parse_isolated.c runs it in
 * a child) */
fe_status fe_parse_in_process(const char *path, const fe_options *opt, tu_model *out,
                              strbuf *diags);
/* parse.c: any diagnostic of error severity or worse; of fatal severity */
int fe_tu_has_errors(CXTranslationUnit tu);
int fe_tu_has_fatal(CXTranslationUnit tu);

/* diagnostics.c: leaves alone (moves to model.skipped) each kernel that an
 * error touches, counts the others as ignored; returns the errors seen, and
 * adds those located in the user's files to *in_user_files */
int fe_apply_errors(fe_context *cx, int *in_user_files);

/* pch_cache.c: the cached PCH for these parser arguments (built on first
 * use), or NULL to parse without one */
const char *fe_pch_for(CXIndex index, const char *const *args, size_t n, arena *a);
void fe_pch_discard(const char *path);

/* extract_kernels.c */
int fe_is_kernel(CXCursor c);
void fe_add_kernel(fe_context *cx, CXCursor c);
char *fe_qualified_name(fe_context *cx, CXCursor c);

/* extract_launches.c */
int fe_is_launch(CXCursor c);
/* function: the innermost function or lambda around the call, or null */
void fe_add_launch(fe_context *cx, CXCursor call, CXCursor function);

/* extract_deps.c */
void fe_collect_dependencies(fe_context *cx);

/* extract_body.c: fills kernel.body of every kernel definition */
void fe_extract_bodies(fe_context *cx);
/* extract_expr.c: an integer expression as text (model.h's loop_bound and
 * expr), or NULL; the spelling of c's first punctuation token at or after
 * offset */
const char *fe_expr_text(fe_context *cx, CXCursor c);
const char *fe_operator_after(fe_context *cx, CXCursor c, unsigned offset);

#endif
