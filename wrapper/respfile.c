/*
 * respfile.c: expands response files in an nvcc argv: "@file" (which CMake
 * writes for Ninja but nvcc does not understand) and nvcc's own -optf /
 * --options-file, nested, with shell-like quoting, up to a depth limit.
 */
#include "wrapper_internal.h"

#include <errno.h>
#include <string.h>

#define RESP_MAX_DEPTH 16
#define RESP_MAX_BYTES (64u << 20)
#define RESP_MAX_ARGS (1u << 22)

/* Splits text the way a POSIX shell splits words (quotes and backslashes,
 * no expansions), which is how CMake quotes response files. */
void wr_split_words(const char *text, size_t len, arena *a, str_vec *words)
{
    strbuf w;
    sb_init(&w);
    size_t i = 0;
    while (i < len) {
        while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
                           text[i] == '\r' || text[i] == '\f' || text[i] == '\v'))
            i++;
        if (i >= len)
            break;
        sb_clear(&w);
        while (i < len && !(text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
                            text[i] == '\r' || text[i] == '\f' || text[i] == '\v')) {
            char c = text[i];
            if (c == '\\') {
                if (i + 1 < len) {
                    if (text[i + 1] != '\n')
                        sb_putc(&w, text[i + 1]);
                    i += 2;
                } else {
                    i++;
                }
            } else if (c == '\'') {
                i++;
                size_t start = i;
                while (i < len && text[i] != '\'')
                    i++;
                sb_append(&w, text + start, i - start);
                if (i < len)
                    i++;
            } else if (c == '"') {
                i++;
                while (i < len && text[i] != '"') {
                    if (text[i] == '\\' && i + 1 < len &&
                        strchr("\"\\$`\n", text[i + 1])) {
                        if (text[i + 1] != '\n')
                            sb_putc(&w, text[i + 1]);
                        i += 2;
                    } else {
                        sb_putc(&w, text[i++]);
                    }
                }
                if (i < len)
                    i++;
            } else {
                sb_putc(&w, c);
                i++;
            }
        }
        vec_push(words, arena_strndup(a, sb_str(&w), w.len));
    }
    sb_free(&w);
}

typedef struct expander {
    nvcc_cmdline *out;
    strbuf *err;
    size_t bytes;
} expander;

static int expand(expander *x, char **args, size_t n, int depth);

static int expand_file(expander *x, const char *path, const char *shown, int depth)
{
    if (depth >= RESP_MAX_DEPTH) {
        sb_printf(x->err, "%s: response files nested more than %d deep", shown,
                  RESP_MAX_DEPTH);
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
    wr_split_words(text, len, &x->out->strings, &words);
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
    const char *names[] = {"-optf", "--options-file"};
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
        if (a[0] == '@' && a[1] != '\0') {
            if (expand_file(x, a + 1, a, depth) != 0)
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
                    char *path = arena_strndup(&x->out->strings, p, l);
                    if (expand_file(x, path, path, depth) != 0)
                        return -1;
                }
                if (!comma)
                    break;
                p = comma + 1;
            }
            i += used - 1;
            continue;
        }
        if (x->out->argv.len >= RESP_MAX_ARGS) {
            sb_printf(x->err, "more than %u arguments", RESP_MAX_ARGS);
            return -1;
        }
        vec_push(&x->out->argv, arena_strdup(&x->out->strings, a));
    }
    return 0;
}

int wr_expand_response_files(int argc, char **argv, nvcc_cmdline *out, strbuf *err)
{
    expander x = {out, err, 0};
    return expand(&x, argv, argc > 0 ? (size_t)argc : 0, 0);
}
