/*
 * test_pool.c: the local pool's scheduling without GPUs: fake GPU lists
 * (CUDA_VISIBLE_DEVICES=0,1,2), jobs that are small shell commands writing
 * down which device they saw and when they ran.  One ctest per case
 * (argv[1]); "slurm" is run by slurm_cluster.sh against a real Slurm.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pool.h"
#include "proc.h"

#include "check.h"

static arena A;
static char work[256];

/* ---- helpers ---------------------------------------------------------------- */

static void make_work_dir(const char *name)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(work, sizeof work, "%s/cl1cc-pool-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
    if (!mkdtemp(work)) {
        perror("mkdtemp");
        exit(1);
    }
}

static void remove_work_dir(void)
{
    const char *argv[] = {"rm", "-rf", work, NULL};
    proc_result r;
    CHECK(proc_run(argv, NULL, &r) == 0 && r.exited && r.exit_code == 0);
    proc_result_free(&r);
}

/* a job running `sh -c SCRIPT sh WORK INDEX` */
static void shell_job(pool_job *j, const char *script, size_t index, int needs_gpu)
{
    memset(j, 0, sizeof *j);
    const char **argv = arena_alloc(&A, 5 * sizeof *argv);
    argv[0] = "sh";
    argv[1] = "-c";
    argv[2] = script;
    argv[3] = "sh";
    argv[4] = NULL;
    /* sh -c SCRIPT NAME ARG1 ARG2: $1 = work dir, $2 = index */
    const char **full = arena_alloc(&A, 7 * sizeof *full);
    memcpy(full, argv, 4 * sizeof *argv);
    full[4] = work;
    full[5] = arena_printf(&A, "%zu", index);
    full[6] = NULL;
    j->argv = full;
    j->argc = 6;
    j->needs_gpu = needs_gpu;
    j->label = arena_printf(&A, "j%zu", index);
}

static char *read_text(const char *fmt, size_t index)
{
    char path[512];
    snprintf(path, sizeof path, fmt, work, index);
    char *text = NULL;
    size_t len = 0;
    if (file_read_all(path, 0, &text, &len) != 0)
        return arena_strdup(&A, "<missing>");
    while (len && (text[len - 1] == '\n'))
        text[--len] = '\0';
    char *copy = arena_strdup(&A, text);
    free(text);
    return copy;
}

static long long read_ns(const char *fmt, size_t index)
{
    return strtoll(read_text(fmt, index), NULL, 10);
}

static int run_pool(const pool_options *o, pool_job *jobs, size_t n)
{
    strbuf err;
    sb_init(&err);
    int rc = pool_run(o, jobs, n, NULL, NULL, &err);
    if (rc != 0)
        fprintf(stderr, "pool_run: %s\n", sb_str(&err));
    sb_free(&err);
    return rc;
}

