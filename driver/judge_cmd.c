/*
 * judge_cmd.c: `cl1cc judge FILE KERNEL --captures DIR --variant V.cu...
 * [-- NVCC-FLAGS]`: verifies and times variants of one kernel on captured
 * launches (harness/judge.c), prints a table, and with --record stores every
 * evaluation, and each verified variant with its speedup, in the tuning
 * database.  Without a GPU it builds everything and says what it skipped.
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core.h"
#include "driver.h"
#include "frontend.h"
#include "harness.h"
#include "kernel_key.h"
#include "launch_rule.h"
#include "tempfiles.h"
#include "tunedb.h"
#include "wrapper.h"

static void usage(void)
{
    fprintf(stderr,
            "usage: cl1cc judge FILE.cu KERNEL --captures DIR --variant V.cu [--variant ...]\n"
            "                   [--record] [--sanitize] [--isolate] [--seeds N] [--rounds N] [--runs N]\n"
            "                   [--timeout S]\n"
            "                   [--work DIR] [--label L] [--json FILE] [-- NVCC-FLAGS]\n"
            "  --label L   names the --variant before it in the table and the database\n"
            "  --isolate   a process for every run (default: every variant alone on the\n"
            "              first input set, then the survivors together, one process\n"
            "              per input set and one for all the timing)\n"
            "  --json FILE writes the verdicts and timings as JSON (docs/HARNESS.md)\n"
            "  DIR holds captured launches of KERNEL (folders with a meta file), as\n"
            "  `cl1cc capture` writes them; NVCC-FLAGS are the TU's compile flags.\n");
}

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

static hn_dtype pointee_dtype(const kernel_param *p)
{
    if (!p->is_pointer)
        return HN_BYTES;
    /* "const float *__restrict" -> "float" */
    char base[256];
    snprintf(base, sizeof base, "%s", p->canonical_type);
    char *star = strrchr(base, '*');
    if (star)
        *star = '\0';
    char *s = base;
    if (strncmp(s, "const ", 6) == 0)
        s += 6;
    if (strncmp(s, "volatile ", 9) == 0)
        s += 9;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '*'))
        s[--n] = '\0';
    char *c = strstr(s, " const");
    if (c)
        *c = '\0';
    hn_dtype t;
    return hn_dtype_parse(s, &t) == 0 ? t : HN_BYTES;
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

static int record(const hn_judge_options *o, const hn_judge_result *r, const tu_model *m,
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
        char hash[65], edits[LAUNCH_RULE_EDITS_MAX];
        const char *launch_edits = launch_rule_edits(o->variant_sources[i], edits);
        tunedb_variant_hash(o->variant_sources[i], launch_edits, hash);
        int passed = strcmp(v->verdict, "pass") == 0;
        rc = tunedb_record_evaluation(db, key, hash, v->verdict,
                                      passed ? v->timing.median_ms : NAN, v->detail, err);
        if (rc == 0 && passed) {
            tunedb_variant tv;
            memset(&tv, 0, sizeof tv);
            tv.kernel_key = key;
            tv.kernel_name = k->qualified_name;
            tv.arch = r->arch;
            tv.source = o->variant_sources[i];
            tv.launch_edits = launch_edits;
            tv.policy = "judge";
            tv.transforms = v->label;
            tv.verified = 1;
            tv.baseline_ms = r->original.median_ms;
            tv.variant_ms = v->timing.median_ms;
            tv.spread_ms = v->timing.p75_ms - v->timing.p25_ms;
            /* a difference inside the spread is no speedup */
            tv.speedup = v->significant > 0 ? v->speedup : (v->speedup > 1 ? 1.0 : v->speedup);
            tv.gpu_name = r->gpu_name;
            rc = tunedb_record_variant(db, &tv, NULL, err);
        }
    }
    tunedb_close(db);
    arena_free(&a);
    return rc;
}

static cJSON *timing_json(const hn_timing *t)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "runs", (double)t->runs);
    cJSON_AddNumberToObject(o, "median_ms", t->median_ms);
    cJSON_AddNumberToObject(o, "p25_ms", t->p25_ms);
    cJSON_AddNumberToObject(o, "p75_ms", t->p75_ms);
    cJSON_AddNumberToObject(o, "min_ms", t->min_ms);
    cJSON_AddNumberToObject(o, "max_ms", t->max_ms);
    return o;
}

