/*
 * main.c: cl1cc's entry point.  `cl1cc inspect ...` and the other
 * subcommands (the table below: name, function, one line for --cl1-help,
 * usage for `cl1cc NAME --help`) run one stage or the whole loop (parse ->
 * propose -> verify/time -> splice); anything else is an nvcc command
 * line, and cl1cc behaves as nvcc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core.h"
#include "driver.h"
#include "llm.h"
#include "pool.h"

#ifndef CL1CC_VERSION
#define CL1CC_VERSION "0.0.0"
#endif

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;             /* for --cl1-help */
    const char *usage;               /* for NAME --help, and usage errors */
    const char *(*more_usage)(void); /* NULL, or option lines shared with others */
    const char *usage_end;           /* NULL, or lines after those */
} command;

static const command commands[] = {
    {"inspect", cmd_inspect,
     "print the kernels, launches and dependencies the frontend finds",
     "usage: cl1cc inspect FILE.cu [--json] [--summary] [--text] [-p BUILD-DIR] [-- NVCC-FLAGS...]\n"
     "  --json      the model as JSON (default when stdout is not a terminal)\n"
     "  --summary   one line per kernel, parameter, dependency and launch\n"
     "  --text      include each kernel's and dependency's source text in the JSON\n"
     "  --body      with --summary: the loops, assignments, subscripts and calls\n"
     "              of each kernel's body, as the built-in policy sees them\n"
     "  -p DIR      read the file's flags from DIR/compile_commands.json\n",
     NULL, NULL},
    {"tune", cmd_tune,
     "capture launches, then propose, verify and time variants of every kernel (GPU)",
     "usage: cl1cc tune --run CMD [--build CMD] [OPTIONS] FILES.cu... [-- NVCC-FLAGS]\n"
     "       cl1cc tune --captures DIR [OPTIONS] FILES.cu... [-- NVCC-FLAGS]\n"
     "       cl1cc tune --retrain [--chooser FILE]\n"
     "  --run CMD            runs the program (its launches are captured)\n"
     "  --build CMD          builds it first, with cl1cc standing in for nvcc\n"
     "  --captures DIR       where captures go, or come from without --run\n"
     "  --limit N            launches captured per kernel (default 2)\n"
     "  --kernel NAME        tune only this kernel (repeatable)\n"
     "  --budget-seconds S   stop starting evaluations S seconds after the capture (default 900)\n"
     "  --kernel-evals N     variants evaluated per kernel at most (default 24)\n"
     "  --per-round N        proposals per kernel per round (default 6)\n"
     "  --judges-per-gpu N   judges at once on each local GPU; timings alone (default 4)\n"
     "  --order ORDER        learned (default), random or catalogue\n"
     "  --seed N             for --order random\n"
     "  --chooser FILE       the chooser model to read and update\n"
     "  --no-learn           leave the chooser model as it is\n"
     "  --cl1-fast-math      allow fast intrinsics (results change slightly)\n"
     "  --policy P           builtin (default), llm, or both (default with an LLM URL)\n"
     "  --llm-per-round N    LLM proposals per kernel per round (default 2)\n"
     "  --cl1-llm-url URL --cl1-llm-model NAME ...   the LLM policy (docs/LLM.md)\n"
     "  --cl1-backend B      local (default: one judge per GPU here) or slurm\n"
     "  --gpus LIST          the local pool's GPUs (default CUDA_VISIBLE_DEVICES)\n"
     "  --slurm-partition P  and --slurm-gres G: what Slurm jobs ask for\n"
     "  --work DIR           keep the variants and judge logs here (shared with\n"
     "                       the nodes for slurm)\n"
     "  --json FILE          a summary for tools and `cl1cc ci`\n"
     "  -p DIR               the files' flags from DIR/compile_commands.json (before\n"
     "                       those after --): the flags that key the database\n"
     "  --runs N, --rounds N, --seeds N, --timeout S, --sanitize, --isolate\n"
     "                       passed to the judge\n"
     "  --build and --run run in a private copy of the current folder: your tree is\n"
     "  left as it is (docs/TUNING.md)\n"
     "exit status: 0 done, 3 nothing was captured (each kernel's reason is printed),\n"
     "             1 error, 2 usage\n",
     NULL, NULL},
    {"judge", cmd_judge,
     "verify and time variants on captured launches (tune's second half; GPU)",
     "usage: cl1cc judge FILE.cu KERNEL --captures DIR --variant V.cu [--variant ...]\n"
     "                   [--record] [--sanitize] [--isolate] [--seeds N] [--rounds N] [--runs N]\n"
     "                   [--timeout S] [--cl1-llm-key-env VAR]\n"
     "                   [--work DIR] [--peaks-dir DIR] [--label L] [--json FILE] [-- NVCC-FLAGS]\n"
     "  --label L   names the --variant before it in the table and the database\n"
     "  --peaks-dir DIR  the GPU's peaks (roofline) measured once for every judge\n"
     "              given DIR, kept there as <GPU name>.peaks\n"
     "  --isolate   a process for every run (default: every variant alone on the\n"
     "              first input set, then the survivors together, one process\n"
     "              per input set and one for all the timing)\n"
     "  --json FILE writes the verdicts and timings as JSON (docs/HARNESS.md)\n"
     "  --cl1-llm-key-env VAR  a variable holding an API key: like $CL1CC_LLM_API_KEY,\n"
     "              removed before anything runs, so no variant sees it\n"
     "  DIR holds captured launches of KERNEL (folders with a meta file), as\n"
     "  `cl1cc capture` writes them; NVCC-FLAGS are the TU's compile flags.\n",
     NULL, NULL},
    {"capture", cmd_capture,
     "build and run the program with its launches recorded (tune's first half)",
     "usage: cl1cc capture --run CMD [--build CMD] [--out DIR] [--limit N] FILES.cu...\n"
     "  CMD runs through sh; during --build (or --run when there is no --build)\n"
     "  `nvcc` on PATH is cl1cc, which instruments the launches in FILES.  With\n"
     "  --build, both run in a private copy of the current folder (FILES newer\n"
     "  there): your tree is left as it is.\n",
     NULL, NULL},
    {"llm-propose", cmd_llm_propose,
     "ask a language model for faster versions of one kernel",
     "usage: cl1cc llm-propose FILE.cu KERNEL --cl1-llm-url URL --cl1-llm-model NAME\n"
     "                         [OPTIONS] [-- NVCC-FLAGS...]\n"
     "  -n N            proposals to ask for (1)\n"
     "  --arch SM       the GPU architecture named in the prompt, e.g. sm_90\n"
     "  --gpu NAME      the GPU named in the prompt, e.g. \"NVIDIA H200\"\n"
     "  --print-prompt  print the prompt and send nothing\n",
     pol_llm_options_help,
     "The API key comes from $" POL_LLM_DEFAULT_KEY_ENV " (or --cl1-llm-key-env).\n"},
    {"rewrite", cmd_rewrite,
     "put verified faster kernels into the source, behind provenance markers",
     "usage: cl1cc rewrite (--in-place | --patch | --check) [--arch sm_XX] [-p BUILD-DIR]\n"
     "                     FILES.cu... [-- NVCC-FLAGS... [FILES.cu...]]\n"
     "  --in-place  put the best verified variants into the files (atomically)\n"
     "  --patch     print a unified diff instead (for git apply)\n"
     "  --check     change nothing; exit 3 when a verified variant would apply\n"
     "  --arch      the GPU arch to look variants up for (default: the archs the\n"
     "              flags name, else the GPU nvidia-smi reports, else nvcc's default\n"
     "              arch: no GPU is needed)\n"
     "  -p DIR      each file's flags from DIR/compile_commands.json (before NVCC-FLAGS)\n"
     "  NVCC-FLAGS  the flags the files are compiled with: the keys depend on them\n"
     "  A kernel marked `// cl1cc: off` (the line before it, or its first line) is\n"
     "  left alone, by the wrapper and the tuner too.\n"
     "exit status: 0 done (or nothing to apply: silent), 3 --check found variants to apply,\n"
     "             1 a file could not be read, parsed or written, 2 usage\n",
     NULL, NULL},
    {"revert", cmd_revert,
     "restore the kernels cl1cc rewrote, byte for byte",
     "usage: cl1cc revert [--in-place | --patch] FILES.cu...\n"
     "  --in-place  restore the files (the default)\n"
     "  --patch     print a unified diff that restores them instead (for git apply)\n"
     "exit status: 0 done (or nothing to revert), 1 a file could not be read or\n"
     "             written, or a marker is damaged, 2 usage\n",
     NULL, NULL},
    {"ci", cmd_ci,
     "tune what a change touched: reports and a patch (docs/REWRITE.md)",
     "usage: cl1cc ci [--base REF | FILES...] --run CMD [--build CMD] [--budget-seconds S]\n"
     "                [--out DIR] [--arch sm_XX] [-p BUILD-DIR] [--dry-run] [-- NVCC-FLAGS...]\n"
     "       cl1cc ci --from-json TUNE.json [FILES...] [--out DIR] [--arch sm_XX] [-- NVCC-FLAGS...]\n"
     "  --base REF        tune the .cu/.cuh files changed in REF...HEAD\n"
     "                    (default origin/main, else HEAD~1)\n"
     "  --run, --build    the program that runs the kernels, and how to build it\n"
     "                    (passed to cl1cc tune)\n"
     "  --budget-seconds  the tuner's time budget (default 600)\n"
     "  --from-json FILE  make the reports from an earlier `cl1cc tune --json` run\n"
     "  --out DIR         where report.md, report.html, summary.json, cl1cc.patch\n"
     "                    (and tune.json) go (default cl1cc-ci)\n"
     "  -p DIR            the files' flags from DIR/compile_commands.json (before\n"
     "                    NVCC-FLAGS), for the tuner and the patch\n"
     "  --dry-run         print the files and the tune command; run nothing\n"
     "exit status: 0 nothing to change, 3 improvements (a patch), 4 nothing was\n"
     "             measured (no GPU), 1 error, 2 usage\n",
     NULL, NULL},
    {"db", cmd_db,
     "the tuning database and the caches beside it: stats, list, show, rm, export, import",
     "usage: cl1cc db stats                 kernels, variants, recent applications, cache sizes\n"
     "       cl1cc db list [--applicable]   one line per variant (id, arch, speedup, kernel)\n"
     "       cl1cc db show ID               a variant with its provenance and source\n"
     "       cl1cc db rm ID... | --kernel KEY-PREFIX|NAME\n"
     "                                      remove variants, or kernels with all they hold\n"
     "       cl1cc db export [FILE]         the database as readable JSON (default stdout)\n"
     "       cl1cc db import [--replace] FILE...\n"
     "                                      merge exports (or tuning .db files) in: new\n"
     "                                      entries are added; --replace: each kernel of a\n"
     "                                      file replaces the database's, later files win\n"
     "       cl1cc db trim [--captures-mb N] [--pch-mb N]\n"
     "                                      least recently used captures and PCHs out, to\n"
     "                                      the caps (default 1024, and $CL1CC_PCH_CACHE_MB or 256)\n"
     "       cl1cc db clean --captures | --pch | --all\n"
     "                                      empty those caches (the database stays)\n"
     "  The database is $CL1CC_DB, else CACHE/tuning.db; captures are beside it.\n"
     "  cl1cc --cl1-db-stamp prints a fingerprint of what can apply, for ccache's\n"
     "  compiler_check (docs/WRAPPER.md).\n"
     "exit status: 0 done, 1 error (or nothing to remove), 2 usage\n",
     NULL, NULL},
    {"pool-run", cmd_pool_run,
     "run commands one per GPU, or through Slurm",
     "usage: cl1cc pool-run [--cl1-backend=local|slurm] [--gpus LIST] [--timeout S]\n"
     "                      [--attempts N] [--deadline S] [--cpu-jobs N] [--no-gpu]\n"
     "                      [--logs DIR] [--partition P] [--gres G] [--poll S]\n"
     "                      [--sbatch-arg ARG]... [--] JOBFILE\n"
     "  Each line of JOBFILE (\"-\": stdin) is one job, run by /bin/sh; empty lines\n"
     "  and lines starting with # are skipped.  Jobs need a GPU of their own unless\n"
     "  --no-gpu.  Exit status 0 when every job exited 0, 1 otherwise.\n",
     NULL, NULL},
};

