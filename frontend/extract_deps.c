/*
 * extract_deps.c: for each kernel, the transitive closure of what it needs
 * from the user's files: device functions, types, globals (__constant__,
 * __device__, extern __shared__) and macros, each recorded once in
 * tu_model.decls and referenced by index from the kernel.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct closure {
    fe_context *cx;
    kernel *k;
    CXCursor kernel_cursor;
    cursor_vec work;
} closure;

static int is_attr_kind(CXCursor c, enum CXCursorKind want);

typedef struct attr_probe {
    enum CXCursorKind want;
    int found;
} attr_probe;

static enum CXChildVisitResult probe_attr(CXCursor c, CXCursor parent,
                                          CXClientData data)
{
    attr_probe *p = data;
    (void)parent;
    if (clang_getCursorKind(c) == p->want) {
        p->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

static int is_attr_kind(CXCursor c, enum CXCursorKind want)
{
    attr_probe p = {want, 0};
    clang_visitChildren(c, probe_attr, &p);
    return p.found;
}

static int is_scope_kind(enum CXCursorKind k)
{
    return k == CXCursor_TranslationUnit || k == CXCursor_Namespace ||
           k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl;
}

static int is_type_kind(enum CXCursorKind k)
{
    return k == CXCursor_StructDecl || k == CXCursor_ClassDecl ||
           k == CXCursor_UnionDecl || k == CXCursor_EnumDecl ||
           k == CXCursor_TypedefDecl || k == CXCursor_TypeAliasDecl ||
           k == CXCursor_ClassTemplate ||
           k == CXCursor_ClassTemplatePartialSpecialization ||
           k == CXCursor_TypeAliasTemplateDecl;
}

/* Maps what a reference points at to the namespace-scope declaration that
 * has to come along (a field's struct, an enumerator's enum, the template
 * of a specialization, a function's definition); null if nothing should. */
static CXCursor needed_declaration(CXCursor ref)
{
    for (int guard = 0; guard < 32; guard++) {
        enum CXCursorKind k = clang_getCursorKind(ref);
        if (clang_Cursor_isNull(ref) || clang_isInvalid(k) ||
            !clang_isDeclaration(k))
            return clang_getNullCursor();
        CXCursor tmpl = clang_getSpecializedCursorTemplate(ref);
        if (!clang_Cursor_isNull(tmpl) && !clang_equalCursors(tmpl, ref)) {
            ref = tmpl;
            continue;
        }
        CXCursor parent = clang_getCursorSemanticParent(ref);
        enum CXCursorKind pk = clang_getCursorKind(parent);
        if (!is_scope_kind(pk)) {
            /* members, enumerators, locals: climb to the enclosing
             * declaration; a local of a function is never a dependency */
            if (pk == CXCursor_FunctionDecl || pk == CXCursor_FunctionTemplate ||
                pk == CXCursor_CXXMethod || clang_isInvalid(pk) ||
                clang_Cursor_isNull(parent))
                return clang_getNullCursor();
            ref = parent;
            continue;
        }
        if (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) {
            CXCursor def = clang_getCursorDefinition(ref);
            if (!clang_Cursor_isNull(def))
                ref = def;
            return ref;
        }
        if (k == CXCursor_VarDecl || is_type_kind(k))
            return ref;
        return clang_getNullCursor();
    }
    return clang_getNullCursor();
}

static void describe(CXCursor d, dependency *dep)
{
    enum CXCursorKind k = clang_getCursorKind(d);
    if (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) {
        if (is_attr_kind(d, CXCursor_CUDAGlobalAttr)) {
            dep->kind = DECL_KERNEL;
            dep->space = "global";
            return;
        }
        int dev = is_attr_kind(d, CXCursor_CUDADeviceAttr);
        int host = is_attr_kind(d, CXCursor_CUDAHostAttr);
        dep->kind = DECL_FUNCTION;
        dep->space = dev && host ? "host device" : dev ? "device" : "host";
        return;
    }
    if (k == CXCursor_VarDecl) {
        dep->kind = DECL_VARIABLE;
        dep->is_extern = clang_Cursor_getStorageClass(d) == CX_SC_Extern;
        if (is_attr_kind(d, CXCursor_CUDAConstantAttr))
            dep->space = "constant";
        else if (is_attr_kind(d, CXCursor_CUDASharedAttr))
            dep->space = "shared";
        else if (is_attr_kind(d, CXCursor_CUDADeviceAttr))
            dep->space = "device";
        else
            dep->space = "host";
        return;
    }
    dep->kind = DECL_TYPE;
    dep->space = "";
}

/* Declarations end before their ';': take it along so the text stands on
 * its own when copied into a driver. */
