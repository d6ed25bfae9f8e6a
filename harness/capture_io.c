/*
 * capture_io.c: reading a captured launch (the meta file written by
 * runtime/cl1cc_capture.cuh and its allocation files), and the input sets
 * the judge derives from it: poisoned outputs, perturbed inputs.
 */
#include "harness.h"

#include <errno.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <stdlib.h>
#include <string.h>

int hn_capture_read(const char *dir, hn_capture *c, strbuf *err)
{
    memset(c, 0, sizeof *c);
    snprintf(c->dir, sizeof c->dir, "%s", dir);
    char path[4200];
    snprintf(path, sizeof path, "%s/meta", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        sb_printf(err, "%s: %s", path, strerror(errno));
        return -1;
    }
    char line[16384];
    int ended = 0;
    while (fgets(line, sizeof line, f)) {
        int i, a;
        size_t n;
        unsigned long long off;
        if (sscanf(line, "block %u %u %u", &c->block[0], &c->block[1], &c->block[2]) == 3) {
            continue;
        } else if (sscanf(line, "grid %u %u %u", &c->grid[0], &c->grid[1], &c->grid[2]) == 3) {
            continue;
        } else if (sscanf(line, "launch_ms %lf", &c->launch_ms) == 1) {
            if (!(c->launch_ms >= 0))
                c->launch_ms = 0;
        } else if (sscanf(line, "alloc %d %zu", &a, &n) == 2 && a >= 0 && a < HN_MAX_ARGS) {
            c->alloc_size[a] = n;
            if (a + 1 > c->nallocs)
                c->nallocs = a + 1;
        } else if (sscanf(line, "arg %d pointer %d %llu", &i, &a, &off) == 3 && i >= 0 &&
                   i < HN_MAX_ARGS && a >= 0 && a < HN_MAX_ARGS) {
            c->arg_alloc[i] = a;
            if (i + 1 > c->nargs)
                c->nargs = i + 1;
        } else if (sscanf(line, "arg %d value", &i) == 1 && i >= 0 && i < HN_MAX_ARGS) {
            c->arg_alloc[i] = -1;
            if (i + 1 > c->nargs)
                c->nargs = i + 1;
        } else if (strncmp(line, "instance ", 9) == 0) {
            size_t len = strcspn(line + 9, "\n");
            if (len >= sizeof c->instance)
                len = sizeof c->instance - 1;
            memcpy(c->instance, line + 9, len);
            c->instance[len] = '\0';
        } else if (strncmp(line, "end", 3) == 0) {
            ended = 1;
        }
    }
    fclose(f);
    if (!ended) {
        sb_printf(err, "%s: incomplete capture", path);
        return -1;
    }
    return 0;
}

size_t hn_capture_instances(const char *const *captures, size_t n, arena *a, cstr_vec *out,
                            strbuf *err)
{
    size_t unnamed = 0;
    for (size_t c = 0; c < n; c++) {
        hn_capture cap;
        if (hn_capture_read(captures[c], &cap, err) != 0 || !cap.instance[0]) {
            if (!cap.instance[0] && err->len == 0)
                sb_printf(err, "%s: names no instantiation", captures[c]);
            unnamed++;
            continue;
        }
        int seen = 0;
        for (size_t i = 0; i < out->len && !seen; i++)
            seen = strcmp(out->items[i], cap.instance) == 0;
        if (!seen)
            vec_push(out, arena_strdup(a, cap.instance));
    }
    return unnamed;
}

/* path, or its compressed form path.gz: exactly size bytes into a heap
 * buffer; 0, 1 when neither exists (errno ENOENT), -1 with err */
