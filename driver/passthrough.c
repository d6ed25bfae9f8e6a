/*
 * passthrough.c: finding the real nvcc (never this program itself, whatever
 * it is called: wrapper/'s nvcc_locate_real) and exec'ing it with the
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
#include "wrapper.h"

int driver_find_nvcc(strbuf *out, strbuf *err)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        snprintf(self, sizeof self, "/proc/self/exe");
    else
        self[n] = '\0';
    return nvcc_locate_real(self, out, err);
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

