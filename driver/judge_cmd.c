/*
 * judge_cmd.c: `cl1cc judge FILE KERNEL --captures DIR --variant V.cu...
 * [-- NVCC-FLAGS]`: verifies and times variants of one kernel on captured
 * launches (harness/judge.c), prints a table, and with --record stores every
 * evaluation, and each verified variant with its speedup, in the tuning
 * database.  Without a GPU it builds everything and says what it skipped.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core.h"
#include "driver.h"
#include "param_dtypes.h"
#include "frontend.h"
#include "harness.h"
#include "kernel_key.h"
#include "launch_rule.h"
#include "tempfiles.h"
#include "tunedb.h"
#include "wrapper.h"

/* capture folders in their order: "2" before "10", names by strcmp */
static int capture_order(const void *x, const void *y)
{
    const char *a = *(const char *const *)x, *b = *(const char *const *)y;
    char *ea, *eb;
    unsigned long na = strtoul(a, &ea, 10), nb = strtoul(b, &eb, 10);
    if (ea != a && eb != b && !*ea && !*eb && na != nb)
        return na < nb ? -1 : 1;
    return strcmp(a, b);
}

/* the folders under dir that hold a capture (dir itself if it does), in
 * capture order: the first one is the one the judge times */
static void find_captures(const char *dir, arena *a, cstr_vec *out)
{
    char meta[4200];
    snprintf(meta, sizeof meta, "%s/meta", dir);
    if (access(meta, R_OK) == 0) {
        vec_push(out, arena_strdup(a, dir));
        return;
    }
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    cstr_vec names = {0};
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            vec_push(&names, arena_strdup(a, e->d_name));
    closedir(d);
    if (names.len)
        qsort(names.items, names.len, sizeof *names.items, capture_order);
    for (size_t i = 0; i < names.len; i++) {
        const char *sub = arena_printf(a, "%s/%s", dir, names.items[i]);
        snprintf(meta, sizeof meta, "%s/meta", sub);
        if (access(meta, R_OK) == 0)
            vec_push(out, sub);
    }
    vec_free(&names);
}

/* the driver is built for the GPU present: the user's own arch options go */
static int is_arch_option(const char *a, int *takes_value)
{
    static const char *names[] = {"-arch", "--gpu-architecture", "-gencode", "--generate-code",
                                  "-code", "--gpu-code", NULL};
    for (int i = 0; names[i]; i++) {
        size_t n = strlen(names[i]);
        if (strncmp(a, names[i], n) == 0 && (a[n] == '\0' || a[n] == '=')) {
            *takes_value = a[n] == '\0';
            return 1;
        }
    }
    return 0;
}

/* the variant's database hash: its source and its launch-rule edits */
static void variant_hash(const char *source, char hash[65])
{
    char edits[LAUNCH_RULE_EDITS_MAX];
    tunedb_variant_hash(source, launch_rule_edits(source, edits), hash);
}

static int record(const hn_judge_request *rq, const hn_judge_result *r, const tu_model *m,
                  const kernel *k, const nvcc_cmdline *cl, strbuf *err)
{
    arena a;
    arena_init(&a);
    const char *path = tunedb_default_path(&a);
    tunedb *db;
    if (tunedb_open(path, TUNEDB_READWRITE, &db, err) != 0) {
        arena_free(&a);
        return -1;
    }
    char key[65];
    kernel_key(m, k, r->arch, (const char *const *)cl->codegen_flags.items, cl->codegen_flags.len,
               key);
    const char *original = fe_range_text(m, &k->decl_range, &a);
    int rc = tunedb_record_kernel(db, key, k->qualified_name, m->main_file, original, NULL, err);
    for (size_t i = 0; rc == 0 && i < r->n_variants; i++) {
        const hn_variant_verdict *v = &r->variants[i];
        char edits[LAUNCH_RULE_EDITS_MAX];
        int passed = v->verdict == VERDICT_PASS;
        rc = tunedb_record_evaluation(db, key, v->hash, verdict_name(v->verdict),
                                      passed ? v->timing.median_ms : NAN, v->detail, err);
        if (rc == 0 && passed) {
            tunedb_variant tv;
            memset(&tv, 0, sizeof tv);
            tv.kernel_key = key;
            tv.kernel_name = k->qualified_name;
            tv.arch = r->arch;
            tv.source = rq->variant_sources[i];
            tv.launch_edits = launch_rule_edits(rq->variant_sources[i], edits);
            tv.policy = "judge";
            tv.transforms = v->label;
            tv.verified = 1;
            tv.baseline_ms = r->original.median_ms;
            tv.variant_ms = v->timing.median_ms;
            tv.spread_ms = v->timing.p75_ms - v->timing.p25_ms;
            /* a difference inside the spread is no speedup */
            tv.speedup = v->significant > 0 ? v->speedup : (v->speedup > 1 ? 1.0 : v->speedup);
            tv.gpu_name = r->gpu_name;
            tv.instances = r->instances[0] ? r->instances : NULL; /* a template's */
            rc = tunedb_record_variant(db, &tv, NULL, err);
        }
    }
    tunedb_close(db);
    arena_free(&a);
    return rc;
}

