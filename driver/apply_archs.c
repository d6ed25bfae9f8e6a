/*
 * apply_archs.c: apply_archs, the archs `cl1cc rewrite` and `cl1cc ci` look
 * variants up for: the option, the flags' (as the wrapper reads them), a
 * tuning run's, the GPU's (harness's hn_gpu_detect, the one detection), or
 * without a GPU nvcc's default: never an error on a machine without one.
 */
#include "apply.h"

#include <ctype.h>
#include <string.h>

#include "harness.h"

static int gpu_arch(arena *a, const char **arch)
{
    char found[32], name[256];
    if (!hn_gpu_detect(found, sizeof found, name, sizeof name))
        return -1;
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
        /* what the flags compile for, as the wrapper looks it up: "native"
         * is the GPU's (none without one); "all", "all-major" and virtual
         * archs only would need an entry verified on every arch they
         * cover: nothing applies */
        for (size_t i = 0; i < flags->gpu_archs.len; i++) {
            const char *arch = flags->gpu_archs.items[i];
            if (strcmp(arch, "native") == 0 && gpu_arch(a, &arch) != 0) {
                log_verbose("the flags target the GPU here (-arch=native), and there is "
                            "none: no variant applies");
                out->len = 0;
                return 0;
            } else if (strncmp(arch, "sm_", 3) != 0) {
                log_verbose("the flags target '%s': no variant is verified on every arch "
                            "that covers; none applies", arch);
                out->len = 0;
                return 0;
            }
            vec_push(out, arch);
        }
        return 0;
    }
    if (fallback && *fallback)
        return apply_archs(fallback, flags, NULL, a, out, err);
    /* no arch in the flags: the GPU's here, else nvcc's default one (the
     * arch the wrapper compiles such a file for and looks up) */
    const char *arch;
    if (gpu_arch(a, &arch) == 0) {
        vec_push(out, arch);
        return 0;
    }
    for (size_t i = 0; i < flags->gpu_archs.len; i++)
        vec_push(out, flags->gpu_archs.items[i]);
    return 0;
}
