/*
 * fuzz_wrapper_args.c: parses many random and mutated nvcc argv vectors and
 * random response files (some nested, some recursive, some missing), checking
 * the parser's invariants; meant to run under ASan too.
 */
#include "check.h"
#include "wrapper.h"

#include <string.h>
#include <unistd.h>

static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;
static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return n ? (unsigned)(rng_state % n) : 0;
}

static const char *const pool[] = {
    "-c", "-dc", "-dw", "-dlink", "-lib", "-E", "-M", "-MM", "-MD", "-MMD", "-MF", "-MT",
    "-MP", "-ptx", "-cubin", "-fatbin", "-cuda", "-run", "--version", "-o", "-ofoo.o",
    "--output-file", "--output-file=", "--output-file=z.o", "-o=", "-x", "cu", "c++", "c",
    "none", "-x=cu", "--x", "-arch", "sm_90", "-arch=sm_80", "-arch=compute_90",
    "-arch=native", "-code", "sm_86,compute_86", "-code=", "-gencode",
    "arch=compute_90,code=[sm_90,compute_90]", "-gencode=arch=compute_80,code=sm_80",
    "-gencode=code=[", "-gencode=,,,code=,", "code=\"sm_70", "-rdc=true", "-rdc", "false",
    "-Xcompiler", "-fPIC,-Wall", "-Xcompiler=", "-ccbin", "gcc", "--compiler-bindir=",
    "-I", "-Iinc", "-I=", "--include-path=a,,b", "-D", "-DX=1", "-DA,B", "-D,", "-U", "-UX",
    "-isystem", "/usr/inc", "-include", "p.h", "-std=c++17", "--std", "-O", "-O3", "-O=",
    "-Xptxas", "-v", "-maxrregcount=32", "--dryrun", "--verbose", "-t4", "-l", "-lm", "-L",
    "--no-align-double", "-", "--", "---", "-=", "--=", "=", "", "a.cu", "dir/b.cu", "c.cpp",
    "d.c", "e.o", "f.a", "g.so", "h.ptx", "i.cubin", "j.fatbin", "noext", ".cu", "x.",
    "dir/", "@", "@r0", "@r1", "@r2", "@missing", "-optf", "-optf=r0", "--options-file",
    "--options-file=r1,r2", "--options-file=,", "r0", "r1,r2", "-Wall", "--frobnicate",
    "-cuda", "-optix-ir", "-ltoir", "-dlto", "-Xcudafe", "--cudafe-options=-x", "-Xnvasm",
    "-tdump", "-trap", "-V", "-h", "--list-gpu-code", "-x=c++", "-arch=all-major",
    "-code=sm_80", "--gpu-code", "-gencode=arch=compute_90a,code=[sm_90a,compute_90a]",
    "'quoted'", "\"dq\"", "a\\ b", "-rdc=false", "-link", "-dw", "k.cu.cpp.ii", "x.optixir",
};
#define POOL_N (sizeof pool / sizeof pool[0])

static void random_word(strbuf *sb)
{
    sb_clear(sb);
    unsigned kind = rnd(10);
    if (kind < 7) {
        sb_puts(sb, pool[rnd(POOL_N)]);
    } else if (kind < 9) {
        /* a mutated pool word */
        sb_puts(sb, pool[rnd(POOL_N)]);
        unsigned edits = 1 + rnd(3);
        for (unsigned e = 0; e < edits && sb->len; e++) {
            size_t at = rnd((unsigned)sb->len);
            sb->data[at] = "-=,@[]\"' x\\"[rnd(11)];
        }
        if (rnd(4) == 0)
            sb_puts(sb, pool[rnd(POOL_N)]);
    } else {
        unsigned n = rnd(12);
        for (unsigned i = 0; i < n; i++)
            sb_putc(sb, (char)(1 + rnd(255)));
    }
}

/* A response file: random words with random quoting and blanks. */
static void write_response(const char *name)
{
    strbuf text, w;
    sb_init(&text);
    sb_init(&w);
    unsigned n = rnd(12);
    for (unsigned i = 0; i < n; i++) {
        random_word(&w);
        switch (rnd(5)) {
        case 0:
            sb_printf(&text, "\"%s\"", sb_str(&w));
            break;
        case 1:
            sb_printf(&text, "'%s'", sb_str(&w));
            break;
        case 2:
            sb_printf(&text, "%s\\", sb_str(&w));
            break;
        default:
            sb_puts(&text, sb_str(&w));
        }
        sb_puts(&text, rnd(3) ? " " : "\n\t");
    }
    if (rnd(4) == 0 && text.len)
        text.len = rnd((unsigned)text.len); /* truncated mid-quote */
    FILE *f = fopen(name, "w");
    CHECK(f != NULL);
    if (f) {
        CHECK(fwrite(text.data ? text.data : "", 1, text.len, f) == text.len);
        CHECK(fclose(f) == 0);
    }
    sb_free(&text);
    sb_free(&w);
}