/* ---- the command line ------------------------------------------------------ */

typedef struct judge_cli {
    hn_judge_request rq;
    const char *captures_dir, *work, *json_path;
    int record;
    int nvcc_from; /* argv index after "--" (argc when none) */
    cstr_vec variants, labels, positional;
} judge_cli;

/* 0, or 2 after the usage */
static int parse_args(int argc, char **argv, judge_cli *c)
{
    hn_judge_settings_init(&c->rq.settings);
    c->nvcc_from = argc;
    strbuf err;
    sb_init(&err);
    int rc = 0;
    for (int i = 0; i < argc && rc == 0; i++) {
        const char *arg = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        int used;
        if (strcmp(arg, "--") == 0) {
            c->nvcc_from = i + 1;
            break;
        } else if (strcmp(arg, "--captures") == 0 && next) {
            c->captures_dir = argv[++i];
        } else if (strcmp(arg, "--variant") == 0 && next) {
            vec_push(&c->variants, argv[++i]);
            vec_push(&c->labels, argv[i]);
        } else if (strcmp(arg, "--label") == 0 && next && c->variants.len) {
            c->labels.items[c->labels.len - 1] = argv[++i];
        } else if (strcmp(arg, "--json") == 0 && next) {
            c->json_path = argv[++i];
        } else if (strcmp(arg, "--record") == 0) {
            c->record = 1;
        } else if (strcmp(arg, "--work") == 0 && next) {
            c->work = argv[++i];
        } else if (strcmp(arg, "--peaks-dir") == 0 && next) {
            c->rq.peaks_dir = argv[++i];
        } else if ((used = hn_judge_settings_option(&c->rq.settings, arg, next, &err)) != 0) {
            if (used < 0) {
                log_error("judge: %s", sb_str(&err));
                rc = 2;
            }
            i += used - 1;
        } else if (arg[0] == '-') {
            log_error("judge: unknown option '%s'", arg);
            rc = 2;
        } else {
            vec_push(&c->positional, arg);
        }
    }
    sb_free(&err);
    if (rc == 0 && (c->positional.len != 2 || !c->captures_dir || !c->variants.len))
        rc = 2;
    if (rc != 0) {
        driver_usage("judge", stderr);
        return 2;
    }
    c->rq.file = c->positional.items[0];
    c->rq.kernel = c->positional.items[1];
    return 0;
}

/* the nvcc flags after "--" without the arch options, for the driver */
static void build_flags(int argc, char **argv, int from, cstr_vec *out)
{
    for (int i = from; i < argc; i++) {
        int takes_value = 0;
        if (is_arch_option(argv[i], &takes_value)) {
            i += takes_value;
            continue;
        }
        vec_push(out, argv[i]);
    }
}

/* the variants' texts (replacing their paths in c->variants); 0 or -1 */
static int read_variants(judge_cli *c, arena *a)
{
    for (size_t i = 0; i < c->variants.len; i++) {
        char *text;
        if (file_read_all(c->variants.items[i], 1 << 20, &text, NULL) != 0) {
            log_error("judge: %s: %s", c->variants.items[i], strerror(errno));
            return -1;
        }
        c->variants.items[i] = arena_strdup(a, text);
        free(text);
    }
    c->rq.variant_sources = c->variants.items;
    c->rq.variant_labels = c->labels.items;
    c->rq.n_variants = c->variants.len;
    return 0;
}

