/*
 * fuzz_llm_reply.c: the reply parser on deterministic mutations of the
 * recorded replies (byte flips, inserted fences, braces, quotes and
 * comments, cuts, splices).  Each result must be a failure of one line or a
 * source containing __global__; meant to run under ASan too.
 */
#include "llm.h"
#include "llm_test_util.h"

#include <dirent.h>

static unsigned long long rng_state = 0x2545f4914f6cdd1dULL;
static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return n ? (unsigned)(rng_state % n) : 0;
}

static const char *const pieces[] = {
    "```", "```cuda\n", "\n```\n", "```cpp\n", "~~~\n", "__global__", "__device__", "scale",
    "scale_fast", "{", "}", "(", ")", "<", ">", ";", ",", "\"", "'", "/*", "*/", "//", "\n",
    "\\\n", "#define X ", "#", "template <typename T>", "__launch_bounds__(", "<think>",
    "</think>", "void", "float *", "int n", "extern \"C\" ", "[[", "]]", "\r\n", "\t", "\0",
    "__global__ void scale(float *o, const float *i, float f, int n) {",
    "__device__ int h(int x) { return x; }", "R\"(", "u8'", "0x1p+3", "1'000",
};
#define N_PIECES (sizeof pieces / sizeof pieces[0])

static void mutate(strbuf *sb, const str_vec *corpus)
{
    unsigned edits = 1 + rnd(8);
    for (unsigned e = 0; e < edits; e++) {
        size_t at = sb->len ? rnd((unsigned)sb->len + 1) : 0;
        strbuf next;
        sb_init(&next);
        switch (rnd(6)) {
        case 0: /* flip a byte */
            if (sb->len)
                sb->data[rnd((unsigned)sb->len)] = (char)(1 + rnd(255));
            break;
        case 1: { /* insert a piece */
            const char *p = pieces[rnd(N_PIECES)];
            sb_append(&next, sb->data ? sb->data : "", at);
            sb_puts(&next, p);
            sb_puts(&next, sb_str(sb) + at);
            sb_free(sb);
            *sb = next;
            continue;
        }
        case 2: /* cut the rest */
            if (sb->len) {
                sb->len = at;
                sb->data[at] = '\0';
            }
            break;
        case 3: { /* delete a range */
            size_t n = rnd(64);
            if (at + n > sb->len)
                n = sb->len - at;
            if (sb->len)
                memmove(sb->data + at, sb->data + at + n, sb->len - at - n + 1);
            sb->len -= n;
            break;
        }
        case 4: { /* splice in part of another reply */
            const char *other = corpus->items[rnd((unsigned)corpus->len)];
            size_t olen = strlen(other), from = rnd((unsigned)olen + 1);
            size_t n = rnd((unsigned)(olen - from) + 1);
            sb_append(&next, sb->data ? sb->data : "", at);
            sb_append(&next, other + from, n);
            sb_puts(&next, sb_str(sb) + at);
            sb_free(sb);
            *sb = next;
            continue;
        }
        default: { /* repeat a range */
            size_t n = rnd(128);
            if (at + n > sb->len)
                n = sb->len - at;
            sb_append(&next, sb->data ? sb->data : "", at + n);
            sb_append(&next, sb_str(sb) + at, n);
            sb_puts(&next, sb_str(sb) + at + n);
            sb_free(sb);
            *sb = next;
            continue;
        }
        }
        sb_free(&next);
    }
}

static void read_corpus(const char *dir, str_vec *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".md") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text;
        size_t len;
        if (file_read_all(path, 0, &text, &len) == 0)
            vec_push(out, text);
    }
    closedir(d);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: fuzz_llm_reply REPLIES-DIR ITERATIONS\n");
        return 2;
    }
    str_vec corpus = {0};
    read_corpus(argv[1], &corpus);
    CHECK(corpus.len >= 10);
    if (!corpus.len)
        return CHECK_REPORT("llm_reply_fuzz");
    long iterations = strtol(argv[2], NULL, 10);
    long ok = 0, failed = 0;
    for (long it = 0; it < iterations; it++) {
        strbuf sb;
        sb_init(&sb);
        sb_puts(&sb, corpus.items[rnd((unsigned)corpus.len)]);
        mutate(&sb, &corpus);
        arena a;
        arena_init(&a);
        pol_llm_extract ex;
        /* now and then without original, name or context */
        int bare = rnd(8) == 0;
        pol_llm_extract_kernel(sb_str(&sb), bare ? NULL : "scale", bare ? NULL : scale_kernel,
                               bare ? NULL : scale_context, &a, &ex);
        if (ex.source) {
            ok++;
            CHECK(ex.failure == NULL && strstr(ex.source, "__global__") != NULL);
        } else {
            failed++;
            CHECK(ex.failure != NULL && *ex.failure && strchr(ex.failure, '\n') == NULL);
        }
        if (failures) {
            fprintf(stderr, "iteration %ld, input:\n%s\n", it, sb_str(&sb));
            arena_free(&a);
            sb_free(&sb);
            break;
        }
        arena_free(&a);
        sb_free(&sb);
    }
    printf("llm_reply_fuzz: %ld kernels, %ld failures found\n", ok, failed);
    /* both outcomes must occur, or the mutations test nothing */
    CHECK(ok > iterations / 20 && failed > iterations / 20);
    for (size_t i = 0; i < corpus.len; i++)
        free(corpus.items[i]);
    vec_free(&corpus);
    return CHECK_REPORT("llm_reply_fuzz");
}
