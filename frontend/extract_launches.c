/*
 * extract_launches.c: every kernel<<<grid, block, shmem, stream>>>(args)
 * launch.  In libclang a launch is a CallExpr whose direct child is a
 * CallExpr to __cudaPushCallConfiguration covering the <<<...>>> part.
 */
#include "internal.h"

#include <string.h>

typedef struct config_search {
    CXCursor config;
    int found;
} config_search;

static int is_named(CXCursor c, const char *name)
{
    CXString s = clang_getCursorSpelling(c);
    const char *spelled = clang_getCString(s);
    int same = spelled && strcmp(spelled, name) == 0;
    clang_disposeString(s);
    return same;
}

static enum CXChildVisitResult find_config(CXCursor c, CXCursor parent,
                                           CXClientData data)
{
    config_search *cs = data;
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CallExpr &&
        is_named(c, "__cudaPushCallConfiguration")) {
        cs->config = c;
        cs->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

static int launch_config(CXCursor call, CXCursor *config)
{
    if (clang_getCursorKind(call) != CXCursor_CallExpr)
        return 0;
    if (is_named(call, "__cudaPushCallConfiguration"))
        return 0;
    config_search cs = {clang_getNullCursor(), 0};
    clang_visitChildren(call, find_config, &cs);
    if (cs.found && config)
        *config = cs.config;
    return cs.found;
}

int fe_is_launch(CXCursor c) { return launch_config(c, NULL); }

/* A configuration argument that the user did not write (the default shared
 * memory size or stream) has no extent in the user's file. */
static launch_arg config_arg(fe_context *cx, CXCursor config, int i,
                             const src_range *within)
{
    launch_arg a;
    memset(&a, 0, sizeof a);
    if (i >= clang_Cursor_getNumArguments(config))
        return a;
    CXCursor e = clang_Cursor_getArgument(config, (unsigned)i);
    src_range r = fe_cursor_range(cx, e);
    if (!r.present || r.end <= r.begin || r.file != within->file ||
        r.begin < within->begin || r.end > within->end) {
        return a;
    }
    a.range = r;
    a.text = fe_text_of(cx, &r);
    return a;
}

static long kernel_index_for(fe_context *cx, CXCursor ref, const char *name)
{
    tu_model *m = cx->model;
    if (!clang_Cursor_isNull(ref) && !clang_isInvalid(clang_getCursorKind(ref))) {
        /* the callee itself (an explicit specialization is a kernel of its
         * own), else the template it instantiates */
        CXCursor tmpl = clang_getSpecializedCursorTemplate(ref);
        CXCursor keys[2] = {ref, tmpl};
        for (int pass = 0; pass < 2; pass++) {
            if (clang_Cursor_isNull(keys[pass]))
                continue;
            CXString usr = clang_getCursorUSR(keys[pass]);
            const char *u = clang_getCString(usr);
            long found = -1;
            for (size_t i = 0; u && *u && i < m->kernels.len; i++)
                if (strcmp(m->kernels.items[i].usr, u) == 0)
                    found = (long)i;
            clang_disposeString(usr);
            if (found >= 0)
                return found;
        }
    }
    /* inside a template the callee may be unresolved: match the name as
     * written, qualified or by its last components; a primary template
     * beats an explicit specialization of the same name */
    long found = -1;
    int found_score = 0;
    size_t n = strlen(name);
    for (size_t i = 0; i < m->kernels.len; i++) {
        const kernel *k = &m->kernels.items[i];
        size_t qn = strlen(k->qualified_name);
        int score = 0;
        if (strcmp(k->qualified_name, name) == 0)
            score = 4;
        else if (n < qn && strcmp(k->qualified_name + qn - n, name) == 0 &&
                 k->qualified_name[qn - n - 1] == ':')
            score = 2;
        if (score && !k->is_specialization)
            score++;
        if (score > found_score) {
            found = (long)i;
            found_score = score;
        }
    }
    return found;
}

static char *template_args_of(fe_context *cx, CXCursor ref, const char *written)
{
    int n = clang_Cursor_isNull(ref) ? -1 : clang_Cursor_getNumTemplateArguments(ref);
    if (n > 0) {
        strbuf sb;
        sb_init(&sb);
        for (int i = 0; i < n; i++) {
            if (i)
                sb_puts(&sb, ", ");
            enum CXTemplateArgumentKind k =
                clang_Cursor_getTemplateArgumentKind(ref, (unsigned)i);
            if (k == CXTemplateArgumentKind_Type) {
                CXString s = clang_getTypeSpelling(
                    clang_Cursor_getTemplateArgumentType(ref, (unsigned)i));
                sb_puts(&sb, clang_getCString(s));
                clang_disposeString(s);
            } else if (k == CXTemplateArgumentKind_Integral) {
                sb_printf(&sb, "%lld",
                          clang_Cursor_getTemplateArgumentValue(ref, (unsigned)i));
            } else {
                sb_puts(&sb, "?");
            }
        }
        char *out = arena_strdup(cx->strings, sb_str(&sb));
        sb_free(&sb);
        return out;
    }
    /* as written: the text between the outermost <...> of the callee */
    const char *lt = strchr(written, '<');
    const char *gt = strrchr(written, '>');
    if (lt && gt && gt > lt) {
        const char *b = lt + 1, *e = gt;
        while (b < e && (*b == ' ' || *b == '\t'))
            b++;
        while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        return arena_strndup(cx->strings, b, (size_t)(e - b));
    }
    return NULL;
}

void fe_add_launch(fe_context *cx, CXCursor call, CXCursor function)
{
    CXCursor config;
    if (!launch_config(call, &config))
        return;
    launch_site ls;
    memset(&ls, 0, sizeof ls);
    ls.range = fe_cursor_range(cx, call);
    ls.config_range = fe_cursor_range(cx, config);
    ls.in_macro = ls.range.in_macro || ls.config_range.in_macro;

    /* the callee as written: the text before "<<<" */
    src_range callee = ls.range;
    callee.end = ls.config_range.present ? ls.config_range.begin : ls.range.begin;
    char *written = fe_text_of(cx, &callee);
    size_t wn = strlen(written);
    while (wn && (written[wn - 1] == ' ' || written[wn - 1] == '\t' ||
                  written[wn - 1] == '\n' || written[wn - 1] == '\r'))
        written[--wn] = '\0';
    ls.kernel_name = written;

    char *bare = arena_strdup(cx->strings, written);
    char *lt = strchr(bare, '<');
    if (lt)
        *lt = '\0';
    for (size_t n = strlen(bare); n && (bare[n - 1] == ' ' || bare[n - 1] == '\t');)
        bare[--n] = '\0';

    CXCursor ref = clang_getCursorReferenced(call);
    ls.kernel_index = kernel_index_for(cx, ref, bare);
    if (ls.kernel_index >= 0) {
        ls.kernel_usr = cx->model->kernels.items[ls.kernel_index].usr;
        if (!*written) /* a launch made by a macro has no text of its own */
            ls.kernel_name = cx->model->kernels.items[ls.kernel_index].qualified_name;
    }
    ls.template_args = template_args_of(cx, ref, written);
    if (!clang_Cursor_isNull(function))
        ls.caller = clang_getCursorKind(function) == CXCursor_LambdaExpr
                        ? "(lambda)"
                        : fe_qualified_name(cx, function);

    ls.grid = config_arg(cx, config, 0, &ls.config_range);
    ls.block = config_arg(cx, config, 1, &ls.config_range);
    ls.shmem = config_arg(cx, config, 2, &ls.config_range);
    ls.stream = config_arg(cx, config, 3, &ls.config_range);
    int nargs = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < nargs; i++) {
        CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
        launch_arg a;
        memset(&a, 0, sizeof a);
        a.range = fe_cursor_range(cx, arg);
        a.text = fe_text_of(cx, &a.range);
        vec_push(&ls.args, a);
    }
    /* a launch that is one whole macro invocation was written by the macro:
     * its parts collapse onto the invocation and none of them is the user's
     * text at that place */
    if (fe_range_is_invocation(cx, &ls.range) || ls.in_macro) {
        ls.in_macro = 1;
        ls.range.in_macro = ls.config_range.in_macro = 1;
        launch_arg *parts[] = {&ls.grid, &ls.block, &ls.shmem, &ls.stream};
        for (int i = 0; i < 4; i++)
            parts[i]->range.in_macro = 1;
        for (size_t i = 0; i < ls.args.len; i++)
            ls.args.items[i].range.in_macro = 1;
    }
    vec_push(&cx->model->launches, ls);
}
