/*
 * parse.c: runs libclang over one translation unit with the user's flags
 * and the CUDA 13 workarounds, reports the user's errors with file:line, and
 * walks the AST once to hand kernels and launches to the extractors.
 */
#include "internal.h"

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int report_diagnostics(CXTranslationUnit tu, int max_errors, strbuf *diags)
{
    int errors = 0;
    unsigned n = clang_getNumDiagnostics(tu);
    unsigned display = CXDiagnostic_DisplaySourceLocation |
                       CXDiagnostic_DisplayColumn |
                       CXDiagnostic_DisplayOption;
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        if (sev >= CXDiagnostic_Error) {
            if (errors < max_errors) {
                CXString s = clang_formatDiagnostic(d, display);
                sb_printf(diags, "%s\n", clang_getCString(s));
                clang_disposeString(s);
            }
            errors++;
        }
        clang_disposeDiagnostic(d);
    }
    if (errors > max_errors)
        sb_printf(diags, "(%d more errors not shown)\n", errors - max_errors);
    return errors;
}

static int has_severity(CXTranslationUnit tu, enum CXDiagnosticSeverity at_least)
{
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        int bad = clang_getDiagnosticSeverity(d) >= at_least;
        clang_disposeDiagnostic(d);
        if (bad)
            return 1;
    }
    return 0;
}

int fe_tu_has_errors(CXTranslationUnit tu)
{
    return has_severity(tu, CXDiagnostic_Error);
}

static int errors_mention(CXTranslationUnit tu, const char *words)
{
    unsigned n = clang_getNumDiagnostics(tu);
    int found = 0;
    for (unsigned i = 0; i < n && !found; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            CXString text = clang_getDiagnosticSpelling(d);
            const char *t = clang_getCString(text);
            found = t && strstr(t, words) != NULL;
            clang_disposeString(text);
        }
        clang_disposeDiagnostic(d);
    }
    return found;
}

/* Fatal: nothing after it can be trusted.  KeepGoing parses report a
 * missing header as a plain error, so it is told by its text. */
int fe_tu_has_fatal(CXTranslationUnit tu)
{
    return has_severity(tu, CXDiagnostic_Fatal) || errors_mention(tu, "file not found");
}

typedef struct walk_state {
    fe_context *cx;
    CXCursor function; /* innermost function or lambda */
} walk_state;

static int is_function_like(enum CXCursorKind k)
{
    return k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate ||
           k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
           k == CXCursor_Destructor || k == CXCursor_LambdaExpr ||
           k == CXCursor_ConversionFunction;
}

static enum CXChildVisitResult walk(CXCursor c, CXCursor parent, CXClientData data)
{
    walk_state *ws = data;
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_MacroDefinition || k == CXCursor_MacroExpansion ||
        k == CXCursor_InclusionDirective)
        return CXChildVisit_Continue;
    /* an expression belongs to the declaration around it, already found to
     * be the user's; and asking for its location costs the depth of its
     * left operands (a 100k-term sum made this walk quadratic) */
    if (!clang_isExpression(k) && !fe_is_user_location(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    if (fe_is_kernel(c))
        fe_add_kernel(ws->cx, c);
    if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c) &&
        clang_getCursorKind(clang_getCursorSemanticParent(c)) == CXCursor_TranslationUnit) {
        CXString name = clang_getCursorSpelling(c);
        const char *n = clang_getCString(name);
        if (n && strcmp(n, "main") == 0)
            ws->cx->model->main_function_name =
                fe_range_of(ws->cx, clang_Cursor_getSpellingNameRange(c, 0, 0));
        clang_disposeString(name);
    }
    if (k == CXCursor_CallExpr && fe_is_launch(c))
        fe_add_launch(ws->cx, c, ws->function);
    if (is_function_like(k)) {
        walk_state inner = {ws->cx, c};
        clang_visitChildren(c, walk, &inner);
        return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
}

