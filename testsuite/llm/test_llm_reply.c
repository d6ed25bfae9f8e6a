/*
 * test_llm_reply.c: the reply parser on the recorded replies (replies/NAME.md
 * against expected/reply_NAME.out) and on small cases written here: templates,
 * no original, signatures, fences.
 */
#include "llm.h"
#include "llm_test_util.h"

#include <dirent.h>
#include <time.h>

static void describe(const pol_llm_extract *ex, strbuf *out)
{
    if (ex->source)
        sb_printf(out, "renamed: %d\nhelpers: %zu\n----\n%s\n", ex->renamed, ex->n_helpers,
                  ex->source);
    else
        sb_printf(out, "failure: %s\n", ex->failure);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void recorded(const char *replies, const char *expected)
{
    DIR *d = opendir(replies);
    CHECK(d != NULL);
    if (!d)
        return;
    str_vec names = {0};
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n > 3 && strcmp(e->d_name + n - 3, ".md") == 0)
            vec_push(&names, xstrdup(e->d_name));
    }
    closedir(d);
    qsort(names.items, names.len, sizeof *names.items, by_name);
    CHECK(names.len >= 12);
    for (size_t i = 0; i < names.len; i++) {
        char path[1024], golden[1024];
        snprintf(path, sizeof path, "%s/%s", replies, names.items[i]);
        snprintf(golden, sizeof golden, "%s/reply_%.*s.out", expected,
                 (int)(strlen(names.items[i]) - 3), names.items[i]);
        char *text = NULL;
        size_t len;
        CHECK(file_read_all(path, 0, &text, &len) == 0);
        arena a;
        arena_init(&a);
        pol_llm_extract ex;
        pol_llm_extract_kernel(text ? text : "", "scale", scale_kernel, scale_context, &a, &ex);
        CHECK((ex.source == NULL) != (ex.failure == NULL));
        strbuf out;
        sb_init(&out);
        describe(&ex, &out);
        if (golden_compare(golden, sb_str(&out)) != 0) {
            fprintf(stderr, "reply %s:\n%s", names.items[i], sb_str(&out));
            failures++;
        }
        sb_free(&out);
        arena_free(&a);
        free(text);
        free(names.items[i]);
    }
    vec_free(&names);
}

/* extract with the scale kernel as the original */
static pol_llm_extract extract(arena *a, const char *reply)
{
    pol_llm_extract ex;
    pol_llm_extract_kernel(reply, "scale", scale_kernel, scale_context, a, &ex);
    return ex;
}

static int has(const char *s, const char *part) { return s && strstr(s, part) != NULL; }