/* the kernel in the TU (its parameter types decide how outputs are
 * compared); NULL after saying why */
static const kernel *find_kernel(hn_judge_request *rq, tu_model *m)
{
    fe_options fo;
    memset(&fo, 0, sizeof fo);
    fo.flags = rq->clang_flags;
    fo.n_flags = rq->n_clang_flags;
    strbuf diags;
    sb_init(&diags);
    int parsed = fe_parse(rq->file, &fo, m, &diags) == FE_OK;
    if (!parsed)
        fputs(sb_str(&diags), stderr);
    sb_free(&diags);
    if (!parsed)
        return NULL;
    const kernel *k = NULL;
    for (size_t i = 0; i < m->kernels.len; i++)
        if (strcmp(m->kernels.items[i].qualified_name, rq->kernel) == 0 ||
            strcmp(m->kernels.items[i].name, rq->kernel) == 0)
            k = &m->kernels.items[i];
    if (!k) {
        log_error("judge: %s has no kernel %s", rq->file, rq->kernel);
        return NULL;
    }
    /* a template kernel's `T *`: T as the captured instantiations name it */
    cstr_vec instances = {0};
    strbuf ignored = {0};
    arena names;
    arena_init(&names);
    if (k->is_template)
        hn_capture_instances(rq->captures, rq->n_captures, &names, &instances, &ignored);
    sb_free(&ignored);
    driver_param_dtypes(k, instances.items, instances.len, rq->param_dtypes, HN_MAX_ARGS);
    rq->n_param_dtypes = k->params.len;
    vec_free(&instances);
    arena_free(&names);
    return k;
}

/* --work, or a fresh temporary folder; 0 or -1 */
static int work_dir(const judge_cli *c, hn_judge_request *rq, arena *a)
{
    strbuf workdir;
    sb_init(&workdir);
    if (c->work) {
        sb_puts(&workdir, c->work);
    } else if (tempfiles_make_dir("cl1cc-judge", &workdir) != 0) {
        log_error("judge: cannot make a work folder: %s", strerror(errno));
        sb_free(&workdir);
        return -1;
    }
    tempfiles_install_handlers();
    rq->work_dir = arena_strdup(a, sb_str(&workdir));
    sb_free(&workdir);
    return 0;
}

static void print_variant(const hn_variant_verdict *v)
{
    const char *verdict = verdict_name(v->verdict);
    char first_line[200];
    snprintf(first_line, sizeof first_line, "%.199s", v->detail);
    char *nl = strchr(first_line, '\n');
    if (nl)
        *nl = '\0';
    if (v->verdict == VERDICT_PASS)
        printf("%-40s %-12s %10.4f %7.2fx  %s%s%s\n", v->label, verdict, v->timing.median_ms,
               v->speedup, v->significant > 0 ? "faster beyond the spread"
                           : v->significant < 0 ? "slower beyond the spread"
                                                : "inside the spread: no speedup",
               v->detail[0] ? "; " : "", v->detail);
    else
        printf("%-40s %-12s %10s %8s  %s\n", v->label, verdict, "-", "-", first_line);
}

static void print_result(const hn_judge_result *r)
{
    printf("kernel %s on %s (%s): %zu captured launch(es), build %.1f s, checks %.1f s, "
           "timing %.1f s, total %.1f s\n",
           r->kernel, r->ran_on_gpu ? r->gpu_name : "no GPU", r->arch, r->n_captures,
           r->build_seconds, r->check_seconds, r->timing_seconds, r->total_seconds);
    if (r->captures_repeated)
        printf("%zu captured launch(es) repeat an earlier one on the same inputs: not checked again\n",
               r->captures_repeated);
    if (r->instances[0])
        printf("instantiations judged (a variant must pass all): %s; timed: %s\n",
               r->instances, r->timed_instance);
    if (r->ran_on_gpu)
        printf("original: median %.4f ms (p25 %.4f, p75 %.4f, %zu runs)\n", r->original.median_ms,
               r->original.p25_ms, r->original.p75_ms, r->original.runs);
    printf("%-40s %-12s %10s %8s  %s\n", "variant", "verdict", "median_ms", "speedup", "detail");
    for (size_t i = 0; i < r->n_variants; i++)
        print_variant(&r->variants[i]);
    if (!r->ran_on_gpu)
        printf("no GPU on this machine: built the replay driver and every variant; "
               "verifying and timing them was skipped.\n");
}

