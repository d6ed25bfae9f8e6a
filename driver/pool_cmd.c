/*
 * pool_cmd.c: `cl1cc pool-run [OPTIONS] [--] JOBFILE`: runs each line of
 * JOBFILE (a shell command) as one job of the evaluation pool (pool/), on
 * this host's GPUs or through Slurm, and prints a table of how each ended.
 * The jobs' output goes to LOGS/job-N.out and LOGS/job-N.err.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"
#include "driver.h"
#include "pool.h"

static int parse_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || v < 0)
        return -1;
    *out = v;
    return 0;
}

static void show_event(void *data, pool_event ev, size_t index, const pool_job *job)
{
    if (ev == POOL_EV_STARTED)
        fprintf(stderr, "cl1cc: pool: %s started on %s\n", job->label, job->where);
    else if (ev == POOL_EV_RETRY)
        fprintf(stderr, "cl1cc: pool: %s will run again: %s\n", job->label, job->detail);
}

/* the job lines of text: trimmed, skipping empty and # lines */
static void job_lines(char *text, cstr_vec *out)
{
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        while (*line == ' ' || *line == '\t')
            line++;
        size_t len = strlen(line);
        while (len && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len && line[0] != '#')
            vec_push(out, line);
        line = nl ? nl + 1 : NULL;
    }
}

static int read_job_file(const char *path, char **text)
{
    if (strcmp(path, "-") != 0) {
        size_t len;
        return file_read_all(path, 0, text, &len);
    }
    strbuf sb;
    sb_init(&sb);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
        sb_append(&sb, buf, n);
    if (ferror(stdin)) {
        sb_free(&sb);
        return -1;
    }
    sb_putc(&sb, '\0');
    *text = sb_take(&sb);
    return 0;
}

static void print_table(const pool_job *jobs, size_t n, const char *const *commands)
{
    printf("%-8s %-9s %5s %5s %8s  %-16s %s\n", "job", "status", "exit", "tries", "wall",
           "where", "command");
    for (size_t i = 0; i < n; i++) {
        const pool_job *j = &jobs[i];
        printf("%-8s %-9s %5d %5d %7.1fs  %-16s %s\n", j->label, j->status, j->exit_code,
               j->attempts, j->wall_s, j->where, commands[i]);
        if (!pool_job_ok(j) && j->detail[0])
            printf("         %s\n", j->detail);
    }
}

typedef struct pool_cli {
    pool_options o;
    const char *job_file, *logs;
    int no_gpu;
    cstr_vec sbatch_args;
} pool_cli;

/* one option with a number: --timeout, --deadline, --poll, --attempts,
 * --cpu-jobs; 1 when it took its value, 0 when a is none of them or the
 * value does not fit it */
static int number_option(pool_options *o, const char *a, const char *value)
{
    double v;
    if (!value || parse_number(value, &v) != 0)
        return 0;
    if (strcmp(a, "--timeout") == 0)
        o->default_timeout_s = v;
    else if (strcmp(a, "--deadline") == 0)
        o->deadline_s = v;
    else if (strcmp(a, "--poll") == 0 && v > 0)
        o->poll_s = v;
    else if (strcmp(a, "--attempts") == 0 && v >= 1 && v <= 100)
        o->max_attempts = (int)v;
    else if (strcmp(a, "--cpu-jobs") == 0 && v >= 1 && v <= 4096)
        o->cpu_jobs = (int)v;
    else
        return 0;
    return 1;
}

/* 0, or 2 after the usage */
static int parse_args(int argc, char **argv, pool_cli *c)
{
    pool_options *o = &c->o;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--") == 0 && more && !c->job_file) {
            c->job_file = argv[++i];
        } else if (strcmp(a, "--cl1-backend=local") == 0) {
            o->backend = POOL_LOCAL;
        } else if (strcmp(a, "--cl1-backend=slurm") == 0) {
            o->backend = POOL_SLURM;
        } else if (strcmp(a, "--gpus") == 0 && more) {
            o->gpus = argv[++i];
        } else if (number_option(o, a, more ? argv[i + 1] : NULL)) {
            i++;
        } else if (strcmp(a, "--no-gpu") == 0) {
            c->no_gpu = 1;
        } else if (strcmp(a, "--logs") == 0 && more) {
            c->logs = argv[++i];
        } else if (strcmp(a, "--partition") == 0 && more) {
            o->slurm_partition = argv[++i];
        } else if (strcmp(a, "--gres") == 0 && more) {
            o->slurm_gres = argv[++i];
        } else if (strcmp(a, "--sbatch-arg") == 0 && more) {
            vec_push(&c->sbatch_args, argv[++i]);
        } else if ((a[0] != '-' || strcmp(a, "-") == 0) && !c->job_file) {
            c->job_file = a;
        } else {
            driver_usage("pool-run", stderr);
            return 2;
        }
    }
    if (!c->job_file) {
        driver_usage("pool-run", stderr);
        return 2;
    }
    vec_push(&c->sbatch_args, (const char *)NULL);
    o->slurm_sbatch_args = c->sbatch_args.items;
    return 0;
}

