/*
 * test_capture_io.c: captures compress to .gz and read back byte for byte;
 * a damaged or short compressed file is an error, not a crash; perturbation
 * changes floats reproducibly and leaves integers alone; a capture's meta
 * gives the instantiation of a template kernel; allocations over
 * HN_COMPRESS_MAX_BYTES stay raw, and an output linked to its input reads
 * back as the input and is known equal without reading; two captures of
 * one launch on the same inputs are known alike, and any other difference
 * tells them apart.
 */
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"

int main(void)
{
    char dir[] = "/tmp/cl1cc-capio-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char sub[256];
    snprintf(sub, sizeof sub, "%s/tag/k0/0", dir);
    CHECK(dir_create_all(sub, 0755) == 0);
    size_t size = 3 << 20;
    unsigned char *data = xmalloc(size);
    for (size_t i = 0; i < size; i++)
        data[i] = (unsigned char)(i * 2654435761u >> 13);
    strbuf err;
    sb_init(&err);
    CHECK(hn_alloc_write(sub, 0, "in", data, size, &err) == 0);
    CHECK(hn_alloc_write(sub, 0, "out", data, size / 2, &err) == 0);
    CHECK(hn_captures_compress(dir, &err) == 0);
    char path[300];
    snprintf(path, sizeof path, "%s/alloc0.in", sub);
    CHECK(access(path, F_OK) != 0); /* the raw file is gone */
    snprintf(path, sizeof path, "%s/alloc0.in.gz", sub);
    CHECK(access(path, F_OK) == 0);
    unsigned char *back = NULL;
    CHECK(hn_alloc_read(sub, 0, "in", size, &back, &err) == 0);
    CHECK(back && memcmp(back, data, size) == 0);
    free(back);
    /* the wrong size, and a truncated .gz, are errors */
    CHECK(hn_alloc_read(sub, 0, "out", size, &back, &err) == -1);
    CHECK(truncate(path, 1000) == 0);
    sb_clear(&err);
    CHECK(hn_alloc_read(sub, 0, "in", size, &back, &err) == -1 && err.len > 0);
    CHECK(hn_alloc_read(sub, 7, "in", size, &back, &err) == -1);

    /* a large allocation stays raw; its unchanged output is a link */
    char big_dir[256];
    snprintf(big_dir, sizeof big_dir, "%s/tag/k1/0", dir);
    CHECK(dir_create_all(big_dir, 0755) == 0);
    size_t big = HN_COMPRESS_MAX_BYTES + 4096;
    unsigned char *big_data = xmalloc(big);
    memset(big_data, 0x5a, big);
    CHECK(hn_alloc_write(big_dir, 0, "in", big_data, big, &err) == 0);
    CHECK(hn_alloc_link(big_dir, "in", big_dir, "out", 0) == 0);
    CHECK(hn_alloc_same_file(big_dir, "in", big_dir, "out", 0) == 1);
    CHECK(hn_alloc_same_file(sub, "in", big_dir, "in", 0) == 0);
    CHECK(hn_captures_compress(dir, &err) == 0);
    snprintf(path, sizeof path, "%s/alloc0.in", big_dir);
    CHECK(access(path, F_OK) == 0); /* raw */
    CHECK(hn_alloc_same_file(big_dir, "in", big_dir, "out", 0) == 1);
    CHECK(hn_alloc_read(big_dir, 0, "out", big, &back, &err) == 0);
    CHECK(back && memcmp(back, big_data, big) == 0);
    free(back);
    free(big_data);
    /* a link to a compressed file is not made (nothing raw to link) */
    char other[256];
    snprintf(other, sizeof other, "%s/other", dir);
    CHECK(dir_create_all(other, 0755) == 0);
    CHECK(hn_alloc_link(sub, "in", other, "in", 0) == -1);

    float f[4] = {1, 2, 3, 4}, g[4];
    memcpy(g, f, sizeof f);
    hn_perturb(HN_F32, (unsigned char *)g, sizeof g, 1);
    CHECK(memcmp(f, g, sizeof f) != 0);
    float h[4];
    memcpy(h, f, sizeof f);
    hn_perturb(HN_F32, (unsigned char *)h, sizeof h, 1);
    CHECK(memcmp(g, h, sizeof g) == 0); /* reproducible */
    int ints[4] = {1, 2, 3, 4}, ints2[4];
    memcpy(ints2, ints, sizeof ints);
    hn_perturb(HN_I32, (unsigned char *)ints2, sizeof ints2, 1);
    CHECK(memcmp(ints, ints2, sizeof ints) == 0);

    /* hn_absolute: signs cleared, values and NaN kept, integers untouched */
    float signed_f[4] = {-1.5f, 2, -0.0f, NAN};
    hn_absolute(HN_F32, (unsigned char *)signed_f, sizeof signed_f);
    CHECK(signed_f[0] == 1.5f && signed_f[1] == 2 && !signbit(signed_f[2]) && isnan(signed_f[3]));
    double signed_d[2] = {-1e300, 3};
    hn_absolute(HN_F64, (unsigned char *)signed_d, sizeof signed_d);
    CHECK(signed_d[0] == 1e300 && signed_d[1] == 3);
    unsigned short half = 0xbc00; /* -1.0 as f16 */
    hn_absolute(HN_F16, (unsigned char *)&half, sizeof half);
    CHECK(half == 0x3c00);
    int negative[2] = {-1, -7};
    hn_absolute(HN_I32, (unsigned char *)negative, sizeof negative);
    CHECK(negative[0] == -1 && negative[1] == -7);

    /* a template kernel's capture names its instantiation; others none */
    snprintf(path, sizeof path, "%s/meta", sub);
    FILE *mf = fopen(path, "w");
    CHECK(mf != NULL);
    fputs("cl1cc-capture 1\nkernel tk::scale\nindex 0\ninstance tk::scale<128, float>\n"
          "grid 4 1 1\nblock 128 1 1\nshmem 0\nargs 0\nend\n", mf);
    fclose(mf);
    hn_capture cap;
    CHECK(hn_capture_read(sub, &cap, &err) == 0);
    CHECK(strcmp(cap.instance, "tk::scale<128, float>") == 0 && cap.grid[0] == 4);
    mf = fopen(path, "w");
    fputs("cl1cc-capture 1\nkernel k\nindex 0\nargs 0\nend\n", mf);
    fclose(mf);
    CHECK(hn_capture_read(sub, &cap, &err) == 0 && cap.instance[0] == '\0');

    /* captures of one launch on the same inputs (a loop that resets them):
     * alike but for launch_ms; any other difference tells them apart */
    const char *meta_text = "cl1cc-capture 1\nkernel k\nindex 0\ngrid 4 1 1\nblock 128 1 1\n"
                            "shmem 0\nlaunch_ms %s\nallocs 2\nalloc 0 4096\nalloc 1 16\nargs 2\n"
                            "arg 0 pointer 0 0\narg 1 value 4 %s\nend\n";
    char rep[3][128], mp[512];
    unsigned char in0[4096], in1[16];
    for (size_t i = 0; i < sizeof in0; i++)
        in0[i] = (unsigned char)(i * 7);
    memset(in1, 3, sizeof in1);
    for (int r = 0; r < 3; r++) {
        snprintf(rep[r], sizeof rep[r], "%s/tag/k2/%d", dir, r);
        CHECK(dir_create_all(rep[r], 0755) == 0);
        snprintf(mp, sizeof mp, "%s/meta", rep[r]);
        mf = fopen(mp, "w");
        fprintf(mf, meta_text, r == 0 ? "1.250" : "0.975", "10000000");
        fclose(mf);
        CHECK(hn_alloc_write(rep[r], 0, "in", in0, sizeof in0, &err) == 0);
        CHECK(hn_alloc_write(rep[r], 1, "in", in1, sizeof in1, &err) == 0);
    }
    hn_capture ca, cb;
    CHECK(hn_capture_read(rep[0], &ca, &err) == 0 && hn_capture_read(rep[1], &cb, &err) == 0);
    CHECK(hn_captures_same_inputs(&ca, &cb) == 1);
    in0[4000] ^= 1; /* one byte of one input */
    CHECK(hn_alloc_write(rep[1], 0, "in", in0, sizeof in0, &err) == 0);
    CHECK(hn_captures_same_inputs(&ca, &cb) == 0);
    CHECK(hn_alloc_link(rep[0], "in", rep[1], "in", 0) == 0); /* one file again */
    CHECK(hn_captures_same_inputs(&ca, &cb) == 1);
    snprintf(mp, sizeof mp, "%s/meta", rep[2]); /* another argument value */
    mf = fopen(mp, "w");
    fprintf(mf, meta_text, "1.250", "20000000");
    fclose(mf);
    CHECK(hn_capture_read(rep[2], &cb, &err) == 0);
    CHECK(hn_captures_same_inputs(&ca, &cb) == 0);
    snprintf(mp, sizeof mp, "%s/meta", rep[2]);
    mf = fopen(mp, "w");
    fprintf(mf, meta_text, "1.250", "10000000");
    fclose(mf);
    CHECK(hn_captures_same_inputs(&ca, &cb) == 1);
    snprintf(mp, sizeof mp, "%s/alloc1.in", rep[2]); /* an input missing */
    CHECK(unlink(mp) == 0);
    CHECK(hn_captures_same_inputs(&ca, &cb) == 0);

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    free(data);
    sb_free(&err);
    return CHECK_REPORT("test_capture_io");
}
