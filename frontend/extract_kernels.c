/*
 * extract_kernels.c: one kernel record per __global__ definition: names,
 * template and value parameters, exact extents, and the attributes that
 * matter to a rewrite (__launch_bounds__, static, extern "C").
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static enum CXChildVisitResult find_global_attr(CXCursor c, CXCursor parent,
                                                CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CUDAGlobalAttr) {
        *(int *)data = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

int fe_is_kernel(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate)
        return 0;
    /* clang_Cursor_hasAttrs says 0 for templated kernels: visit children */
    int found = 0;
    clang_visitChildren(c, find_global_attr, &found);
    return found;
}

char *fe_qualified_name(fe_context *cx, CXCursor c)
{
    strbuf sb;
    sb_init(&sb);
    CXCursor chain[64];
    int n = 0;
    for (CXCursor p = c; n < 64; p = clang_getCursorSemanticParent(p)) {
        enum CXCursorKind k = clang_getCursorKind(p);
        if (clang_Cursor_isNull(p) || k == CXCursor_TranslationUnit ||
            clang_isInvalid(k))
            break;
        /* extern "C" { } blocks: LinkageSpec, or UnexposedDecl in libclang 16 */
        if (k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
            continue;
        chain[n++] = p;
    }
    for (int i = n - 1; i >= 0; i--) {
        CXString s = clang_getCursorSpelling(chain[i]);
        const char *name = clang_getCString(s);
        if (sb.len)
            sb_puts(&sb, "::");
        sb_puts(&sb, name && *name ? name : "(anonymous)");
        clang_disposeString(s);
    }
    char *out = arena_strdup(cx->strings, sb_str(&sb));
    sb_free(&sb);
    return out;
}

typedef struct kernel_walk {
    fe_context *cx;
    kernel *k;
} kernel_walk;

static void add_param(fe_context *cx, kernel *k, CXCursor p)
{
    kernel_param kp;
    memset(&kp, 0, sizeof kp);
    CXType t = clang_getCursorType(p);
    kp.name = fe_string(cx, clang_getCursorSpelling(p));
    kp.type = fe_string(cx, clang_getTypeSpelling(t));
    kp.canonical_type =
        fe_string(cx, clang_getTypeSpelling(clang_getCanonicalType(t)));
    CXType canon = clang_getCanonicalType(t);
    kp.is_pointer = canon.kind == CXType_Pointer;
    if (kp.is_pointer)
        kp.pointee_const = clang_isConstQualifiedType(clang_getPointeeType(canon));
    kp.is_restrict = clang_isRestrictQualifiedType(t) ||
                     clang_isRestrictQualifiedType(canon);
    kp.size_bytes = clang_Type_getSizeOf(t);
    if (kp.size_bytes < 0)
        kp.size_bytes = -1;
    kp.range = fe_cursor_range(cx, p);
    vec_push(&k->params, kp);
}

static void add_template_param(fe_context *cx, kernel *k, CXCursor p)
{
    template_param tp;
    memset(&tp, 0, sizeof tp);
    tp.name = fe_string(cx, clang_getCursorSpelling(p));
    switch (clang_getCursorKind(p)) {
    case CXCursor_TemplateTypeParameter:
        tp.kind = "type";
        break;
    case CXCursor_NonTypeTemplateParameter:
        tp.kind = "value";
        tp.type = fe_string(cx, clang_getTypeSpelling(clang_getCursorType(p)));
        break;
    default:
        tp.kind = "template";
        break;
    }
    vec_push(&k->template_params, tp);
}

static enum CXChildVisitResult visit_kernel_child(CXCursor c, CXCursor parent,
                                                  CXClientData data)
{
    kernel_walk *w = data;
    (void)parent;
    switch (clang_getCursorKind(c)) {
    case CXCursor_ParmDecl:
        add_param(w->cx, w->k, c);
        break;
    case CXCursor_TemplateTypeParameter:
    case CXCursor_NonTypeTemplateParameter:
    case CXCursor_TemplateTemplateParameter:
        add_template_param(w->cx, w->k, c);
        break;
    case CXCursor_CompoundStmt:
        w->k->body_range = fe_cursor_range(w->cx, c);
        w->k->is_definition = 1;
        break;
    default:
        break;
    }
    return CXChildVisit_Continue;
}

/* __launch_bounds__ is an UnexposedAttr made by a macro: find it by its
 * tokens in the declaration before the kernel's name. */
static const char *find_launch_bounds(fe_context *cx, const kernel *k)
{
    const source_file *sf = model_file(cx->model, k->decl_range.file);
    if (!sf || k->name_range.begin <= k->decl_range.begin ||
        k->name_range.begin > sf->len)
        return NULL;
    const char *start = sf->text + k->decl_range.begin;
    size_t span = k->name_range.begin - k->decl_range.begin;
    static const char key[] = "__launch_bounds__";
    for (size_t i = 0; i + sizeof key - 1 <= span; i++) {
        if (memcmp(start + i, key, sizeof key - 1) != 0)
            continue;
        size_t j = i + sizeof key - 1;
        while (j < span && (start[j] == ' ' || start[j] == '\t' ||
                            start[j] == '\n' || start[j] == '\r'))
            j++;
        if (j >= span || start[j] != '(')
            return NULL;
        int depth = 0;
        for (size_t e = j; e < span; e++) {
            if (start[e] == '(')
                depth++;
            else if (start[e] == ')' && --depth == 0)
                return arena_strndup(cx->strings, start + j, e - j + 1);
        }
        return NULL;
    }
    return NULL;
}

/* On the host side clang names a kernel's stub "_Z28__device_stub__scalePf";
 * the kernel itself, the symbol in the cubin, is "_Z5scalePf". */
static const char *device_symbol(fe_context *cx, const char *mangled)
{
    static const char stub[] = "__device_stub__";
    const char *at = strstr(mangled, stub);
    if (!at)
        return mangled;
    const char *digits = at;
    while (digits > mangled && digits[-1] >= '0' && digits[-1] <= '9')
        digits--;
    if (digits == at) /* extern "C": the stub is a plain name */
        return arena_printf(cx->strings, "%.*s%s", (int)(at - mangled), mangled,
                            at + sizeof stub - 1);
    long len = strtol(digits, NULL, 10) - (long)(sizeof stub - 1);
    return arena_printf(cx->strings, "%.*s%ld%s", (int)(digits - mangled), mangled,
                        len, at + sizeof stub - 1);
}

static long find_kernel_by_usr(fe_context *cx, const char *usr)
{
    for (size_t i = 0; i < cx->model->kernels.len; i++)
        if (strcmp(cx->model->kernels.items[i].usr, usr) == 0)
            return (long)i;
    return -1;
}

void fe_add_kernel(fe_context *cx, CXCursor c)
{
    /* an explicit instantiation or a redeclaration of a template kernel's
     * specialization carries no body of its own: the template is the kernel */
    CXCursor tmpl = clang_getSpecializedCursorTemplate(c);
    int has_body = clang_isCursorDefinition(c);
    if (!clang_Cursor_isNull(tmpl) && !has_body)
        return;

    char *usr = fe_string(cx, clang_getCursorUSR(c));
    long existing = find_kernel_by_usr(cx, usr);
    if (existing >= 0) {
        /* keep the definition over a forward declaration */
        if (cx->model->kernels.items[existing].is_definition || !has_body)
            return;
        kernel *old = &cx->model->kernels.items[existing];
        vec_free(&old->params);
        vec_free(&old->template_params);
        memset(old, 0, sizeof *old);
    }

    kernel k;
    memset(&k, 0, sizeof k);
    k.usr = usr;
    k.name = fe_string(cx, clang_getCursorSpelling(c));
    k.qualified_name = fe_qualified_name(cx, c);
    k.mangled = device_symbol(cx, fe_string(cx, clang_Cursor_getMangling(c)));
    k.signature = fe_string(cx, clang_getTypeSpelling(clang_getCursorType(c)));
    k.is_template = clang_getCursorKind(c) == CXCursor_FunctionTemplate;
    k.is_static = clang_Cursor_getStorageClass(c) == CX_SC_Static;
    /* libclang 16 shows extern "C" blocks as UnexposedDecl; the symbol
     * tells: every C++ name mangles to _Z..., a C one does not */
    k.is_extern_c = !k.is_template && k.mangled[0] && strncmp(k.mangled, "_Z", 2) != 0;
    k.is_specialization = !k.is_template && !clang_Cursor_isNull(tmpl);
    k.decl_range = fe_cursor_range(cx, c);
    CXSourceRange name = clang_Cursor_getSpellingNameRange(c, 0, 0);
    k.name_range = fe_range_of(cx, name);
    kernel_walk w = {cx, &k};
    clang_visitChildren(c, visit_kernel_child, &w);
    /* a kernel whose name or braces come out of a macro was made by it */
    if (k.name_range.in_macro || k.body_range.in_macro)
        k.decl_range.in_macro = 1;
    k.launch_bounds = find_launch_bounds(cx, &k);

    if (existing >= 0) {
        cx->model->kernels.items[existing] = k;
        cx->kernel_cursors.items[existing] = c;
    } else {
        vec_push(&cx->model->kernels, k);
        vec_push(&cx->kernel_cursors, c);
    }
}
