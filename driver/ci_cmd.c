/*
 * ci_cmd.c: `cl1cc ci`, the optimization pass of a CI job: finds the CUDA
 * files a change touched, runs `cl1cc tune` on them within a time budget (a
 * child process), and writes a Markdown report (also to
 * $GITHUB_STEP_SUMMARY), an HTML page, a JSON summary and the patch of
 * verified winners (`cl1cc rewrite --patch`'s code).  Exit status: 0 nothing
 * to change, 3 a patch with improvements, 1 an error, 2 usage.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "config.h"
#include "core.h"
#include "driver.h"
#include "proc.h"
#include "report.h"
#include "rewrite_plan.h"
#include "wrapper.h"

#define CI_IMPROVED 3

typedef struct ci_options {
    const char *base, *from_json, *run, *build, *out, *arch;
    double budget;
    int dry_run;
    cstr_vec files;
    char **nvcc_argv;
    int nvcc_argc;
} ci_options;

/* ---- git ------------------------------------------------------------------------ */

static int git(const char *const *args, const char *cwd, strbuf *out, strbuf *err)
{
    const char *argv[16] = {"git"};
    size_t n = 1;
    for (; args[n - 1] && n < 15; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    proc_options po;
    memset(&po, 0, sizeof po);
    po.cwd = cwd;
    po.capture_stdout = po.capture_stderr = 1;
    po.stdin_path = "/dev/null";
    po.limits.wall_seconds = 120;
    proc_result r;
    int rc = proc_run(argv, &po, &r);
    if (rc != 0 || !r.exited || r.exit_code != 0) {
        const char *e = sb_str(&r.err);
        if (!*e)
            e = r.spawn_failed ? "cannot run git" : "failed";
        sb_printf(err, "git %s: %.*s", args[0], (int)strcspn(e, "\n"), e);
        rc = -1;
    } else {
        sb_append(out, sb_str(&r.out), r.out.len);
    }
    proc_result_free(&r);
    return rc;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void push_unique(cstr_vec *v, const char *s, arena *a)
{
    for (size_t i = 0; i < v->len; i++)
        if (strcmp(v->items[i], s) == 0)
            return;
    vec_push(v, arena_strdup(a, s));
}

/* the .cu files of the work tree that #include a header of this name */
static void includers(const char *top, const char *header, arena *a, cstr_vec *out)
{
    const char *base = strrchr(header, '/');
    base = base ? base + 1 : header;
    strbuf list, err, pattern;
    sb_init(&list);
    sb_init(&err);
    sb_init(&pattern);
    const char *args[] = {"ls-files", "-z", "--", "*.cu", NULL};
    if (git(args, top, &list, &err) != 0) {
        log_warn("ci: %s", sb_str(&err));
        goto done;
    }
    sb_puts(&pattern, "^[ \t]*#[ \t]*include[ \t]*[<\"]([^\">]*/)?");
    for (const char *p = base; *p; p++) {
        if (strchr(".[]()*+?{}|^$\\", *p))
            sb_putc(&pattern, '\\');
        sb_putc(&pattern, *p);
    }
    sb_puts(&pattern, "[\">]");
    regex_t re;
    if (regcomp(&re, sb_str(&pattern), REG_EXTENDED | REG_NOSUB | REG_NEWLINE) != 0)
        goto done;
    for (const char *f = list.data; f && f < list.data + list.len; f += strlen(f) + 1) {
        const char *path = arena_printf(a, "%s/%s", top, f);
        char *text;
        if (file_read_all(path, 64u << 20, &text, NULL) != 0)
            continue;
        if (regexec(&re, text, 0, NULL, 0) == 0)
            push_unique(out, path, a);
        free(text);
    }
    regfree(&re);
done:
    sb_free(&list);
    sb_free(&err);
    sb_free(&pattern);
}

static int changed_files(const ci_options *o, const char *top, arena *a, const char **base_out,
                         cstr_vec *out, strbuf *err)
{
    const char *base = o->base;
    if (!base) {
        strbuf ignored, e;
        sb_init(&ignored);
        sb_init(&e);
        const char *verify[] = {"rev-parse", "--verify", "--quiet", "origin/main^{commit}", NULL};
        base = git(verify, top, &ignored, &e) == 0 ? "origin/main" : "HEAD~1";
        sb_free(&ignored);
        sb_free(&e);
    }
    *base_out = base;
    strbuf names;
    sb_init(&names);
    const char *range = arena_printf(a, "%s...HEAD", base);
    const char *diff[] = {"diff", "--name-only", "-z", "--diff-filter=d", range, "--", NULL};
    if (git(diff, top, &names, err) != 0) {
        sb_free(&names);
        return -1;
    }
    for (const char *f = names.data; f && f < names.data + names.len; f += strlen(f) + 1) {
        const char *path = arena_printf(a, "%s/%s", top, f);
        if (!file_exists(path))
            continue;
        if (ends_with(f, ".cu"))
            push_unique(out, path, a);
        else if (ends_with(f, ".cuh"))
            includers(top, f, a, out);
    }
    sb_free(&names);
    return 0;
}

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

int cmd_ci(int argc, char **argv)
{
    ci_options o;
    if (parse_args(argc, argv, &o) != 0) {
        driver_usage("ci", stderr);
        vec_free(&o.files);
        return 2;
    }
    arena a;
    arena_init(&a);
    strbuf err;
    sb_init(&err);
    cstr_vec notes = {0}, files = {0}, archs = {0};
    tune_run run;
    memset(&run, 0, sizeof run);
    run.ran_on_gpu = -1;
    run.budget_seconds = run.wall_seconds = NAN;
    run.budget_evaluations = -1;
    const char *base_ref = NULL;
    int failed = 0, have_run = 0;
    nvcc_cmdline cl;
    if (nvcc_cmdline_parse(o.nvcc_argc, o.nvcc_argv, &cl, &err) != 0) {
        log_error("ci: %s", sb_str(&err));
        nvcc_cmdline_free(&cl);
        vec_free(&o.files);
        sb_free(&err);
        arena_free(&a);
        return 2;
    }
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        snprintf(cwd, sizeof cwd, ".");
    strbuf top_out;
    sb_init(&top_out);
    const char *top_args[] = {"rev-parse", "--show-toplevel", NULL};
    const char *top = NULL;
    strbuf top_err;
    sb_init(&top_err);
    if (git(top_args, NULL, &top_out, &top_err) == 0)
        top = real_or_same(arena_strndup(&a, sb_str(&top_out), strcspn(sb_str(&top_out), "\n")), &a);
    sb_free(&top_out);

    if (!o.dry_run && dir_create_all(o.out, 0755) != 0) {
        log_error("ci: cannot make %s: %s", o.out, strerror(errno));
        failed = 2;
        goto finish;
    }
    /* which files */
    for (size_t i = 0; i < o.files.len; i++) {
        if (!file_exists(o.files.items[i])) {
            log_error("ci: %s: %s", o.files.items[i], strerror(ENOENT));
            failed = 2;
            goto finish;
        }
        push_unique(&files, real_or_same(o.files.items[i], &a), &a);
    }
    if (!o.files.len && !o.from_json) {
        if (!top) {
            log_error("ci: not in a git work tree (%s): name the FILES", sb_str(&top_err));
            failed = 1;
            goto finish;
        }
        if (changed_files(&o, top, &a, &base_ref, &files, &err) != 0) {
            log_error("ci: %s", sb_str(&err));
            failed = 1;
            goto finish;
        }
    }

    const char *json_path = o.from_json ? o.from_json : arena_printf(&a, "%s/tune.json", o.out);
    if (!o.from_json && !files.len) {
        vec_push(&notes, arena_printf(&a, "No CUDA file (.cu, .cuh) changed%s%s: nothing to tune.",
                                      base_ref ? " since " : "", base_ref ? base_ref : ""));
    } else if (!o.from_json) {
        if (o.dry_run) {
            cstr_vec targv = {0};
            tune_argv(&o, &files, json_path, &a, &targv);
            for (size_t i = 0; targv.items[i]; i++) {
                if (i)
                    putchar(' ');
                print_shell_word(stdout, targv.items[i]);
            }
            putchar('\n');
            vec_free(&targv);
            goto finish;
        }
        if (unlink(json_path) != 0 && errno != ENOENT)
            log_warn("ci: cannot remove the old %s: %s", json_path, strerror(errno));
        if (run_tuner(&o, &files, json_path, &a, &err) != 0) {
            log_error("ci: %s", sb_str(&err));
            vec_push(&notes, arena_strdup(&a, sb_str(&err)));
            sb_clear(&err);
            failed = 1;
        }
    }
    if (o.from_json || file_exists(json_path)) {
        char *text;
        if (file_read_all(json_path, 256u << 20, &text, NULL) != 0) {
            log_error("ci: %s: %s", json_path, strerror(errno));
            vec_push(&notes, arena_printf(&a, "%s: %s", json_path, strerror(errno)));
            failed = 1;
        } else {
            if (report_parse_tune(text, &a, &run, &err) != 0) {
                log_error("ci: %s: %s", json_path, sb_str(&err));
                vec_push(&notes, arena_printf(&a, "%s: %s", json_path, sb_str(&err)));
                sb_clear(&err);
                failed = 1;
            } else {
                have_run = 1;
            }
            free(text);
        }
    } else if (!failed && files.len) {
        vec_push(&notes, arena_printf(&a, "the tuner wrote no %s", json_path));
        failed = 1;
    }
    if (o.from_json && !o.files.len)
        for (size_t i = 0; have_run && i < run.kernels.len; i++)
            if (run.kernels.items[i].file && file_exists(run.kernels.items[i].file))
                push_unique(&files, real_or_same(run.kernels.items[i].file, &a), &a);

finish:;
    /* the patch: what the wrapper would splice, for the files tuned */
    rewrite_result res;
    memset(&res, 0, sizeof res);
    arena_init(&res.strings);
    int have_res = 0;
    if (!o.dry_run && failed != 2 && files.len) {
        if (apply_archs(o.arch, &cl, run.arch, &a, &archs, &err) != 0) {
            log_error("ci: %s", sb_str(&err));
            vec_push(&notes, arena_strdup(&a, sb_str(&err)));
            failed = 1;
        } else {
            arena_free(&res.strings);
            rewrite_request rq = {(const char *const *)files.items, files.len, &cl,
                                  (const char *const *)archs.items, archs.len, REWRITE_PATCH};
            if (rewrite_run(&rq, &res) != 0) {
                vec_push(&notes, "some files could not be rewritten: see the job's log");
                failed = 1;
            }
            have_res = 1;
            for (size_t i = 0; i < res.notes.len; i++)
                vec_push(&notes, res.notes.items[i]);
        }
    }
    /* winners of this run that the patch does not hold */
    for (size_t i = 0; have_run && i < run.kernels.len; i++) {
        const tune_kernel *k = &run.kernels.items[i];
        if (strcmp(k->status, "improved") != 0 || !k->kernel)
            continue;
        const char *kf = real_or_same(k->file, &a);
        int found = 0;
        for (size_t j = 0; have_res && j < res.applied.len; j++)
            if (strcmp(res.applied.items[j].kernel, k->kernel) == 0 && kf &&
                strcmp(res.applied.items[j].file, kf) == 0)
                found = 1;
        for (size_t j = 0; have_res && j < res.already.len; j++)
            if (strcmp(res.already.items[j].kernel, k->kernel) == 0 && kf &&
                strcmp(res.already.items[j].file, kf) == 0)
                found = 2;
        if (found == 2)
            vec_push(&notes, arena_printf(&a, "%s: kernel %s is already rewritten by cl1cc",
                                          report_display_path(kf, top ? top : cwd), k->kernel));
        else if (!found)
            vec_push(&notes, arena_printf(&a, "%s: kernel %s: the tuner reports x%.2f, but no "
                                              "verified variant applies with these flags and arch "
                                              "(tuner's key %.16s...): not in the patch",
                                          report_display_path(kf, top ? top : cwd), k->kernel,
                                          k->speedup, k->key ? k->key : "?"));
    }

    int exit_code = failed ? failed : (have_res && res.applied.len ? CI_IMPROVED : 0);
    if (o.dry_run)
        exit_code = failed;
    else if (failed != 2) {
        VEC(report_patched) patched = {0};
        cstr_vec patched_files = {0};
        for (size_t i = 0; have_res && i < res.applied.len; i++) {
            const rewrite_kernel_info *k = &res.applied.items[i];
            report_patched p = {k->file, k->kernel, k->arch, k->speedup};
            vec_push(&patched, p);
            push_unique(&patched_files, k->file, &a);
        }
        const char *patch_path = arena_printf(&a, "%s/cl1cc.patch", o.out);
        report_input in;
        memset(&in, 0, sizeof in);
        in.run = &run;
        in.display_root = top ? top : cwd;
        in.base_ref = base_ref;
        in.patch_name = patched.len ? patch_path : NULL;
        in.patch_text = have_res ? sb_str(&res.patch) : NULL;
        in.patched = patched.items;
        in.n_patched = patched.len;
        in.n_patched_files = patched_files.len;
        in.notes = notes.items;
        in.n_notes = notes.len;
        in.exit_code = exit_code;
        strbuf md, html, summary;
        sb_init(&md);
        sb_init(&html);
        sb_init(&summary);
        report_markdown(&in, &md);
        report_html(&in, &html);
        report_summary_json(&in, &summary);
        int werr = write_file(arena_printf(&a, "%s/report.md", o.out), &md) |
                   write_file(arena_printf(&a, "%s/report.html", o.out), &html) |
                   write_file(arena_printf(&a, "%s/summary.json", o.out), &summary);
        if (have_res && res.patch.len)
            werr |= write_file(patch_path, &res.patch);
        else if (unlink(patch_path) != 0 && errno != ENOENT)
            werr = -1;
        werr |= append_step_summary(&md);
        if (werr)
            exit_code = 1;
        printf("cl1cc ci: %zu kernel(s) tuned, %zu rewritten in the patch%s%s; reports in %s/\n",
               run.kernels.len, patched.len, patched.len ? " " : "",
               patched.len ? patch_path : "", o.out);
        sb_free(&md);
        sb_free(&html);
        sb_free(&summary);
        vec_free(&patched);
        vec_free(&patched_files);
    }
    rewrite_result_free(&res);
    tune_run_free(&run);
    nvcc_cmdline_free(&cl);
    vec_free(&notes);
    vec_free(&files);
    vec_free(&archs);
    vec_free(&o.files);
    sb_free(&err);
    sb_free(&top_err);
    arena_free(&a);
    return exit_code;
}
