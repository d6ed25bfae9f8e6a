/*
 * macro_launch.c: see macro_launch.h.  One level of the preprocessor's
 * work, by hand: the invocation's arguments, the macro's one #define among
 * the user's files, its body with the parameters replaced, and the launch
 * inside it split into callee, configuration and arguments.
 */
#include "macro_launch.h"

#include <ctype.h>
#include <string.h>

static int ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* the end of the string or character literal starting at t[i] */
static size_t skip_literal(const char *t, size_t i, size_t n)
{
    char q = t[i++];
    while (i < n && t[i] != q)
        i += t[i] == '\\' ? 2 : 1;
    return i < n ? i + 1 : n;
}

static const char *trimmed(const char *t, size_t b, size_t e, arena *a)
{
    while (b < e && isspace((unsigned char)t[b]))
        b++;
    while (e > b && isspace((unsigned char)t[e - 1]))
        e--;
    return arena_strndup(a, t + b, e - b);
}

/* Splits t[b, e) at its top-level commas (parentheses, brackets, braces
 * and literals nest); the parts trimmed.  No parts for a blank text. */
static void split_commas(const char *t, size_t b, size_t e, arena *a, cstr_vec *out)
{
    int depth = 0;
    size_t start = b;
    int blank = 1;
    for (size_t i = b; i < e; i++) {
        char c = t[i];
        if (!isspace((unsigned char)c))
            blank = 0;
        if (c == '"' || c == '\'') {
            i = skip_literal(t, i, e) - 1;
        } else if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if (c == ')' || c == ']' || c == '}') {
            depth--;
        } else if (c == ',' && depth == 0) {
            vec_push(out, trimmed(t, start, i, a));
            start = i + 1;
        }
    }
    if (!blank)
        vec_push(out, trimmed(t, start, e, a));
}

/* the index after the bracket closing the one at t[i] ('(' or "<<<"), or 0 */
static size_t closing(const char *t, size_t i, size_t n, int triple)
{
    int depth = 0;
    for (size_t j = i + (triple ? 3 : 1); j < n; j++) {
        char c = t[j];
        if (c == '"' || c == '\'') {
            j = skip_literal(t, j, n) - 1;
        } else if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
            depth--;
        } else if (depth == 0 && !triple && c == ')') {
            return j + 1;
        } else if (depth == 0 && triple && strncmp(t + j, ">>>", 3) == 0) {
            return j + 3;
        }
    }
    return 0;
}

typedef struct macro_def {
    cstr_vec params;
    int function_like, variadic;
    const char *body; /* continuation lines joined, comments out */
} macro_def;

/* the body of a #define from t[i] on: backslash-newlines joined, comments
 * out, blanks trimmed */
static const char *define_body(const char *t, size_t i, size_t n, arena *a)
{
    strbuf sb;
    sb_init(&sb);
    while (i < n && t[i] != '\n') {
        if (t[i] == '\\' && (i + 1 < n && (t[i + 1] == '\n' || t[i + 1] == '\r'))) {
            i += t[i + 1] == '\r' && i + 2 < n && t[i + 2] == '\n' ? 3 : 2;
            sb_putc(&sb, ' ');
        } else if (t[i] == '"' || t[i] == '\'') {
            size_t e = skip_literal(t, i, n);
            sb_append(&sb, t + i, e - i);
            i = e;
        } else if (t[i] == '/' && i + 1 < n && t[i + 1] == '/') {
            while (i < n && t[i] != '\n')
                i++;
        } else if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
            const char *end = strstr(t + i + 2, "*/");
            i = end ? (size_t)(end - t) + 2 : n;
            sb_putc(&sb, ' ');
        } else {
            sb_putc(&sb, t[i] == '\r' ? ' ' : t[i]);
            i++;
        }
    }
    const char *body = trimmed(sb_str(&sb), 0, sb.len, a);
    sb_free(&sb);
    return body;
}

/* Parses the #define of name at t[i] (after "define" and blanks); 0, or -1
 * when it is not one. */