static int pid_gone(long pid)
{
    for (int i = 0; i < 300; i++) {
        if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
            return 1;
        char path[64];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        char *text = NULL;
        size_t len = 0;
        if (file_read_all(path, 0, &text, &len) == 0) {
            const char *paren = strrchr(text, ')');
            int zombie = paren && (paren[2] == 'Z' || paren[2] == 'X');
            free(text);
            if (zombie)
                return 1;
        }
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

/* What a job writes: the device it saw ("unset" when none), start and end. */
#define RECORD_SCRIPT                                                            \
    "echo \"${CUDA_VISIBLE_DEVICES-unset}\" > \"$1/$2.dev\"; "                   \
    "date +%s%N > \"$1/$2.start\"; sleep 0.2; date +%s%N > \"$1/$2.end\""

/* 1 when no two jobs that saw the same device overlapped in time */
static int no_overlap_per_device(size_t n)
{
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++) {
            if (strcmp(read_text("%s/%zu.dev", a), read_text("%s/%zu.dev", b)) != 0)
                continue;
            long long sa = read_ns("%s/%zu.start", a), ea = read_ns("%s/%zu.end", a);
            long long sb = read_ns("%s/%zu.start", b), eb = read_ns("%s/%zu.end", b);
            if (sa < eb && sb < ea) {
                fprintf(stderr, "jobs %zu and %zu overlap on device %s\n", a, b,
                        read_text("%s/%zu.dev", a));
                return 0;
            }
        }
    return 1;
}

static int most_at_once(size_t n)
{
    int most = 0;
    for (size_t a = 0; a < n; a++) {
        long long t = read_ns("%s/%zu.start", a);
        int now = 0;
        for (size_t b = 0; b < n; b++)
            if (read_ns("%s/%zu.start", b) <= t && t < read_ns("%s/%zu.end", b))
                now++;
        if (now > most)
            most = now;
    }
    return most;
}

/* ---- cases ------------------------------------------------------------------ */

static void test_gpu_list(void)
{
    pool_options o;
    pool_options_init(&o);
    cstr_vec g = {0};
    const char *src;
    setenv("CUDA_VISIBLE_DEVICES", "0, 1,2", 1);
    pool_local_gpus(&o, &A, &g, &src);
    CHECK(g.len == 3 && strcmp(g.items[1], "1") == 0 && strcmp(src, "CUDA_VISIBLE_DEVICES") == 0);
    g.len = 0;
    setenv("CUDA_VISIBLE_DEVICES", "GPU-5a1c,MIG-77", 1);
    pool_local_gpus(&o, &A, &g, &src);
    CHECK(g.len == 2 && strcmp(g.items[0], "GPU-5a1c") == 0 && strcmp(g.items[1], "MIG-77") == 0);
    g.len = 0;
    setenv("CUDA_VISIBLE_DEVICES", "", 1);
    pool_local_gpus(&o, &A, &g, &src);
    CHECK(g.len == 0);
    o.gpus = "3,4";
    pool_local_gpus(&o, &A, &g, &src);
    CHECK(g.len == 2 && strcmp(g.items[0], "3") == 0 && strcmp(src, "options") == 0);
    vec_free(&g);
}

/* every GPU used, never two jobs on one at once, each saw exactly its GPU */
static void test_spread(void)
{
    make_work_dir("spread");
    setenv("CUDA_VISIBLE_DEVICES", "0,1,2", 1);
    pool_options o;
    pool_options_init(&o);
    enum { N = 9 };
    pool_job jobs[N];
    for (size_t i = 0; i < N; i++)
        shell_job(&jobs[i], RECORD_SCRIPT, i, 1);
    CHECK(run_pool(&o, jobs, N) == 0);
    int used[3] = {0, 0, 0};
    for (size_t i = 0; i < N; i++) {
        CHECK(pool_job_ok(&jobs[i]) && jobs[i].exit_code == 0 && jobs[i].attempts == 1);
        const char *dev = read_text("%s/%zu.dev", i);
        CHECK(strlen(dev) == 1 && dev[0] >= '0' && dev[0] <= '2');
        if (strlen(dev) == 1 && dev[0] >= '0' && dev[0] <= '2')
            used[dev[0] - '0'] = 1;
        char where[64];
        snprintf(where, sizeof where, "gpu %s", dev);
        CHECK(strcmp(jobs[i].where, where) == 0);
    }
    CHECK(used[0] && used[1] && used[2]);
    CHECK(no_overlap_per_device(N));
    int most = most_at_once(N);
    CHECK(most >= 2 && most <= 3);
    remove_work_dir();
}

/* CPU jobs: no GPU visible, at most cpu_jobs at once, beside the GPU jobs */
static void test_cpu_jobs(void)
{
    make_work_dir("cpu");
    setenv("CUDA_VISIBLE_DEVICES", "0,1,2", 1);
    pool_options o;
    pool_options_init(&o);
    o.cpu_jobs = 2;
    enum { N = 7 };
    pool_job jobs[N];
    for (size_t i = 0; i < N; i++)
        shell_job(&jobs[i], RECORD_SCRIPT, i, 0);
    CHECK(run_pool(&o, jobs, N) == 0);
    for (size_t i = 0; i < N; i++) {
        CHECK(pool_job_ok(&jobs[i]) && strcmp(jobs[i].where, "cpu") == 0);
        CHECK(strcmp(read_text("%s/%zu.dev", i), "") == 0); /* set, empty */
    }
    CHECK(most_at_once(N) <= 2);
    remove_work_dir();
}

/* the timeout kills the whole process group; it is retried on another GPU */
static void test_timeout(void)
{
    make_work_dir("timeout");
    setenv("CUDA_VISIBLE_DEVICES", "0,1", 1);
    pool_options o;
    pool_options_init(&o);
    o.max_attempts = 1;
    o.kill_grace_s = 0.3;
    pool_job jobs[2];
    shell_job(&jobs[0], "sleep 100 & echo $! > \"$1/$2.pid\"; wait", 0, 1);
    jobs[0].timeout_s = 0.5;
    /* ignores SIGTERM: SIGKILL after the grace */
    shell_job(&jobs[1], "trap '' TERM; sleep 100 & echo $! > \"$1/$2.pid\"; wait; wait", 1, 1);
    jobs[1].timeout_s = 0.5;
    double t0 = proc_now_seconds();
    CHECK(run_pool(&o, jobs, 2) == 0);
    double took = proc_now_seconds() - t0;
    CHECK(took >= 0.5 && took < 5.0);
    for (size_t i = 0; i < 2; i++) {
        CHECK(strcmp(jobs[i].status, "timeout") == 0 && jobs[i].exit_code == 124);
        CHECK(jobs[i].attempts == 1);
        long pid = strtol(read_text("%s/%zu.pid", i), NULL, 10);
        CHECK(pid > 1 && pid_gone(pid));
    }
    CHECK(strstr(jobs[0].detail, "limit") != NULL);

    /* retried, on the other GPU */
    o.max_attempts = 2;
    o.retry_timeouts = 1;
    shell_job(&jobs[0], "echo $CUDA_VISIBLE_DEVICES >> \"$1/$2.devs\"; exec sleep 100", 0, 1);
    jobs[0].timeout_s = 0.3;
    CHECK(run_pool(&o, jobs, 1) == 0);
    CHECK(strcmp(jobs[0].status, "timeout") == 0 && jobs[0].attempts == 2);
    const char *devs = read_text("%s/%zu.devs", 0);
    CHECK(strcmp(devs, "0\n1") == 0 || strcmp(devs, "1\n0") == 0);
    /* not retried when told so */
    o.retry_timeouts = 0;
    CHECK(run_pool(&o, jobs, 1) == 0);
    CHECK(strcmp(jobs[0].status, "timeout") == 0 && jobs[0].attempts == 1);
    remove_work_dir();
}

/* killed by a signal: retried on another GPU; exit 1: never retried */
static void test_retry(void)
{
    make_work_dir("retry");
    setenv("CUDA_VISIBLE_DEVICES", "0,1,2", 1);
    pool_options o;
    pool_options_init(&o);
    o.max_attempts = 3;
    pool_job jobs[4];
    shell_job(&jobs[0],
              "echo $CUDA_VISIBLE_DEVICES >> \"$1/$2.devs\"; "
              "if [ ! -e \"$1/$2.once\" ]; then : > \"$1/$2.once\"; kill -KILL $$; fi; exit 0",
              0, 1);
    shell_job(&jobs[1], "echo $CUDA_VISIBLE_DEVICES >> \"$1/$2.devs\"; kill -SEGV $$", 1, 1);
    shell_job(&jobs[2], "echo $CUDA_VISIBLE_DEVICES >> \"$1/$2.devs\"; exit 1", 2, 1);
    memset(&jobs[3], 0, sizeof jobs[3]);
    const char *missing[] = {"/nonexistent/cl1cc-no-such-tool", NULL};
    jobs[3].argv = missing;
    jobs[3].argc = 1;
    jobs[3].needs_gpu = 1;
    CHECK(run_pool(&o, jobs, 4) == 0);

    CHECK(pool_job_ok(&jobs[0]) && jobs[0].attempts == 2 && jobs[0].exit_code == 0);
    const char *d0 = read_text("%s/%zu.devs", 0);
    CHECK(strlen(d0) == 3 && d0[0] != d0[2]); /* two different GPUs */
    CHECK(strstr(jobs[0].detail, "signal 9") != NULL);

    CHECK(strcmp(jobs[1].status, "failed") == 0 && jobs[1].attempts == 3);
    CHECK(jobs[1].exit_code == 128 + SIGSEGV);
    const char *d1 = read_text("%s/%zu.devs", 1);
    CHECK(strlen(d1) == 5 && d1[0] != d1[2] && d1[0] != d1[4] && d1[2] != d1[4]);

    CHECK(strcmp(jobs[2].status, "failed") == 0 && jobs[2].attempts == 1);
    CHECK(jobs[2].exit_code == 1);
    CHECK(strchr(read_text("%s/%zu.devs", 2), '\n') == NULL); /* ran once */

    CHECK(strcmp(jobs[3].status, "failed") == 0 && jobs[3].attempts == 3);
    CHECK(jobs[3].exit_code == 127 && strstr(jobs[3].detail, "could not start") != NULL);
    remove_work_dir();
}

/* the same jobs on 1 GPU and on 3: the same results and outputs */
static void run_mix(const char *gpus, pool_job *jobs, size_t n)
{
    pool_options o;
    pool_options_init(&o);
    o.gpus = gpus;
    for (size_t i = 0; i < n; i++) {
        shell_job(&jobs[i],
                  "echo \"out $2\"; echo \"err $2\" >&2; "
                  "if [ $2 = 4 ] && [ ! -e \"$1/once.$CL1_RUN\" ]; then : > \"$1/once.$CL1_RUN\"; "
                  "kill -KILL $$; fi; exit $(($2 % 3))",
                  i, i % 2);
        jobs[i].stdout_path = arena_printf(&A, "%s/%s.%zu.out", work, gpus, i);
        jobs[i].stderr_path = arena_printf(&A, "%s/%s.%zu.err", work, gpus, i);
    }
    setenv("CL1_RUN", gpus, 1);
    CHECK(run_pool(&o, jobs, n) == 0);
}

static void test_identical(void)
{
    make_work_dir("same");
    enum { N = 8 };
    pool_job one[N], three[N];
    run_mix("0", one, N);
    run_mix("0,1,2", three, N);
    for (size_t i = 0; i < N; i++) {
        CHECK(strcmp(one[i].status, three[i].status) == 0);
        CHECK(one[i].exit_code == three[i].exit_code && one[i].exit_code == (int)(i % 3));
        CHECK(one[i].attempts == three[i].attempts);
        CHECK(one[i].attempts == (i == 4 ? 2 : 1));
        char *a = NULL, *b = NULL;
        size_t la = 0, lb = 0;
        CHECK(file_read_all(one[i].stdout_path, 0, &a, &la) == 0);
        CHECK(file_read_all(three[i].stdout_path, 0, &b, &lb) == 0);
        CHECK(a && b && strcmp(a, b) == 0);
        free(a);
        free(b);
        CHECK(file_read_all(three[i].stderr_path, 0, &a, &la) == 0);
        char want[32];
        snprintf(want, sizeof want, "err %zu\n", i);
        CHECK(a && strcmp(a, want) == 0);
        free(a);
    }
    remove_work_dir();
}

/* no GPU: GPU jobs one at a time, the environment left alone */
static void test_no_gpu(void)
{
    make_work_dir("nogpu");
    unsetenv("CUDA_VISIBLE_DEVICES");
    pool_options o;
    pool_options_init(&o);
    o.gpus = "";
    enum { N = 4 };
    pool_job jobs[N];
    for (size_t i = 0; i < N; i++)
        shell_job(&jobs[i], RECORD_SCRIPT, i, 1);
    CHECK(run_pool(&o, jobs, N) == 0);
    for (size_t i = 0; i < N; i++) {
        CHECK(pool_job_ok(&jobs[i]) && strcmp(jobs[i].where, "host") == 0);
        CHECK(strcmp(read_text("%s/%zu.dev", i), "unset") == 0);
    }
    CHECK(most_at_once(N) == 1);
    remove_work_dir();
}

/* the deadline stops what runs and reports what never started */
static void test_deadline(void)
{
    make_work_dir("deadline");
    pool_options o;
    pool_options_init(&o);
    o.gpus = "0";
    o.deadline_s = 0.5;
    o.kill_grace_s = 0.3;
    pool_job jobs[3];
    for (size_t i = 0; i < 3; i++)
        shell_job(&jobs[i], "sleep 100 & echo $! > \"$1/$2.pid\"; wait", i, 1);
    double t0 = proc_now_seconds();
    CHECK(run_pool(&o, jobs, 3) == 0);
    CHECK(proc_now_seconds() - t0 < 5.0);
    CHECK(strcmp(jobs[0].status, "cancelled") == 0 && jobs[0].attempts == 1);
    CHECK(strstr(jobs[0].detail, "deadline") != NULL);
    long pid = strtol(read_text("%s/%zu.pid", 0), NULL, 10);
    CHECK(pid > 1 && pid_gone(pid));
    for (size_t i = 1; i < 3; i++)
        CHECK(strcmp(jobs[i].status, "not_run") == 0 && jobs[i].attempts == 0);
    remove_work_dir();
}

static void record_finished(void *data, pool_event ev, size_t index, const pool_job *job)
{
    if (ev != POOL_EV_FINISHED)
        return;
    FILE *f = fopen((const char *)data, "a");
    if (f) {
        fprintf(f, "%zu %s\n", index, job->status);
        fclose(f);
    }
}

/* SIGTERM to the pool: every job's group killed, statuses set, then the
 * signal ends the process */
static void test_stop_signal(void)
{
    make_work_dir("signal");
    char log[512];
    snprintf(log, sizeof log, "%s/finished", work);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        pool_options o;
        pool_options_init(&o);
        o.gpus = "0,1";
        o.kill_grace_s = 0.5;
        pool_job jobs[3];
        shell_job(&jobs[0], "sleep 100 & echo $! > \"$1/$2.pid\"; wait", 0, 1);
        shell_job(&jobs[1],
                  "trap '' TERM; sleep 100 & echo $! > \"$1/$2.pid\"; sleep 0.3; kill -TERM $PPID; "
                  "wait; wait",
                  1, 1);
        shell_job(&jobs[2], "exit 0", 2, 1);
        strbuf err;
        sb_init(&err);
        pool_run(&o, jobs, 3, record_finished, log, &err);
        _exit(3); /* not reached: SIGTERM is raised again */
    }
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    for (size_t i = 0; i < 2; i++) {
        long p = strtol(read_text("%s/%zu.pid", i), NULL, 10);
        CHECK(p > 1 && pid_gone(p));
    }
    const char *fin = read_text("%s/finished", 0);
    CHECK(strstr(fin, "0 cancelled") && strstr(fin, "1 cancelled") && strstr(fin, "2 not_run"));
    remove_work_dir();
}

