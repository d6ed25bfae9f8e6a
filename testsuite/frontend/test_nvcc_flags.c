/*
 * test_nvcc_flags.c: fe_flags_from_nvcc translates each spelling of the
 * flags that matter to parsing, ignores the rest, and survives random
 * command lines (a small fuzz loop; run under ASan in CI).
 */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

#include "check.h"

static void expect(const char *const *in, int n, const char *want)
{
    arena a;
    arena_init(&a);
    cstr_vec out = {0};
    fe_flags_from_nvcc(n, (char **)in, &a, &out);
    strbuf got;
    sb_init(&got);
    for (size_t i = 0; i < out.len; i++)
        sb_printf(&got, "%s%s", i ? " " : "", out.items[i]);
    if (strcmp(sb_str(&got), want) != 0) {
        fprintf(stderr, "want [%s]\n got [%s]\n", want, sb_str(&got));
        failures++;
    }
    sb_free(&got);
    vec_free(&out);
    arena_free(&a);
}

int main(void)
{
    const char *a[] = {"-I", "inc", "-Iinc2", "--include-path", "inc3", "--include-path=inc4"};
    expect(a, 6, "-Iinc -Iinc2 -Iinc3 -Iinc4");
    const char *b[] = {"-DX", "-D", "Y=2", "--define-macro", "Z", "--define-macro=W=1", "-UV", "--undefine-macro", "T"};
    expect(b, 9, "-DX -DY=2 -DZ -DW=1 -UV -UT");
    const char *c[] = {"-isystem", "/sys", "--system-include=/s2", "-include", "pre.h", "--pre-include", "p2.h"};
    expect(c, 7, "-isystem /sys -isystem /s2 -include pre.h -include p2.h");
    const char *d[] = {"-std=c++20", "--std", "c++14", "-std", "c++11"};
    expect(d, 5, "-std=c++20 -std=c++14 -std=c++11");
    /* code generation, linking and outputs are not the parser's business */
    const char *e[] = {"-O3", "-arch=sm_90", "-gencode", "arch=compute_90,code=[sm_90,compute_90]",
                       "-o", "x.o", "-c", "k.cu", "-lcublas", "-L/lib", "-Xcompiler", "-fPIC", "-isystemfoo"};
    expect(e, 13, "");
    const char *f[] = {"-I"}; /* a value that never came */
    expect(f, 1, "");

    /* fuzz: random mixes of known spellings and random bytes */
    static const char *atoms[] = {"-I", "-D", "-U", "-isystem", "-include", "-std", "--std",
                                  "--include-path", "--include-path=", "-std=", "=", "", "-",
                                  "--", "-DX=", "--define-macro=", "-x", "cu", "@f"};
    srand(12345);
    char buf[64][24];
    char *argv[64];
    for (int round = 0; round < 20000; round++) {
        int n = rand() % 64;
        for (int i = 0; i < n; i++) {
            if (rand() % 3) {
                snprintf(buf[i], sizeof buf[i], "%s", atoms[rand() % (int)(sizeof atoms / sizeof atoms[0])]);
            } else {
                int len = rand() % 23;
                for (int j = 0; j < len; j++)
                    buf[i][j] = (char)(1 + rand() % 255);
                buf[i][len] = '\0';
            }
            argv[i] = buf[i];
        }
        arena ar;
        arena_init(&ar);
        cstr_vec out = {0};
        size_t added = fe_flags_from_nvcc(n, argv, &ar, &out);
        CHECK(added == out.len && added <= (size_t)n * 2);
        vec_free(&out);
        arena_free(&ar);
    }
    return CHECK_REPORT("test_nvcc_flags");
}
