/*
 * ci_cmd.c: `cl1cc ci`, the optimization pass of a CI job: finds the CUDA
 * files a change touched, runs `cl1cc tune` on them within a time budget (a
 * child process), and writes a Markdown report (also to
 * $GITHUB_STEP_SUMMARY), an HTML page, a JSON summary and the patch of
 * verified winners (`cl1cc rewrite --patch`'s code).  Exit status: 0 nothing
 * to change, 3 a patch with improvements, 4 nothing was measured (no GPU),
 * 1 an error, 2 usage.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "ci.h"
#include "compdb.h"
#include "config.h"
#include "core.h"
#include "driver.h"
#include "proc.h"
#include "report.h"
#include "rewrite_plan.h"
#include "wrapper.h"

#define CI_IMPROVED 3
#define CI_NOT_MEASURED 4

typedef struct ci_options {
    const char *base, *from_json, *run, *build, *out, *arch, *build_dir;
    double budget;
    int dry_run;
    cstr_vec files;
    char **nvcc_argv;
    int nvcc_argc;
} ci_options;

/* ---- the tuner -------------------------------------------------------------------- */

static const char *tuner_path(arena *a)
{
    const char *forced = config_ci_tuner();
    if (forced)
        return forced;
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return "/proc/self/exe";
    self[n] = '\0';
    return arena_strdup(a, self);
}

static void tune_argv(const ci_options *o, const cstr_vec *files, const char *json, arena *a,
                      cstr_vec *argv)
{
    vec_push(argv, tuner_path(a));
    vec_push(argv, "tune");
    vec_push(argv, "--run");
    vec_push(argv, o->run);
    if (o->build) {
        vec_push(argv, "--build");
        vec_push(argv, o->build);
    }
    vec_push(argv, "--budget-seconds");
    vec_push(argv, arena_printf(a, "%g", o->budget));
    vec_push(argv, "--json");
    vec_push(argv, json);
    for (size_t i = 0; i < files->len; i++)
        vec_push(argv, files->items[i]);
    if (o->nvcc_argc) {
        vec_push(argv, "--");
        for (int i = 0; i < o->nvcc_argc; i++)
            vec_push(argv, o->nvcc_argv[i]);
    }
    vec_push(argv, NULL);
}

static void print_shell_word(FILE *f, const char *w)
{
    if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:+,@%") == strlen(w)) {
        fputs(w, f);
        return;
    }
    fputc('\'', f);
    for (const char *p = w; *p; p++) {
        if (*p == '\'')
            fputs("'\\''", f);
        else
            fputc(*p, f);
    }
    fputc('\'', f);
}

/* 0 when the tuner ran and succeeded; -1 (message in err) otherwise */
static int run_tuner(const ci_options *o, const cstr_vec *files, const char *json, arena *a,
                     strbuf *err)
{
    cstr_vec argv = {0};
    tune_argv(o, files, json, a, &argv);
    proc_options po;
    memset(&po, 0, sizeof po);
    po.new_process_group = 1;
    /* the tuner keeps its own budget; this only stops one that does not */
    po.limits.wall_seconds = o->budget + (o->budget / 4 > 60 ? o->budget / 4 : 60);
    po.limits.grace_seconds = 10;
    po.stdin_path = "/dev/null";
    fflush(NULL);
    proc_result r;
    int rc = proc_run(argv.items, &po, &r);
    if (rc != 0)
        sb_printf(err, "cannot run the tuner %s: %s", argv.items[0], strerror(r.spawn_errno));
    else if (r.timed_out)
        sb_printf(err, "the tuner ran past its budget (%.0f s) and was stopped", o->budget);
    else if (!r.exited || r.exit_code != 0)
        sb_printf(err, "the tuner failed (status %d)", proc_shell_status(&r));
    rc = err->len ? -1 : 0;
    proc_result_free(&r);
    vec_free(&argv);
    return rc;
}

/* ---- reports ---------------------------------------------------------------------- */