/* ---- against a real Slurm (slurm_cluster.sh starts it) -------------------- */

static int run_tool_quiet(const char *const *argv)
{
    proc_options po;
    memset(&po, 0, sizeof po);
    po.capture_stdout = po.capture_stderr = 1;
    po.limits.wall_seconds = 30;
    proc_result r;
    int rc = proc_run(argv, &po, &r) == 0 && r.exited && r.exit_code == 0 ? 0 : -1;
    if (rc != 0)
        fprintf(stderr, "%s: %s%s\n", argv[0], sb_str(&r.out), sb_str(&r.err));
    proc_result_free(&r);
    return rc;
}

typedef struct down_state {
    const char *node;
    int done;
    double at;
} down_state;

/* sets the node DOWN as soon as one of the jobs runs */
static void set_down_on_start(void *data, pool_event ev, size_t index, const pool_job *job)
{
    down_state *d = data;
    if (ev == POOL_EV_STARTED && !d->done) {
        d->done = 1;
        char name[128];
        snprintf(name, sizeof name, "nodename=%s", d->node);
        const char *argv[] = {"scontrol", "update", name, "state=down", "reason=cl1cc-test", NULL};
        CHECK(run_tool_quiet(argv) == 0);
        d->at = proc_now_seconds();
        fprintf(stderr, "slurm: node %s set DOWN while %s runs\n", d->node, job->label);
    }
}

