/*
 * wrapper.h: the nvcc command line as cl1cc understands it: phase, inputs and
 * their languages, output, dependency flags, the flags the frontend and the
 * cache key need.  Pure: parsing reads response files but runs nothing.
 */
#ifndef CL1CC_WRAPPER_H
#define CL1CC_WRAPPER_H

#include "core.h"

typedef enum nvcc_phase {
    NVCC_PHASE_LINK,        /* no phase option: compile and link */
    NVCC_PHASE_COMPILE,     /* -c, -dw */
    NVCC_PHASE_DEVICE_C,    /* -dc */
    NVCC_PHASE_DEVICE_LINK, /* -dlink */
    NVCC_PHASE_PREPROCESS,  /* -E */
    NVCC_PHASE_PTX,
    NVCC_PHASE_CUBIN,
    NVCC_PHASE_FATBIN,
    NVCC_PHASE_DEPS_ONLY,   /* -M, -MM */
    NVCC_PHASE_LIB,
    NVCC_PHASE_RUN,
    NVCC_PHASE_INFO,        /* --help, --version, --list-gpu-*: no inputs needed */
    NVCC_PHASE_OTHER        /* -cuda, -optix-ir, -ltoir */
} nvcc_phase;

typedef enum nvcc_lang {
    NVCC_LANG_CU,
    NVCC_LANG_CPP,
    NVCC_LANG_C,
    NVCC_LANG_OBJECT,
    NVCC_LANG_LIBRARY,
    NVCC_LANG_PTX,
    NVCC_LANG_CUBIN,
    NVCC_LANG_FATBIN,
    NVCC_LANG_OTHER
} nvcc_lang;

typedef struct nvcc_input {
    const char *path;
    nvcc_lang lang;   /* from the suffix, or from the -x before it */
    size_t arg_index; /* argv.items[arg_index] == path */
} nvcc_input;

typedef struct nvcc_cmdline {
    arena strings; /* every string below lives here */
    str_vec argv;  /* all arguments after expanding @file and -optf/--options-file
                      (argv[0] not included); otherwise verbatim */
    VEC(nvcc_input) inputs;
    const char *output;  /* -o / --output-file value, or NULL */
    size_t output_index; /* index in argv of the -o option (or of
                            "--output-file=f"); SIZE_MAX when none */
    nvcc_phase phase;
    int dryrun, verbose, relocatable;
    int dep_generate;       /* any of -M -MM -MD -MMD and long forms */
    int dep_with_compile;   /* -MD/-MMD and the ...-with-compile long forms */
    const char *dep_file;   /* -MF / --dependency-output */
    const char *dep_target; /* -MT / --dependency-target-name */
    /* clang spelling, in order: "-Idir", "-isystem","dir", "-DX=1", "-UX",
     * "-include","f", "-std=c++17" (from short and long nvcc forms) */
    str_vec frontend_flags;
    /* flags that change generated code, normalized to "--long-name=value"
     * (or "--long-name"), so "-arch sm_90", "-arch=sm_90" and
     * "--gpu-architecture sm_90" give the same string; plus
     * "env:NVCC_PREPEND_FLAGS=..." / "env:NVCC_APPEND_FLAGS=..." when set
     * (nvcc applies those itself: they never appear in argv) */
    str_vec codegen_flags;
    /* real SM targets ("sm_90"), deduplicated, in order of appearance; nvcc's
     * default (sm_75) when no architecture is given; "native", "all",
     * "all-major" recorded as given */
    str_vec gpu_archs;
    size_t unknown_count; /* options not in nvcc's table: kept verbatim */
} nvcc_cmdline;

/* argv without argv[0].  Returns 0, or -1 with a message in err (an
 * unreadable or too deeply nested response file).  out is always initialised,
 * so nvcc_cmdline_free is safe after either result. */
int nvcc_cmdline_parse(int argc, char **argv, nvcc_cmdline *out, strbuf *err);
void nvcc_cmdline_free(nvcc_cmdline *c);

/* What nvcc names the output of input input_index without -o: in the current
 * directory, the input's directory stripped: -c/-dc/-dw foo.cu -> "foo.o",
 * -ptx -> "foo.ptx", -cubin -> "foo.cubin", -fatbin -> "foo.fatbin", link and
 * -run -> "a.out", -lib -> "a.a", -dlink -> "a_dlink.o"; NULL for -E, -M and
 * phases that write to stdout or that nvcc names otherwise. */
const char *nvcc_default_output(const nvcc_cmdline *c, size_t input_index, arena *a);

/* Names for printing and tests ("compile", "cu"). */
const char *nvcc_phase_name(nvcc_phase p);
const char *nvcc_lang_name(nvcc_lang l);

#endif
