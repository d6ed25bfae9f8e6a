/*
 * alloc.c: allocation helpers that abort on failure, the arena, and the
 * growable-array helper behind VEC/vec_push.
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

static _Noreturn void out_of_memory(size_t n)
{
    fprintf(stderr, "cl1cc: out of memory (asked for %zu bytes)\n", n);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory(count * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n);
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = xmalloc(n);
    memcpy(p, s, n);
    return p;
}

void vec_grow_(void **items, size_t *cap, size_t need, size_t elem_size)
{
    size_t new_cap = *cap ? *cap : 8;
    while (new_cap < need) {
        if (new_cap > SIZE_MAX / 2)
            out_of_memory(SIZE_MAX);
        new_cap *= 2;
    }
    if (new_cap > SIZE_MAX / elem_size)
        out_of_memory(SIZE_MAX);
    *items = xrealloc(*items, new_cap * elem_size);
    *cap = new_cap;
}

/* ---- arena ---------------------------------------------------------------- */

struct arena_block {
    arena_block *next;
    size_t used, size;
    max_align_t data[];
};

enum { ARENA_BLOCK_BYTES = 64 * 1024 };

void arena_init(arena *a) { a->head = NULL; }

void arena_free(arena *a)
{
    arena_block *b = a->head;
    while (b) {
        arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
}

void *arena_alloc(arena *a, size_t size)
{
    const size_t align = sizeof(max_align_t);
    size_t rounded = (size + align - 1) / align * align;
    if (rounded < size)
        out_of_memory(size);
    arena_block *b = a->head;
    if (!b || b->size - b->used < rounded) {
        size_t bytes = rounded > ARENA_BLOCK_BYTES ? rounded : ARENA_BLOCK_BYTES;
        b = xmalloc(sizeof(arena_block) + bytes);
        b->size = bytes;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += rounded;
    memset(p, 0, size);
    return p;
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *arena_strdup(arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

char *arena_printf(arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return arena_strdup(a, "");
    char *p = arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}