enum { N_COMMANDS = sizeof commands / sizeof commands[0] };

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static void print_usage(const command *c, FILE *to)
{
    fputs(c->usage, to);
    if (c->more_usage)
        fputs(c->more_usage(), to);
    if (c->usage_end)
        fputs(c->usage_end, to);
}

void driver_usage(const char *name, FILE *to)
{
    const command *c = find_command(name);
    if (c)
        print_usage(c, to);
}

static void print_help(void)
{
    printf("cl1cc %s: a source-to-source CUDA optimizer and drop-in nvcc wrapper\n\n"
           "usage:\n"
           "  cl1cc NVCC-ARGS...         compile as nvcc would, with verified faster kernels\n"
           "                             from the tuning database spliced in\n"
           "  cl1cc COMMAND ARGS...      one of the commands below\n"
           "  cl1cc COMMAND --help       that command's usage\n"
           "  cl1cc --cl1-help | --cl1-version\n"
           "  cl1cc --cl1-db-stamp       a fingerprint of the tuning database, for ccache's\n"
           "                             compiler_check (docs/WRAPPER.md)\n\n"
           "commands:\n",
           CL1CC_VERSION);
    for (size_t i = 0; i < N_COMMANDS; i++)
        printf("  %-12s %s\n", commands[i].name, commands[i].summary);
    printf("\nenvironment:\n");
    for (size_t i = 0; i < config_n_variables; i++)
        printf("  %-29s %s\n", config_variables[i].name, config_variables[i].meaning);
}

static int is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int main(int argc, char **argv)
{
    if (config_verbose())
        log_set_level(LOG_VERBOSE);
    if (argc < 2) {
        fprintf(stderr, "cl1cc: no arguments: give nvcc's (cl1cc compiles as nvcc), or a command; "
                        "cl1cc --cl1-help lists them\n");
        return 1; /* nvcc's status without input */
    }
    if (strcmp(argv[1], "--cl1-help") == 0) {
        print_help();
        return 0;
    }
    if (strcmp(argv[1], "--cl1-db-stamp") == 0)
        return cmd_db_stamp();
    if (strcmp(argv[1], "--cl1-keep-gpu") == 0) /* tune's pool, pool/gpu_keep.c */
        return pool_gpu_keep_main();
    if (strcmp(argv[1], "--cl1-version") == 0) {
        printf("cl1cc %s\n", CL1CC_VERSION);
        return 0;
    }
    const command *c = find_command(argv[1]);
    if (!c)
        return cmd_wrap_nvcc(argc - 1, argv + 1);
    if (argc >= 3 && is_help(argv[2])) {
        print_usage(c, stdout);
        return 0;
    }
    return c->run(argc - 2, argv + 2);
}
