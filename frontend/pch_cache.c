/*
 * pch_cache.c: a precompiled header of clang's CUDA wrapper and the CUDA
 * runtime headers, cached on disk per set of parser arguments.  Reading
 * those headers is almost all of a parse; with the PCH a TU parses several
 * times faster.  Any trouble here only means parsing without it.
 */
#include "internal.h"

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The cache holds one PCH (about 6 MB) per set of parser arguments; past
 * this many bytes the least recently used go.  CL1CC_PCH_CACHE_MB sets it. */
#define PCH_CACHE_DEFAULT_MB 256

static const char *cache_dir(arena *a)
{
    const char *dir = config_cache_dir(a);
    return dir ? arena_printf(a, "%s/pch", dir) : NULL;
}

/* The key: libclang's version and every argument, in order.  Forced
 * includes are the user's code, so they stay out of the PCH (but in the
 * key, which is harmless). */
static void pch_key(const char *const *args, size_t n, char out[65])
{
    sha256_ctx c;
    sha256_init(&c);
    CXString v = clang_getClangVersion();
    const char *version = clang_getCString(v);
    sha256_update(&c, version ? version : "", version ? strlen(version) + 1 : 1);
    clang_disposeString(v);
    static const char format[] = "cl1cc-pch-1";
    sha256_update(&c, format, sizeof format);
    for (size_t i = 0; i < n; i++)
        sha256_update(&c, args[i], strlen(args[i]) + 1);
    sha256_final_hex(&c, out);
}

static int build_pch(CXIndex index, const char *const *args, size_t n,
                     const char *dir, const char *path, arena *a)
{
    /* the PCH remembers its source file and is refused if that is gone:
     * the empty file stays beside it */
    const char *empty = arena_printf(a, "%s.cu", path);
    const char *tmp = arena_printf(a, "%s.%ld.tmp", path, (long)getpid());
    /* created once and never rewritten: clang checks its size and time */
    int fd = open(empty, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
        int ok = write(fd, "\n", 1) == 1;
        if (close(fd) != 0 || !ok) {
            unlink(empty);
            return -1;
        }
    } else if (errno != EEXIST) {
        return -1;
    }
    const char **pch_args = arena_alloc(a, (n + 1) * sizeof *pch_args);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(args[i], "-include") == 0 && i + 1 < n) {
            i++;
            continue;
        }
        pch_args[m++] = args[i];
    }
    CXTranslationUnit tu = NULL;
    enum CXErrorCode rc = clang_parseTranslationUnit2(
        index, empty, pch_args, (int)m, NULL, 0,
        CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization, &tu);
    if (rc != CXError_Success || !tu)
        return -1;
    int ok = !fe_tu_has_errors(tu) &&
             clang_saveTranslationUnit(tu, tmp, clang_defaultSaveOptions(tu)) ==
                 CXSaveError_None;
    clang_disposeTranslationUnit(tu);
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

static unsigned long long cache_limit_bytes(void)
{
    return (unsigned long long)config_pch_cache_mb(PCH_CACHE_DEFAULT_MB) << 20;
}

typedef struct pch_entry {
    char *name;
    time_t used; /* mtime: touched on every use */
    unsigned long long bytes;
} pch_entry;

static int least_recent_first(const void *a, const void *b)
{
    const pch_entry *x = a, *y = b;
    return x->used < y->used ? -1 : x->used > y->used;
}

/* Removes the least recently used PCHs (and their empty sources) until the
 * cache is within its limit; keep is never removed. */
static void evict(const char *dir, const char *keep, arena *a)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    VEC(pch_entry) entries = {0};
    unsigned long long total = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        struct stat st;
        const char *path = arena_printf(a, "%s/%s", dir, e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".tmp") == 0) {
            /* a write a killed process left half done */
            if (stat(path, &st) == 0 && st.st_mtime < time(NULL) - 3600)
                unlink(path);
            continue;
        }
        if (len < 5 || strcmp(e->d_name + len - 4, ".pch") != 0)
            continue;
        if (stat(path, &st) != 0)
            continue;
        pch_entry pe = {arena_strdup(a, e->d_name), st.st_mtime,
                        (unsigned long long)st.st_size};
        total += pe.bytes;
        vec_push(&entries, pe);
    }
    closedir(d);
    unsigned long long limit = cache_limit_bytes();
    if (entries.len)
        qsort(entries.items, entries.len, sizeof *entries.items, least_recent_first);
    for (size_t i = 0; i < entries.len && total > limit; i++) {
        const char *path = arena_printf(a, "%s/%s", dir, entries.items[i].name);
        if (strcmp(path, keep) == 0)
            continue;
        if (unlink(path) == 0 || errno == ENOENT) {
            total -= entries.items[i].bytes;
            unlink(arena_printf(a, "%s.cu", path));
            log_verbose("removed the least recently used precompiled headers %s", path);
        }
    }
    vec_free(&entries);
}

const char *fe_pch_for(CXIndex index, const char *const *args, size_t n, arena *a)
{
    if (config_no_pch())
        return NULL;
    const char *dir = cache_dir(a);
    if (!dir || dir_create_all(dir, 0755) != 0)
        return NULL;
    char key[65];
    pch_key(args, n, key);
    const char *path = arena_printf(a, "%s/%s.pch", dir, key);
    if (access(path, R_OK) == 0) {
        /* its time of use, for the eviction order (the PCH's own check is of
         * its source's time, not of its own) */
        utimensat(AT_FDCWD, path, NULL, 0);
        return path;
    }
    if (build_pch(index, args, n, dir, path, a) != 0) {
        log_verbose("no precompiled CUDA headers in %s: parsing without", dir);
        return NULL;
    }
    log_verbose("precompiled the CUDA headers into %s", path);
    evict(dir, path, a);
    return path;
}

void fe_pch_discard(const char *path)
{
    if (path && unlink(path) != 0 && errno != ENOENT)
        log_verbose("could not remove %s: %s", path, strerror(errno));
    else if (path)
        log_verbose("removed the unusable precompiled headers %s", path);
}
