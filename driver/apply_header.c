/*
 * apply_header.c: kernels of project headers as places (apply.h): the main
 * file's #include directive that brings the header in, and the header's
 * text with its kernels' edits as the compiler reads it in that
 * directive's place (docs/WRAPPER.md, "Header kernels").
 */
#include "apply.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "splice_launch.h"

/* one #include directive of a file's text */
typedef struct directive {
    size_t line_begin, line_end; /* the line, without its newline */
    size_t name_begin, name_end; /* inside the quotes or brackets */
    int quoted;                  /* "..." rather than <...> */
    int include_next;
} directive;
typedef VEC(directive) directive_vec;

static size_t skip_blanks(const char *t, size_t i, size_t end)
{
    while (i < end && (t[i] == ' ' || t[i] == '\t'))
        i++;
    return i;
}

/* whether [i, end) at a line's start is "#include..." (or include_next);
 * fills d */
static int parse_directive(const char *t, size_t i, size_t end, directive *d)
{
    i = skip_blanks(t, i, end);
    if (i >= end || t[i] != '#')
        return 0;
    i = skip_blanks(t, i + 1, end);
    static const char word[] = "include";
    if (end - i < sizeof word - 1 || memcmp(t + i, word, sizeof word - 1) != 0)
        return 0;
    i += sizeof word - 1;
    d->include_next = end - i >= 5 && memcmp(t + i, "_next", 5) == 0;
    if (d->include_next)
        i += 5;
    i = skip_blanks(t, i, end);
    if (i >= end || (t[i] != '"' && t[i] != '<'))
        return 0;
    char close = t[i] == '"' ? '"' : '>';
    d->quoted = t[i] == '"';
    d->name_begin = i + 1;
    const char *c = memchr(t + d->name_begin, close, end - d->name_begin);
    if (!c)
        return 0;
    d->name_end = (size_t)(c - t);
    return 1;
}

/* every #include directive of text outside block comments */
static void find_directives(const char *t, size_t len, directive_vec *out)
{
    int in_comment = 0;
    for (size_t b = 0; b < len;) {
        const char *nl = memchr(t + b, '\n', len - b);
        size_t e = nl ? (size_t)(nl - t) : len;
        size_t content_end = e > b && t[e - 1] == '\r' ? e - 1 : e;
        directive d;
        memset(&d, 0, sizeof d);
        if (!in_comment && parse_directive(t, b, content_end, &d)) {
            d.line_begin = b;
            d.line_end = content_end;
            vec_push(out, d);
        }
        /* block comments opened or closed on this line (strings aside) */
        for (size_t i = b; i + 1 < e; i++) {
            if (!in_comment && t[i] == '/' && t[i + 1] == '/')
                break;
            if (!in_comment && t[i] == '/' && t[i + 1] == '*') {
                in_comment = 1;
                i++;
            } else if (in_comment && t[i] == '*' && t[i + 1] == '/') {
                in_comment = 0;
                i++;
            }
        }
        b = e + 1;
    }
}

static const char *dir_prefix(const char *path, arena *a)
{
    const char *slash = strrchr(path, '/');
    return slash ? arena_strndup(a, path, (size_t)(slash - path + 1)) : "";
}

/* The path the compiler opens for directive d of file includer (its first
 * existing candidate), or NULL. */