static int write_file(const char *path, const strbuf *text)
{
    if (file_write_atomic(path, sb_str(text), text->len) != 0) {
        log_error("ci: cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

static int append_step_summary(const strbuf *md)
{
    const char *path = getenv("GITHUB_STEP_SUMMARY");
    if (!path || !*path)
        return 0;
    FILE *f = fopen(path, "a");
    if (!f || fwrite(sb_str(md), 1, md->len, f) != md->len || fclose(f) != 0) {
        log_error("ci: cannot append to GITHUB_STEP_SUMMARY (%s): %s", path, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    return 0;
}

static const char *real_or_same(const char *path, arena *a)
{
    char real[PATH_MAX];
    return path && realpath(path, real) ? arena_strdup(a, real) : path;
}

static int parse_args(int argc, char **argv, ci_options *o)
{
    memset(o, 0, sizeof o[0]);
    o->budget = 600;
    o->out = "cl1cc-ci";
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        int more = i + 1 < argc;
        if (strcmp(arg, "--") == 0) {
            o->nvcc_argv = argv + i + 1;
            o->nvcc_argc = argc - i - 1;
            break;
        } else if (strcmp(arg, "--base") == 0 && more) {
            o->base = argv[++i];
        } else if (strcmp(arg, "--from-json") == 0 && more) {
            o->from_json = argv[++i];
        } else if (strcmp(arg, "--run") == 0 && more) {
            o->run = argv[++i];
        } else if (strcmp(arg, "--build") == 0 && more) {
            o->build = argv[++i];
        } else if (strcmp(arg, "--out") == 0 && more) {
            o->out = argv[++i];
        } else if (strcmp(arg, "--arch") == 0 && more) {
            o->arch = argv[++i];
        } else if (strcmp(arg, "-p") == 0 && more) {
            o->build_dir = argv[++i];
        } else if (strcmp(arg, "--budget-seconds") == 0 && more) {
            char *end;
            o->budget = strtod(argv[++i], &end);
            if (*end || !(o->budget > 0) || !isfinite(o->budget)) {
                log_error("ci: --budget-seconds %s: not a positive number of seconds", argv[i]);
                return -1;
            }
        } else if (strcmp(arg, "--dry-run") == 0) {
            o->dry_run = 1;
        } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            driver_usage("ci", stderr);
            exit(0);
        } else if (arg[0] == '-') {
            log_error("ci: unknown option '%s'", arg);
            return -1;
        } else {
            vec_push(&o->files, arg);
        }
    }
    if (o->base && o->files.len) {
        log_error("ci: either --base or FILES, not both");
        return -1;
    }
    if (!o->from_json && !o->run) {
        log_error("ci: --run CMD is needed to tune (or --from-json TUNE.json)");
        return -1;
    }
    return 0;
}

/* ---- the steps of one ci run ---------------------------------------------------- */

/* What one run knows, step by step.  failed: 0, 1 (an error: reports
 * still written) or 2 (usage: none). */
typedef struct ci_job {
    ci_options o;
    arena a;
    strbuf err;
    nvcc_cmdline cl;
    const char *cwd, *top; /* top: the git work tree, or NULL */
    const char *top_err;   /* why there is none */
    const char *base_ref;
    cstr_vec notes, files, archs;
    tune_run run;
    int have_run;
    rewrite_result res;
    int have_res;
    int failed;
} ci_job;

static void note(ci_job *j, const char *text)
{
    vec_push(&j->notes, arena_strdup(&j->a, text));
}

static const char *display_root(const ci_job *j)
{
    return j->top ? j->top : j->cwd;
}

/* the flags, the current directory and the git work tree; 0, or 2 */
static int ci_setup(ci_job *j)
{
    if (nvcc_cmdline_parse(j->o.nvcc_argc, j->o.nvcc_argv, &j->cl, &j->err) != 0) {
        log_error("ci: %s", sb_str(&j->err));
        return 2;
    }
    char cwd[PATH_MAX];
    j->cwd = arena_strdup(&j->a, getcwd(cwd, sizeof cwd) ? cwd : ".");
    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    const char *args[] = {"rev-parse", "--show-toplevel", NULL};
    if (ci_git(args, NULL, &out, &err) == 0)
        j->top = real_or_same(arena_strndup(&j->a, sb_str(&out), strcspn(sb_str(&out), "\n")), &j->a);
    j->top_err = arena_strdup(&j->a, sb_str(&err));
    sb_free(&out);
    sb_free(&err);
    return 0;
}

/* the output folder and the files to tune: those named, or those changed */
static void ci_select_files(ci_job *j)
{
    if (!j->o.dry_run && dir_create_all(j->o.out, 0755) != 0) {
        log_error("ci: cannot make %s: %s", j->o.out, strerror(errno));
        j->failed = 2;
        return;
    }
    for (size_t i = 0; i < j->o.files.len; i++) {
        if (!file_exists(j->o.files.items[i])) {
            log_error("ci: %s: %s", j->o.files.items[i], strerror(ENOENT));
            j->failed = 2;
            return;
        }
        ci_push_unique(&j->files, real_or_same(j->o.files.items[i], &j->a), &j->a);
    }
    if (j->o.files.len || j->o.from_json)
        return;
    if (!j->top) {
        log_error("ci: not in a git work tree (%s): name the FILES", j->top_err);
        j->failed = 1;
    } else if (ci_changed_files(j->o.base, j->top, &j->a, &j->base_ref, &j->files, &j->err) != 0) {
        log_error("ci: %s", sb_str(&j->err));
        j->failed = 1;
    }
}

/* -p BUILD: the flags of the files from the build's compile_commands.json
 * (before those after "--"), for the tuner and the patch alike */
static void ci_build_flags(ci_job *j)
{
    if (!j->o.build_dir || !j->files.len)
        return;
    cstr_vec flags = {0};
    if (compdb_common_flags(j->o.build_dir, (const char *const *)j->files.items, j->files.len,
                            j->o.nvcc_argv, (size_t)j->o.nvcc_argc, &j->a, &flags, &j->err) != 0) {
        log_error("ci: %s", sb_str(&j->err));
        j->failed = 2;
        vec_free(&flags);
        return;
    }
    j->o.nvcc_argv = arena_alloc(&j->a, (flags.len + 1) * sizeof *j->o.nvcc_argv);
    memcpy(j->o.nvcc_argv, flags.items, flags.len * sizeof *j->o.nvcc_argv);
    j->o.nvcc_argv[flags.len] = NULL;
    j->o.nvcc_argc = (int)flags.len;
    vec_free(&flags);
    nvcc_cmdline_free(&j->cl);
    if (nvcc_cmdline_parse(j->o.nvcc_argc, j->o.nvcc_argv, &j->cl, &j->err) != 0) {
        log_error("ci: %s", sb_str(&j->err));
        j->failed = 2;
    }
}

static void print_tune_command(const ci_job *j, const char *json_path, arena *a)
{
    cstr_vec targv = {0};
    tune_argv(&j->o, &j->files, json_path, a, &targv);
    for (size_t i = 0; targv.items[i]; i++) {
        if (i)
            putchar(' ');
        print_shell_word(stdout, targv.items[i]);
    }
    putchar('\n');
    vec_free(&targv);
}

/* the tuner's JSON into j->run */
static void ci_read_run(ci_job *j, const char *json_path)
{
    char *text;
    if (file_read_all(json_path, 256u << 20, &text, NULL) != 0) {
        log_error("ci: %s: %s", json_path, strerror(errno));
        vec_push(&j->notes, arena_printf(&j->a, "%s: %s", json_path, strerror(errno)));
        j->failed = 1;
        return;
    }
    if (report_parse_tune(text, &j->a, &j->run, &j->err) != 0) {
        log_error("ci: %s: %s", json_path, sb_str(&j->err));
        vec_push(&j->notes, arena_printf(&j->a, "%s: %s", json_path, sb_str(&j->err)));
        sb_clear(&j->err);
        j->failed = 1;
    } else {
        j->have_run = 1;
    }
    free(text);
}

/* runs the tuner (or, with --dry-run, prints its command) and reads what it
 * wrote, or the --from-json run; 1 when the run stops here (--dry-run) */
static int ci_tune(ci_job *j)
{
    const ci_options *o = &j->o;
    const char *json_path = o->from_json ? o->from_json : arena_printf(&j->a, "%s/tune.json", o->out);
    if (!o->from_json && !j->files.len) {
        vec_push(&j->notes, arena_printf(&j->a, "No CUDA file (.cu, .cuh) changed%s%s: nothing to tune.",
                                         j->base_ref ? " since " : "", j->base_ref ? j->base_ref : ""));
    } else if (!o->from_json) {
        if (o->dry_run) {
            print_tune_command(j, json_path, &j->a);
            return 1;
        }
        if (unlink(json_path) != 0 && errno != ENOENT)
            log_warn("ci: cannot remove the old %s: %s", json_path, strerror(errno));
        if (run_tuner(o, &j->files, json_path, &j->a, &j->err) != 0) {
            log_error("ci: %s", sb_str(&j->err));
            note(j, sb_str(&j->err));
            sb_clear(&j->err);
            j->failed = 1;
        }
    }
    if (o->from_json || file_exists(json_path)) {
        ci_read_run(j, json_path);
    } else if (!j->failed && j->files.len) {
        vec_push(&j->notes, arena_printf(&j->a, "the tuner wrote no %s", json_path));
        j->failed = 1;
    }
    /* --from-json alone: the files the run names */
    if (o->from_json && !o->files.len)
        for (size_t i = 0; j->have_run && i < j->run.kernels.len; i++)
            if (j->run.kernels.items[i].file && file_exists(j->run.kernels.items[i].file))
                ci_push_unique(&j->files, real_or_same(j->run.kernels.items[i].file, &j->a), &j->a);
    return 0;
}

/* the patch: what the wrapper would splice, for the files tuned */
static void ci_patch(ci_job *j)
{
    if (j->o.dry_run || j->failed == 2 || !j->files.len)
        return;
    /* the tuning run's arch, when it ran on a GPU ("none" without one) */
    const char *run_arch = j->run.arch && strncmp(j->run.arch, "sm_", 3) == 0 ? j->run.arch : NULL;
    if (apply_archs(j->o.arch, &j->cl, run_arch, &j->a, &j->archs, &j->err) != 0) {
        log_error("ci: %s", sb_str(&j->err));
        note(j, sb_str(&j->err));
        j->failed = 1;
        return;
    }
    arena_free(&j->res.strings);
    rewrite_request rq = {(const char *const *)j->files.items, j->files.len, &j->cl,
                          (const char *const *)j->archs.items, j->archs.len, REWRITE_PATCH};
    if (rewrite_run(&rq, &j->res) != 0) {
        vec_push(&j->notes, "some files could not be rewritten: see the job's log");
        j->failed = 1;
    }
    j->have_res = 1;
    for (size_t i = 0; i < j->res.notes.len; i++)
        vec_push(&j->notes, j->res.notes.items[i]);
}

/* 1 when the kernel is in the patch, 2 when it was rewritten before, else 0 */
static int in_patch(const ci_job *j, const char *name, const char *file)
{
    int found = 0;
    for (size_t i = 0; j->have_res && file && i < j->res.applied.len; i++)
        if (strcmp(j->res.applied.items[i].kernel, name) == 0 &&
            strcmp(j->res.applied.items[i].file, file) == 0)
            found = 1;
    for (size_t i = 0; j->have_res && file && i < j->res.already.len; i++)
        if (strcmp(j->res.already.items[i].kernel, name) == 0 &&
            strcmp(j->res.already.items[i].file, file) == 0)
            found = 2;
    return found;
}

/* winners of this run that the patch does not hold, in the notes */
static void ci_note_missing_winners(ci_job *j)
{
    for (size_t i = 0; j->have_run && i < j->run.kernels.len; i++) {
        const tune_kernel *k = &j->run.kernels.items[i];
        if (strcmp(k->status, "improved") != 0 || !k->kernel)
            continue;
        const char *kf = real_or_same(k->file, &j->a);
        int found = in_patch(j, k->kernel, kf);
        if (found == 2)
            vec_push(&j->notes, arena_printf(&j->a, "%s: kernel %s is already rewritten by cl1cc",
                                             report_display_path(kf, display_root(j)), k->kernel));
        else if (!found)
            vec_push(&j->notes,
                     arena_printf(&j->a, "%s: kernel %s: the tuner reports x%.2f, but no "
                                         "verified variant applies with these flags and arch "
                                         "(tuner's key %.16s...): not in the patch",
                                  report_display_path(kf, display_root(j)), k->kernel,
                                  k->speedup, k->key ? k->key : "?"));
    }
}

/* report.md, report.html, summary.json and cl1cc.patch under --out, and
 * the step summary; the exit status, 1 when one could not be written */
static int ci_write_reports(ci_job *j, int exit_code)
{
    VEC(report_patched) patched = {0};
    cstr_vec patched_files = {0};
    for (size_t i = 0; j->have_res && i < j->res.applied.len; i++) {
        const rewrite_kernel_info *k = &j->res.applied.items[i];
        report_patched p = {k->file, k->kernel, k->arch, k->speedup};
        vec_push(&patched, p);
        ci_push_unique(&patched_files, k->file, &j->a);
    }
    const char *out = j->o.out;
    const char *patch_path = arena_printf(&j->a, "%s/cl1cc.patch", out);
    report_input in;
    memset(&in, 0, sizeof in);
    in.run = &j->run;
    in.display_root = display_root(j);
    in.base_ref = j->base_ref;
    in.patch_name = patched.len ? patch_path : NULL;
    in.patch_text = j->have_res ? sb_str(&j->res.patch) : NULL;
    in.patched = patched.items;
    in.n_patched = patched.len;
    in.n_patched_files = patched_files.len;
    in.notes = j->notes.items;
    in.n_notes = j->notes.len;
    in.exit_code = exit_code;
    strbuf md, html, summary;
    sb_init(&md);
    sb_init(&html);
    sb_init(&summary);
    report_markdown(&in, &md);
    report_html(&in, &html);
    report_summary_json(&in, &summary);
    int werr = write_file(arena_printf(&j->a, "%s/report.md", out), &md) |
               write_file(arena_printf(&j->a, "%s/report.html", out), &html) |
               write_file(arena_printf(&j->a, "%s/summary.json", out), &summary);
    if (j->have_res && j->res.patch.len)
        werr |= write_file(patch_path, &j->res.patch);
    else if (unlink(patch_path) != 0 && errno != ENOENT)
        werr = -1;
    werr |= append_step_summary(&md);
    if (exit_code == CI_NOT_MEASURED)
        fprintf(stderr, "cl1cc ci: nothing was measured: no GPU\n");
    else
        printf("cl1cc ci: %zu kernel(s) tuned, %zu rewritten in the patch%s%s; reports in %s/\n",
               j->run.kernels.len, patched.len, patched.len ? " " : "",
               patched.len ? patch_path : "", out);
    sb_free(&md);
    sb_free(&html);
    sb_free(&summary);
    vec_free(&patched);
    vec_free(&patched_files);
    return werr ? 1 : exit_code;
}

static void ci_job_free(ci_job *j)
{
    rewrite_result_free(&j->res);
    tune_run_free(&j->run);
    nvcc_cmdline_free(&j->cl);
    vec_free(&j->notes);
    vec_free(&j->files);
    vec_free(&j->archs);
    vec_free(&j->o.files);
    sb_free(&j->err);
    arena_free(&j->a);
}

int cmd_ci(int argc, char **argv)
{
    ci_job j;
    memset(&j, 0, sizeof j);
    if (parse_args(argc, argv, &j.o) != 0) {
        driver_usage("ci", stderr);
        vec_free(&j.o.files);
        return 2;
    }
    arena_init(&j.a);
    sb_init(&j.err);
    arena_init(&j.res.strings);
    j.run.ran_on_gpu = -1;
    j.run.budget_seconds = j.run.wall_seconds = NAN;
    j.run.budget_evaluations = -1;
    if (ci_setup(&j) != 0) {
        ci_job_free(&j);
        return 2;
    }
    int stop = 0;
    ci_select_files(&j);
    if (!j.failed)
        ci_build_flags(&j);
    if (!j.failed)
        stop = ci_tune(&j);
    if (!stop)
        ci_patch(&j);
    ci_note_missing_winners(&j);
    int exit_code = j.failed ? j.failed : (j.have_res && j.res.applied.len ? CI_IMPROVED : 0);
    /* a run on a machine without a GPU measured nothing: never "tuned" */
    if (!j.failed && j.have_run && j.run.ran_on_gpu == 0)
        exit_code = CI_NOT_MEASURED;
    if (j.o.dry_run)
        exit_code = j.failed;
    else if (j.failed != 2)
        exit_code = ci_write_reports(&j, exit_code);
    ci_job_free(&j);
    return exit_code;
}
