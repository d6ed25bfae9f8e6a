/*
 * respfile.c: expands response files in an nvcc argv: "@file" (which CMake
 * writes for Ninja links but nvcc does not understand) and nvcc's own -optf /
 * --options-file, nested, up to a depth limit.  Each kind is split the way
 * its reader splits it: "@file" like a POSIX shell (GCC, CMake), -optf the
 * way nvcc 13 does (no single quotes), NVCC_*_FLAGS the way nvcc does.
 */
#include "wrapper_internal.h"

#include <errno.h>
#include <string.h>

#define RESP_MAX_DEPTH 16
#define RESP_MAX_BYTES (64u << 20)
#define RESP_MAX_ARGS (1u << 22)
#define RESP_MAX_FILES 1024 /* files read in all: "@a @a" in a nests exponentially */

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* One word of text starting at *i (not a blank) under the given rules. */
static void split_one(const char *text, size_t len, size_t *pos, wr_split_mode mode,
                      strbuf *w)
{
    size_t i = *pos;
    while (i < len && !is_blank(text[i])) {
        char c = text[i];
        if (mode == WR_SPLIT_ENV) {
            /* nvcc keeps quotes and backslashes in the word; they only
             * protect blanks from splitting */
            if (c == '"') {
                sb_putc(w, text[i++]);
                while (i < len && text[i] != '"')
                    sb_putc(w, text[i++]);
                if (i < len)
                    sb_putc(w, text[i++]);
            } else if (c == '\\' && i + 1 < len) {
                sb_append(w, text + i, 2);
                i += 2;
            } else {
                sb_putc(w, c);
                i++;
            }
        } else if (c == '\\') {
            /* outside quotes both readers take the next byte as it is;
             * backslash-newline joins lines */
            if (i + 1 < len && text[i + 1] != '\n')
                sb_putc(w, text[i + 1]);
            i += i + 1 < len ? 2 : 1;
        } else if (c == '\'' && mode == WR_SPLIT_SHELL) {
            i++;
            size_t start = i;
            while (i < len && text[i] != '\'')
                i++;
            sb_append(w, text + start, i - start);
            if (i < len)
                i++;
        } else if (c == '"') {
            i++;
            while (i < len && text[i] != '"') {
                /* the shell escapes only these inside double quotes; nvcc's
                 * options-file reader escapes any byte */
                if (text[i] == '\\' && i + 1 < len &&
                    (mode == WR_SPLIT_OPTF || strchr("\"\\$`\n", text[i + 1]))) {
                    if (text[i + 1] != '\n')
                        sb_putc(w, text[i + 1]);
                    i += 2;
                } else {
                    sb_putc(w, text[i++]);
                }
            }
            if (i < len)
                i++;
        } else {
            sb_putc(w, c);
            i++;
        }
    }
    *pos = i;
}

void wr_split_words(const char *text, size_t len, wr_split_mode mode, arena *a,
                    str_vec *words)
{
    strbuf w;
    sb_init(&w);
    size_t i = 0;
    while (i < len) {
        while (i < len && is_blank(text[i]))
            i++;
        if (i >= len)
            break;
        sb_clear(&w);
        split_one(text, len, &i, mode, &w);
        vec_push(words, arena_strndup(a, sb_str(&w), w.len));
    }
    sb_free(&w);
}

typedef struct expander {
    arena *strings;
    str_vec *out;
    int at_files; /* "@file" is a response file (not in NVCC_*_FLAGS) */
    strbuf *err;
    size_t bytes, files;
} expander;

static int expand(expander *x, char **args, size_t n, int depth);

static int expand_file(expander *x, const char *path, const char *shown, wr_split_mode mode,
                       int depth)
{
    if (depth >= RESP_MAX_DEPTH) {
        sb_printf(x->err, "%s: response files nested more than %d deep", shown,
                  RESP_MAX_DEPTH);
        return -1;
    }
    if (++x->files > RESP_MAX_FILES) {
        sb_printf(x->err, "%s: more than %d response files read", shown, RESP_MAX_FILES);
        return -1;
    }
    char *text = NULL;
    size_t len = 0;
    if (file_read_all(path, RESP_MAX_BYTES, &text, &len) != 0) {
        sb_printf(x->err, "%s: %s", shown, strerror(errno));
        return -1;
    }
    x->bytes += len;
    if (x->bytes > RESP_MAX_BYTES) {
        free(text);
        sb_printf(x->err, "%s: response files larger than %u bytes in all", shown,
                  RESP_MAX_BYTES);
        return -1;
    }
    str_vec words = {0};
    wr_split_words(text, len, mode, x->strings, &words);
    free(text);
    int rc = expand(x, words.items, words.len, depth + 1);
    vec_free(&words);
    return rc;
}

/* "-optf" / "--options-file": returns the value (attached after '=' or the
 * next argument, *used set to 2), or NULL when arg is not one of them. */
static const char *optf_value(char **args, size_t n, size_t i, size_t *used, int *missing)
{
    const char *a = args[i];
    static const char *const names[] = {"-optf", "--options-file"};
    *missing = 0;
    for (int k = 0; k < 2; k++) {
        size_t nl = strlen(names[k]);
        if (strncmp(a, names[k], nl) != 0)
            continue;
        if (a[nl] == '=') {
            *used = 1;
            return a + nl + 1;
        }
        if (a[nl] == '\0') {
            if (i + 1 >= n) {
                *missing = 1;
                return NULL;
            }
            *used = 2;
            return args[i + 1];
        }
    }
    return NULL;
}

static int expand(expander *x, char **args, size_t n, int depth)
{
    for (size_t i = 0; i < n; i++) {
        const char *a = args[i];
        if (x->at_files && a[0] == '@' && a[1] != '\0') {
            if (expand_file(x, a + 1, a, WR_SPLIT_SHELL, depth) != 0)
                return -1;
            continue;
        }
        size_t used = 0;
        int missing = 0;
        const char *files = optf_value(args, n, i, &used, &missing);
        if (missing) {
            sb_printf(x->err, "%s: argument expected", a);
            return -1;
        }
        if (files) {
            /* a comma-separated list of files */
            const char *p = files;
            for (;;) {
                const char *comma = strchr(p, ',');
                size_t l = comma ? (size_t)(comma - p) : strlen(p);
                if (l) {
                    char *path = arena_strndup(x->strings, p, l);
                    if (expand_file(x, path, path, WR_SPLIT_OPTF, depth) != 0)
                        return -1;
                }
                if (!comma)
                    break;
                p = comma + 1;
            }
            i += used - 1;
            continue;
        }
        if (x->out->len >= RESP_MAX_ARGS) {
            sb_printf(x->err, "more than %u arguments", RESP_MAX_ARGS);
            return -1;
        }
        vec_push(x->out, arena_strdup(x->strings, a));
    }
    return 0;
}

int wr_expand_args(int argc, char **argv, int at_files, arena *strings, str_vec *out,
                   strbuf *err)
{
    expander x = {strings, out, at_files, err, 0, 0};
    return expand(&x, argv, argc > 0 ? (size_t)argc : 0, 0);
}
