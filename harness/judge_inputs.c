/*
 * judge_inputs.c: the judge's input sets and outputs: captures copied raw
 * into the work folder, inputs perturbed, poisoned or made absolute, and
 * every allocation a run wrote compared with the reference's.
 */
#include "judge_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static hn_dtype alloc_dtype(const hn_judge_request *rq, const hn_capture *c, int alloc)
{
    for (int i = 0; i < c->nargs && i < (int)rq->n_param_dtypes; i++)
        if (c->arg_alloc[i] == alloc)
            return rq->param_dtypes[i];
    return HN_BYTES;
}

static hn_tolerance alloc_tolerance(const hn_judge_request *rq, hn_dtype t)
{
    hn_tolerance tol = hn_default_tolerance(t);
    if (rq->settings.rtol > 0 && (t == HN_F32 || t == HN_F64 || t == HN_F16 || t == HN_BF16))
        tol.rtol = rq->settings.rtol;
    return tol;
}

/* allocation a of want_dir (want_suffix), got_dir and scale_dir (when
 * not NULL) into heap buffers; 0, or -1 with err and nothing to free */
static int read_three(const hn_capture *c, int a, const char *want_dir, const char *want_suffix,
                      const char *got_dir, const char *scale_dir, unsigned char **want,
                      unsigned char **got, unsigned char **scale, strbuf *err)
{
    *want = *got = *scale = NULL;
    if (hn_alloc_read(want_dir, a, want_suffix, c->alloc_size[a], want, err) != 0)
        return -1;
    if (hn_alloc_read(got_dir, a, "out", c->alloc_size[a], got, err) != 0 ||
        (scale_dir && hn_alloc_read(scale_dir, a, "out", c->alloc_size[a], scale, err) != 0)) {
        free(*want);
        free(*got);
        return -1;
    }
    return 0;
}

int judge_compare_dirs(const hn_judge_request *rq, const hn_capture *c, const char *want_dir,
                       const char *want_suffix, const char *got_dir, const char *scale_dir,
                       char *detail, size_t detail_len, strbuf *err)
{
    for (int a = 0; a < c->nallocs; a++) {
        if (hn_alloc_same_file(want_dir, want_suffix, got_dir, "out", a))
            continue; /* both left it as the same inputs were */
        unsigned char *want, *got, *scale;
        if (read_three(c, a, want_dir, want_suffix, got_dir, scale_dir, &want, &got, &scale,
                       err) != 0)
            return -1;
        hn_dtype t = alloc_dtype(rq, c, a);
        hn_compare_result res;
        hn_compare_scaled(t, alloc_tolerance(rq, t), want, c->alloc_size[a], got,
                          c->alloc_size[a], scale, scale ? c->alloc_size[a] : 0, &res);
        free(want);
        free(got);
        free(scale);
        if (res.mismatches) {
            snprintf(detail, detail_len,
                     "allocation %d (%s): %zu of %zu elements differ, first at %zu, max abs error %g",
                     a, hn_dtype_name(t), res.mismatches, res.elements, res.first_mismatch,
                     res.max_abs_error);
            return 1;
        }
    }
    return 0;
}

/* 1 when edit how changes allocation al */
static int edit_changes(const hn_judge_request *rq, const hn_capture *c, int al, input_edit how,
                        const int *pure)
{
    hn_dtype t = alloc_dtype(rq, c, al);
    return how == INPUTS_POISON    ? pure[al]
           : how == INPUTS_PERTURB  ? hn_perturb_changes(t)
           : how == INPUTS_ABSOLUTE ? hn_absolute_changes(t)
                                    : 0;
}

int judge_edit_changes_any(const hn_judge_request *rq, const hn_capture *c, input_edit how,
                           const int *pure)
{
    for (int al = 0; al < c->nallocs; al++)
        if (edit_changes(rq, c, al, how, pure))
            return 1;
    return 0;
}

