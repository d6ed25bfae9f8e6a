/*
 * roofline.c: how close a launch is to what the GPU allows: the bytes a
 * captured launch moves (from its allocations before and after), the
 * GPU's peaks (from the replay driver's measurement), the limit and a
 * time's percentage of it.  The flops come from roofline_flops.c.
 */
#include "harness.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int hn_fp32_lanes_per_sm(int major, int minor)
{
    /* CUDA C Programming Guide, "Arithmetic Instructions": 32-bit
     * floating-point add, multiply, multiply-add per clock per SM */
    if (major == 6)
        return minor == 0 ? 64 : 128;
    if (major == 7)
        return 64;
    if (major == 8)
        return minor == 0 ? 64 : 128;
    if (major == 9 || major == 10 || major == 12)
        return 128;
    return 0;
}

int hn_device_peaks_read(const char *path, hn_device_peaks *p, strbuf *err)
{
    memset(p, 0, sizeof *p);
    p->launch_ms = HN_LAUNCH_OVERHEAD_MS;
    FILE *f = fopen(path, "r");
    if (!f) {
        sb_printf(err, "%s: %s", path, strerror(errno));
        return -1;
    }
    char line[256];
    double copy = 0, sms = 0, clock_khz = 0;
    int major = 0, minor = 0;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "copy_bytes_per_s %lf", &copy) == 1 ||
            sscanf(line, "sms %lf", &sms) == 1 || sscanf(line, "clock_khz %lf", &clock_khz) == 1 ||
            sscanf(line, "cc %d %d", &major, &minor) == 2)
            continue;
    }
    fclose(f);
    int lanes = hn_fp32_lanes_per_sm(major, minor);
    if (!(copy > 0) || !(sms > 0) || !(clock_khz > 0) || lanes == 0) {
        sb_printf(err, "%s: no copy bandwidth, SM count, clock or known compute capability", path);
        return -1;
    }
    p->copy_bytes_per_s = copy;
    p->fp32_flops_per_s = 2.0 * lanes * sms * clock_khz * 1e3;
    return 0;
}

/* the dtype of allocation a: its first pointer parameter's */
static size_t element_size(const hn_capture *c, const hn_dtype *dtypes, size_t n, int a)
{
    for (int i = 0; i < c->nargs && i < (int)n; i++)
        if (c->arg_alloc[i] == a) {
            size_t s = hn_dtype_size(dtypes[i]);
            return s ? s : 1;
        }
    return 1;
}

static int referenced(const hn_capture *c, int a)
{
    for (int i = 0; i < c->nargs; i++)
        if (c->arg_alloc[i] == a)
            return 1;
    return 0;
}

int hn_roofline_bytes(const hn_capture *c, const hn_dtype *param_dtypes, size_t n_dtypes,
                      const int *pure, hn_roofline *r, strbuf *err)
{
    r->read_bytes = r->written_bytes = 0;
    for (int a = 0; a < c->nallocs; a++) {
        if (!referenced(c, a))
            continue;
        size_t size = c->alloc_size[a];
        if (!(pure && pure[a]))
            r->read_bytes += (double)size;
        unsigned char *in = NULL, *out = NULL;
        if (hn_alloc_read(c->dir, a, "in", size, &in, err) != 0 ||
            hn_alloc_read(c->dir, a, "out", size, &out, err) != 0) {
            free(in);
            r->read_bytes = r->written_bytes = NAN;
            return -1;
        }
        size_t es = element_size(c, param_dtypes, n_dtypes, a);
        size_t changed = 0;
        for (size_t i = 0; i < size; i += es) {
            size_t len = size - i < es ? size - i : es;
            changed += memcmp(in + i, out + i, len) != 0 ? len : 0;
        }
        r->written_bytes += (double)changed;
        free(in);
        free(out);
    }
    return 0;
}

void hn_roofline_limit(hn_roofline *r, const hn_device_peaks *p)
{
    double bytes = r->read_bytes + r->written_bytes;
    r->limit_ms = NAN;
    r->bound[0] = '\0';
    if (!(p->copy_bytes_per_s > 0) || !isfinite(bytes))
        return;
    double memory_ms = bytes / p->copy_bytes_per_s * 1e3;
    int flops_known = isfinite(r->flops) && p->fp32_flops_per_s > 0;
    double compute_ms = flops_known ? r->flops / p->fp32_flops_per_s * 1e3 : 0;
    r->limit_ms = (memory_ms > compute_ms ? memory_ms : compute_ms) + p->launch_ms;
    snprintf(r->bound, sizeof r->bound, "%s",
             !flops_known ? "memory, flops unknown" : compute_ms > memory_ms ? "compute" : "memory");
}

double hn_pct_of_limit(double limit_ms, double measured_ms)
{
    if (!isfinite(limit_ms) || !isfinite(measured_ms) || !(limit_ms > 0) || !(measured_ms > 0))
        return NAN;
    return 100.0 * limit_ms / measured_ms;
}
