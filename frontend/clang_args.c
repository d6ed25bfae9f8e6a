/*
 * clang_args.c: the arguments that make clang read a CUDA 13 translation
 * unit as nvcc reads it: the CCCL include path, the CUDA version nvcc
 * announces, stand-ins for removed headers, then the user's own flags.
 */
#include "internal.h"

#include "config.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *stub_dir(const fe_options *opt, arena *a)
{
    if (opt->stub_dir)
        return opt->stub_dir;
    const char *env = config_stub_dir();
    if (env)
        return env;
    /* this runs in cl1cc-frontend, PREFIX/libexec/cl1cc */
    return arena_printf(a, "%s/../../share/cl1cc/clang-stubs", self_exe_dir());
}

static const char *cuda_path(const fe_options *opt)
{
    if (opt->cuda_path)
        return opt->cuda_path;
    const char *env = getenv("CUDA_PATH");
    if (env && *env)
        return env;
    env = getenv("CUDA_HOME");
    if (env && *env)
        return env;
    return "/usr/local/cuda";
}

/* clang's own headers (the CUDA wrapper, cuda_wrappers/new): beside the
 * libclang that is loaded, wherever it was unpacked.  libclang 19 does not
 * find them itself when linked from another folder, and then device-side
 * placement new (thrust) does not parse.  Debian keeps the library in
 * lib/x86_64-linux-gnu and the headers in lib/llvm-N/lib/clang/N. */
static const char *resource_dir_near(const char *library, int major, arena *a)
{
    const char *slash = strrchr(library, '/');
    if (!slash)
        return NULL;
    int len = (int)(slash - library);
    const char *candidates[] = {
        arena_printf(a, "%.*s/clang/%d", len, library, major),
        arena_printf(a, "%.*s/../llvm-%d/lib/clang/%d", len, library, major, major),
        arena_printf(a, "%.*s/../lib/llvm-%d/lib/clang/%d", len, library, major, major),
    };
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        const char *probe =
            arena_printf(a, "%s/include/__clang_cuda_runtime_wrapper.h", candidates[i]);
        if (access(probe, R_OK) == 0)
            return candidates[i];
    }
    return NULL;
}

static const char *resource_dir(arena *a)
{
    const char *env = config_clang_resource_dir();
    if (env)
        return env;
    Dl_info info;
    if (!dladdr((void *)clang_getClangVersion, &info) || !info.dli_fname)
        return NULL;
    CXString v = clang_getClangVersion();
    const char *text = clang_getCString(v);
    const char *digits = text ? strstr(text, "version ") : NULL;
    int major = digits ? atoi(digits + strlen("version ")) : 0;
    clang_disposeString(v);
    if (major <= 0)
        return NULL;
    const char *dir = resource_dir_near(info.dli_fname, major, a);
    char real[4096];
    if (!dir && realpath(info.dli_fname, real))
        dir = resource_dir_near(real, major, a);
    return dir;
}

/* The host compiler's own headers (omp.h, quadmath.h: gcc's, not clang's),
 * which nvcc's host compiles see: the newest /usr/lib/gcc/TRIPLE/N/include
 * that has omp.h.  Searched after everything else, so clang's own builtin
 * headers still win. */
static const char *gcc_include_dir(arena *a)
{
    static const char root[] = "/usr/lib/gcc/x86_64-linux-gnu";
    DIR *d = opendir(root);
    if (!d)
        return NULL;
    long best = -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char *end = NULL;
        long version = strtol(e->d_name, &end, 10);
        if (end == e->d_name || version <= best)
            continue;
        char probe[512];
        snprintf(probe, sizeof probe, "%s/%s/include/omp.h", root, e->d_name);
        if (access(probe, R_OK) == 0)
            best = version;
    }
    closedir(d);
    return best < 0 ? NULL : arena_printf(a, "%s/%ld/include", root, best);
}