/* the whole judgement as JSON, for the tune loop and other tools */
static int write_json(const char *path, const hn_judge_options *o, const hn_judge_result *r,
                      const tu_model *m, const kernel *k, size_t n_captures, strbuf *err)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "file", m->main_file);
    cJSON_AddStringToObject(root, "kernel", k->qualified_name);
    cJSON_AddStringToObject(root, "arch", r->arch);
    cJSON_AddStringToObject(root, "gpu_name", r->gpu_name);
    cJSON_AddBoolToObject(root, "ran_on_gpu", r->ran_on_gpu);
    cJSON_AddNumberToObject(root, "captures", (double)n_captures);
    cJSON_AddNumberToObject(root, "build_seconds", r->build_seconds);
    cJSON_AddNumberToObject(root, "check_seconds", r->check_seconds);
    cJSON_AddNumberToObject(root, "timing_seconds", r->timing_seconds);
    cJSON_AddNumberToObject(root, "total_seconds", r->total_seconds);
    cJSON_AddItemToObject(root, "original", timing_json(&r->original));
    cJSON *vs = cJSON_AddArrayToObject(root, "variants");
    for (size_t i = 0; i < r->n_variants; i++) {
        const hn_variant_verdict *v = &r->variants[i];
        char hash[65], edits[LAUNCH_RULE_EDITS_MAX];
        const char *launch_edits = launch_rule_edits(o->variant_sources[i], edits);
        tunedb_variant_hash(o->variant_sources[i], launch_edits, hash);
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "label", v->label ? v->label : "");
        cJSON_AddStringToObject(e, "hash", hash);
        cJSON_AddStringToObject(e, "verdict", v->verdict);
        cJSON_AddStringToObject(e, "detail", v->detail);
        cJSON_AddItemToObject(e, "timing", timing_json(&v->timing));
        cJSON_AddNumberToObject(e, "speedup", isfinite(v->speedup) ? v->speedup : 0);
        cJSON_AddNumberToObject(e, "significant", v->significant);
        cJSON_AddItemToArray(vs, e);
    }
    return json_write_file(root, path, 1, err);
}