static const char *resolve(const char *includer, const char *text, const directive *d,
                           const nvcc_cmdline *cl, arena *a)
{
    const char *name = arena_strndup(a, text + d->name_begin, d->name_end - d->name_begin);
    if (name[0] == '/')
        return access(name, F_OK) == 0 ? name : NULL;
    if (d->quoted) {
        const char *p = arena_printf(a, "%s%s", dir_prefix(includer, a), name);
        if (access(p, F_OK) == 0)
            return p;
    }
    const cstr_vec *f = &cl->frontend_flags;
    for (size_t i = 0; i < f->len; i++) {
        const char *dir = NULL;
        if (strncmp(f->items[i], "-I", 2) == 0 && f->items[i][2])
            dir = f->items[i] + 2;
        else if (strcmp(f->items[i], "-isystem") == 0 && i + 1 < f->len)
            dir = f->items[++i];
        if (!dir)
            continue;
        size_t n = strlen(dir);
        const char *p = arena_printf(a, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
        if (access(p, F_OK) == 0)
            return p;
    }
    return NULL;
}

static int same_file(const char *x, const char *y)
{
    char rx[PATH_MAX], ry[PATH_MAX];
    return x && y && realpath(x, rx) && realpath(y, ry) && strcmp(rx, ry) == 0;
}

int apply_header_include(const tu_model *m, const char *header, const nvcc_cmdline *cl,
                         arena *a, apply_include *out, const char **why)
{
    memset(out, 0, sizeof *out);
    size_t found = 0;
    for (size_t f = 0; f < m->files.len; f++) {
        const source_file *sf = &m->files.items[f];
        int is_main = strcmp(sf->path, m->main_file) == 0;
        if (!is_main && same_file(sf->path, header))
            continue;
        directive_vec ds = {0};
        find_directives(sf->text, sf->len, &ds);
        for (size_t i = 0; i < ds.len; i++) {
            const directive *d = &ds.items[i];
            const char *p = resolve(sf->path, sf->text, d, cl, a);
            if (!same_file(p, header))
                continue;
            if (!is_main || d->include_next) {
                *why = arena_printf(a, "%s includes it too", sf->path);
                vec_free(&ds);
                return -1;
            }
            if (found++ == 0) {
                out->begin = d->line_begin;
                out->end = d->line_end;
                out->spelled = p;
            }
        }
        vec_free(&ds);
    }
    if (found != 1) {
        *why = found ? "the main file includes it more than once"
                     : "the main file does not include it itself";
        return -1;
    }
    return 0;
}

/* the header's own edits: #pragma once out, "..." includes of its folder
 * by their absolute paths */
static int own_edits(const source_file *sf, arena *a, rw_edit_vec *out, strbuf *why)
{
    directive_vec ds = {0};
    find_directives(sf->text, sf->len, &ds);
    const char *dir = dir_prefix(sf->path, a);
    for (size_t i = 0; i < ds.len; i++) {
        const directive *d = &ds.items[i];
        if (d->include_next) {
            sb_puts(why, "it uses #include_next");
            vec_free(&ds);
            return -1;
        }
        if (!d->quoted || sf->text[d->name_begin] == '/')
            continue;
        const char *p = arena_printf(a, "%s%.*s", dir, (int)(d->name_end - d->name_begin),
                                     sf->text + d->name_begin);
        char real[PATH_MAX];
        if (!realpath(p, real))
            continue; /* found further along the search path, from anywhere */
        /* the whole line: a #line directive may not split it */
        const char *line = arena_printf(
            a, "%.*s%s%.*s", (int)(d->name_begin - d->line_begin), sf->text + d->line_begin,
            real, (int)(d->line_end - d->name_end), sf->text + d->name_end);
        rw_edit e = {d->line_begin, d->line_end, line, 0};
        vec_push(out, e);
    }
    vec_free(&ds);
    for (size_t b = 0; b < sf->len;) {
        const char *nl = memchr(sf->text + b, '\n', sf->len - b);
        size_t e = nl ? (size_t)(nl - sf->text) : sf->len;
        size_t i = skip_blanks(sf->text, b, e);
        if (i < e && sf->text[i] == '#') {
            i = skip_blanks(sf->text, i + 1, e);
            if (e - i >= 6 && memcmp(sf->text + i, "pragma", 6) == 0) {
                size_t j = skip_blanks(sf->text, i + 6, e);
                size_t k = j + 4;
                if (k <= e && memcmp(sf->text + j, "once", 4) == 0 &&
                    (k == e || sf->text[k] == ' ' || sf->text[k] == '\t' || sf->text[k] == '\r')) {
                    rw_edit ed = {b, k, "", 0};
                    vec_push(out, ed);
                }
            }
        }
        b = e + 1;
    }
    return 0;
}

int apply_header_text(const tu_model *m, const char *header, const apply_include *inc,
                      rw_edit *edits, size_t n_edits, arena *a, strbuf *out, strbuf *why)
{
    const source_file *sf = model_file(m, header);
    if (!sf) {
        sb_printf(why, "%s: its text was not kept by the frontend", header);
        return -1;
    }
    rw_edit_vec all = {0};
    for (size_t i = 0; i < n_edits; i++)
        vec_push(&all, edits[i]);
    int rc = own_edits(sf, a, &all, why);
    if (rc == 0 && rw_splice(sf->text, sf->len, inc->spelled, all.items, all.len, 1, out, why) !=
                       RW_OK)
        rc = -1;
    if (rc == 0 && out->len && out->data[out->len - 1] != '\n')
        sb_putc(out, '\n');
    vec_free(&all);
    return rc;
}

void apply_local_includes(const char *path, const char *text, size_t len, arena *a,
                          cstr_vec *out)
{
    directive_vec ds = {0};
    find_directives(text, len, &ds);
    for (size_t i = 0; i < ds.len; i++) {
        const directive *d = &ds.items[i];
        if (!d->quoted || d->include_next)
            continue;
        const char *p = arena_printf(a, "%s%.*s", text[d->name_begin] == '/' ? "" : dir_prefix(path, a),
                                     (int)(d->name_end - d->name_begin), text + d->name_begin);
        if (access(p, R_OK) == 0)
            vec_push(out, p);
    }
    vec_free(&ds);
}
