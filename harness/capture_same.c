/*
 * capture_same.c: whether two captures of a kernel hold the same launch on
 * the same inputs.  A benchmark loop that resets its inputs before each
 * launch (most of HeCBench: "for (i = 0; i < repeat; i++) { copy inputs;
 * launch; }") gives captures that differ only in their timing; the judge
 * checks such a capture once (a deterministic original gives the same
 * outputs on the same inputs), which at real sizes saves a reference run,
 * three poison runs and the variants' runs on each repeat.
 */
#include "harness.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* 1 when files a and b hold the same bytes (one file, or read and
 * compared); 0 when they differ or either cannot be read */
static int files_equal(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
        return 0;
    if (sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
        return 1;
    if (sa.st_size != sb.st_size)
        return 0;
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    enum { CHUNK = 1 << 20 };
    unsigned char *ba = xmalloc(CHUNK), *bb = xmalloc(CHUNK);
    int equal = fa && fb;
    while (equal) {
        size_t na = fread(ba, 1, CHUNK, fa), nb = fread(bb, 1, CHUNK, fb);
        equal = na == nb && memcmp(ba, bb, na) == 0;
        if (na < CHUNK)
            break;
    }
    equal = equal && feof(fa) && feof(fb) && !ferror(fa) && !ferror(fb);
    free(ba);
    free(bb);
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return equal;
}

/* allocation al's inputs in both captures: both raw or both compressed
 * (gzip of the same bytes at one level gives the same bytes) */
static int inputs_equal(const char *dir_a, const char *dir_b, int al)
{
    static const char *const forms[] = {"in", "in.gz"};
    for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
        char a[4200], b[4200];
        snprintf(a, sizeof a, "%s/alloc%d.%s", dir_a, al, forms[f]);
        snprintf(b, sizeof b, "%s/alloc%d.%s", dir_b, al, forms[f]);
        struct stat st;
        if (stat(a, &st) == 0 || stat(b, &st) == 0)
            return files_equal(a, b);
    }
    return 0;
}

/* the meta files alike but for their launch_ms line (what the launch
 * took, not what it was given) */
static int metas_equal(const char *dir_a, const char *dir_b)
{
    char pa[4200], pb[4200];
    snprintf(pa, sizeof pa, "%s/meta", dir_a);
    snprintf(pb, sizeof pb, "%s/meta", dir_b);
    char *ta = NULL, *tb = NULL;
    size_t la = 0, lb = 0;
    int equal = file_read_all(pa, 0, &ta, &la) == 0 && file_read_all(pb, 0, &tb, &lb) == 0;
    const char *a = ta, *b = tb;
    while (equal && *a && *b) {
        size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");
        int timing_a = strncmp(a, "launch_ms ", 10) == 0, timing_b = strncmp(b, "launch_ms ", 10) == 0;
        equal = timing_a == timing_b && (timing_a || (na == nb && memcmp(a, b, na) == 0));
        a += na + (a[na] == '\n');
        b += nb + (b[nb] == '\n');
    }
    equal = equal && !*a && !*b;
    free(ta);
    free(tb);
    return equal;
}

int hn_captures_same_inputs(const hn_capture *a, const hn_capture *b)
{
    if (a->nallocs != b->nallocs || !metas_equal(a->dir, b->dir))
        return 0;
    for (int al = 0; al < a->nallocs; al++)
        if (a->alloc_size[al] != b->alloc_size[al] || !inputs_equal(a->dir, b->dir, al))
            return 0;
    return 1;
}
