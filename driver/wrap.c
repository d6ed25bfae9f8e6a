/*
 * wrap.c: cl1cc as nvcc.  With nothing to apply (no database, no entry for
 * this TU's kernels, CL1CC_DISABLE=1, a phase that makes no code) it execs
 * the real nvcc with the arguments untouched.  Otherwise it compiles copies
 * of the .cu inputs with verified variants spliced in (or, under `cl1cc
 * capture`, with launch sites instrumented), and on any failure of its own
 * falls back to plain nvcc with a one-line warning.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "core.h"
#include "driver.h"
#include "splice_tu.h"
#include "tempfiles.h"
#include "wrapper.h"

static int same_as_self(const char *path)
{
    char a[4096], b[4096];
    ssize_t n = readlink("/proc/self/exe", a, sizeof a - 1);
    if (n <= 0 || !realpath(path, b))
        return 0;
    a[n] = '\0';
    return strcmp(a, b) == 0;
}

/* CMAKE_CUDA_COMPILER_LAUNCHER=cl1cc gives "cl1cc /path/to/nvcc ARGS" */
static int is_nvcc_path(const char *arg)
{
    const char *base = strrchr(arg, '/');
    base = base ? base + 1 : arg;
    return strcmp(base, "nvcc") == 0 && access(arg, X_OK) == 0 && !same_as_self(arg);
}

static int phase_makes_code(nvcc_phase p)
{
    return p == NVCC_PHASE_COMPILE || p == NVCC_PHASE_DEVICE_C || p == NVCC_PHASE_LINK ||
           p == NVCC_PHASE_PTX || p == NVCC_PHASE_CUBIN || p == NVCC_PHASE_FATBIN;
}

static int plain(const char *nvcc, int argc, char **argv, nvcc_cmdline *cl, strbuf *a, strbuf *b)
{
    if (cl)
        nvcc_cmdline_free(cl);
    sb_free(b);
    int rc = driver_exec_nvcc(nvcc, argc, argv);
    sb_free(a);
    return rc;
}

int cmd_wrap_nvcc(int argc, char **argv)
{
    strbuf nvcc, err;
    sb_init(&nvcc);
    sb_init(&err);
    if (argc >= 1 && is_nvcc_path(argv[0])) {
        sb_puts(&nvcc, argv[0]);
        argc--;
        argv++;
    } else if (driver_find_nvcc(&nvcc, &err) != 0) {
        log_error("%s", sb_str(&err));
        sb_free(&nvcc);
        sb_free(&err);
        return 127;
    }
    const char *real = sb_str(&nvcc);
    if (config_disabled())
        return plain(real, argc, argv, NULL, &nvcc, &err);

    nvcc_cmdline cl;
    if (nvcc_cmdline_parse(argc, argv, &cl, &err) != 0) {
        log_warn("%s; running plain nvcc", sb_str(&err));
        return plain(real, argc, argv, &cl, &nvcc, &err);
    }
    size_t cuda_inputs = 0;
    for (size_t i = 0; i < cl.inputs.len; i++)
        cuda_inputs += cl.inputs.items[i].lang == NVCC_LANG_CU;
    if (!phase_makes_code(cl.phase) || cl.dryrun || cuda_inputs == 0)
        return plain(real, argc, argv, &cl, &nvcc, &err);

    splice_plan plan;
    const char *capture_files = config_capture_files();
    const char *capture_dir = config_capture_dir();
    splice_status st = capture_files && capture_dir
                           ? splice_plan_capture(&cl, capture_files, capture_dir, &plan, &err)
                           : splice_plan_make(&cl, &plan, &err);
    if (st == SPLICE_NOTHING) {
        log_verbose("%s", err.len ? sb_str(&err) : "nothing to apply: plain nvcc");
        splice_plan_free(&plan);
        return plain(real, argc, argv, &cl, &nvcc, &err);
    }
    if (st != SPLICE_OK) {
        log_warn("%s; running plain nvcc", sb_str(&err));
        splice_plan_free(&plan);
        return plain(real, argc, argv, &cl, &nvcc, &err);
    }
    int rc = splice_plan_compile(real, &cl, &plan, &err);
    splice_plan_free(&plan);
    tempfiles_cleanup();
    if (rc < 0) {
        log_warn("%s; running plain nvcc", sb_str(&err));
        return plain(real, argc, argv, &cl, &nvcc, &err);
    }
    nvcc_cmdline_free(&cl);
    sb_free(&err);
    sb_free(&nvcc);
    return rc;
}
