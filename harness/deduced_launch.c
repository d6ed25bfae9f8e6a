/*
 * deduced_launch.c: the "twin" declaration that names the instantiation a
 * template kernel's launch deduces inside a function template
 * (deduced_launch.h): the kernel's template header, read from its
 * definition's text, and its parameter types, in the kernel's namespace.
 */
#include "deduced_launch.h"

#include <ctype.h>
#include <string.h>

/* past a comment, string or character literal starting at t[i] (i < e), or i */
static size_t skip_lexeme(const char *t, size_t i, size_t e)
{
    if (t[i] == '/' && i + 1 < e && t[i + 1] == '/') {
        while (i < e && t[i] != '\n')
            i++;
        return i;
    }
    if (t[i] == '/' && i + 1 < e && t[i + 1] == '*') {
        for (i += 2; i + 1 < e && !(t[i] == '*' && t[i + 1] == '/'); i++)
            ;
        return i + 2 <= e ? i + 2 : e;
    }
    if (t[i] == '"' && i > 0 && t[i - 1] == 'R') { /* R"delim( ... )delim" */
        size_t d = i + 1;
        while (d < e && t[d] != '(' && d - i <= 17)
            d++;
        for (size_t j = d + 1; j < e; j++)
            if (t[j] == ')' && j + (d - i) < e && strncmp(t + j + 1, t + i + 1, d - i - 1) == 0 &&
                t[j + (d - i)] == '"')
                return j + (d - i) + 1;
        return e;
    }
    /* a quote after a digit separates digits (1'000) */
    if (t[i] == '"' || (t[i] == '\'' && !(i > 0 && isdigit((unsigned char)t[i - 1])))) {
        char q = t[i++];
        for (; i < e && t[i] != q && t[i] != '\n'; i++)
            if (t[i] == '\\')
                i++;
        return i < e ? i + 1 : e;
    }
    return i;
}

/* The template parameter list of a definition that starts at t[b]
 * ("template <...>"), without its angle brackets: [*ib, *ie), each
 * parameter's end (its comma or the closing '>') in ends.  0, or -1. */
static int template_header(const char *t, size_t b, size_t e, size_t *ib, size_t *ie,
                           index_vec *ends)
{
    while (b < e && isspace((unsigned char)t[b]))
        b++;
    if (e - b < 8 || strncmp(t + b, "template", 8) != 0)
        return -1;
    for (b += 8; b < e && isspace((unsigned char)t[b]); b++)
        ;
    if (b == e || t[b] != '<')
        return -1;
    *ib = ++b;
    int angle = 0, nest = 0;
    for (size_t i = b; i < e;) {
        size_t n = skip_lexeme(t, i, e);
        if (n != i) {
            i = n;
            continue;
        }
        char c = t[i];
        if (c == '(' || c == '[' || c == '{')
            nest++;
        else if (c == ')' || c == ']' || c == '}')
            nest--;
        else if (nest == 0 && c == '<')
            angle++;
        else if (nest == 0 && c == '>' && angle > 0)
            angle--;
        else if (nest == 0 && angle == 0 && (c == ',' || c == '>')) {
            vec_push(ends, i);
            if (c == '>') {
                *ie = i;
                return 0;
            }
        }
        i++;
    }
    return -1;
}

/* whether the template parameter t[b, e) has a default, or is a pack */
static int param_has(const char *t, size_t b, size_t e, int want_default)
{
    int nest = 0;
    for (size_t i = b; i < e;) {
        size_t n = skip_lexeme(t, i, e);
        if (n != i) {
            i = n;
            continue;
        }
        if (strchr("([{<", t[i]))
            nest++;
        else if (strchr(")]}>", t[i]))
            nest--;
        else if (nest == 0 && t[i] == '=')
            return want_default;
        else if (nest == 0 && !want_default && e - i >= 3 && strncmp(t + i, "...", 3) == 0)
            return 1;
        i++;
    }
    return 0;
}

static int is_ident(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* whether text names the identifier name */
static int mentions(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; n && (p = strstr(p, name)) != NULL; p++)
        if ((p == text || !is_ident(p[-1])) && !is_ident(p[n]))
            return 1;
    return 0;
}

/* The start of the declaration at namespace scope of the main file that
 * holds offset at (a function template, or the namespace around it): past
 * the last ';', '}' or preprocessor line outside any braces before it. */
static size_t top_level_start(const char *t, size_t at)
{
    size_t start = 0;
    int depth = 0, bol = 1;
    for (size_t i = 0; i < at;) {
        char c = t[i];
        if (c == '\n') {
            bol = 1;
            i++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
            i++;
            continue;
        }
        if (bol && c == '#') { /* a directive, with its continuation lines */
            for (; i < at && t[i] != '\n'; i++)
                if (t[i] == '\\' && i + 1 < at && t[i + 1] == '\n')
                    i++;
            if (depth == 0)
                start = i;
            continue;
        }
        bol = 0;
        size_t n = skip_lexeme(t, i, at);
        if (n != i) {
            i = n;
            continue;
        }
        if (c == '{')
            depth++;
        else if (c == '}' && --depth == 0)
            start = i + 1;
        else if (c == ';' && depth == 0)
            start = i + 1;
        i++;
    }
    while (start < at && isspace((unsigned char)t[start]))
        start++;
    return start;
}