static fe_status check_input(const char *path, const fe_options *opt, strbuf *diags)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        sb_printf(diags, "%s: error: %s\n", path, strerror(errno));
        return FE_USER_ERROR;
    }
    if (!S_ISREG(st.st_mode)) {
        sb_printf(diags, "%s: error: not a regular file\n", path);
        return FE_USER_ERROR;
    }
    size_t limit = opt->max_source_bytes ? opt->max_source_bytes : (size_t)64 << 20;
    if (!opt->max_source_bytes && config_max_source_bytes() > 0)
        limit = config_max_source_bytes();
    if ((unsigned long long)st.st_size > limit) {
        sb_printf(diags, "%s:1:1: error: file is %lld bytes, over the %zu-byte limit for parsing\n",
                  path, (long long)st.st_size, limit);
        return FE_USER_ERROR;
    }
    if (st.st_size == 0) {
        sb_printf(diags, "%s:1:1: error: empty file: no CUDA code to read\n", path);
        return FE_USER_ERROR;
    }
    /* a file with NUL bytes is no source file: say so instead of letting
     * the parser print pages of noise */
    FILE *f = fopen(path, "rb");
    if (!f) {
        sb_printf(diags, "%s: error: %s\n", path, strerror(errno));
        return FE_USER_ERROR;
    }
    unsigned line = 1, col = 1;
    int c;
    size_t scanned = 0;
    while ((c = fgetc(f)) != EOF && scanned++ < ((size_t)1 << 20)) {
        if (c == 0) {
            fclose(f);
            sb_printf(diags, "%s:%u:%u: error: binary data (a NUL byte): not a CUDA source file\n",
                      path, line, col);
            return FE_USER_ERROR;
        }
        if (c == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    fclose(f);
    return FE_OK;
}

/* One parse, with the cached PCH when use_pch; *stale_pch is set when the
 * PCH turned out stale only as the AST was read (libclang reports a changed
 * header lazily, as a plain error) */
static fe_status parse_once(const char *path, const fe_options *opt, tu_model *out,
                            strbuf *diags, int use_pch, int *stale_pch)
{
    double start = now_seconds();
    arena scratch;
    arena_init(&scratch);
    const char **args;
    size_t nargs = fe_clang_args(opt, &scratch, &args);

    CXIndex index = clang_createIndex(0, 0);
    if (!index) {
        arena_free(&scratch);
        sb_puts(diags, "cl1cc: libclang could not create an index\n");
        return FE_INTERNAL;
    }
    CXTranslationUnit tu = NULL;
    unsigned flags = CXTranslationUnit_DetailedPreprocessingRecord |
                     CXTranslationUnit_KeepGoing;
    enum CXErrorCode rc = CXError_Failure;
    const char *pch = use_pch ? fe_pch_for(index, args, nargs, &scratch) : NULL;
    const char *pch_used = NULL;
    if (pch) {
        const char **with_pch = arena_alloc(&scratch, (nargs + 2) * sizeof *with_pch);
        memcpy(with_pch, args, nargs * sizeof *args);
        with_pch[nargs] = "-include-pch";
        with_pch[nargs + 1] = pch;
        rc = clang_parseTranslationUnit2(index, path, with_pch, (int)nargs + 2,
                                         NULL, 0, flags, &tu);
        /* a stale or unusable PCH (headers changed since, a damaged file):
         * the parse without it is the one that counts, diagnostics
         * included; KeepGoing makes a PCH's fatal error a plain one, so any
         * error means a parse without it, and one that names the PCH means
         * it goes (the next parse makes a fresh one) */
        if (rc != CXError_Success || !tu || fe_tu_has_errors(tu)) {
            if (rc != CXError_Success || !tu || errors_mention(tu, "precompiled header") ||
                errors_mention(tu, "PCH file"))
                fe_pch_discard(pch);
            if (tu)
                clang_disposeTranslationUnit(tu);
            tu = NULL;
            pch = NULL;
        }
        pch_used = pch ? arena_strdup(&out->strings, pch) : NULL;
    }
    if (!pch)
        rc = clang_parseTranslationUnit2(index, path, args, (int)nargs, NULL, 0,
                                         flags, &tu);
    arena_free(&scratch);
    if (rc != CXError_Success || !tu) {
        sb_printf(diags, "%s: error: libclang could not parse it (error %d%s)\n",
                  path, (int)rc,
                  rc == CXError_Crashed ? ": the parser crashed"
                  : rc == CXError_ASTReadError ? ": AST read error"
                  : rc == CXError_InvalidArguments ? ": invalid arguments" : "");
        clang_disposeIndex(index);
        return rc == CXError_Crashed || rc == CXError_Failure ? FE_INTERNAL
                                                              : FE_USER_ERROR;
    }

    /* success can come back after a fatal diagnostic (a missing header):
     * then nothing in the TU can be trusted */
    int max_errors = opt->max_errors > 0 ? opt->max_errors : 10;
    if (fe_tu_has_fatal(tu)) {
        report_diagnostics(tu, max_errors, diags);
        clang_disposeTranslationUnit(tu);
        clang_disposeIndex(index);
        return FE_USER_ERROR;
    }

    fe_context cx;
    memset(&cx, 0, sizeof cx);
    cx.tu = tu;
    cx.model = out;
    cx.strings = &out->strings;
    CXFile main_file = clang_getFile(tu, path);
    out->main_file = fe_file_path(&cx, main_file);
    if (!out->main_file)
        out->main_file = arena_strdup(&out->strings, path);
    fe_index_macro_expansions(&cx);
    walk_state ws = {&cx, clang_getNullCursor()};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), walk, &ws);
    fe_collect_dependencies(&cx);
    /* errors that touch a kernel leave it alone; the others are host code
     * clang rejects and nvcc accepts.  With no kernel left to read and an
     * error in the user's own files (or a kernel left alone), the errors are
     * the user's to see; errors in system headers only (the host compiler's
     * omp.h, say) are clang's own, whatever the TU holds. */
    fe_status result = FE_OK;
    int user_errors = 0;
    if (fe_tu_has_errors(tu) && fe_apply_errors(&cx, &user_errors) > 0 &&
        out->kernels.len == 0 && (user_errors > 0 || out->skipped.len > 0)) {
        report_diagnostics(tu, max_errors, diags);
        result = FE_USER_ERROR;
    }
    if (result == FE_OK && opt->with_bodies)
        fe_extract_bodies(&cx);
    out->parse_seconds = now_seconds() - start;
    if (pch_used && (errors_mention(tu, "precompiled header") || errors_mention(tu, "PCH file"))) {
        fe_pch_discard(pch_used);
        *stale_pch = 1;
    }

    vec_free(&cx.expansions);
    vec_free(&cx.macros);
    vec_free(&cx.kernel_cursors);
    vec_free(&cx.decl_cursors);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
    return result;
}

fe_status fe_parse_in_process(const char *path, const fe_options *opt, tu_model *out,
                              strbuf *diags)
{
    fe_options defaults;
    if (!opt) {
        memset(&defaults, 0, sizeof defaults);
        opt = &defaults;
    }
    fe_status st = check_input(path, opt, diags);
    if (st != FE_OK)
        return st;
    size_t diags_before = diags->len;
    int stale_pch = 0;
    st = parse_once(path, opt, out, diags, 1, &stale_pch);
    if (!stale_pch)
        return st;
    /* what a stale PCH made is thrown away: the parse without it counts */
    model_free(out);
    model_init(out);
    diags->len = diags_before;
    if (diags->data)
        diags->data[diags_before] = '\0';
    return parse_once(path, opt, out, diags, 0, &stale_pch);
}