/* judges, prints, writes the JSON and records; the exit code */
static int judge_and_report(judge_cli *c, const tu_model *m, const kernel *k,
                            const nvcc_cmdline *cl, strbuf *err)
{
    hn_judge_result *r = xcalloc(1, sizeof *r);
    if (hn_judge(&c->rq, r, err) != 0) {
        log_error("judge: %s", sb_str(err));
        free(r);
        return 1;
    }
    r->file = m->main_file;
    r->kernel = k->qualified_name;
    r->n_captures = c->rq.n_captures;
    for (size_t i = 0; i < r->n_variants; i++)
        variant_hash(c->rq.variant_sources[i], r->variants[i].hash);
    print_result(r);
    int rc = 0;
    if (c->json_path && hn_judge_json_write(r, c->json_path, err) != 0) {
        log_error("judge: %s", sb_str(err));
        rc = 1;
    }
    if (c->record && r->ran_on_gpu && record(&c->rq, r, m, k, cl, err) != 0) {
        log_error("judge: recording in the tuning database: %s", sb_str(err));
        rc = 1;
    }
    free(r);
    return rc;
}

int cmd_judge(int argc, char **argv)
{
    judge_cli c;
    memset(&c, 0, sizeof c);
    if (parse_args(argc, argv, &c) != 0) {
        vec_free(&c.variants);
        vec_free(&c.labels);
        vec_free(&c.positional);
        return 2;
    }
    hn_judge_request *rq = &c.rq;
    if (hn_judge_hide_keys(&rq->settings) != 0) {
        log_error("judge: cannot remove the API keys from the environment: %s", strerror(errno));
        vec_free(&c.variants);
        vec_free(&c.labels);
        vec_free(&c.positional);
        return 1;
    }
    arena a;
    arena_init(&a);
    nvcc_cmdline cl;
    strbuf err, nvcc;
    sb_init(&err);
    sb_init(&nvcc);
    tu_model m;
    model_init(&m);
    cstr_vec caps = {0}, flags = {0};
    int rc = 2;
    if (nvcc_cmdline_parse(argc - c.nvcc_from, argv + c.nvcc_from, &cl, &err) != 0) {
        log_error("judge: %s", sb_str(&err));
        goto out_no_cl;
    }
    rq->clang_flags = (const char *const *)cl.frontend_flags.items;
    rq->n_clang_flags = cl.frontend_flags.len;
    build_flags(argc, argv, c.nvcc_from, &flags);
    rq->nvcc_flags = flags.items;
    rq->n_nvcc_flags = flags.len;
    rc = 1;
    if (driver_find_nvcc(&nvcc, &err) != 0) {
        log_error("judge: %s", sb_str(&err));
        goto out;
    }
    rq->nvcc = sb_str(&nvcc);
    rq->share_dir = arena_printf(&a, "%s/../share/cl1cc", self_exe_dir());
    find_captures(c.captures_dir, &a, &caps);
    if (!caps.len) {
        log_error("judge: no captured launches under %s", c.captures_dir);
        goto out;
    }
    rq->captures = caps.items;
    rq->n_captures = caps.len;
    const kernel *k;
    if (read_variants(&c, &a) != 0 || !(k = find_kernel(rq, &m)) || work_dir(&c, rq, &a) != 0)
        goto out;
    rc = judge_and_report(&c, &m, k, &cl, &err);
out:
    nvcc_cmdline_free(&cl);
out_no_cl:
    model_free(&m);
    vec_free(&caps);
    vec_free(&c.variants);
    vec_free(&c.labels);
    vec_free(&c.positional);
    vec_free(&flags);
    sb_free(&nvcc);
    sb_free(&err);
    arena_free(&a);
    return rc;
}