static int parse_define(const char *t, size_t i, size_t n, const char *name, arena *a,
                        macro_def *d)
{
    size_t len = strlen(name);
    if (i + len > n || strncmp(t + i, name, len) != 0 || (i + len < n && ident_char(t[i + len])))
        return -1;
    i += len;
    memset(d, 0, sizeof *d);
    if (i < n && t[i] == '(') {
        d->function_like = 1;
        size_t close = closing(t, i, n, 0);
        if (!close)
            return -1;
        cstr_vec ps = {0};
        split_commas(t, i + 1, close - 1, a, &ps);
        for (size_t k = 0; k < ps.len; k++) {
            if (strcmp(ps.items[k], "...") == 0 && k + 1 == ps.len)
                d->variadic = 1;
            else
                vec_push(&d->params, ps.items[k]);
        }
        vec_free(&ps);
        i = close;
    }
    d->body = define_body(t, i, n, a);
    return 0;
}

/* the one #define of name among the user's files; 0 or -1 with why */
static int find_define(const tu_model *m, const char *name, arena *a, macro_def *out,
                       const char **why)
{
    size_t found = 0;
    for (size_t f = 0; f < m->files.len; f++) {
        const char *t = m->files.items[f].text;
        size_t n = m->files.items[f].len;
        for (size_t b = 0; b < n;) {
            size_t i = b;
            while (i < n && (t[i] == ' ' || t[i] == '\t'))
                i++;
            if (i < n && t[i] == '#') {
                i++;
                while (i < n && (t[i] == ' ' || t[i] == '\t'))
                    i++;
                if (n - i > 6 && strncmp(t + i, "define", 6) == 0 &&
                    (t[i + 6] == ' ' || t[i + 6] == '\t')) {
                    i += 6;
                    while (i < n && (t[i] == ' ' || t[i] == '\t'))
                        i++;
                    macro_def d;
                    if (parse_define(t, i, n, name, a, &d) == 0) {
                        if (found++ == 0)
                            *out = d;
                        else
                            vec_free(&d.params);
                    }
                }
            }
            /* the next line that is not a continuation */
            while (b < n && t[b] != '\n')
                b += t[b] == '\\' && b + 1 < n && t[b + 1] == '\n' ? 2 : 1;
            b++;
        }
    }
    if (found != 1) {
        if (found)
            vec_free(&out->params);
        *why = found ? "launched from a macro defined more than once"
                     : "launched from a macro";
        return -1;
    }
    return 0;
}

/* the body with each parameter replaced by its argument; NULL when the
 * body uses # or ## */
static const char *substitute(const macro_def *d, const cstr_vec *args, arena *a)
{
    const char *t = d->body;
    size_t n = strlen(t);
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < n;) {
        if (t[i] == '"' || t[i] == '\'') {
            size_t e = skip_literal(t, i, n);
            sb_append(&sb, t + i, e - i);
            i = e;
        } else if (t[i] == '#') {
            sb_free(&sb);
            return NULL;
        } else if (ident_char(t[i]) && !isdigit((unsigned char)t[i])) {
            size_t e = i;
            while (e < n && ident_char(t[e]))
                e++;
            const char *with = NULL;
            for (size_t k = 0; k < d->params.len && !with; k++)
                if (strlen(d->params.items[k]) == e - i &&
                    strncmp(d->params.items[k], t + i, e - i) == 0)
                    with = args->items[k];
            if (!with && d->variadic && e - i == 11 && strncmp(t + i, "__VA_ARGS__", 11) == 0) {
                for (size_t k = d->params.len; k < args->len; k++)
                    sb_printf(&sb, "%s%s", k > d->params.len ? ", " : "", args->items[k]);
                with = "";
            }
            if (with)
                sb_puts(&sb, with);
            else
                sb_append(&sb, t + i, e - i);
            i = e;
        } else {
            sb_putc(&sb, t[i++]);
        }
    }
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