/* CUDA_VERSION from the toolkit's cuda.h (13000 for 13.0), 0 if unknown */
static long toolkit_version(const char *cuda)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/include/cuda.h", cuda) >= (int)sizeof path)
        return 0;
    char *text = NULL;
    size_t len = 0;
    if (file_read_all(path, (size_t)4 << 20, &text, &len) != 0)
        return 0;
    long version = 0;
    const char *p = strstr(text, "#define CUDA_VERSION ");
    if (p)
        version = strtol(p + strlen("#define CUDA_VERSION "), NULL, 10);
    free(text);
    return version;
}

static int user_defines(const fe_options *opt, const char *macro)
{
    size_t len = strlen(macro);
    for (size_t i = 0; i < opt->n_flags; i++) {
        const char *f = opt->flags[i];
        if (strcmp(f, "-D") == 0 && i + 1 < opt->n_flags)
            f = opt->flags[++i];
        else if (strncmp(f, "-D", 2) == 0)
            f += 2;
        else
            continue;
        if (strncmp(f, macro, len) == 0 && (f[len] == '\0' || f[len] == '='))
            return 1;
    }
    return 0;
}

size_t fe_clang_args(const fe_options *opt, arena *a, const char ***args_out)
{
    size_t cap = opt->n_flags + 32, n = 0;
    const char **args = arena_alloc(a, cap * sizeof *args);
    const char *cuda = cuda_path(opt);
    args[n++] = "-x";
    args[n++] = "cuda";
    /* host side: sees the kernels' bodies and every launch; the arch is
     * the parser's own, apart from the user's (clang 16 knows sm_90 but not
     * sm_90a or sm_100; the user's arch changes no host-side text) */
    args[n++] = "--cuda-host-only";
    args[n++] = arena_printf(a, "--cuda-path=%s", cuda);
    args[n++] = "--cuda-gpu-arch=sm_90";
    args[n++] = "-Wno-unknown-cuda-version";
    args[n++] = "-nocudalib";
    /* stand-ins for headers CUDA 13 removed but clang's wrapper includes,
     * and for what nvcc's headers give that clang's do not */
    args[n++] = "-isystem";
    args[n++] = stub_dir(opt, a);
    /* CUDA 13 keeps CCCL (cuda/std, cub, thrust, and so cooperative groups)
     * in include/cccl, which nvcc adds by itself */
    args[n++] = "-isystem";
    args[n++] = arena_printf(a, "%s/include/cccl", cuda);
    /* clang takes CUDA 13 for a version it does not know unless told the
     * newest one it does; 12.5 is known to clang 19 and accepted by 16 */
    args[n++] = "-Xclang";
    args[n++] = "-target-sdk-version=12.5";
    const char *resource = resource_dir(a);
    if (resource) {
        args[n++] = "-resource-dir";
        args[n++] = resource;
    }
    int has_std = 0;
    for (size_t i = 0; i < opt->n_flags; i++)
        if (strncmp(opt->flags[i], "-std=", 5) == 0)
            has_std = 1;
    if (!has_std)
        args[n++] = "-std=c++17"; /* nvcc 13's default dialect */
    /* what nvcc announces: user code and CCCL take nvcc's paths, and CCCL
     * checks nvcc's version against the toolkit's */
    args[n++] = "-D__NVCC__";
    long version = toolkit_version(cuda);
    if (version > 0 && !user_defines(opt, "__CUDACC_VER_MAJOR__")) {
        args[n++] = arena_printf(a, "-D__CUDACC_VER_MAJOR__=%ld", version / 1000);
        args[n++] = arena_printf(a, "-D__CUDACC_VER_MINOR__=%ld", (version % 1000) / 10);
        args[n++] = "-D__CUDACC_VER_BUILD__=0";
    }
    args[n++] = "-ferror-limit=1000";
    /* nvcc (through gcc) takes `register` in C++17; clang errs by default */
    args[n++] = "-Wno-register";
    const char *gcc_include = gcc_include_dir(a);
    if (gcc_include) {
        args[n++] = "-idirafter";
        args[n++] = gcc_include;
    }
    for (size_t i = 0; i < opt->n_flags; i++)
        args[n++] = opt->flags[i];
    *args_out = args;
    return n;
}
