/*
 * passthrough.c: cl1cc as nvcc, with nothing to apply: find the real nvcc
 * (never this program itself, whatever it is called) and exec it with the
 * arguments untouched, so exit status and output are nvcc's own.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core.h"
#include "driver.h"

static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* a cl1cc copied or linked under the name nvcc must not exec itself */
static int is_self(const char *path)
{
    if (same_file(path, "/proc/self/exe"))
        return 1;
    char resolved[PATH_MAX];
    if (!realpath(path, resolved))
        return 0;
    const char *base = strrchr(resolved, '/');
    base = base ? base + 1 : resolved;
    return strncmp(base, "cl1cc", 5) == 0;
}

int driver_find_nvcc(strbuf *out, strbuf *err)
{
    const char *forced = getenv("CL1CC_NVCC");
    if (forced && *forced) {
        if (is_self(forced)) {
            sb_printf(err, "CL1CC_NVCC=%s is cl1cc itself, not nvcc", forced);
            return -1;
        }
        if (access(forced, X_OK) != 0) {
            sb_printf(err, "CL1CC_NVCC=%s: %s", forced, strerror(errno));
            return -1;
        }
        sb_puts(out, forced);
        return 0;
    }
    const char *path = getenv("PATH");
    char *copy = xstrdup(path ? path : "");
    for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir;
         dir = strtok_r(NULL, ":", &save)) {
        char candidate[PATH_MAX];
        snprintf(candidate, sizeof candidate, "%s/nvcc", *dir ? dir : ".");
        if (access(candidate, X_OK) == 0 && !is_self(candidate)) {
            sb_puts(out, candidate);
            free(copy);
            return 0;
        }
    }
    free(copy);
    if (access("/usr/local/cuda/bin/nvcc", X_OK) == 0 &&
        !is_self("/usr/local/cuda/bin/nvcc")) {
        sb_puts(out, "/usr/local/cuda/bin/nvcc");
        return 0;
    }
    sb_puts(err, "no nvcc found on PATH or in /usr/local/cuda/bin (set CL1CC_NVCC)");
    return -1;
}

int driver_exec_nvcc(const char *nvcc, int argc, char **argv)
{
    char **args = xcalloc((size_t)argc + 2, sizeof *args);
    args[0] = (char *)nvcc;
    for (int i = 0; i < argc; i++)
        args[i + 1] = argv[i];
    fflush(NULL);
    execv(nvcc, args);
    int saved = errno;
    free(args);
    log_error("cannot run %s: %s", nvcc, strerror(saved));
    return 127;
}

