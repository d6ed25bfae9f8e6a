/*
 * diagnostics.c: what clang's errors mean for the model.  clang rejects some
 * host code that nvcc accepts; an error that touches no kernel, nothing a
 * kernel needs and no launch site is noted and ignored, while a kernel whose
 * own text, dependencies or launches hold an error is left alone, by name.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* A place an error points at in a user file: its location, expanded and
 * as spelled, and those of its notes ("in instantiation of ... requested
 * here" names the launch or kernel that made a header fail). */
typedef struct error_point {
    const char *file;
    unsigned offset;
} error_point;

typedef VEC(error_point) error_point_vec;

static void add_point(fe_context *cx, CXSourceLocation loc, error_point_vec *points)
{
    if (clang_Location_isInSystemHeader(loc))
        return;
    CXFile file = NULL;
    unsigned offset = 0;
    clang_getExpansionLocation(loc, &file, NULL, NULL, &offset);
    const char *path = fe_file_path(cx, file);
    if (path)
        vec_push(points, ((error_point){path, offset}));
    clang_getSpellingLocation(loc, &file, NULL, NULL, &offset);
    path = fe_file_path(cx, file);
    if (path)
        vec_push(points, ((error_point){path, offset}));
}

static void collect_points(fe_context *cx, CXDiagnostic d, error_point_vec *points)
{
    add_point(cx, clang_getDiagnosticLocation(d), points);
    unsigned nranges = clang_getDiagnosticNumRanges(d);
    for (unsigned r = 0; r < nranges; r++)
        add_point(cx, clang_getRangeStart(clang_getDiagnosticRange(d, r)), points);
    CXDiagnosticSet notes = clang_getChildDiagnostics(d);
    unsigned n = clang_getNumDiagnosticsInSet(notes);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic note = clang_getDiagnosticInSet(notes, i);
        add_point(cx, clang_getDiagnosticLocation(note), points);
        clang_disposeDiagnostic(note);
    }
}

static int within(const src_range *r, const error_point *p)
{
    return r->present && r->file && p->file &&
           (r->file == p->file || strcmp(r->file, p->file) == 0) &&
           p->offset >= r->begin && p->offset <= r->end;
}

/* Does the error touch kernel i: its definition, something it needs, or
 * one of its launches? */
static int touches_kernel(const tu_model *m, size_t i, const error_point_vec *points)
{
    const kernel *k = &m->kernels.items[i];
    for (size_t p = 0; p < points->len; p++) {
        const error_point *pt = &points->items[p];
        if (within(&k->decl_range, pt))
            return 1;
        for (size_t d = 0; d < k->deps.len; d++)
            if (within(&m->decls.items[k->deps.items[d]].range, pt))
                return 1;
        for (size_t l = 0; l < m->launches.len; l++) {
            const launch_site *ls = &m->launches.items[l];
            if (ls->kernel_index == (long)i && within(&ls->range, pt))
                return 1;
        }
    }
    return 0;
}

static char *format_error(fe_context *cx, CXDiagnostic d)
{
    CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation |
                                               CXDiagnostic_DisplayColumn);
    return fe_string(cx, s);
}

/* Moves the kernels marked in left_alone to m->skipped, renumbering the
 * launches' kernel indices (a launch of a skipped kernel is unresolved). */
static void drop_kernels(fe_context *cx, const char **left_alone)
{
    tu_model *m = cx->model;
    size_t n = m->kernels.len, kept = 0;
    long *new_index = calloc(n ? n : 1, sizeof *new_index);
    if (!new_index)
        log_bug(__FILE__, __LINE__, "out of memory");
    for (size_t i = 0; i < n; i++) {
        if (left_alone[i]) {
            skipped_kernel s;
            s.name = m->kernels.items[i].qualified_name;
            s.decl_range = m->kernels.items[i].decl_range;
            s.reason = left_alone[i];
            vec_push(&m->skipped, s);
            vec_free(&m->kernels.items[i].params);
            vec_free(&m->kernels.items[i].template_params);
            vec_free(&m->kernels.items[i].deps);
            vec_free(&m->kernels.items[i].body);
            new_index[i] = -1;
            continue;
        }
        new_index[i] = (long)kept;
        m->kernels.items[kept] = m->kernels.items[i];
        cx->kernel_cursors.items[kept] = cx->kernel_cursors.items[i];
        kept++;
    }
    m->kernels.len = kept;
    cx->kernel_cursors.len = kept;
    for (size_t l = 0; l < m->launches.len; l++) {
        launch_site *ls = &m->launches.items[l];
        if (ls->kernel_index >= 0 && (size_t)ls->kernel_index < n)
            ls->kernel_index = new_index[ls->kernel_index];
    }
    free(new_index);
}

int fe_apply_errors(fe_context *cx, int *in_user_files)
{
    tu_model *m = cx->model;
    CXTranslationUnit tu = cx->tu;
    size_t n_kernels = m->kernels.len;
    const char **left_alone = calloc(n_kernels ? n_kernels : 1, sizeof *left_alone);
    if (!left_alone)
        log_bug(__FILE__, __LINE__, "out of memory");
    int errors = 0;
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) < CXDiagnostic_Error) {
            clang_disposeDiagnostic(d);
            continue;
        }
        errors++;
        if (!clang_Location_isInSystemHeader(clang_getDiagnosticLocation(d)))
            (*in_user_files)++;
        error_point_vec points = {0};
        collect_points(cx, d, &points);
        int touched = 0;
        for (size_t k = 0; k < n_kernels; k++) {
            if (!touches_kernel(m, k, &points))
                continue;
            touched = 1;
            if (!left_alone[k])
                left_alone[k] = format_error(cx, d);
        }
        if (!touched) {
            if (!m->ignored_errors)
                m->first_ignored_error = format_error(cx, d);
            m->ignored_errors++;
        }
        vec_free(&points);
        clang_disposeDiagnostic(d);
    }
    drop_kernels(cx, left_alone);
    free(left_alone);
    return errors;
}
