/*
 * pch_cache.c: a precompiled header of clang's CUDA wrapper and the CUDA
 * runtime headers, cached on disk per set of parser arguments.  Reading
 * those headers is almost all of a parse; with the PCH a TU parses several
 * times faster.  Any trouble here only means parsing without it.
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *cache_dir(arena *a)
{
    const char *dir = getenv("CL1CC_CACHE_DIR");
    if (dir && *dir)
        return arena_printf(a, "%s/pch", dir);
    dir = getenv("XDG_CACHE_HOME");
    if (dir && *dir)
        return arena_printf(a, "%s/cl1cc/pch", dir);
    dir = getenv("HOME");
    if (dir && *dir)
        return arena_printf(a, "%s/.cache/cl1cc/pch", dir);
    return NULL;
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

const char *fe_pch_for(CXIndex index, const char *const *args, size_t n, arena *a)
{
    const char *off = getenv("CL1CC_NO_PCH");
    if (off && *off && strcmp(off, "0") != 0)
        return NULL;
    const char *dir = cache_dir(a);
    if (!dir || dir_create_all(dir, 0755) != 0)
        return NULL;
    char key[65];
    pch_key(args, n, key);
    const char *path = arena_printf(a, "%s/%s.pch", dir, key);
    if (access(path, R_OK) == 0)
        return path;
    if (build_pch(index, args, n, dir, path, a) != 0) {
        log_verbose("no precompiled CUDA headers in %s: parsing without", dir);
        return NULL;
    }
    log_verbose("precompiled the CUDA headers into %s", path);
    return path;
}

void fe_pch_discard(const char *path)
{
    if (path && unlink(path) != 0 && errno != ENOENT)
        log_verbose("could not remove %s: %s", path, strerror(errno));
    else if (path)
        log_verbose("removed the unusable precompiled headers %s", path);
}
