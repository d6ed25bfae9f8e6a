/*
 * tune_targets.c: what `cl1cc tune` tunes: every wanted kernel defined in
 * each file, with its text, context and launches for the policies, and
 * what its captured launches tell the transforms.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "core.h"
#include "driver.h"
#include "frontend.h"
#include "harness.h"
#include "opt_out.h"
#include "tune.h"

static int has_meta_below(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char meta[PATH_MAX];
        snprintf(meta, sizeof meta, "%s/%s/meta", dir, e->d_name);
        found = access(meta, R_OK) == 0;
    }
    closedir(d);
    return found;
}

static unsigned gcd(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b, b = t;
    }
    return a;
}

/* what the captured launches tell the transforms; the captured launches'
 * count, the longest one's wall time and the first one's (in capture
 * order: the judge times it), and the largest one's bytes, into tk */
static void facts_from_captures(const char *dir, pol_facts *f, tune_target *tk)
{
    double *longest_ms = &tk->captured_ms;
    long first = -1;
    *longest_ms = 0;
    tk->timed_ms = 0;
    tk->captured_bytes = 0;
    f->block_threads = 0;
    f->pointers_distinct = 0;
    f->block[0] = f->block[1] = f->block[2] = 0;
    f->flat_grid = 0;
    for (int s = 0; s < 3; s++)
        f->grid_gcd[s] = f->grid_max[s] = 0;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    int seen = 0, distinct = 1, flat = 1;
    strbuf err;
    sb_init(&err);
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char sub[PATH_MAX];
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        hn_capture c;
        if (hn_capture_read(sub, &c, &err) != 0)
            continue;
        seen++;
        char *end;
        long seq = strtol(e->d_name, &end, 10);
        if (*end == '\0' && (first < 0 || seq < first)) {
            first = seq;
            tk->timed_ms = c.launch_ms;
        }
        if (c.launch_ms > *longest_ms)
            *longest_ms = c.launch_ms;
        size_t bytes = 0;
        for (int al = 0; al < c.nallocs; al++)
            bytes += c.alloc_size[al];
        if (bytes > tk->captured_bytes)
            tk->captured_bytes = bytes;
        flat &= c.grid[1] <= 1 && c.grid[2] <= 1;
        for (int s = 0; s < 3; s++) {
            unsigned g = c.grid[s] ? c.grid[s] : 1;
            f->grid_gcd[s] = gcd(f->grid_gcd[s], g);
            if (g > f->grid_max[s])
                f->grid_max[s] = g;
        }
        int shape[3] = {(int)c.block[0], c.block[1] ? (int)c.block[1] : 1, c.block[2] ? (int)c.block[2] : 1};
        int threads = shape[0] * shape[1] * shape[2];
        for (int s = 0; s < 3; s++)
            f->block[s] = seen == 1 ? shape[s] : f->block[s] == shape[s] ? shape[s] : -1;
        if (threads > f->block_threads)
            f->block_threads = threads;
        for (int i = 0; i < c.nargs; i++)
            for (int j = i + 1; j < c.nargs; j++)
                if (c.arg_alloc[i] >= 0 && c.arg_alloc[i] == c.arg_alloc[j])
                    distinct = 0;
    }
    closedir(d);
    sb_free(&err);
    tk->n_captured = seen;
    f->pointers_distinct = seen > 0 && distinct;
    f->flat_grid = seen > 0 && flat;
    for (int s = 0; s < 3; s++)
        if (f->block[s] < 0 || !seen)
            f->block[0] = f->block[1] = f->block[2] = 0;
}

/* the captures of one kernel: DIR/<tag of file>/k<index> */
static const char *kernel_capture_dir(const char *root, const tu_model *m, size_t index, arena *a)
{
    return arena_printf(a, "%s/%s/k%zu", root, hn_capture_tag(m->main_file, a), index);
}

static const char *context_text(const tu_model *m, const kernel *k, arena *a)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t d = 0; d < k->deps.len; d++) {
        const dependency *dep = &m->decls.items[k->deps.items[d]];
        const char *t = fe_range_text(m, &dep->range, a);
        if (t) {
            sb_puts(&sb, t);
            sb_puts(&sb, "\n");
        }
    }
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

static const char *launch_text(const tu_model *m, size_t index, arena *a)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < m->launches.len; i++) {
        const launch_site *l = &m->launches.items[i];
        if (l->kernel_index != (long)index)
            continue;
        const char *t = fe_range_text(m, &l->range, a);
        sb_printf(&sb, "%s in %s\n", t ? t : l->kernel_name, l->caller ? l->caller : "?");
    }
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