int cmd_judge(int argc, char **argv)
{
    hn_judge_options o;
    memset(&o, 0, sizeof o);
    o.seeds = 2;
    o.rounds = 3;
    o.timed_runs = 20;
    o.timeout_s = 30;
    const char *captures_dir = NULL, *work = NULL, *json_path = NULL;
    int do_record = 0, nvcc_from = argc;
    arena a;
    arena_init(&a);
    cstr_vec variants = {0}, labels = {0}, positional = {0};
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        int more = i + 1 < argc;
        if (strcmp(arg, "--") == 0) {
            nvcc_from = i + 1;
            break;
        } else if (strcmp(arg, "--captures") == 0 && more) {
            captures_dir = argv[++i];
        } else if (strcmp(arg, "--variant") == 0 && more) {
            vec_push(&variants, argv[++i]);
            vec_push(&labels, argv[i]);
        } else if (strcmp(arg, "--label") == 0 && more && variants.len) {
            labels.items[labels.len - 1] = argv[++i];
        } else if (strcmp(arg, "--json") == 0 && more) {
            json_path = argv[++i];
        } else if (strcmp(arg, "--sanitize") == 0) {
            o.sanitize = 1;
        } else if (strcmp(arg, "--isolate") == 0) {
            o.isolate_every_run = 1;
        } else if (strcmp(arg, "--record") == 0) {
            do_record = 1;
        } else if (strcmp(arg, "--seeds") == 0 && more) {
            o.seeds = atoi(argv[++i]);
        } else if (strcmp(arg, "--rounds") == 0 && more) {
            o.rounds = atoi(argv[++i]);
        } else if (strcmp(arg, "--runs") == 0 && more) {
            o.timed_runs = atoi(argv[++i]);
        } else if (strcmp(arg, "--timeout") == 0 && more) {
            o.timeout_s = atof(argv[++i]);
        } else if (strcmp(arg, "--work") == 0 && more) {
            work = argv[++i];
        } else if (arg[0] == '-') {
            log_error("judge: unknown option '%s'", arg);
            usage();
            return 2;
        } else {
            vec_push(&positional, arg);
        }
    }
    if (positional.len != 2 || !captures_dir || !variants.len) {
        usage();
        vec_free(&variants);
        vec_free(&positional);
        return 2;
    }
    o.file = positional.items[0];
    o.kernel = positional.items[1];

    nvcc_cmdline cl;
    strbuf err;
    sb_init(&err);
    if (nvcc_cmdline_parse(argc - nvcc_from, argv + nvcc_from, &cl, &err) != 0) {
        log_error("judge: %s", sb_str(&err));
        return 2;
    }
    o.clang_flags = (const char *const *)cl.frontend_flags.items;
    o.n_clang_flags = cl.frontend_flags.len;
    cstr_vec build_flags = {0};
    for (int i = nvcc_from; i < argc; i++) {
        int takes_value = 0;
        if (is_arch_option(argv[i], &takes_value)) {
            i += takes_value;
            continue;
        }
        vec_push(&build_flags, argv[i]);
    }
    o.nvcc_flags = build_flags.items;
    o.n_nvcc_flags = build_flags.len;

    int rc = 1;
    strbuf nvcc;
    sb_init(&nvcc);
    tu_model m;
    model_init(&m);
    cstr_vec caps = {0};
    if (driver_find_nvcc(&nvcc, &err) != 0) {
        log_error("judge: %s", sb_str(&err));
        goto out;
    }
    o.nvcc = sb_str(&nvcc);
    o.share_dir = arena_printf(&a, "%s/../share/cl1cc", self_exe_dir());
    find_captures(captures_dir, &a, &caps);
    if (!caps.len) {
        log_error("judge: no captured launches under %s", captures_dir);
        goto out;
    }
    o.captures = caps.items;
    o.n_captures = caps.len;
    for (size_t i = 0; i < variants.len; i++) {
        char *text;
        if (file_read_all(variants.items[i], 1 << 20, &text, NULL) != 0) {
            log_error("judge: %s: %s", variants.items[i], strerror(errno));
            goto out;
        }
        variants.items[i] = arena_strdup(&a, text);
        free(text);
    }
    o.variant_sources = variants.items;
    o.variant_labels = labels.items;
    o.n_variants = variants.len;

    /* the kernel's parameter types decide how outputs are compared */
    fe_options fo;
    memset(&fo, 0, sizeof fo);
    fo.flags = o.clang_flags;
    fo.n_flags = o.n_clang_flags;
    strbuf diags;
    sb_init(&diags);
    if (fe_parse(o.file, &fo, &m, &diags) != FE_OK) {
        fputs(sb_str(&diags), stderr);
        sb_free(&diags);
        goto out;
    }
    sb_free(&diags);
    const kernel *k = NULL;
    for (size_t i = 0; i < m.kernels.len; i++)
        if (strcmp(m.kernels.items[i].qualified_name, o.kernel) == 0 ||
            strcmp(m.kernels.items[i].name, o.kernel) == 0)
            k = &m.kernels.items[i];
    if (!k) {
        log_error("judge: %s has no kernel %s", o.file, o.kernel);
        goto out;
    }
    for (size_t i = 0; i < k->params.len && i < HN_MAX_ARGS; i++)
        o.param_dtypes[i] = pointee_dtype(&k->params.items[i]);
    o.n_param_dtypes = k->params.len;

    strbuf workdir;
    sb_init(&workdir);
    if (work) {
        sb_puts(&workdir, work);
    } else if (tempfiles_make_dir("cl1cc-judge", &workdir) != 0) {
        log_error("judge: cannot make a work folder: %s", strerror(errno));
        goto out;
    }
    tempfiles_install_handlers();
    o.work_dir = arena_strdup(&a, sb_str(&workdir));
    sb_free(&workdir);

    hn_judge_result *r = xcalloc(1, sizeof *r);
    if (hn_judge(&o, r, &err) != 0) {
        log_error("judge: %s", sb_str(&err));
        free(r);
        goto out;
    }
    printf("kernel %s on %s (%s): %zu captured launch(es), build %.1f s, checks %.1f s, "
           "timing %.1f s, total %.1f s\n",
           k->qualified_name, r->ran_on_gpu ? r->gpu_name : "no GPU", r->arch, caps.len,
           r->build_seconds, r->check_seconds, r->timing_seconds, r->total_seconds);
    if (r->ran_on_gpu)
        printf("original: median %.4f ms (p25 %.4f, p75 %.4f, %zu runs)\n", r->original.median_ms,
               r->original.p25_ms, r->original.p75_ms, r->original.runs);
    printf("%-40s %-12s %10s %8s  %s\n", "variant", "verdict", "median_ms", "speedup", "detail");
    for (size_t i = 0; i < r->n_variants; i++) {
        const hn_variant_verdict *v = &r->variants[i];
        int pass = strcmp(v->verdict, "pass") == 0;
        char first_line[200];
        snprintf(first_line, sizeof first_line, "%.199s", v->detail);
        char *nl = strchr(first_line, '\n');
        if (nl)
            *nl = '\0';
        if (pass)
            printf("%-40s %-12s %10.4f %7.2fx  %s%s%s\n", v->label, v->verdict, v->timing.median_ms,
                   v->speedup, v->significant > 0 ? "faster beyond the spread"
                               : v->significant < 0 ? "slower beyond the spread"
                                                    : "inside the spread: no speedup",
                   v->detail[0] ? "; " : "", v->detail);
        else
            printf("%-40s %-12s %10s %8s  %s\n", v->label, v->verdict, "-", "-", first_line);
    }
    if (!r->ran_on_gpu)
        printf("no GPU on this machine: built the replay driver and every variant; "
               "verifying and timing them was skipped.\n");
    rc = 0;
    if (json_path && write_json(json_path, &o, r, &m, k, caps.len, &err) != 0) {
        log_error("judge: %s", sb_str(&err));
        rc = 1;
    }
    if (do_record && r->ran_on_gpu && record(&o, r, &m, k, &cl, &err) != 0) {
        log_error("judge: recording in the tuning database: %s", sb_str(&err));
        rc = 1;
    }
    free(r);
out:
    model_free(&m);
    nvcc_cmdline_free(&cl);
    vec_free(&caps);
    vec_free(&variants);
    vec_free(&labels);
    vec_free(&positional);
    vec_free(&build_flags);
    sb_free(&nvcc);
    sb_free(&err);
    arena_free(&a);
    return rc;
}