static void include_semicolon(fe_context *cx, src_range *r)
{
    const source_file *sf = model_file(cx->model, r->file);
    if (!sf)
        return;
    size_t i = r->end;
    while (i < sf->len && (sf->text[i] == ' ' || sf->text[i] == '\t'))
        i++;
    if (i < sf->len && sf->text[i] == ';')
        r->end = (unsigned)i + 1;
}

static size_t intern_decl(fe_context *cx, CXCursor d, const dependency *proto)
{
    tu_model *m = cx->model;
    for (size_t i = 0; i < m->decls.len; i++) {
        const dependency *e = &m->decls.items[i];
        if (e->kind == proto->kind && e->range.file == proto->range.file &&
            e->range.begin == proto->range.begin &&
            strcmp(e->name, proto->name) == 0)
            return i;
    }
    vec_push(&m->decls, *proto);
    vec_push(&cx->decl_cursors, d);
    return m->decls.len - 1;
}

static int has_dep(const kernel *k, size_t index)
{
    for (size_t i = 0; i < k->deps.len; i++)
        if (k->deps.items[i] == index)
            return 1;
    return 0;
}

static int range_within(const src_range *inner, const src_range *outer)
{
    return inner->file == outer->file && inner->begin >= outer->begin &&
           inner->end <= outer->end;
}

static void add_ast_dependency(closure *cl, CXCursor d)
{
    fe_context *cx = cl->cx;
    if (!fe_is_user_location(clang_getCursorLocation(d)))
        return;
    if (clang_equalCursors(d, cl->kernel_cursor))
        return;
    dependency dep;
    memset(&dep, 0, sizeof dep);
    dep.range = fe_cursor_range(cx, d);
    if (!dep.range.present || range_within(&dep.range, &cl->k->decl_range))
        return;
    include_semicolon(cx, &dep.range);
    dep.name = fe_qualified_name(cx, d);
    dep.usr = fe_string(cx, clang_getCursorUSR(d));
    describe(d, &dep);
    size_t index = intern_decl(cx, d, &dep);
    if (has_dep(cl->k, index))
        return;
    vec_push(&cl->k->deps, index);
    vec_push(&cl->work, d);
}

static enum CXChildVisitResult visit_refs(CXCursor c, CXCursor parent,
                                          CXClientData data)
{
    closure *cl = data;
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_isReference(k) || clang_isExpression(k) ||
        k == CXCursor_OverloadedDeclRef) {
        CXCursor ref = clang_getCursorReferenced(c);
        if (clang_getCursorKind(ref) == CXCursor_OverloadedDeclRef) {
            unsigned n = clang_getNumOverloadedDecls(ref);
            for (unsigned i = 0; i < n; i++) {
                CXCursor d = needed_declaration(clang_getOverloadedDecl(ref, i));
                if (!clang_Cursor_isNull(d))
                    add_ast_dependency(cl, d);
            }
        } else {
            CXCursor d = needed_declaration(ref);
            if (!clang_Cursor_isNull(d))
                add_ast_dependency(cl, d);
        }
    }
    return CXChildVisit_Recurse;
}

/* ---- macros ---------------------------------------------------------------- */

static void add_macro_dependency(closure *cl, CXCursor def, cursor_vec *macro_work)
{
    fe_context *cx = cl->cx;
    if (clang_Cursor_isNull(def) ||
        clang_getCursorKind(def) != CXCursor_MacroDefinition ||
        !fe_is_user_location(clang_getCursorLocation(def)))
        return;
    dependency dep;
    memset(&dep, 0, sizeof dep);
    dep.kind = DECL_MACRO;
    dep.range = fe_cursor_range(cx, def);
    if (!dep.range.present)
        return;
    dep.name = fe_string(cx, clang_getCursorSpelling(def));
    dep.usr = "";
    dep.space = "";
    size_t index = intern_decl(cx, def, &dep);
    if (has_dep(cl->k, index))
        return;
    vec_push(&cl->k->deps, index);
    vec_push(macro_work, def);
}

static void macros_in_range(closure *cl, const src_range *r,
                            cursor_vec *macro_work)
{
    fe_context *cx = cl->cx;
    for (size_t i = 0; i < cx->expansions.len; i++) {
        const macro_span *s = &cx->expansions.items[i];
        if (s->file != r->file || s->begin < r->begin || s->begin >= r->end)
            continue;
        add_macro_dependency(cl, clang_getCursorReferenced(s->expansion),
                             macro_work);
    }
}

static CXCursor find_macro(fe_context *cx, const char *name, unsigned before,
                           const char *file)
{
    /* the definition in force: the last one of that name seen before the
     * use in the same file, else any (a header's) */
    CXCursor best = clang_getNullCursor();
    for (size_t i = 0; i < cx->macros.len; i++) {
        const macro_def *d = &cx->macros.items[i];
        if (strcmp(d->name, name) != 0)
            continue;
        if (d->range.file == file && d->range.begin > before)
            continue;
        best = d->cursor;
    }
    return best;
}

