/*
 * locate.c: finds the real nvcc for the wrapper.  cl1cc is often installed as
 * "nvcc" first on PATH (a symlink, a hard link or a copy), so every candidate
 * is checked against the running program to never exec ourselves in a loop.
 */
#include "wrapper_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"

#define FALLBACK_NVCC "/usr/local/cuda/bin/nvcc"

/* Same bytes, read in blocks; only called when the sizes are equal. */
static int same_content(const char *a, const char *b)
{
    int fa = open(a, O_RDONLY | O_CLOEXEC);
    if (fa < 0)
        return 0;
    int fb = open(b, O_RDONLY | O_CLOEXEC);
    if (fb < 0) {
        close(fa);
        return 0;
    }
    enum { BLOCK = 1 << 16 };
    char *ba = xmalloc(BLOCK), *bb = xmalloc(BLOCK);
    int same = 1;
    for (;;) {
        ssize_t na = read(fa, ba, BLOCK);
        ssize_t nb = read(fb, bb, BLOCK);
        /* regular files give full blocks until the end */
        if (na < 0 || nb < 0 || na != nb || memcmp(ba, bb, (size_t)na) != 0) {
            same = 0;
            break;
        }
        if (na == 0)
            break;
    }
    free(ba);
    free(bb);
    close(fa);
    close(fb);
    return same;
}

/* Is path this program: the same file, a cl1cc by name, or a copy of it? */
static int is_self(const char *path, const char *self_exe)
{
    struct stat st, self;
    if (stat(path, &st) != 0)
        return 0;
    if (self_exe && stat(self_exe, &self) == 0 && self.st_dev == st.st_dev &&
        self.st_ino == st.st_ino)
        return 1;
    int have_proc = stat("/proc/self/exe", &self) == 0;
    if (have_proc && self.st_dev == st.st_dev && self.st_ino == st.st_ino)
        return 1;
    char resolved[PATH_MAX];
    if (realpath(path, resolved)) {
        const char *base = strrchr(resolved, '/');
        base = base ? base + 1 : resolved;
        if (!strncmp(base, "cl1cc", 5))
            return 1;
    }
    return have_proc && self.st_size == st.st_size && same_content(path, "/proc/self/exe");
}

static int is_executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The first executable `name` on $PATH that is not cl1cc (an empty PATH
 * entry is the current directory, as for execvp). */
static int search_path(const char *name, const char *self_exe, strbuf *out)
{
    const char *path = getenv("PATH");
    if (!path)
        return -1;
    strbuf candidate;
    sb_init(&candidate);
    int found = -1;
    const char *dir = path;
    for (;;) {
        const char *colon = strchr(dir, ':');
        size_t len = colon ? (size_t)(colon - dir) : strlen(dir);
        sb_clear(&candidate);
        if (len)
            sb_append(&candidate, dir, len);
        else
            sb_putc(&candidate, '.');
        sb_printf(&candidate, "/%s", name);
        if (is_executable_file(sb_str(&candidate)) && !is_self(sb_str(&candidate), self_exe) &&
            !nvcc_in_exec_chain(sb_str(&candidate))) {
            sb_puts(out, sb_str(&candidate));
            found = 0;
            break;
        }
        if (!colon)
            break;
        dir = colon + 1;
    }
    sb_free(&candidate);
    return found;
}

int nvcc_locate_on_path(const char *name, const char *self_exe, strbuf *path_out)
{
    return search_path(name, self_exe, path_out);
}

int nvcc_locate_real(const char *self_exe, strbuf *path_out, strbuf *err)
{
    const char *forced = config_nvcc();
    if (forced) {
        if (!strchr(forced, '/')) {
            if (search_path(forced, self_exe, path_out) == 0)
                return 0;
            sb_printf(err, "CL1CC_NVCC=%s: not found on PATH (or only cl1cc itself)", forced);
            return -1;
        }
        if (nvcc_in_exec_chain(forced)) {
            sb_printf(err, "CL1CC_NVCC=%s runs cl1cc again (an exec loop): stopping", forced);
            return -1;
        }
        if (is_self(forced, self_exe)) {
            sb_printf(err, "CL1CC_NVCC=%s is cl1cc itself, not nvcc", forced);
            return -1;
        }
        if (!is_executable_file(forced)) {
            struct stat st;
            int e = stat(forced, &st) != 0 ? errno : S_ISREG(st.st_mode) ? EACCES : EISDIR;
            sb_printf(err, "CL1CC_NVCC=%s: %s", forced, strerror(e));
            return -1;
        }
        sb_puts(path_out, forced);
        return 0;
    }
    if (search_path("nvcc", self_exe, path_out) == 0)
        return 0;
    if (is_executable_file(FALLBACK_NVCC) && !is_self(FALLBACK_NVCC, self_exe) &&
        !nvcc_in_exec_chain(FALLBACK_NVCC)) {
        sb_puts(path_out, FALLBACK_NVCC);
        return 0;
    }
    sb_puts(err, "no nvcc found on PATH (other than cl1cc itself or an nvcc that runs cl1cc) nor at " FALLBACK_NVCC
                 " (set CL1CC_NVCC)");
    return -1;
}
