/*
 * core.h: the small shared core every stage of cl1cc uses: arenas, string
 * buffers, growable arrays, logging and file helpers.  Nothing here knows
 * about CUDA; it is plain C11 plus POSIX.
 */
#ifndef CL1CC_CORE_H
#define CL1CC_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- arena: many small allocations freed at once ---------------------- */

typedef struct arena_block arena_block;
typedef struct arena {
    arena_block *head;
} arena;

void arena_init(arena *a);
void arena_free(arena *a);
/* Never returns NULL: an allocation failure aborts (out of memory is not a
 * condition cl1cc can recover from half-way through a data structure). */
void *arena_alloc(arena *a, size_t size);
char *arena_strdup(arena *a, const char *s);
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_printf(arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- string buffer: a growable NUL-terminated byte string -------------- */

typedef struct strbuf {
    char *data; /* always NUL-terminated once anything was appended */
    size_t len;
    size_t cap;
} strbuf;

void sb_init(strbuf *sb);
void sb_free(strbuf *sb);
void sb_clear(strbuf *sb);
void sb_append(strbuf *sb, const char *s, size_t n);
void sb_puts(strbuf *sb, const char *s);
void sb_putc(strbuf *sb, char c);
void sb_printf(strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *sb, const char *fmt, va_list ap);
/* Returns the string ("" when empty); the buffer keeps ownership. */
const char *sb_str(const strbuf *sb);
/* Hands the heap string to the caller and resets the buffer. */
char *sb_take(strbuf *sb);

/* ---- growable arrays ---------------------------------------------------- */

/* VEC(T) declares {T *items; size_t len, cap;}.  vec_push grows with overflow
 * checks (like Lua's luaM_growvector) and aborts on out of memory. */
#define VEC(T) struct { T *items; size_t len, cap; }
void vec_grow_(void **items, size_t *cap, size_t need, size_t elem_size);
#define vec_push(v, x)                                                       \
    do {                                                                     \
        if ((v)->len == (v)->cap)                                            \
            vec_grow_((void **)&(v)->items, &(v)->cap, (v)->len + 1,         \
                      sizeof(*(v)->items));                                  \
        (v)->items[(v)->len++] = (x);                                        \
    } while (0)
typedef VEC(char *) str_vec;
typedef VEC(const char *) cstr_vec;
/* 1 when x and y hold the same strings in the same order */
int cstr_vec_equal(const cstr_vec *x, const cstr_vec *y);
#define vec_free(v)                                                          \
    do {                                                                     \
        free((v)->items);                                                    \
        (v)->items = NULL;                                                   \
        (v)->len = (v)->cap = 0;                                             \
    } while (0)

/* ---- allocation that aborts on failure ---------------------------------- */

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* ---- logging: every message starts with "cl1cc: " on stderr ------------ */

typedef enum { LOG_QUIET, LOG_NORMAL, LOG_VERBOSE } log_level;
void log_set_level(log_level level);
log_level log_get_level(void);
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A one-line reason from another cl1cc's stderr text: its last error line
 * with the lines after it (a child's own messages) joined by " / ", else
 * the last line; at most size - 1 characters into out. */
void log_error_line(const char *text, char *out, size_t size);
/* An internal inconsistency: a bug in cl1cc, never a user error. */
_Noreturn void log_bug(const char *file, int line, const char *msg);
#define CL_ASSERT(c) ((c) ? (void)0 : log_bug(__FILE__, __LINE__, #c))

/* ---- files -------------------------------------------------------------- */

/* Reads a whole file; returns 0, or -1 with errno set. *out is NUL-terminated
 * and heap-allocated (free it).  max_size 0 means no limit. */
int file_read_all(const char *path, size_t max_size, char **out, size_t *len);
/* Writes atomically: to a temporary beside path, then rename. 0 or -1. */
int file_write_atomic(const char *path, const char *data, size_t len);
/* Writes the JSON tree root (and deletes it) to path atomically, with a
 * final newline; formatted: indented, else on one line.  0, or -1 with
 * the reason, naming path, in err. */
struct cJSON;
int json_write_file(struct cJSON *root, const char *path, int formatted, strbuf *err);
int file_exists(const char *path);
/* mkdir -p; 0 or -1 with errno set. */
int dir_create_all(const char *path, int mode);
/* The directory holding the running executable (from /proc/self/exe). */
const char *self_exe_dir(void);
/* FNV-1a 64-bit hash, for cache keys that need no cryptographic strength. */
uint64_t hash_fnv1a(const void *data, size_t len, uint64_t seed);
#define HASH_FNV_SEED 0xcbf29ce484222325ULL

/* ---- SHA-256 ------------------------------------------------------------- */

typedef struct sha256_ctx {
    uint32_t h[8];
    uint64_t total;
    unsigned char buf[64];
    size_t fill;
} sha256_ctx;
void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t len);
void sha256_final_hex(sha256_ctx *c, char out[65]);
void sha256_hex(const void *data, size_t len, char out[65]);

/* ---- C expression text (expr_text.c) ------------------------------------ */

/* 1 when the text of an expression has no effect but its value: no
 * assignment (compound ones included), increment, string or ->*, and every
 * call is to one of calls (NULL-terminated; casts and groupings are not
 * calls).  A conservative reading of text, not a parse. */
int expr_text_without_effects(const char *s, const char *const *calls);

#endif
