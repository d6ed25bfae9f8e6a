/*
 * roofline_eval.c: evaluates the expression text the frontend writes for
 * loop headers, conditions and values (frontend/extract_expr.c) to a
 * number, its names looked up by the caller.  C's integer division where
 * both sides are whole numbers; a name the caller does not know makes the
 * whole expression unknown.
 */
#include "roofline_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *p;
    rl_lookup lookup;
    void *data;
    int bad;
} parser;

static void skip_space(parser *ps)
{
    while (*ps->p == ' ')
        ps->p++;
}

/* consumes op when it comes next (and is not the start of a longer one) */
static int accept(parser *ps, const char *op)
{
    skip_space(ps);
    size_t n = strlen(op);
    if (strncmp(ps->p, op, n) != 0)
        return 0;
    char next = ps->p[n];
    if (n == 1 && (op[0] == '<' || op[0] == '>') && next == '=')
        return 0;
    if (n == 1 && (op[0] == '&' || op[0] == '|') && next == op[0])
        return 0;
    ps->p += n;
    return 1;
}

static double parse_or(parser *ps);

static int is_name_char(char c)
{
    return c == '_' || c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
}

static double parse_primary(parser *ps)
{
    skip_space(ps);
    if (accept(ps, "(")) {
        double v = parse_or(ps);
        if (!accept(ps, ")"))
            ps->bad = 1;
        return v;
    }
    if (accept(ps, "-"))
        return -parse_primary(ps);
    if (*ps->p >= '0' && *ps->p <= '9') {
        char *end;
        double v = strtod(ps->p, &end);
        ps->p = end;
        while (*ps->p == 'u' || *ps->p == 'U' || *ps->p == 'l' || *ps->p == 'L')
            ps->p++;
        return v;
    }
    const char *start = ps->p;
    while (is_name_char(*ps->p))
        ps->p++;
    double v = 0;
    if (ps->p == start || ps->lookup(ps->data, start, (size_t)(ps->p - start), &v) != 0)
        ps->bad = 1;
    return v;
}

static int whole(double x)
{
    return x == floor(x) && fabs(x) < 9e15;
}

static double parse_mul(parser *ps)
{
    double v = parse_primary(ps);
    for (;;) {
        if (accept(ps, "*")) {
            v *= parse_primary(ps);
        } else if (accept(ps, "/")) {
            double d = parse_primary(ps);
            if (d == 0)
                ps->bad = 1;
            else
                v = whole(v) && whole(d) ? trunc(v / d) : v / d;
        } else if (accept(ps, "%")) {
            double d = parse_primary(ps);
            if (d == 0 || !whole(v) || !whole(d))
                ps->bad = 1;
            else
                v = fmod(v, d);
        } else {
            return v;
        }
    }
}

static double parse_add(parser *ps)
{
    double v = parse_mul(ps);
    for (;;) {
        if (accept(ps, "+"))
            v += parse_mul(ps);
        else if (accept(ps, "-"))
            v -= parse_mul(ps);
        else
            return v;
    }
}

static double parse_compare(parser *ps)
{
    double v = parse_add(ps);
    if (accept(ps, "<="))
        return v <= parse_add(ps);
    if (accept(ps, ">="))
        return v >= parse_add(ps);
    if (accept(ps, "<"))
        return v < parse_add(ps);
    if (accept(ps, ">"))
        return v > parse_add(ps);
    if (accept(ps, "=="))
        return v == parse_add(ps);
    if (accept(ps, "!="))
        return v != parse_add(ps);
    return v;
}

static double parse_and(parser *ps)
{
    double v = parse_compare(ps);
    while (accept(ps, "&&")) {
        double w = parse_compare(ps);
        v = v != 0 && w != 0;
    }
    return v;
}

static double parse_or(parser *ps)
{
    double v = parse_and(ps);
    while (accept(ps, "||")) {
        double w = parse_and(ps);
        v = v != 0 || w != 0;
    }
    return v;
}

int rl_eval(const char *text, rl_lookup lookup, void *data, double *out)
{
    if (!text)
        return -1;
    parser ps = {text, lookup, data, 0};
    double v = parse_or(&ps);
    skip_space(&ps);
    if (ps.bad || *ps.p || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* text without the parentheses around all of it, into a */
static const char *unwrap(const char *text, arena *a)
{
    size_t n = strlen(text);
    while (n >= 2 && text[0] == '(' && text[n - 1] == ')') {
        int depth = 0, wraps = 1;
        for (size_t i = 0; i < n && wraps; i++) {
            depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
            if (depth == 0 && i < n - 1)
                wraps = 0;
        }
        if (!wraps)
            break;
        text++;
        n -= 2;
    }
    return arena_strndup(a, text, n);
}

size_t rl_split(const char *text, const char *sep, const char **parts, size_t max, arena *a)
{
    const char *t = unwrap(text, a);
    size_t n = 0, sl = strlen(sep);
    int depth = 0;
    const char *start = t;
    for (const char *p = t; *p; p++) {
        depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
        if (depth == 0 && strncmp(p, sep, sl) == 0) {
            if (n + 1 >= max)
                return 0;
            parts[n++] = unwrap(arena_strndup(a, start, (size_t)(p - start)), a);
            p += sl - 1;
            start = p + 1;
        }
    }
    if (n + 1 > max)
        return 0;
    parts[n++] = unwrap(start, a);
    return n;
}

size_t rl_flatten(const char *text, const char *sep, const char **parts, size_t max, arena *a)
{
    const char *split[64];
    size_t n = rl_split(text, sep, split, 64, a);
    if (n <= 1) {
        if (n == 1 && max > 0)
            parts[0] = split[0];
        return n == 1 && max > 0 ? 1 : 0;
    }
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        size_t got = rl_flatten(split[i], sep, parts + total, max - total, a);
        if (!got)
            return 0;
        total += got;
    }
    return total;
}
