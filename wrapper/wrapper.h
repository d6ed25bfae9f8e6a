/*
 * wrapper.h: the nvcc command line as cl1cc understands it: phase, inputs and
 * their languages, output, dependency flags, the flags the frontend and the
 * cache key need; and where the real nvcc is.  Runs nothing: parsing reads
 * response files and the environment, locating looks at the file system.
 */
#ifndef CL1CC_WRAPPER_H
#define CL1CC_WRAPPER_H

#include "core.h"

/* With several phase options nvcc does not take the last: the one that stops
 * earliest wins (-M, -E, -optix-ir, -ptx/-ltoir, -cubin, -fatbin, -cuda, -c,
 * -dlink, -lib/-link/-run, in that order); --help and friends beat all. */
typedef enum nvcc_phase {
    NVCC_PHASE_LINK,        /* no phase option: compile and link */
    NVCC_PHASE_COMPILE,     /* -c, -dw */
    NVCC_PHASE_DEVICE_C,    /* -dc, or -c with -rdc=true */
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
    nvcc_lang lang;   /* from the suffix, unless there is a -x: nvcc 13 applies
                         the last -x of the command line to every input, those
                         before it and objects included (not positional) */
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
    const char *phase_option; /* nvcc's long name of the option that chose the
                                 phase ("compile", "cuda", "version"), or NULL */
    int dryrun, verbose, relocatable; /* relocatable: -dc, or the last -rdc is true */
    int dep_generate;       /* any of -M -MM -MD -MMD and long forms */
    int dep_with_compile;   /* -MD/-MMD and the ...-with-compile long forms */
    const char *dep_file;   /* -MF / --dependency-output */
    const char *dep_target; /* -MT / --dependency-target-name */
    /* clang spelling, in order: "-Idir", "-isystem","dir", "-DX=1", "-UX",
     * "-include","f", "-std=c++17" (from short and long nvcc forms) */
    cstr_vec frontend_flags;
    /* flags that change generated code, in order, normalized to
     * "--long-name=value" (or "--long-name"), so "-arch sm_90", "-arch=sm_90"
     * and "--gpu-architecture sm_90" give the same string ("-x cu" gives
     * "--x=cu", -dc adds "--relocatable-device-code=true"); plus
     * "env:NVCC_PREPEND_FLAGS=..." / "env:NVCC_APPEND_FLAGS=..." when set
     * (nvcc applies those itself: they never appear in argv) */
    cstr_vec codegen_flags;
    /* real SM targets ("sm_90"), deduplicated: those of the last -arch (or of
     * the -code values, which add up), then those of each -gencode; nvcc's
     * default (sm_75, nvcc 13.0) when no architecture is given; "native",
     * "all", "all-major" recorded as given (they depend on the machine) */
    cstr_vec gpu_archs;
    size_t unknown_count; /* options not in nvcc's table: kept verbatim */
} nvcc_cmdline;

/* argv without argv[0].  Returns 0, or -1 with a message in err (an
 * unreadable or too deeply nested response file, also one named by -optf in
 * NVCC_*_FLAGS).  out is always initialised, so nvcc_cmdline_free is safe
 * after either result.  Pure apart from reading response files and the
 * environment. */
int nvcc_cmdline_parse(int argc, char **argv, nvcc_cmdline *out, strbuf *err);
void nvcc_cmdline_free(nvcc_cmdline *c);

/* What nvcc names the output of input input_index without -o: in the current
 * directory, the input's directory stripped: -c/-dc/-dw foo.cu -> "foo.o",
 * -ptx -> "foo.ptx", -cubin -> "foo.cubin", -fatbin -> "foo.fatbin", -cuda ->
 * "foo.cu.cpp.ii", -optix-ir -> "foo.optixir", -ltoir -> "foo.ltoir", link and
 * -run -> "a.out", -lib -> "a.a", -dlink -> "a_dlink.o"; NULL for -E and -M
 * (stdout), --help and the like, and stdin ("-": nvcc picks a random name). */
const char *nvcc_default_output(const nvcc_cmdline *c, size_t input_index, arena *a);

/* The real nvcc, never cl1cc itself: $CL1CC_NVCC when set (an error if that
 * is cl1cc or not executable), else the first executable "nvcc" on $PATH that
 * is not cl1cc, else /usr/local/cuda/bin/nvcc (a CL1CC_NVCC without a '/' is
 * looked up on $PATH the same way).  A candidate is cl1cc when it
 * is the same file as self_exe (may be NULL) or /proc/self/exe, when its
 * realpath's name starts with "cl1cc", or when it is a byte-for-byte copy of
 * /proc/self/exe.  A candidate in the exec chain is skipped (CL1CC_NVCC
 * there is an error: an exec loop).  0 with the path in path_out, or -1
 * with a message. */
int nvcc_locate_real(const char *self_exe, strbuf *path_out, strbuf *err);

/* The first executable `name` on $PATH that is neither cl1cc nor in the
 * exec chain; 0 with the path, or -1. */
int nvcc_locate_on_path(const char *name, const char *self_exe, strbuf *path_out);

/* The exec chain (exec_chain.c): the nvcc paths that wrappers above this
 * process ran, in CL1CC_EXEC_CHAIN.  One in the chain ran cl1cc again. */
int nvcc_in_exec_chain(const char *path);
size_t nvcc_exec_chain_length(void);
/* Adds path (resolved) to the chain in this process's environment, which
 * the nvcc about to run inherits. */
void nvcc_exec_chain_add(const char *path);

/* Names for printing and tests ("compile", "cu"). */
const char *nvcc_phase_name(nvcc_phase p);
const char *nvcc_lang_name(nvcc_lang l);

#endif
