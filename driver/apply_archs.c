/*
 * apply_archs.c: apply_archs, the archs `cl1cc rewrite` and `cl1cc ci` look
 * variants up for: the option, the flags' (as the wrapper reads them), a
 * tuning run's, or the GPU's (harness's hn_gpu_detect, the one detection).
 */
#include "apply.h"

#include <ctype.h>
#include <string.h>

#include "harness.h"

static int gpu_arch(arena *a, const char **arch, strbuf *err)
{
    char found[32], name[256];
    if (!hn_gpu_detect(found, sizeof found, name, sizeof name)) {
        sb_puts(err, "no GPU found (nvidia-smi reports none, or cannot be run): give the arch "
                     "to look variants up for, e.g. --arch sm_90");
        return -1;
    }
    *arch = arena_strdup(a, found);
    return 0;
}

static int flags_name_arch(const nvcc_cmdline *cl)
{
    static const char *const options[] = {"--gpu-architecture=", "--gpu-code=",
                                          "--generate-code=", NULL};
    for (size_t i = 0; i < cl->codegen_flags.len; i++)
        for (size_t j = 0; options[j]; j++)
            if (strncmp(cl->codegen_flags.items[i], options[j], strlen(options[j])) == 0)
                return 1;
    return 0;
}

int apply_archs(const char *arch_option, const nvcc_cmdline *flags, const char *fallback,
                arena *a, cstr_vec *out, strbuf *err)
{
    if (arch_option) {
        if (strncmp(arch_option, "sm_", 3) != 0 || !isdigit((unsigned char)arch_option[3])) {
            sb_printf(err, "--arch %s: not a real GPU arch (sm_80, sm_90, ...)", arch_option);
            return -1;
        }
        vec_push(out, arena_strdup(a, arch_option));
        return 0;
    }
    if (flags_name_arch(flags)) {
        for (size_t i = 0; i < flags->gpu_archs.len; i++) {
            const char *arch = flags->gpu_archs.items[i];
            if (strcmp(arch, "native") == 0) {
                if (gpu_arch(a, &arch, err) != 0)
                    return -1;
            } else if (strncmp(arch, "sm_", 3) != 0) {
                sb_printf(err, "the flags target '%s': give the arch to look variants up for, "
                               "e.g. --arch sm_90",
                          arch);
                return -1;
            }
            vec_push(out, arch);
        }
        if (out->len)
            return 0;
    }
    if (fallback && *fallback)
        return apply_archs(fallback, flags, NULL, a, out, err);
    const char *arch;
    if (gpu_arch(a, &arch, err) != 0)
        return -1;
    vec_push(out, arch);
    return 0;
}
