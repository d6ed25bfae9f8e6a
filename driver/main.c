/*
 * main.c: cl1cc's entry point.  `cl1cc inspect ...` and the other
 * subcommands run one stage or the whole loop (parse -> propose ->
 * verify/time -> splice); anything else is an nvcc command line, and cl1cc
 * behaves as nvcc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core.h"
#include "driver.h"

#ifndef CL1CC_VERSION
#define CL1CC_VERSION "0.0.0"
#endif

static void print_help(void)
{
    printf("cl1cc %s: a source-to-source CUDA optimizer and drop-in nvcc wrapper\n\n"
           "usage:\n"
           "  cl1cc NVCC-ARGS...            compile as nvcc would, with verified faster\n"
           "                                kernels from the tuning database spliced in\n"
           "  cl1cc inspect FILE.cu [OPTIONS] [-- NVCC-FLAGS]\n"
           "                                print the kernels, launches and dependencies\n"
           "                                the frontend finds (--json, --summary, -p DIR)\n"
           "  cl1cc tune --run CMD [--build CMD] FILES.cu... [-- NVCC-FLAGS]\n"
           "                                capture the program's launches, then propose,\n"
           "                                verify and time variants of every kernel (GPU)\n"
           "  cl1cc judge, cl1cc capture    the two halves of tune, one at a time\n"
           "  cl1cc llm-propose FILE.cu KERNEL --cl1-llm-url URL ...  ask a model for faster kernels\n"
           "  cl1cc rewrite (--in-place|--patch|--check) FILES [--arch sm_XX] [-- NVCC-FLAGS]\n"
           "                                put verified faster kernels into the source\n"
           "  cl1cc revert [--patch] FILES  restore the kernels cl1cc rewrote, byte for byte\n"
           "  cl1cc ci [--base REF | FILES] [--from-json TUNE.json] [OPTIONS] [-- NVCC-FLAGS]\n"
           "                                tune what changed; reports and a patch (docs/REWRITE.md)\n"
           "  cl1cc pool-run [--cl1-backend=local|slurm] [--gpus LIST] -- JOBFILE\n"
           "                                run commands one per GPU, or through Slurm\n"
           "  cl1cc --cl1-help | --cl1-version\n\n"
           "environment:\n"
           "  CL1CC_DISABLE=1   pure pass-through to nvcc\n"
           "  CL1CC_VERBOSE=1   say what cl1cc does\n"
           "  CL1CC_NVCC=PATH   the real nvcc (default: the first nvcc on PATH that is not cl1cc)\n"
           "  CL1CC_DB=PATH     the tuning database (default ~/.cache/cl1cc/tuning.db)\n",
           CL1CC_VERSION);
}

int main(int argc, char **argv)
{
    if (config_verbose())
        log_set_level(LOG_VERBOSE);
    if (argc >= 2 && strcmp(argv[1], "--cl1-help") == 0) {
        print_help();
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--cl1-version") == 0) {
        printf("cl1cc %s\n", CL1CC_VERSION);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "inspect") == 0)
        return cmd_inspect(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "judge") == 0)
        return cmd_judge(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "capture") == 0)
        return cmd_capture(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "tune") == 0)
        return cmd_tune(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "llm-propose") == 0)
        return cmd_llm_propose(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "pool-run") == 0)
        return cmd_pool_run(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "rewrite") == 0)
        return cmd_rewrite(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "revert") == 0)
        return cmd_revert(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "ci") == 0)
        return cmd_ci(argc - 2, argv + 2);
    return cmd_wrap_nvcc(argc - 1, argv + 1);
}