static void term_on_start(void *data, pool_event ev, size_t index, const pool_job *job)
{
    if (ev == POOL_EV_STARTED)
        kill(getpid(), SIGTERM);
}

/* 1 once squeue lists no job (pending, running or completing) */
static int queue_empty_within(double seconds)
{
    double until = proc_now_seconds() + seconds;
    do {
        const char *argv[] = {"squeue", "--noheader", "--format=%i %T", NULL};
        proc_options po;
        memset(&po, 0, sizeof po);
        po.capture_stdout = po.capture_stderr = 1;
        po.limits.wall_seconds = 30;
        proc_result r;
        int ok = proc_run(argv, &po, &r) == 0 && r.exited && r.exit_code == 0;
        int empty = ok && r.out.len == 0;
        if (!empty && proc_now_seconds() >= until)
            fprintf(stderr, "slurm: still queued: %s\n", sb_str(&r.out));
        proc_result_free(&r);
        if (empty)
            return 1;
        struct timespec ts = {0, 200 * 1000 * 1000};
        nanosleep(&ts, NULL);
    } while (proc_now_seconds() < until);
    return 0;
}

static void print_jobs(const char *title, const pool_job *jobs, size_t n)
{
    fprintf(stderr, "%s\n", title);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "  %-4s %-9s exit %4d attempts %d %5.1f s  %-12s %s\n", jobs[i].label,
                jobs[i].status, jobs[i].exit_code, jobs[i].attempts, jobs[i].wall_s,
                jobs[i].where, jobs[i].detail);
}

