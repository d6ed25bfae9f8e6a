/*
 * exec_chain.c: the environment marker against exec loops.  Before running
 * an nvcc, the wrapper adds its resolved path to CL1CC_EXEC_CHAIN (internal,
 * not a setting); a wrapper that finds a candidate there skips it: that
 * "nvcc" ran cl1cc again (a script that execs cl1cc, cl1cc as CL1CC_NVCC).
 */
#include "wrapper_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define CHAIN_VAR "CL1CC_EXEC_CHAIN"

int nvcc_in_exec_chain(const char *path)
{
    const char *chain = getenv(CHAIN_VAR);
    char resolved[PATH_MAX];
    if (!chain || !*chain || !realpath(path, resolved))
        return 0;
    size_t n = strlen(resolved);
    for (const char *p = chain; *p;) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, resolved, n) == 0)
            return 1;
        if (!end)
            break;
        p = end + 1;
    }
    return 0;
}

size_t nvcc_exec_chain_length(void)
{
    const char *chain = getenv(CHAIN_VAR);
    if (!chain || !*chain)
        return 0;
    size_t n = 1;
    for (const char *p = chain; *p; p++)
        n += *p == ':';
    return n;
}

void nvcc_exec_chain_add(const char *path)
{
    char resolved[PATH_MAX];
    if (!realpath(path, resolved))
        return;
    const char *chain = getenv(CHAIN_VAR);
    strbuf sb;
    sb_init(&sb);
    if (chain && *chain)
        sb_printf(&sb, "%s:", chain);
    sb_puts(&sb, resolved);
    setenv(CHAIN_VAR, sb_str(&sb), 1);
    sb_free(&sb);
}