static int read_alloc_file(const char *path, size_t size, unsigned char **out, strbuf *err)
{
    char *data;
    size_t len;
    if (file_read_all(path, 0, &data, &len) == 0) {
        if (len != size) {
            sb_printf(err, "%s: %zu bytes, the capture says %zu", path, len, size);
            free(data);
            return -1;
        }
        *out = (unsigned char *)data;
        return 0;
    }
    char gzpath[4300];
    snprintf(gzpath, sizeof gzpath, "%s.gz", path);
    gzFile gz = gzopen(gzpath, "rb");
    if (!gz)
        return 1;
    unsigned char *buf = xmalloc(size ? size : 1);
    size_t done = 0;
    while (done < size) {
        unsigned chunk = size - done > (1u << 30) ? (1u << 30) : (unsigned)(size - done);
        int n = gzread(gz, buf + done, chunk);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    unsigned char extra;
    int more = gzread(gz, &extra, 1);
    gzclose(gz);
    if (done != size || more != 0) {
        sb_printf(err, "%s: not the %zu bytes the capture says", gzpath, size);
        free(buf);
        return -1;
    }
    *out = buf;
    return 0;
}

int hn_alloc_read(const char *dir, int alloc, const char *suffix, size_t size,
                  unsigned char **out, strbuf *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/alloc%d.%s", dir, alloc, suffix);
    int rc = read_alloc_file(path, size, out, err);
    if (rc == 1)
        sb_printf(err, "%s: %s", path, strerror(ENOENT));
    return rc == 0 ? 0 : -1;
}

int hn_alloc_same_file(const char *dir_a, const char *suffix_a, const char *dir_b,
                       const char *suffix_b, int alloc)
{
    char a[4200], b[4200];
    snprintf(a, sizeof a, "%s/alloc%d.%s", dir_a, alloc, suffix_a);
    snprintf(b, sizeof b, "%s/alloc%d.%s", dir_b, alloc, suffix_b);
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int hn_alloc_link(const char *from_dir, const char *from_suffix, const char *to_dir,
                  const char *to_suffix, int alloc)
{
    char from[4200], to[4200];
    snprintf(from, sizeof from, "%s/alloc%d.%s", from_dir, alloc, from_suffix);
    snprintf(to, sizeof to, "%s/alloc%d.%s", to_dir, alloc, to_suffix);
    unlink(to);
    return link(from, to);
}

int hn_alloc_write(const char *dir, int alloc, const char *suffix, const void *data,
                   size_t size, strbuf *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/alloc%d.%s", dir, alloc, suffix);
    if (file_write_atomic(path, data, size) != 0) {
        sb_printf(err, "%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* xorshift64*: reproducible perturbations from a seed */
static uint64_t next_random(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

int hn_perturb_changes(hn_dtype t)
{
    return t == HN_F32 || t == HN_F64;
}

void hn_perturb(hn_dtype t, unsigned char *data, size_t size, uint64_t seed)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;
    if (t == HN_F32) {
        for (size_t i = 0; i + 4 <= size; i += 4) {
            float v;
            memcpy(&v, data + i, 4);
            double u = (double)(next_random(&s) >> 11) / 9007199254740992.0; /* [0,1) */
            v = (float)(v * (0.75 + 0.5 * u) + (u - 0.5) * 0.125);
            memcpy(data + i, &v, 4);
        }
    } else if (t == HN_F64) {
        for (size_t i = 0; i + 8 <= size; i += 8) {
            double v;
            memcpy(&v, data + i, 8);
            double u = (double)(next_random(&s) >> 11) / 9007199254740992.0;
            v = v * (0.75 + 0.5 * u) + (u - 0.5) * 0.125;
            memcpy(data + i, &v, 8);
        }
    }
    /* integers are left alone: they are often sizes and indices */
}

int hn_absolute_changes(hn_dtype t)
{
    return t == HN_F16 || t == HN_BF16 || t == HN_F32 || t == HN_F64;
}

void hn_absolute(hn_dtype t, unsigned char *data, size_t size)
{
    size_t n = hn_dtype_size(t);
    if (!hn_absolute_changes(t))
        return;
    /* little-endian: the sign is the top bit of an element's last byte */
    for (size_t i = 0; i + n <= size; i += n)
        data[i + n - 1] &= 0x7f;
}

void hn_poison(unsigned char *data, size_t size, int pattern)
{
    /* One byte repeated, so every dtype of the allocation gets the same kind
     * of value.  0x7b..: large, finite and positive as f16 (61280), bf16
     * and f32 (1.3e36) and f64 (1e286), a large positive integer; 0xff..:
     * NaN, -1; 0xfb..: the negatives of 0x7b...  Between them a read of the
     * old contents shows: fmax(x, 0x7b..) and plain arithmetic keep the
     * poison; fmin(x, 0xfb..) keeps it; NaN propagates through arithmetic.
     * (0x7f.. would be NaN as f16.)  judge_find_pure_outputs runs the
     * original under all three before calling an allocation pure. */
    static const unsigned char bytes[HN_POISONS] = {0x7b, 0xff, 0xfb};
    int p = pattern % HN_POISONS;
    memset(data, bytes[p < 0 ? p + HN_POISONS : p], size);
}

const char *hn_capture_tag(const char *path, arena *a)
{
    char resolved[4096];
    const char *abs = realpath(path, resolved) ? resolved : path;
    char hex[65];
    sha256_hex(abs, strlen(abs), hex);
    const char *slash = strrchr(abs, '/');
    return arena_printf(a, "%s-%.8s", slash ? slash + 1 : abs, hex);
}

/* ---- compressing a capture tree --------------------------------------------- */

static int compress_failures;

static int compress_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (type != FTW_F || strncmp(base, "alloc", 5) != 0 ||
        !((n > 3 && strcmp(base + n - 3, ".in") == 0) || (n > 4 && strcmp(base + n - 4, ".out") == 0)))
        return 0;
    /* large allocations stay raw: gzip of a gigabyte takes half a minute
     * and every read of it seconds; the judge links raw files instead */
    if ((size_t)st->st_size > HN_COMPRESS_MAX_BYTES)
        return 0;
    char *data;
    size_t len;
    if (file_read_all(path, 0, &data, &len) != 0) {
        compress_failures++;
        return 0;
    }
    char gzpath[4200];
    snprintf(gzpath, sizeof gzpath, "%s.gz", path);
    gzFile gz = gzopen(gzpath, "wb1");
    int ok = gz != NULL;
    size_t done = 0;
    while (ok && done < len) {
        unsigned chunk = len - done > (1u << 30) ? (1u << 30) : (unsigned)(len - done);
        int w = gzwrite(gz, data + done, chunk);
        ok = w > 0;
        done += ok ? (size_t)w : 0;
    }
    if (gz && gzclose(gz) != Z_OK)
        ok = 0;
    free(data);
    if (ok && (size_t)st->st_size == len)
        ok = unlink(path) == 0;
    else
        unlink(gzpath), ok = 0;
    if (!ok)
        compress_failures++;
    return 0;
}

int hn_captures_compress(const char *root, strbuf *err)
{
    compress_failures = 0;
    if (nftw(root, compress_one, 32, FTW_PHYS) != 0) {
        sb_printf(err, "%s: %s", root, strerror(errno));
        return -1;
    }
    if (compress_failures) {
        sb_printf(err, "%s: %d capture files could not be compressed (left as they were)", root,
                  compress_failures);
        return -1;
    }
    return 0;
}

#define CAPTURE_PHASES_FILE "capture-seconds"
static const char *const capture_phase_names[HN_CAPTURE_PHASES] = {"build", "run", "compress"};

int hn_capture_phases_write(const char *root, const double seconds[HN_CAPTURE_PHASES])
{
    char path[4200], text[256];
    size_t n = 0;
    for (int p = 0; p < HN_CAPTURE_PHASES; p++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s %.3f\n", capture_phase_names[p],
                              seconds[p]);
    snprintf(path, sizeof path, "%s/" CAPTURE_PHASES_FILE, root);
    return file_write_atomic(path, text, n);
}

int hn_capture_phases_read(const char *root, double seconds[HN_CAPTURE_PHASES])
{
    char path[4200];
    snprintf(path, sizeof path, "%s/" CAPTURE_PHASES_FILE, root);
    char *text;
    if (file_read_all(path, 4096, &text, NULL) != 0)
        return -1;
    int found = 0;
    for (const char *line = text; *line;) {
        char name[32];
        double v;
        if (sscanf(line, "%31s %lf", name, &v) == 2)
            for (int p = 0; p < HN_CAPTURE_PHASES; p++)
                if (strcmp(name, capture_phase_names[p]) == 0) {
                    seconds[p] = v;
                    found |= 1 << p;
                }
        const char *nl = strchr(line, '\n');
        line = nl ? nl + 1 : line + strlen(line);
    }
    free(text);
    return found == (1 << HN_CAPTURE_PHASES) - 1 ? 0 : -1;
}
