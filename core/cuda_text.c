/* cuda_text.c: comments, literals and brackets in CUDA source text */
#include "cuda_text.h"

#include <ctype.h>
#include <string.h>

#include "core.h"

/* a backslash-newline (or backslash-CR-LF) at t[i]: its length, else 0 */
static size_t line_splice(const char *t, size_t len, size_t i)
{
    if (i + 1 < len && t[i] == '\\' && t[i + 1] == '\n')
        return 2;
    if (i + 2 < len && t[i] == '\\' && t[i + 1] == '\r' && t[i + 2] == '\n')
        return 3;
    return 0;
}

size_t ctext_skip_comment(const char *t, size_t len, size_t i)
{
    if (i + 1 >= len || t[i] != '/' || (t[i + 1] != '/' && t[i + 1] != '*'))
        return i;
    if (t[i + 1] == '/') {
        size_t p = i + 2;
        while (p < len && t[p] != '\n')
            p += line_splice(t, len, p) ? line_splice(t, len, p) : 1;
        return p < len ? p : len;
    }
    for (size_t p = i + 2; p + 1 < len; p++)
        if (t[p] == '*' && t[p + 1] == '/')
            return p + 2;
    return len;
}

size_t ctext_skip_literal(const char *t, size_t len, size_t i)
{
    if (i >= len || (t[i] != '"' && t[i] != '\''))
        return i;
    char quote = t[i];
    size_t p = i + 1;
    while (p < len && t[p] != '\n') {
        size_t splice = line_splice(t, len, p);
        if (splice) {
            p += splice;
            continue;
        }
        if (t[p] == '\\' && p + 1 < len && t[p + 1] != '\n') {
            p += 2;
            continue;
        }
        if (t[p++] == quote)
            return p;
    }
    return p < len ? p : len;
}

size_t ctext_skip_blanks(const char *t, size_t len, size_t i)
{
    for (;;) {
        while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n'))
            i++;
        size_t after = ctext_skip_comment(t, len, i);
        if (after == i)
            return i;
        i = after;
    }
}

size_t ctext_close_bracket(const char *t, size_t len, size_t open)
{
    if (open >= len || (t[open] != '(' && t[open] != '[' && t[open] != '{'))
        return 0;
    char o = t[open], c = o == '(' ? ')' : o == '{' ? '}' : ']';
    int depth = 0;
    for (size_t i = open; i < len;) {
        size_t after = ctext_skip_comment(t, len, i);
        if (after == i)
            after = ctext_skip_literal(t, len, i);
        if (after != i) {
            i = after;
            continue;
        }
        if (t[i] == o)
            depth++;
        else if (t[i] == c && --depth == 0)
            return i;
        i++;
    }
    return 0;
}

int ctext_template_args(const char *inst, size_t n, arena *a, const char **args, int max)
{
    const char *lt = memchr(inst, '<', n);
    if (!lt || n == 0 || inst[n - 1] != '>')
        return -1;
    int count = 0, depth = 0;
    const char *start = lt + 1, *end = inst + n - 1;
    for (const char *p = start; p <= end; p++) {
        if (p < end && (*p == '<' || *p == '(' || *p == '['))
            depth++;
        else if (p < end && (*p == '>' || *p == ')' || *p == ']'))
            depth--;
        else if (p == end || (*p == ',' && depth == 0)) {
            if (count == max)
                return -1;
            const char *b = start, *e = p;
            while (b < e && isspace((unsigned char)*b))
                b++;
            while (e > b && isspace((unsigned char)e[-1]))
                e--;
            args[count++] = arena_strndup(a, b, (size_t)(e - b));
            start = p + 1;
        }
    }
    return count;
}