int judge_edit_inputs(const hn_judge_request *rq, const hn_capture *c, const char *from,
                      const char *to, input_edit how, uint64_t arg, const int *pure, strbuf *err)
{
    for (int al = 0; al < c->nallocs; al++) {
        hn_dtype t = alloc_dtype(rq, c, al);
        /* an allocation the edit leaves as it is (integers perturbed, say:
         * a gigabyte map of counters) is not read and written again */
        int edits = edit_changes(rq, c, al, how, pure);
        int poisoned = how == INPUTS_POISON && edits;
        if (strcmp(from, to) == 0 && !edits)
            continue;
        if (!edits && hn_alloc_link(from, "in", to, "in", al) == 0)
            continue;
        unsigned char *data;
        if (hn_alloc_read(from, al, "in", c->alloc_size[al], &data, err) != 0)
            return -1;
        if (how == INPUTS_PERTURB)
            hn_perturb(t, data, c->alloc_size[al], arg);
        else if (poisoned)
            hn_poison(data, c->alloc_size[al], (int)arg);
        else if (how == INPUTS_ABSOLUTE)
            hn_absolute(t, data, c->alloc_size[al]);
        int rc = hn_alloc_write(to, al, "in", data, c->alloc_size[al], err);
        free(data);
        if (rc)
            return -1;
    }
    return 0;
}

const char *judge_make_dir(const hn_judge_request *rq, arena *a, const char *fmt, int x, int y)
{
    const char *d = arena_printf(a, "%s/", rq->work_dir);
    d = arena_printf(a, "%s%s", d, arena_printf(a, fmt, x, y));
    if (dir_create_all(d, 0755) != 0)
        return NULL;
    return d;
}

const char *judge_run_magnitudes(const hn_judge_request *rq, const char *exe,
                                 const hn_capture *c, const char *meta, const char *in_dir,
                                 int ci, int seed, arena *a)
{
    const char *abs_in = judge_make_dir(rq, a, "absin%d-%d", ci, seed);
    const char *mag = judge_make_dir(rq, a, "mag%d-%d", ci, seed);
    strbuf err = {0};
    int ok = abs_in && mag &&
             judge_edit_inputs(rq, c, in_dir, abs_in, INPUTS_ABSOLUTE, 0, NULL, &err) == 0;
    sb_free(&err);
    if (!ok)
        return NULL;
    run_outcome r = judge_run_driver(exe, 0, meta, abs_in, mag, 0, rq->settings.timeout_s);
    return r.ok ? mag : NULL;
}

/* a batch that decides nothing: each poison runs alone */
static int no_batch(void *ctx)
{
    (void)ctx;
    return 0;
}

int hn_pure_output(int changed, int (*reproduces)(void *ctx, int pattern), void *ctx)
{
    return hn_pure_output_batched(changed, reproduces, no_batch, ctx);
}

int hn_pure_output_batched(int changed, int (*reproduces)(void *ctx, int pattern),
                           int (*reproduces_rest)(void *ctx), void *ctx)
{
    /* one poison is not enough: fmaxf(x, NaN) and fminf(x, NaN) are x, so a
     * kernel doing dif[j] = fmaxf(x, dif[j]) gives the same outputs with dif
     * full of NaN; with 0x7b.. (+1.3e36) it does not */
    if (!changed || !reproduces(ctx, 0))
        return 0;
    if (HN_POISONS > 1 && reproduces_rest(ctx))
        return 1;
    for (int p = 1; p < HN_POISONS; p++)
        if (!reproduces(ctx, p))
            return 0;
    return 1;
}

/* the original on the captured inputs with the allocations of mask[]
 * poisoned (in pin), its outputs in pout; tag names the sets' folders */
typedef struct poisoned_run {
    const hn_judge_request *rq;
    const char *exe;
    const hn_capture *c;
    const char *meta, *ref_out, *pin, *pout;
    const int *mask;
    int tag;
    arena *a;
    strbuf *err;
} poisoned_run;