static void slurm_case(void)
{
    const char *node = getenv("CL1_TEST_NODE");
    const char *cpus = getenv("CL1_TEST_CPUS");
    if (!node || !cpus || !getenv("SLURM_CONF")) {
        fprintf(stderr, "slurm: run through slurm_cluster.sh (CL1_TEST_NODE, SLURM_CONF)\n");
        failures++;
        return;
    }
    make_work_dir("slurm");
    pool_options o;
    pool_options_init(&o);
    o.backend = POOL_SLURM;
    o.poll_s = 0.3;
    o.max_attempts = 2;
    o.slurm_stuck_s = 3;
    o.deadline_s = 150;
    char expect_where[96];
    snprintf(expect_where, sizeof expect_where, "node %s", node);

    /* ends of all kinds, in one run */
    enum { N = 7 };
    pool_job jobs[N];
    shell_job(&jobs[0], "echo \"out $2\"; echo \"err $2\" >&2", 0, 0);
    shell_job(&jobs[1], "exit 3", 1, 0);
    shell_job(&jobs[2],
              "if [ ! -e \"$1/$2.once\" ]; then : > \"$1/$2.once\"; scancel $SLURM_JOB_ID; "
              "sleep 30; fi; echo again",
              2, 0);
    shell_job(&jobs[3], "scancel $SLURM_JOB_ID; sleep 30", 3, 0);
    shell_job(&jobs[4], "echo $SLURM_JOB_ID >> \"$1/$2.ids\"; exec sleep 60", 4, 0);
    jobs[4].timeout_s = 2;
    shell_job(&jobs[5],
              "if [ ! -e \"$1/$2.once\" ]; then : > \"$1/$2.once\"; kill -KILL $$; fi; exit 0",
              5, 0);
    /* a GPU job asks for --gres=gpu:1, which this cluster refuses */
    shell_job(&jobs[6], "exit 0", 6, 1);
    for (size_t i = 0; i < N; i++) {
        jobs[i].stdout_path = arena_printf(&A, "%s/%zu.out", work, i);
        jobs[i].stderr_path = arena_printf(&A, "%s/%zu.err", work, i);
    }
    double t0 = proc_now_seconds();
    CHECK(run_pool(&o, jobs, N) == 0);
    double took = proc_now_seconds() - t0;
    print_jobs("slurm: first run", jobs, N);
    fprintf(stderr, "slurm: first run took %.1f s\n", took);
    CHECK(took < 90);

    CHECK(pool_job_ok(&jobs[0]) && jobs[0].attempts == 1 && strcmp(jobs[0].where, expect_where) == 0);
    CHECK(strcmp(read_text("%s/%zu.out", 0), "out 0") == 0);
    CHECK(strcmp(read_text("%s/%zu.err", 0), "err 0") == 0);
    CHECK(atol(jobs[0].backend_id) > 0);

    CHECK(strcmp(jobs[1].status, "failed") == 0 && jobs[1].exit_code == 3 && jobs[1].attempts == 1);

    CHECK(pool_job_ok(&jobs[2]) && jobs[2].attempts == 2);
    CHECK(strstr(jobs[2].detail, "cancelled outside") != NULL);
    CHECK(strcmp(read_text("%s/%zu.out", 2), "again") == 0);

    CHECK(strcmp(jobs[3].status, "cancelled") == 0 && jobs[3].attempts == 2);

    CHECK(strcmp(jobs[4].status, "timeout") == 0 && jobs[4].exit_code == 124);
    CHECK(jobs[4].attempts == 2 && strstr(jobs[4].detail, "limit") != NULL);
    CHECK(strchr(read_text("%s/%zu.ids", 4), '\n') != NULL); /* two Slurm jobs */

    CHECK(pool_job_ok(&jobs[5]) && jobs[5].attempts == 2 && strstr(jobs[5].detail, "signal 9"));

    CHECK(strcmp(jobs[6].status, "not_run") == 0 && jobs[6].attempts == 2);
    CHECK(strstr(jobs[6].detail, "sbatch failed") && strstr(jobs[6].detail, "gres"));

    /* SIGTERM to the pool: its jobs leave the queue, the signal ends it */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        pool_job two[2];
        for (size_t i = 0; i < 2; i++)
            shell_job(&two[i], "exec sleep 60", 20 + i, 0);
        strbuf e;
        sb_init(&e);
        pool_run(&o, two, 2, term_on_start, NULL, &e);
        _exit(3); /* not reached: SIGTERM is raised again */
    }
    int wstatus = 0;
    CHECK(waitpid(pid, &wstatus, 0) == pid);
    CHECK(WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGTERM);
    CHECK(queue_empty_within(10.0));

    /* the node goes DOWN under a running job while the others wait: the
     * running one fails over to no node at all, the waiting ones give up */
    pool_job down[3];
    for (size_t i = 0; i < 3; i++) {
        shell_job(&down[i], "exec sleep 60", 10 + i, 0);
        down[i].stdout_path = arena_printf(&A, "%s/down%zu.out", work, i);
    }
    o.slurm_cpus_per_task = atoi(cpus); /* one job fills the node */
    down_state ds = {node, 0, 0};
    strbuf err;
    sb_init(&err);
    t0 = proc_now_seconds();
    CHECK(pool_run(&o, down, 3, set_down_on_start, &ds, &err) == 0);
    sb_free(&err);
    took = proc_now_seconds() - t0;
    print_jobs("slurm: node down", down, 3);
    fprintf(stderr, "slurm: node-down run took %.1f s (%.1f s after DOWN)\n", took,
            proc_now_seconds() - ds.at);
    CHECK(ds.done && took < 60);
    int ran = 0, waited = 0;
    for (size_t i = 0; i < 3; i++) {
        CHECK(strcmp(down[i].status, "node_fail") == 0);
        if (strstr(down[i].detail, "NODE_FAIL") && strstr(down[i].detail, "cannot submit again"))
            ran++;
        else if (strstr(down[i].detail, "no usable node") && strstr(down[i].detail, "down"))
            waited++;
    }
    CHECK(ran == 1 && waited == 2);
    remove_work_dir();
}

