/*
 * strbuf.c: growable NUL-terminated strings.
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

void sb_init(strbuf *sb)
{
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

void sb_free(strbuf *sb)
{
    free(sb->data);
    sb_init(sb);
}

void sb_clear(strbuf *sb)
{
    sb->len = 0;
    if (sb->data)
        sb->data[0] = '\0';
}

static void sb_reserve(strbuf *sb, size_t extra)
{
    if (extra > SIZE_MAX - sb->len - 1) {
        fprintf(stderr, "cl1cc: string too large\n");
        abort();
    }
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    sb->data = xrealloc(sb->data, cap);
    sb->cap = cap;
}

void sb_append(strbuf *sb, const char *s, size_t n)
{
    sb_reserve(sb, n);
    if (n)
        memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void sb_puts(strbuf *sb, const char *s) { sb_append(sb, s, strlen(s)); }

void sb_putc(strbuf *sb, char c) { sb_append(sb, &c, 1); }

void sb_vprintf(strbuf *sb, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n <= 0)
        return;
    sb_reserve(sb, (size_t)n);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

const char *sb_str(const strbuf *sb) { return sb->data ? sb->data : ""; }

char *sb_take(strbuf *sb)
{
    char *s = sb->data ? sb->data : xstrdup("");
    sb_init(sb);
    return s;
}

int cstr_vec_equal(const cstr_vec *x, const cstr_vec *y)
{
    if (x->len != y->len)
        return 0;
    for (size_t i = 0; i < x->len; i++)
        if (strcmp(x->items[i], y->items[i]) != 0)
            return 0;
    return 1;
}