/* The poisons after the first, run in one process (a CUDA start for them
 * all, and an allocation no poison touches read once): 1 when all
 * finished and gave ref_out.  Anything else decides nothing: the runs one
 * by one do. */
static int rest_in_one_process(void *ctx)
{
    const poisoned_run *pr = ctx;
    enum { first = 1, n = HN_POISONS - first };
    const char *ins[n], *outs[n];
    int done[n];
    strbuf err = {0};
    int ok = 1;
    for (int s = 0; ok && s < n; s++) {
        ins[s] = judge_make_dir(pr->rq, pr->a, "pureset%d-%d/in", pr->tag, first + s);
        outs[s] = judge_make_dir(pr->rq, pr->a, "pureset%d-%d/out", pr->tag, first + s);
        ok = ins[s] && outs[s] &&
             judge_edit_inputs(pr->rq, pr->c, pr->c->dir, ins[s], INPUTS_COPY, 0, NULL, &err) == 0 &&
             judge_edit_inputs(pr->rq, pr->c, ins[s], ins[s], INPUTS_POISON, (uint64_t)(first + s), pr->mask,
                               &err) == 0;
    }
    if (ok)
        judge_run_sets(pr->rq, pr->exe, 0, pr->meta, ins, outs, n, done, pr->a);
    for (int s = 0; ok && s < n; s++) {
        char detail[256];
        ok = done[s] && judge_compare_dirs(pr->rq, pr->c, pr->ref_out, "out", outs[s], NULL, detail,
                                           sizeof detail, &err) == 0;
    }
    sb_free(&err);
    return ok;
}

/* hn_pure_output_batched's question: 1 when the poisoned run gives ref_out */
static int reproduces_poisoned(void *ctx, int pattern)
{
    poisoned_run *pr = ctx;
    /* in place: pin's other allocations stay links to the capture's */
    if (judge_edit_inputs(pr->rq, pr->c, pr->pin, pr->pin, INPUTS_POISON, (uint64_t)pattern,
                          pr->mask, pr->err) != 0)
        return 0;
    /* pout is reused: a run that is ok rewrote every output there */
    run_outcome r = judge_run_driver(pr->exe, 0, pr->meta, pr->pin, pr->pout, 0,
                                     pr->rq->settings.timeout_s);
    char detail[256];
    return r.ok && judge_compare_dirs(pr->rq, pr->c, pr->ref_out, "out", pr->pout, NULL, detail,
                                      sizeof detail, pr->err) == 0;
}

/* 1 when the original changed allocation al (its captured input and the
 * reference's output differ) */
static int output_changed(const hn_capture *c, const char *ref_out, int al, strbuf *err)
{
    unsigned char *in = NULL, *out = NULL;
    if (hn_alloc_same_file(c->dir, "in", ref_out, "out", al))
        return 0; /* the run left it as it was: an input, never pure */
    if (hn_alloc_read(c->dir, al, "in", c->alloc_size[al], &in, err) != 0)
        return 0;
    if (hn_alloc_read(ref_out, al, "out", c->alloc_size[al], &out, err) != 0) {
        free(in);
        return 0;
    }
    int changed = memcmp(in, out, c->alloc_size[al]) != 0;
    free(in);
    free(out);
    return changed;
}

/* hn_pure_output_batched for the allocations of mask[] poisoned together: 1 when
 * the original's outputs stay the reference's under every poison */
static int pure_together(const hn_judge_request *rq, const char *exe, const hn_capture *c,
                         const char *meta, const char *ref_out, const int *mask, int tag,
                         arena *a, strbuf *err)
{
    poisoned_run pr = {rq, exe, c, meta, ref_out, NULL, NULL, mask, tag, a, err};
    pr.pin = judge_make_dir(rq, a, "pure%d-%d/in", tag, 0);
    pr.pout = judge_make_dir(rq, a, "pure%d-%d/out", tag, 0);
    if (!pr.pin || !pr.pout ||
        judge_edit_inputs(rq, c, c->dir, pr.pin, INPUTS_COPY, 0, NULL, err) != 0)
        return 0; /* cannot check: not pure */
    return hn_pure_output_batched(1, reproduces_poisoned, rest_in_one_process, &pr);
}