static void macros_in_macro(closure *cl, CXCursor def, cursor_vec *macro_work)
{
    fe_context *cx = cl->cx;
    CXSourceRange extent = clang_getCursorExtent(def);
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(cx->tu, extent, &tokens, &n);
    src_range where = fe_cursor_range(cx, def);
    for (unsigned i = 1; i < n; i++) { /* token 0 is the macro's own name */
        if (clang_getTokenKind(tokens[i]) != CXToken_Identifier)
            continue;
        CXString s = clang_getTokenSpelling(cx->tu, tokens[i]);
        const char *name = clang_getCString(s);
        CXCursor found = name ? find_macro(cx, name, where.begin, where.file)
                              : clang_getNullCursor();
        clang_disposeString(s);
        if (!clang_Cursor_isNull(found))
            add_macro_dependency(cl, found, macro_work);
    }
    if (tokens)
        clang_disposeTokens(cx->tu, tokens, n);
}

/* ---- ordering ------------------------------------------------------------- */

static const tu_model *sort_model;

static size_t file_rank(const char *file)
{
    if (file == sort_model->main_file || strcmp(file, sort_model->main_file) == 0)
        return (size_t)-1; /* the main file's text follows its includes */
    for (size_t i = 0; i < sort_model->files.len; i++)
        if (sort_model->files.items[i].path == file)
            return i;
    return (size_t)-2;
}

static int dep_order(const void *a, const void *b)
{
    const dependency *x = &sort_model->decls.items[*(const size_t *)a];
    const dependency *y = &sort_model->decls.items[*(const size_t *)b];
    size_t fx = file_rank(x->range.file), fy = file_rank(y->range.file);
    if (fx != fy)
        return fx < fy ? -1 : 1;
    return x->range.begin < y->range.begin ? -1 : x->range.begin > y->range.begin;
}

/* drops a dependency whose text another one already holds (the struct of
 * a "typedef struct {...} T;") */
static void drop_nested(tu_model *m, kernel *k)
{
    size_t out = 0;
    for (size_t i = 0; i < k->deps.len; i++) {
        const dependency *d = &m->decls.items[k->deps.items[i]];
        int nested = 0;
        for (size_t j = 0; j < k->deps.len && !nested; j++) {
            const dependency *o = &m->decls.items[k->deps.items[j]];
            if (i != j && d->kind != DECL_MACRO && o->kind != DECL_MACRO &&
                range_within(&d->range, &o->range) &&
                !(o->range.begin == d->range.begin && o->range.end == d->range.end && j > i))
                nested = 1;
        }
        if (!nested)
            k->deps.items[out++] = k->deps.items[i];
    }
    k->deps.len = out;
}

static enum CXChildVisitResult collect_macro_defs(CXCursor c, CXCursor parent,
                                                  CXClientData data)
{
    fe_context *cx = data;
    (void)parent;
    if (clang_getCursorKind(c) != CXCursor_MacroDefinition ||
        !fe_is_user_location(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    macro_def d;
    d.name = fe_string(cx, clang_getCursorSpelling(c));
    d.cursor = c;
    d.range = fe_cursor_range(cx, c);
    vec_push(&cx->macros, d);
    return CXChildVisit_Continue;
}

void fe_collect_dependencies(fe_context *cx)
{
    tu_model *m = cx->model;
    clang_visitChildren(clang_getTranslationUnitCursor(cx->tu),
                        collect_macro_defs, cx);
    for (size_t i = 0; i < m->kernels.len; i++) {
        closure cl;
        memset(&cl, 0, sizeof cl);
        cl.cx = cx;
        cl.k = &m->kernels.items[i];
        cl.kernel_cursor = cx->kernel_cursors.items[i];
        vec_push(&cl.work, cl.kernel_cursor);
        while (cl.work.len) {
            CXCursor c = cl.work.items[--cl.work.len];
            clang_visitChildren(c, visit_refs, &cl);
        }
        /* macros used in the kernel or in anything it needs */
        cursor_vec macro_work = {0};
        macros_in_range(&cl, &cl.k->decl_range, &macro_work);
        size_t ast_deps = cl.k->deps.len;
        for (size_t d = 0; d < ast_deps; d++) {
            /* a copy: interning a macro may move m->decls */
            dependency dep = m->decls.items[cl.k->deps.items[d]];
            if (dep.kind != DECL_MACRO)
                macros_in_range(&cl, &dep.range, &macro_work);
        }
        while (macro_work.len) {
            CXCursor def = macro_work.items[--macro_work.len];
            macros_in_macro(&cl, def, &macro_work);
        }
        vec_free(&macro_work);
        vec_free(&cl.work);
        drop_nested(m, cl.k);
        sort_model = m;
        if (cl.k->deps.len)
            qsort(cl.k->deps.items, cl.k->deps.len, sizeof(size_t), dep_order);
        sort_model = NULL;
    }
}