/* a kernel none of whose launches was captured: why, one line */
static void not_captured(tune_session *s, tune_target *tk)
{
    tk->done = 1;
    tk->row.status = "not_captured";
    tk->row.not_captured = tune_not_captured_reason(s, tk, &s->a);
    snprintf(tk->detail, sizeof tk->detail, "%s", tk->row.not_captured);
    printf("tune: %s %s: not captured: %s\n", hn_capture_tag(tk->row.file, &s->a), tk->row.kernel,
           tk->row.not_captured);
}

/* a kernel whose timed launch is too short for its timing to say much */
static void warn_launch_bound(tune_session *s, const tune_target *tk)
{
    if (tk->timed_ms > 0 && tk->timed_ms < TUNE_LAUNCH_BOUND_MS)
        printf("tune: %s %s: its captured launch took %.3f ms (under 10 us): launch-bound: "
               "timing will say little (a --run with larger sizes: docs/TUNING.md)\n",
               hn_capture_tag(tk->row.file, &s->a), tk->row.kernel, tk->timed_ms);
}

/* a kernel to tune, before any round */
static void target_init(tune_session *s, tune_target *tk, tu_model *m, size_t i)
{
    const char *captures = s->captures;
    const tune_options *o = &s->o;
    arena *a = &s->a;
    const kernel *k = &m->kernels.items[i];
    memset(tk, 0, sizeof *tk);
    tk->row.file = k->decl_range.file; /* the header, for a kernel of one */
    tk->row.kernel = k->qualified_name;
    tk->row.status = "no_gain";
    tk->row.best_label = "";
    tk->row.baseline_ms = tk->row.best_ms = tk->row.spread_ms = tk->row.speedup = NAN;
    tk->row.limit_ms = tk->row.bytes = tk->row.flops = NAN;
    tk->row.original_pct_of_limit = tk->row.best_pct_of_limit = NAN;
    tk->model = m;
    tk->index = i;
    tk->k = k;
    tk->captures = kernel_capture_dir(captures, m, i, a);
    tk->original = fe_range_text(m, &k->decl_range, a);
    tk->context = context_text(m, k, a);
    tk->launches = launch_text(m, i, a);
    tk->best_ms = NAN;
    tk->best_speedup = 1;
    facts_from_captures(tk->captures, &tk->facts, tk);
    tk->facts.fast_math = o->fast_math;
    pol_kernel_features(m, k, &tk->facts, tk->features);
    if (!has_meta_below(tk->captures))
        not_captured(s, tk);
    else
        warn_launch_bound(s, tk);
}

static int wanted_kernel(const tune_options *o, const kernel *k)
{
    int wanted = o->n_kernels == 0;
    for (size_t w = 0; w < o->n_kernels && !wanted; w++)
        wanted = strcmp(o->kernels[w], k->name) == 0 || strcmp(o->kernels[w], k->qualified_name) == 0;
    return wanted;
}

/* the kernels of one file to tune; 0, or -1 after the parser's messages */
static int load_targets(tune_session *s, const char *file)
{
    tu_model *m = xcalloc(1, sizeof *m);
    model_init(m);
    vec_push(&s->models, m);
    fe_options fo = driver_frontend_options(&s->cl);
    fo.with_bodies = 1;
    strbuf diags;
    sb_init(&diags);
    int parsed = fe_parse(file, &fo, m, &diags) == FE_OK;
    if (!parsed)
        fputs(sb_str(&diags), stderr);
    sb_free(&diags);
    if (!parsed)
        return -1;
    for (size_t i = 0; i < m->kernels.len; i++) {
        const kernel *k = &m->kernels.items[i];
        if (!tune_kernel_of_file(m, k, s->targets.items, s->targets.len) || !wanted_kernel(&s->o, k))
            continue;
        if (kernel_opted_out(m, k)) {
            printf("tune: %s: kernel %s is marked `cl1cc: off`: not tuned\n", file,
                   k->qualified_name);
            continue;
        }
        tune_target tk;
        target_init(s, &tk, m, i);
        vec_push(&s->targets, tk);
    }
    return 0;
}

/* 2. what to tune: every wanted kernel of every file; 0, or -1 */
int tune_find_targets(tune_session *s)
{
    for (size_t i = 0; i < s->o.n_files; i++) {
        char resolved[PATH_MAX];
        if (!realpath(s->o.files[i], resolved)) {
            log_error("tune: %s: %s", s->o.files[i], strerror(errno));
            return -1;
        }
        if (load_targets(s, arena_strdup(&s->a, resolved)) != 0)
            return -1;
    }
    return 0;
}