/* The allocations the original changed are poisoned all at once first: at
 * real sizes each run costs seconds, and most kernels read none of their
 * outputs, so three runs settle them all.  Only when that fails is each
 * checked alone.  (A read hidden by another allocation's poison could only
 * make an allocation pure that is not: the variants then see a poison the
 * original would have read, and fail: stricter, never looser.) */
void judge_find_pure_outputs(const hn_judge_request *rq, const char *exe, const hn_capture *c,
                             const char *meta, const char *ref_out, int *pure, arena *a,
                             strbuf *err)
{
    int changed[HN_MAX_ARGS] = {0}, n_changed = 0;
    for (int al = 0; al < c->nallocs; al++) {
        pure[al] = 0;
        changed[al] = output_changed(c, ref_out, al, err);
        n_changed += changed[al];
    }
    if (!n_changed)
        return;
    if (pure_together(rq, exe, c, meta, ref_out, changed, c->nallocs, a, err)) {
        for (int al = 0; al < c->nallocs; al++)
            pure[al] = changed[al];
        return;
    }
    if (n_changed == 1)
        return; /* the one changed allocation was just checked alone */
    for (int al = 0; al < c->nallocs; al++) {
        if (!changed[al])
            continue;
        int alone[HN_MAX_ARGS] = {0};
        alone[al] = 1;
        pure[al] = pure_together(rq, exe, c, meta, ref_out, alone, al, a, err);
    }
}

/* capture/meta copied to dir/meta; 0, or -1 with err */
static int copy_meta(const char *capture, const char *dir, strbuf *err)
{
    char *meta;
    size_t len;
    char path[4200];
    snprintf(path, sizeof path, "%s/meta", capture);
    if (file_read_all(path, 0, &meta, &len) != 0) {
        sb_printf(err, "%s: %s", path, strerror(errno));
        return -1;
    }
    snprintf(path, sizeof path, "%s/meta", dir);
    int rc = file_write_atomic(path, meta, len);
    free(meta);
    if (rc != 0) {
        sb_printf(err, "%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* one allocation file of a capture in the work folder: a raw file linked
 * (a gigabyte is not copied; outputs linked to their inputs stay so), a
 * compressed one unpacked; 0, or -1 */
static int materialize_alloc(const char *capture, const char *dir, int al, const char *suffix,
                             size_t size, strbuf *err)
{
    if (strcmp(suffix, "out") == 0 && hn_alloc_same_file(capture, "in", capture, "out", al) &&
        hn_alloc_link(dir, "in", dir, "out", al) == 0)
        return 0;
    if (hn_alloc_link(capture, suffix, dir, suffix, al) == 0)
        return 0;
    unsigned char *data;
    if (hn_alloc_read(capture, al, suffix, size, &data, err) != 0)
        return -1;
    int rc = hn_alloc_write(dir, al, suffix, data, size, err);
    free(data);
    return rc;
}

const char *judge_materialize(const hn_judge_request *rq, const char *capture, int index,
                              arena *a, strbuf *err)
{
    hn_capture c;
    if (hn_capture_read(capture, &c, err) != 0)
        return NULL;
    const char *dir = judge_make_dir(rq, a, "cap%d", index, 0);
    if (!dir) {
        sb_printf(err, "%s: cannot make a folder for capture %d", rq->work_dir, index);
        return NULL;
    }
    if (copy_meta(capture, dir, err) != 0)
        return NULL;
    static const char *const suffixes[] = {"in", "out"};
    for (int al = 0; al < c.nallocs; al++)
        for (int s = 0; s < 2; s++)
            if (materialize_alloc(capture, dir, al, suffixes[s], c.alloc_size[al], err) != 0)
                return NULL;
    return dir;
}