static void small_cases(void)
{
    arena a;
    arena_init(&a);
    pol_llm_extract ex;

    /* the chosen fence languages, and the bare text when none */
    static const char *const langs[] = {"cuda", "cpp", "c++", "", "CUDA", "cu", NULL};
    for (int i = 0; langs[i]; i++) {
        const char *reply = arena_printf(
            &a, "x\n```%s\n__global__ void scale(float *o, const float *i, float f, int n) "
                "{ o[0] = i[0] * f; }\n```\n", langs[i]);
        ex = extract(&a, reply);
        CHECK(has(ex.source, "o[0] = i[0] * f;"));
    }
    /* a block in another language is a last resort only */
    ex = extract(&a, "```text\n__global__ void scale(float *o, const float *i, float f, int n) "
                     "{ o[1] = 0; }\n```\n```cuda\n__global__ void scale(float *o, const float "
                     "*i, float f, int n) { o[2] = 0; }\n```\n");
    CHECK(has(ex.source, "o[2]") && !has(ex.source, "o[1]"));
    ex = extract(&a, "```text\n__global__ void scale(float *o, const float *i, float f, int n) "
                     "{ o[1] = 0; }\n```\n");
    CHECK(has(ex.source, "o[1]"));

    /* parameters: qualifiers and names may change, types may not */
    ex = extract(&a, "__global__ void scale(float* __restrict__ a, const float* __restrict__ b, "
                     "const float c, const int d) { }");
    CHECK(ex.source != NULL);
    ex = extract(&a, "__global__ void scale(float *a, const float *b, float c, long n) { }");
    CHECK(has(ex.failure, "parameter 4") && has(ex.failure, "'long'") && has(ex.failure, "'int'"));
    ex = extract(&a, "__global__ void scale(float *a, const float *b, float c, int n, int m) { }");
    CHECK(has(ex.failure, "takes 5 parameters, the original 4"));
    ex = extract(&a, "__global__ void scale(float a[], const float *b, float c, int n) { }");
    CHECK(ex.source != NULL);

    /* renaming back keeps everything else */
    ex = extract(&a, "```cuda\n__global__ void __launch_bounds__(128) my_scale(float *o, const "
                     "float *i, float f, int n) { my_scale_helper(); }\n```");
    CHECK(ex.renamed && has(ex.source, "__launch_bounds__(128) scale(float *o") &&
          has(ex.source, "my_scale_helper();"));

    /* attributes and specifiers before __global__ belong to the kernel */
    ex = extract(&a, "int x;\n[[nodiscard]] extern \"C\" __global__ void scale(float *o, const "
                     "float *i, float f, int n) { }");
    CHECK(ex.source && strncmp(ex.source, "[[nodiscard]] extern \"C\" __global__", 34) == 0);
    ex = extract(&a, "x = a[b[1]] __global__ void scale(float *o, const float *i, float f, int n) "
                     "{ }");
    CHECK(ex.source && strncmp(ex.source, "__global__", 10) == 0);

    /* without the original: any kernel, named as the reply names it */
    pol_llm_extract_kernel("```cuda\n__global__ void k2(int x) { }\n```", NULL, NULL, NULL, &a,
                           &ex);
    CHECK(has(ex.source, "__global__ void k2(int x) { }") && !ex.renamed);
    /* the name from the original when not given */
    pol_llm_extract_kernel("__global__ void other(float *o, const float *i, float f, int n) {}",
                           NULL, scale_kernel, NULL, &a, &ex);
    CHECK(ex.renamed && has(ex.source, "void scale("));

    /* a template original */
    const char *tmpl = "template <typename T, int B>\n__global__ void reduce(const T *in, T *out, "
                       "size_t n) { }";
    pol_llm_extract_kernel("```cuda\ntemplate <typename T, int B>\n__global__ void reduce(const "
                           "T *__restrict__ in, T *out, size_t count) { out[0] = in[0]; }\n```",
                           "reduce", tmpl, NULL, &a, &ex);
    CHECK(has(ex.source, "template <typename T, int B>\n__global__ void reduce("));

    /* helpers: new ones kept in order, the context's and unused ones not,
     * through macros and each other */
    ex = extract(&a, "```cuda\n#define A 1\n#define B (A + 1)\n#define SCALE_BLOCK 128\n"
                     "__device__ int h2(int x) { return x * B; }\n"
                     "__device__ int h1(int x) { return h2(x); }\n"
                     "__host__ __device__ inline int unused(int x) { return x; }\n"
                     "__device__ float clampf(float x, float lo, float hi) { return x; }\n"
                     "__global__ void scale(float *o, const float *i, float f, int n) "
                     "{ o[0] = h1(SCALE_BLOCK) + clampf(f, 0, 1); }\n```");
    CHECK(ex.n_helpers == 4);
    CHECK(has(ex.source, "#define A 1\n\n#define B (A + 1)\n\n__device__ int h2"));
    CHECK(!has(ex.source, "unused") && !has(ex.source, "SCALE_BLOCK 128") &&
          !has(ex.source, "return x; }"));
    CHECK(has(ex.source, "__device__ int h1(int x) { return h2(x); }\n\n__global__ void scale"));

    /* failures */
    ex = extract(&a, "");
    CHECK(has(ex.failure, "empty"));
    ex = extract(&a, "I cannot do that.");
    CHECK(ex.failure && strcmp(ex.failure, "no code in the reply") == 0);
    ex = extract(&a, "```cuda\nint x = 1;\n```");
    CHECK(has(ex.failure, "no __global__ kernel"));
    ex = extract(&a, "```cuda\n__global__ void scale(float *o, const float *i, float f, int n) "
                     "{ if (n) { o[0] = 1;\n```");
    CHECK(has(ex.failure, "unfinished"));
    /* declarations and variables are no definitions */
    ex = extract(&a, "__global__ void scale(float *o, const float *i, float f, int n);\n"
                     "__device__ int table[4] = {1, 2, 3, 4};");
    CHECK(has(ex.failure, "no code"));
    /* braces in strings, characters and comments do not count */
    ex = extract(&a, "__global__ void scale(float *o, const float *i, float f, int n)\n{\n"
                     "    const char *s = \"}\"; char c = '}'; /* } */ // }\n    o[0] = 0;\n}\n"
                     "int after() { return 0; }\n");
    CHECK(has(ex.source, "o[0] = 0;\n}") && !has(ex.source, "after"));
    arena_free(&a);
}

/* Hostile replies of 2 MiB: each must come back, soon, with a valid result. */
static void large_replies(void)
{
    static const char *const units[] = {
        "__device__ f(",
        "__device__ word ",
        "#define X 1\n",
        "__global__ void scale(float *o, const float *i, float f, int n) { o[0] = X; }\n",
        "```\n",
        "```cuda\n__device__ int h(int x) { return x; }\n```\n",
        "(",
        "{",
        "__global__ void __launch_bounds__(",
        "template <",
        "> __global__ void scale(",
        "'",
        "/*",
        "__device__ int g(int x) { return g(x) + X; }\n#define X g(1)\n",
    };
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        strbuf sb;
        sb_init(&sb);
        while (sb.len < (2u << 20))
            sb_puts(&sb, units[u]);
        sb_puts(&sb, "\n__global__ void scale(float *o, const float *i, float f, int n) "
                     "{ o[0] = X + h(1) + g(2); }\n");
        arena a;
        arena_init(&a);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        pol_llm_extract ex = extract(&a, sb_str(&sb));
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        printf("large reply %zu: %.2f s, %s\n", u, seconds, ex.source ? "kernel" : ex.failure);
        CHECK(seconds < 20);
        CHECK(ex.source ? strstr(ex.source, "__global__") != NULL : ex.failure != NULL);
        arena_free(&a);
        sb_free(&sb);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_llm_reply REPLIES-DIR EXPECTED-DIR\n");
        return 2;
    }
    recorded(argv[1], argv[2]);
    small_cases();
    large_replies();
    return CHECK_REPORT("llm_reply");
}