/* keepers (gpu_keep.c): one `EXE --cl1-keep-gpu` per distinct GPU while GPU
 * jobs run (started before them, killed when the pool ends); none for a
 * pool of CPU jobs, none without keep_gpus_exe */
static void test_keepers(void)
{
    make_work_dir("keepers");
    char keeper[512];
    snprintf(keeper, sizeof keeper, "%s/keeper.sh", work);
    const char *script = "#!/bin/sh\n"
                         "echo \"$1 $$\" >> \"$KEEP_DIR/keep.$CUDA_VISIBLE_DEVICES\"\n"
                         "exec sleep 30\n";
    CHECK(file_write_atomic(keeper, script, strlen(script)) == 0 && chmod(keeper, 0755) == 0);
    setenv("KEEP_DIR", work, 1);
    pool_options o;
    pool_options_init(&o);
    o.gpus = "0,0,1"; /* two judges on GPU 0: one keeper there */
    o.keep_gpus_exe = keeper;
    enum { N = 4 };
    pool_job jobs[N];
    /* each GPU job sees its GPU's keeper already running (it waits a moment
     * for the keeper's line) */
    for (size_t i = 0; i < N; i++)
        shell_job(&jobs[i],
                  "for t in 1 2 3 4 5 6 7 8 9 10; do [ -s \"$1/keep.$CUDA_VISIBLE_DEVICES\" ] && break; "
                  "sleep 0.2; done; [ -s \"$1/keep.$CUDA_VISIBLE_DEVICES\" ] && : > \"$1/$2.kept\"",
                  i, 1);
    CHECK(run_pool(&o, jobs, N) == 0);
    for (size_t i = 0; i < N; i++)
        CHECK(pool_job_ok(&jobs[i]) && strcmp(read_text("%s/%zu.kept", i), "<missing>") != 0);
    for (size_t g = 0; g < 2; g++) {
        const char *line = read_text("%s/keep.%zu", g);
        long pid = 0;
        CHECK(sscanf(line, "--cl1-keep-gpu %ld", &pid) == 1 && !strchr(line, '\n'));
        CHECK(pid > 0 && pid_gone(pid)); /* killed when the pool ended */
    }
    /* CPU jobs only, or no keeper program: no keeper */
    remove_work_dir();
    make_work_dir("keepers-none");
    setenv("KEEP_DIR", work, 1);
    for (size_t i = 0; i < 2; i++)
        shell_job(&jobs[i], RECORD_SCRIPT, i, 0);
    CHECK(run_pool(&o, jobs, 2) == 0);
    o.keep_gpus_exe = NULL;
    for (size_t i = 0; i < 2; i++)
        shell_job(&jobs[i], RECORD_SCRIPT, i, 1);
    CHECK(run_pool(&o, jobs, 2) == 0);
    CHECK(strcmp(read_text("%s/keep.%zu", 0), "<missing>") == 0 &&
          strcmp(read_text("%s/keep.%zu", 1), "<missing>") == 0);
    remove_work_dir();
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } cases[] = {
        {"gpu_list", test_gpu_list}, {"spread", test_spread},       {"cpu_jobs", test_cpu_jobs},
        {"timeout", test_timeout},   {"retry", test_retry},         {"identical", test_identical},
        {"no_gpu", test_no_gpu},     {"deadline", test_deadline},   {"stop_signal", test_stop_signal},
        {"keepers", test_keepers},   {"slurm", slurm_case},
    };
    arena_init(&A);
    int ran = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (argc == 2 && strcmp(argv[1], cases[i].name) == 0) {
            cases[i].run();
            ran++;
        }
    }
    arena_free(&A);
    if (!ran) {
        fprintf(stderr, "test_pool: no case %s\n", argc > 1 ? argv[1] : "");
        return 2;
    }
    return CHECK_REPORT(argv[1]);
}