/* the one launch of text split into out; 0 or -1 with why */
static int split_launch(const char *t, const char *name, arena *a, hn_macro_launch *out,
                        const char **why)
{
    size_t n = strlen(t), at = 0, launches = 0;
    for (size_t i = 0; i + 2 < n; i++) {
        if (t[i] == '"' || t[i] == '\'')
            i = skip_literal(t, i, n) - 1;
        else if (strncmp(t + i, "<<<", 3) == 0) {
            if (launches++ == 0)
                at = i;
            size_t c = closing(t, i, n, 1);
            i = c ? c - 1 : n;
        }
    }
    if (launches != 1) {
        *why = launches ? "launched from a macro that makes several launches"
                        : "launched from a macro";
        return -1;
    }
    size_t e = at;
    while (e > 0 && isspace((unsigned char)t[e - 1]))
        e--;
    size_t b = e;
    while (b > 0 && (ident_char(t[b - 1]) || t[b - 1] == ':'))
        b--;
    const char *callee = arena_strndup(a, t + b, e - b);
    size_t cl = strlen(callee), nl = strlen(name);
    if (!(cl == nl || (cl > nl + 2 && strncmp(callee + cl - nl - 2, "::", 2) == 0)) ||
        strcmp(callee + cl - nl, name) != 0 || (b > 0 && (t[b - 1] == '>' || t[b - 1] == '.'))) {
        *why = "launched from a macro: the kernel is no plain identifier in its expansion";
        return -1;
    }
    size_t config_end = closing(t, at, n, 1);
    size_t open = config_end;
    while (open < n && isspace((unsigned char)t[open]))
        open++;
    size_t args_end = config_end && open < n && t[open] == '(' ? closing(t, open, n, 0) : 0;
    cstr_vec config = {0}, args = {0};
    if (args_end)
        split_commas(t, at + 3, config_end - 3, a, &config);
    if (!args_end || config.len < 2 || config.len > 4) {
        vec_free(&config);
        *why = "launched from a macro: its launch could not be read";
        return -1;
    }
    split_commas(t, open + 1, args_end - 1, a, &args);
    out->before = arena_strndup(a, t, b);
    out->callee = callee;
    out->grid = config.items[0];
    out->block = config.items[1];
    out->shmem = config.len > 2 ? config.items[2] : NULL;
    out->stream = config.len > 3 ? config.items[3] : NULL;
    out->n_args = args.len;
    out->args = arena_alloc(a, (args.len + 1) * sizeof *out->args);
    for (size_t i = 0; i < args.len; i++)
        out->args[i] = args.items[i];
    out->after = arena_strdup(a, t + args_end);
    vec_free(&config);
    vec_free(&args);
    return 0;
}

int hn_macro_launch_expand(const tu_model *m, const launch_site *l, const char *name, arena *a,
                           hn_macro_launch *out, const char **why)
{
    const source_file *sf = model_file(m, l->range.file);
    *why = "launched from a macro";
    if (!sf || l->range.end > sf->len || l->range.begin >= l->range.end)
        return -1;
    const char *t = sf->text;
    size_t b = l->range.begin, e = l->range.end, i = b;
    while (i < e && ident_char(t[i]))
        i++;
    if (i == b || isdigit((unsigned char)t[b]))
        return -1;
    const char *macro = arena_strndup(a, t + b, i - b);
    while (i < e && isspace((unsigned char)t[i]))
        i++;
    cstr_vec args = {0};
    int called = i < e && t[i] == '(';
    if (called) {
        if (closing(t, i, e, 0) != e)
            return -1;
        split_commas(t, i + 1, e - 1, a, &args);
    } else if (i != e) {
        return -1;
    }
    macro_def d;
    memset(&d, 0, sizeof d);
    if (find_define(m, macro, a, &d, why) != 0) {
        vec_free(&args);
        return -1;
    }
    int rc = -1;
    const char *body = NULL;
    *why = "launched from a macro";
    if (d.function_like != called ||
        (d.variadic ? args.len < d.params.len : args.len != d.params.len))
        ; /* not an invocation of this macro as the preprocessor reads it */
    else if (!(body = substitute(&d, &args, a)))
        *why = "launched from a macro that uses # or ##";
    else
        rc = split_launch(body, name, a, out, why);
    vec_free(&args);
    vec_free(&d.params);
    return rc;
}