static int mentions_response(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if ((argv[i][0] == '@' && argv[i][1]) || !strncmp(argv[i], "-optf", 5) ||
            !strncmp(argv[i], "--options-file", 14))
            return 1;
    return 0;
}

static void check_invariants(int argc, char **argv, const nvcc_cmdline *c)
{
    if (!mentions_response(argc, argv)) {
        CHECK(c->argv.len == (size_t)argc);
        for (size_t i = 0; i < c->argv.len && i < (size_t)argc; i++)
            CHECK(!strcmp(c->argv.items[i], argv[i]));
    }
    for (size_t i = 0; i < c->inputs.len; i++) {
        const nvcc_input *in = &c->inputs.items[i];
        CHECK(in->arg_index < c->argv.len && !strcmp(c->argv.items[in->arg_index], in->path));
        CHECK((unsigned)in->lang <= NVCC_LANG_OTHER);
    }
    CHECK(c->output_index == SIZE_MAX || c->output_index < c->argv.len);
    CHECK(c->unknown_count <= c->argv.len);
    CHECK((unsigned)c->phase <= NVCC_PHASE_OTHER);
    CHECK(c->phase_option || c->phase == NVCC_PHASE_LINK);
    CHECK(c->phase != NVCC_PHASE_DEVICE_C || c->relocatable);
    CHECK(c->gpu_archs.len > 0 || c->codegen_flags.len > 0);
    for (size_t i = 0; i < c->gpu_archs.len; i++)
        for (size_t j = i + 1; j < c->gpu_archs.len; j++)
            CHECK(strcmp(c->gpu_archs.items[i], c->gpu_archs.items[j]) != 0);
    arena a;
    arena_init(&a);
    for (size_t i = 0; i <= c->inputs.len; i++) {
        const char *o = nvcc_default_output(c, i, &a);
        CHECK(!o || (*o && !strchr(o, '/')));
    }
    arena_free(&a);
}

int main(int argc, char **argv)
{
    long iterations = argc > 1 ? atol(argv[1]) : 30000;
    /* tmpfs when there is one: the parser opens thousands of small files */
    char shm_tmpl[] = "/dev/shm/cl1cc-wrapper-fuzz-XXXXXX";
    char tmpl[] = "/tmp/cl1cc-wrapper-fuzz-XXXXXX";
    char *dir = mkdtemp(shm_tmpl);
    if (!dir)
        dir = mkdtemp(tmpl);
    char cwd[4096];
    CHECK(dir && getcwd(cwd, sizeof cwd));
    if (!dir || chdir(dir) != 0)
        return 1;
    const char *const envs[] = {"NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS"};
    strbuf w, err;
    sb_init(&w);
    sb_init(&err);
    long ok = 0, errors = 0;
    for (long it = 0; it < iterations; it++) {
        if (it % 32 == 0) {
            write_response("r0");
            write_response("r1");
            write_response("r2");
        }
        for (int e = 0; e < 2; e++) {
            if (rnd(8) == 0) {
                /* words, quotes and -optf files nvcc reads there itself */
                random_word(&w);
                sb_puts(&w, rnd(2) ? " -O3 " : " \"-DA B\" ");
                sb_puts(&w, pool[rnd(POOL_N)]);
                if (rnd(4) == 0)
                    sb_puts(&w, rnd(2) ? " -optf r1" : " --options-file=r2,r0");
                CHECK(setenv(envs[e], sb_str(&w), 1) == 0);
            } else {
                CHECK(unsetenv(envs[e]) == 0);
            }
        }
        int n = (int)rnd(16);
        char **args = xcalloc((size_t)n + 1, sizeof *args);
        for (int i = 0; i < n; i++) {
            random_word(&w);
            args[i] = xstrdup(sb_str(&w));
        }
        nvcc_cmdline c;
        sb_clear(&err);
        if (nvcc_cmdline_parse(n, args, &c, &err) == 0) {
            check_invariants(n, args, &c);
            ok++;
        } else {
            CHECK(err.len > 0);
            errors++;
        }
        nvcc_cmdline_free(&c);
        for (int i = 0; i < n; i++)
            free(args[i]);
        free(args);
        if (failures > 20)
            break;
    }
    CHECK(unsetenv(envs[0]) == 0 && unsetenv(envs[1]) == 0);
    sb_free(&w);
    sb_free(&err);
    unlink("r0");
    unlink("r1");
    unlink("r2");
    CHECK(chdir(cwd) == 0);
    CHECK(rmdir(dir) == 0);
    printf("%ld command lines parsed, %ld rejected (response files)\n", ok, errors);
    return CHECK_REPORT("wrapper_args_fuzz");
}