/* The kernel's template parameters as its twin passes them on ("T,
 * BLOCK", "Ts..."), into args, from its header's text t (the first
 * parameter at ib, each one's end in ends).  0, or -1 with why. */
static int twin_args(const kernel *k, const char *t, size_t ib, const index_vec *ends,
                     strbuf *args, const char **why)
{
    for (size_t i = 0; i < k->template_params.len; i++) {
        const char *name = k->template_params.items[i].name;
        size_t b = i ? ends->items[i - 1] + 1 : ib, e = ends->items[i];
        if (!name || !*name) {
            *why = "an unnamed template parameter";
            return -1;
        }
        int deduced = 0;
        for (size_t p = 0; p < k->params.len; p++)
            deduced |= mentions(k->params.items[p].type, name);
        if (!deduced && !param_has(t, b, e, 1)) {
            *why = "a template parameter neither deduced nor defaulted in the kernel's definition";
            return -1;
        }
        sb_printf(args, "%s%s%s", i ? ", " : "", name, param_has(t, b, e, 0) ? "..." : "");
    }
    return 0;
}

int hn_arg_is_lambda(const char *text)
{
    while (isspace((unsigned char)*text) || *text == '(')
        text++;
    return *text == '[';
}

int hn_twin_make(const tu_model *m, const launch_site *l, size_t index, arena *a, hn_twin *out,
                 const char **why)
{
    const kernel *k = &m->kernels.items[l->kernel_index];
    const source_file *kf = model_file(m, k->decl_range.file);
    /* the file the launch is written in: the main file, or a header */
    const source_file *mf = model_file(m, l->range.file);
    int in_main = k->decl_range.file && strcmp(k->decl_range.file, l->range.file) == 0;
    if (!kf || !mf || k->decl_range.end > kf->len || l->range.begin > mf->len) {
        *why = "the kernel's text is not known";
        return -1;
    }
    if (in_main && k->decl_range.end > l->range.begin) {
        *why = "its template arguments are deduced in a function template before the kernel's "
               "definition";
        return -1;
    }
    /* the template header as the definition writes it, defaults included */
    size_t ib = 0, ie = 0;
    index_vec ends = {0};
    strbuf args, types;
    sb_init(&args);
    sb_init(&types);
    int rc = 0;
    if (template_header(kf->text, k->decl_range.begin, k->decl_range.end, &ib, &ie, &ends) != 0 ||
        ends.len != k->template_params.len) {
        *why = "the kernel's template header could not be read";
        rc = -1;
    } else {
        rc = twin_args(k, kf->text, ib, &ends, &args, why);
    }
    vec_free(&ends);
    if (rc != 0) {
        sb_free(&args);
        sb_free(&types);
        return -1;
    }
    for (size_t p = 0; p < k->params.len; p++)
        sb_printf(&types, "%s%s", p ? ", " : "", k->params.items[p].type);
    /* the kernel's namespaces, from its qualified name */
    strbuf open, close, call;
    sb_init(&open);
    sb_init(&close);
    sb_init(&call);
    const char *q = k->qualified_name;
    for (const char *sep; (sep = strstr(q, "::")) != NULL; q = sep + 2) {
        if (sep - q == 11 && strncmp(q, "(anonymous)", 11) == 0) {
            sb_puts(&open, "namespace { ");
        } else {
            sb_printf(&open, "namespace %.*s { ", (int)(sep - q), q);
            sb_printf(&call, "::%.*s", (int)(sep - q), q);
        }
        sb_puts(&close, " }");
    }
    const char *twin = arena_printf(a, "cl1cc_twin_%s_%zu", k->name, index);
    const char *decl = arena_printf(
        a, "template <%.*s> ::cl1cc_capture::kernel_tag<decltype(&%s<%s>), &%s<%s>> %s(%s); "
           "/* cl1cc twin of launch %zu */",
        (int)(ie - ib), kf->text + ib, k->name, sb_str(&args), k->name, sb_str(&args), twin,
        sb_str(&types), index);
    out->call = arena_printf(a, "%s::%s", sb_str(&call), twin);
    if (in_main) { /* in the kernel's namespace already */
        out->at = k->decl_range.end;
        out->decl = decl;
    } else {
        out->at = top_level_start(mf->text, l->range.begin);
        out->decl = arena_printf(a, "%s%s%s", sb_str(&open), decl, sb_str(&close));
    }
    sb_free(&args);
    sb_free(&types);
    sb_free(&open);
    sb_free(&close);
    sb_free(&call);
    return 0;
}