/* --logs DIR, made, or a fresh folder here; 0, or -1 after saying why */
static int make_log_dir(const char *logs, strbuf *log_dir)
{
    if (logs) {
        if (dir_create_all(logs, 0755) != 0) {
            log_error("pool-run: %s: %s", logs, strerror(errno));
            return -1;
        }
        sb_puts(log_dir, logs);
        return 0;
    }
    /* in the working directory, which a cluster's nodes usually share */
    char templ[] = "cl1cc-pool-XXXXXX";
    if (!mkdtemp(templ)) {
        log_error("pool-run: cannot make a log folder here: %s", strerror(errno));
        return -1;
    }
    sb_puts(log_dir, templ);
    return 0;
}

/* a job for each line: /bin/sh -c LINE, its output under log_dir */
static pool_job *make_jobs(const cstr_vec *lines, int no_gpu, const char *log_dir, arena *a)
{
    pool_job *jobs = arena_alloc(a, (lines->len ? lines->len : 1) * sizeof *jobs);
    memset(jobs, 0, (lines->len ? lines->len : 1) * sizeof *jobs);
    for (size_t i = 0; i < lines->len; i++) {
        const char **args = arena_alloc(a, 3 * sizeof *args);
        args[0] = "/bin/sh";
        args[1] = "-c";
        args[2] = lines->items[i];
        jobs[i].argv = args;
        jobs[i].argc = 3;
        jobs[i].label = arena_printf(a, "job-%zu", i + 1);
        jobs[i].needs_gpu = !no_gpu;
        jobs[i].stdout_path = arena_printf(a, "%s/job-%zu.out", log_dir, i + 1);
        jobs[i].stderr_path = arena_printf(a, "%s/job-%zu.err", log_dir, i + 1);
    }
    return jobs;
}

/* the pool runs the jobs, the table follows; 0 all ended well, 1 not, 2
 * the pool failed */
static int run_jobs(const pool_options *o, pool_job *jobs, const cstr_vec *lines,
                    const char *log_dir)
{
    strbuf err;
    sb_init(&err);
    if (pool_run(o, jobs, lines->len, show_event, NULL, &err) != 0) {
        log_error("%s", sb_str(&err));
        sb_free(&err);
        return 2;
    }
    sb_free(&err);
    print_table(jobs, lines->len, lines->items);
    printf("output in %s/job-N.out and job-N.err\n", log_dir);
    int rc = 0;
    for (size_t i = 0; i < lines->len; i++)
        if (!pool_job_ok(&jobs[i]))
            rc = 1;
    return rc;
}

int cmd_pool_run(int argc, char **argv)
{
    pool_cli c;
    memset(&c, 0, sizeof c);
    pool_options_init(&c.o);
    if (parse_args(argc, argv, &c) != 0) {
        vec_free(&c.sbatch_args);
        return 2;
    }
    char *text = NULL;
    if (read_job_file(c.job_file, &text) != 0) {
        log_error("pool-run: %s: %s", c.job_file, strerror(errno));
        vec_free(&c.sbatch_args);
        return 2;
    }
    cstr_vec lines = {0};
    job_lines(text, &lines);
    arena a;
    arena_init(&a);
    strbuf log_dir;
    sb_init(&log_dir);
    int rc = 2;
    if (make_log_dir(c.logs, &log_dir) == 0)
        rc = run_jobs(&c.o, make_jobs(&lines, c.no_gpu, sb_str(&log_dir), &a), &lines,
                      sb_str(&log_dir));
    sb_free(&log_dir);
    arena_free(&a);
    vec_free(&lines);
    free(text);
    vec_free(&c.sbatch_args);
    return rc;
}
