/*
 * test_proc.c: proc_run's statuses, timeouts, group kills, capture, limits
 * and fd hygiene, signals passed on while waiting, and tempfiles removal at
 * exit and on signals.  One program, one ctest per case (argv[1]); it runs
 * itself as the helper child.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"
#include "tempfiles.h"

#include "check.h"

static const char *self_path = "/proc/self/exe";

static int path_exists(const char *p)
{
    struct stat st;
    return lstat(p, &st) == 0;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* the pid is gone or a zombie waiting for init */
static int pid_dead(long pid)
{
    for (int i = 0; i < 200; i++) {
        if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
            return 1;
        char path[64];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        char *text = NULL;
        size_t len = 0;
        if (file_read_all(path, 0, &text, &len) == 0) {
            const char *close_paren = strrchr(text, ')');
            int zombie = close_paren && (close_paren[2] == 'Z' || close_paren[2] == 'X');
            free(text);
            if (zombie)
                return 1;
        }
        sleep_ms(10);
    }
    return 0;
}

static void test_exit_codes(void)
{
    proc_result r;
    const char *a[] = {"sh", "-c", "exit 3", NULL};
    CHECK(proc_run(a, NULL, &r) == 0);
    CHECK(r.exited && r.exit_code == 3 && !r.signaled && !r.timed_out && !r.spawn_failed);
    CHECK(proc_shell_status(&r) == 3);
    proc_result_free(&r);
    const char *t[] = {"true", NULL};
    CHECK(proc_run(t, NULL, &r) == 0);
    CHECK(r.exited && r.exit_code == 0 && proc_shell_status(&r) == 0);
    proc_result_free(&r);
    const char *f[] = {"/bin/false", NULL};
    CHECK(proc_run(f, NULL, &r) == 0 && r.exited && r.exit_code == 1);
    proc_result_free(&r);
}

static void test_signal(void)
{
    proc_result r;
    const char *a[] = {"sh", "-c", "kill -SEGV $$", NULL};
    CHECK(proc_run(a, NULL, &r) == 0);
    CHECK(r.signaled && r.signal == SIGSEGV && !r.exited);
    CHECK(proc_shell_status(&r) == 139);
    proc_result_free(&r);
}

static void test_timeout(void)
{
    proc_result r;
    proc_options o = {0};
    o.limits.wall_seconds = 0.3;
    const char *a[] = {"sleep", "100", NULL};
    CHECK(proc_run(a, &o, &r) == 0);
    CHECK(r.timed_out && r.signaled && r.signal == SIGTERM);
    CHECK(r.wall_seconds >= 0.29 && r.wall_seconds < 2.0);
    CHECK(proc_shell_status(&r) == 124);
    proc_result_free(&r);
    /* a child that ends in time is not marked */
    o.limits.wall_seconds = 5;
    const char *q[] = {"sleep", "0.05", NULL};
    CHECK(proc_run(q, &o, &r) == 0 && !r.timed_out && r.exited && r.exit_code == 0);
    CHECK(r.wall_seconds < 2.0);
    proc_result_free(&r);
}

static void test_term_ignored(void)
{
    proc_result r;
    proc_options o = {0};
    o.limits.wall_seconds = 0.2;
    o.limits.grace_seconds = 0.3;
    const char *a[] = {"sh", "-c", "trap '' TERM; exec sleep 100", NULL};
    CHECK(proc_run(a, &o, &r) == 0);
    CHECK(r.timed_out && r.signaled && r.signal == SIGKILL);
    CHECK(r.wall_seconds >= 0.49 && r.wall_seconds < 3.0);
    CHECK(proc_shell_status(&r) == 124);
    proc_result_free(&r);
}

static void test_group(void)
{
    proc_result r;
    proc_options o = {0};
    o.new_process_group = 1;
    o.capture_stdout = 1;
    o.limits.wall_seconds = 0.4;
    const char *a[] = {"sh", "-c", "sleep 100 & echo $!; wait", NULL};
    CHECK(proc_run(a, &o, &r) == 0);
    CHECK(r.timed_out && r.signaled);
    long pid = strtol(sb_str(&r.out), NULL, 10);
    CHECK(pid > 1);
    if (pid > 1)
        CHECK(pid_dead(pid));
    proc_result_free(&r);
    /* the child exits by itself, leaving a grandchild that holds stdout:
     * it is killed at the end, and proc_run does not wait for it */
    o.limits.wall_seconds = 0;
    const char *b[] = {"sh", "-c", "sleep 100 & echo $!", NULL};
    CHECK(proc_run(b, &o, &r) == 0);
    CHECK(r.exited && r.exit_code == 0 && !r.timed_out && r.wall_seconds < 3.0);
    pid = strtol(sb_str(&r.out), NULL, 10);
    CHECK(pid > 1);
    if (pid > 1)
        CHECK(pid_dead(pid));
    proc_result_free(&r);
}

static void test_big_output(void)
{
    proc_result r;
    proc_options o = {0};
    o.capture_stdout = o.capture_stderr = 1;
    o.limits.wall_seconds = 20;
    const char *both[] = {"sh", "-c",
                          "head -c 5000000 /dev/zero >&2 & head -c 6000000 /dev/zero; wait", NULL};
    CHECK(proc_run(both, &o, &r) == 0);
    CHECK(r.exited && r.exit_code == 0 && !r.timed_out);
    CHECK(r.out.len == 6000000 && r.err.len == 5000000);
    CHECK(!r.out_truncated && !r.err_truncated);
    proc_result_free(&r);
    /* stderr filled first: a reader that blocks on stdout would deadlock */
    const char *seq[] = {"sh", "-c",
                         "head -c 4000000 /dev/zero >&2; head -c 3000000 /dev/zero", NULL};
    CHECK(proc_run(seq, &o, &r) == 0);
    CHECK(r.exited && r.exit_code == 0 && !r.timed_out);
    CHECK(r.out.len == 3000000 && r.err.len == 4000000);
    proc_result_free(&r);
}

static void test_capture_cap(void)
{
    proc_result r;
    proc_options o = {0};
    o.capture_stdout = o.capture_stderr = 1;
    o.capture_cap = 1000;
    const char *a[] = {"sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x; echo short >&2", NULL};
    CHECK(proc_run(a, &o, &r) == 0);
    CHECK(r.exited && r.exit_code == 0); /* read and dropped: no SIGPIPE */
    CHECK(r.out.len == 1000 && r.out_truncated);
    CHECK(r.out.data && r.out.data[0] == 'x' && r.out.data[999] == 'x' && r.out.data[1000] == '\0');
    CHECK(!r.err_truncated && strcmp(sb_str(&r.err), "short\n") == 0);
    proc_result_free(&r);
}

static void test_missing(void)
{
    proc_result r;
    const char *a[] = {"cl1cc-no-such-program-xyz", NULL};
    CHECK(proc_run(a, NULL, &r) == -1);
    CHECK(r.spawn_failed && r.spawn_errno == ENOENT && proc_shell_status(&r) == 127);
    proc_result_free(&r);
    const char *b[] = {"/nonexistent/prog", NULL};
    CHECK(proc_run(b, NULL, &r) == -1 && r.spawn_failed && r.spawn_errno == ENOENT);
    proc_result_free(&r);
    proc_options o = {0};
    o.cwd = "/nonexistent-dir-cl1cc";
    const char *t[] = {"true", NULL};
    CHECK(proc_run(t, &o, &r) == -1 && r.spawn_failed && r.spawn_errno == ENOENT);
    proc_result_free(&r);
    const char *none[] = {NULL};
    CHECK(proc_run(none, NULL, &r) == -1 && r.spawn_failed);
    proc_result_free(&r);
}

static void test_env(void)
{
    CHECK(setenv("CL1CC_TEST_GONE", "yes", 1) == 0);
    CHECK(setenv("CL1CC_TEST_KEPT", "kept", 1) == 0);
    const char *set[] = {"CL1CC_TEST_NEW=a=b c", "CL1CC_TEST_KEPT=changed", NULL};
    const char *unset[] = {"CL1CC_TEST_GONE", NULL};
    proc_options o = {0};
    o.env_set = set;
    o.env_unset = unset;
    o.capture_stdout = 1;
    proc_result r;
    const char *a[] = {"/usr/bin/env", NULL};
    CHECK(proc_run(a, &o, &r) == 0 && r.exited && r.exit_code == 0);
    const char *out = sb_str(&r.out);
    CHECK(strstr(out, "CL1CC_TEST_NEW=a=b c\n") != NULL);
    CHECK(strstr(out, "CL1CC_TEST_KEPT=changed\n") != NULL);
    CHECK(strstr(out, "CL1CC_TEST_GONE") == NULL);
    CHECK(strstr(out, "PATH=") != NULL); /* the rest is inherited */
    proc_result_free(&r);
    /* the parent's environment is untouched */
    CHECK(getenv("CL1CC_TEST_GONE") && strcmp(getenv("CL1CC_TEST_KEPT"), "kept") == 0);
    CHECK(getenv("CL1CC_TEST_NEW") == NULL);
    /* a name removes only itself, not the names it is a prefix of */
    const char *unset_prefix[] = {"CL1CC_TEST", NULL};
    proc_options p = {0};
    p.env_unset = unset_prefix;
    p.capture_stdout = 1;
    CHECK(proc_run(a, &p, &r) == 0 && r.exited && r.exit_code == 0);
    CHECK(strstr(sb_str(&r.out), "CL1CC_TEST_KEPT=kept\n") != NULL);
    proc_result_free(&r);
    /* an entry without a name is refused before anything runs */
    const char *bad[] = {"NO_EQUALS_SIGN", NULL};
    const char *bad2[] = {"=value", NULL};
    proc_options b = {0};
    b.env_set = bad;
    CHECK(proc_run(a, &b, &r) == -1 && r.spawn_failed && r.spawn_errno == EINVAL);
    proc_result_free(&r);
    b.env_set = bad2;
    CHECK(proc_run(a, &b, &r) == -1 && r.spawn_failed && r.spawn_errno == EINVAL);
    proc_result_free(&r);
}

static void test_cwd_stdin(void)
{
    strbuf dir;
    sb_init(&dir);
    CHECK(tempfiles_make_dir("cl1cc-proc-", &dir) == 0);
    char *real = realpath(sb_str(&dir), NULL);
    CHECK(real != NULL);
    proc_options o = {0};
    o.cwd = sb_str(&dir);
    o.capture_stdout = 1;
    proc_result r;
    const char *a[] = {"/bin/pwd", "-P", NULL};
    CHECK(proc_run(a, &o, &r) == 0 && r.exited && r.exit_code == 0);
    strbuf want;
    sb_init(&want);
    sb_printf(&want, "%s\n", real ? real : "?");
    CHECK(strcmp(sb_str(&r.out), sb_str(&want)) == 0);
    proc_result_free(&r);
    o.cwd = NULL;
    o.stdin_path = "/dev/null";
    const char *c[] = {"cat", NULL};
    CHECK(proc_run(c, &o, &r) == 0 && r.exited && r.exit_code == 0 && r.out.len == 0);
    proc_result_free(&r);
    free(real);
    sb_free(&want);
    tempfiles_cleanup();
    CHECK(!path_exists(sb_str(&dir)));
    sb_free(&dir);
}

static void test_limits(void)
{
    strbuf dir;
    sb_init(&dir);
    CHECK(tempfiles_make_dir("cl1cc-proc-", &dir) == 0);
    proc_options o = {0};
    o.cwd = sb_str(&dir);
    o.limits.file_size_bytes = 100000;
    o.limits.no_core = 1;
    o.limits.wall_seconds = 10;
    proc_result r;
    const char *a[] = {"sh", "-c", "exec head -c 10000000 /dev/zero > big", NULL};
    CHECK(proc_run(a, &o, &r) == 0);
    CHECK(r.signaled && r.signal == SIGXFSZ && !r.timed_out);
    strbuf big;
    sb_init(&big);
    sb_printf(&big, "%s/big", sb_str(&dir));
    struct stat st;
    CHECK(stat(sb_str(&big), &st) == 0 && st.st_size == 100000);
    proc_result_free(&r);
    /* RLIMIT_CPU: a busy loop gets SIGXCPU after one second of CPU */
    proc_options c = {0};
    c.limits.cpu_seconds = 1;
    c.limits.wall_seconds = 10;
    const char *spin[] = {"sh", "-c", "while :; do :; done", NULL};
    CHECK(proc_run(spin, &c, &r) == 0);
    CHECK(r.signaled && (r.signal == SIGXCPU || r.signal == SIGKILL) && !r.timed_out);
    proc_result_free(&r);
    /* RLIMIT_NOFILE and RLIMIT_CORE as the child sees them */
    proc_options n = {0};
    n.limits.open_files = 17;
    n.limits.no_core = 1;
    n.capture_stdout = 1;
    const char *ul[] = {"sh", "-c", "ulimit -n; ulimit -c", NULL};
    CHECK(proc_run(ul, &n, &r) == 0 && r.exited && r.exit_code == 0);
    CHECK(strcmp(sb_str(&r.out), "17\n0\n") == 0);
    proc_result_free(&r);
    sb_free(&big);
    tempfiles_cleanup();
    CHECK(!path_exists(sb_str(&dir)));
    sb_free(&dir);
}

static void test_fd_leak(void)
{
    int a = open("/dev/null", O_RDONLY); /* deliberately without O_CLOEXEC */
    CHECK(a >= 0);
    CHECK(dup2(a, 50) == 50 && dup2(a, 51) == 51);
    proc_options o = {0};
    o.capture_stdout = 1;
    o.capture_stderr = 1;
    proc_result r;
    const char *ls[] = {"ls", "/proc/self/fd", NULL};
    CHECK(proc_run(ls, &o, &r) == 0 && r.exited && r.exit_code == 0);
    /* 0 1 2, and the one ls reads the directory through */
    CHECK(strcmp(sb_str(&r.out), "0\n1\n2\n3\n") == 0);
    if (strcmp(sb_str(&r.out), "0\n1\n2\n3\n") != 0)
        fprintf(stderr, "child fds:\n%s", sb_str(&r.out));
    proc_result_free(&r);
    close(a);
    close(50);
    close(51);
}

/* With 0, 1 and 2 closed in the parent, the pipes land there: the child still
 * gets its stdin, stdout and stderr, and an exec failure is still reported. */
static void test_closed_stdio(void)
{
    int saved[3];
    for (int i = 0; i < 3; i++) {
        saved[i] = fcntl(i, F_DUPFD_CLOEXEC, 10);
        CHECK(saved[i] >= 10);
    }
    fflush(NULL);
    close(0), close(1), close(2);
    proc_options o = {0};
    o.capture_stdout = o.capture_stderr = 1;
    o.stdin_path = "/dev/null";
    proc_result r, missing;
    const char *a[] = {"sh", "-c", "cat && echo out && echo err >&2", NULL};
    int rc = proc_run(a, &o, &r);
    const char *m[] = {"cl1cc-no-such-program-xyz", NULL};
    int mrc = proc_run(m, &o, &missing);
    for (int i = 0; i < 3; i++)
        if (saved[i] >= 0)
            dup2(saved[i], i), close(saved[i]);
    CHECK(rc == 0 && r.exited && r.exit_code == 0);
    CHECK(strcmp(sb_str(&r.out), "out\n") == 0 && strcmp(sb_str(&r.err), "err\n") == 0);
    CHECK(mrc == -1 && missing.spawn_failed && missing.spawn_errno == ENOENT);
    proc_result_free(&r);
    proc_result_free(&missing);
}

/* ---- helpers run as a separate process ------------------------------------ */

/* The helper's stdout, read line by line with a deadline, so that a missing
 * line fails the test at once instead of hanging on a pipe a leftover
 * process still holds. */
typedef struct helper_out {
    int fd;
    char buf[8192];
    size_t len;
} helper_out;

/* Starts this program with args, stdout to a pipe (out), default signal
 * dispositions, and in a process group of its own when own_group is set. */
static pid_t spawn_helper(const char *const args[], int own_group, helper_out *out)
{
    int p[2];
    out->fd = -1;
    out->len = 0;
    if (pipe2(p, O_CLOEXEC) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        for (int sig = 1; sig < NSIG; sig++)
            signal(sig, SIG_DFL);
        if (own_group)
            setpgid(0, 0);
        dup2(p[1], 1);
        execv(self_path, (char *const *)args);
        _exit(127);
    }
    close(p[1]);
    if (pid < 0) {
        close(p[0]);
        return -1;
    }
    if (own_group)
        setpgid(pid, pid);
    out->fd = p[0];
    return pid;
}

static int read_line(helper_out *h, char *line, size_t size)
{
    for (int waited_ms = 0; h->fd >= 0 && waited_ms < 5000;) {
        char *nl = memchr(h->buf, '\n', h->len);
        if (nl) {
            size_t n = (size_t)(nl - h->buf);
            if (n >= size)
                n = size - 1;
            memcpy(line, h->buf, n);
            line[n] = '\0';
            size_t used = (size_t)(nl - h->buf) + 1;
            memmove(h->buf, h->buf + used, h->len - used);
            h->len -= used;
            return 0;
        }
        struct pollfd pfd = {.fd = h->fd, .events = POLLIN};
        int r = poll(&pfd, 1, 100);
        if (r == 0) {
            waited_ms += 100;
            continue;
        }
        if (r < 0 && errno == EINTR)
            continue;
        ssize_t got = r > 0 && h->len < sizeof h->buf
                          ? read(h->fd, h->buf + h->len, sizeof h->buf - h->len)
                          : -1;
        if (got <= 0)
            break;
        h->len += (size_t)got;
    }
    fprintf(stderr, "no line from the helper\n");
    return -1;
}

static void helper_close(helper_out *h)
{
    if (h->fd >= 0)
        close(h->fd);
    h->fd = -1;
}

/* The helper's wait status; a helper still running after 5 s fails the
 * check and is killed, so that a broken build does not hang the test. */
static int wait_status(pid_t pid, double *seconds)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int status = -1;
    for (int i = 0;; i++) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR))
            break;
        if (i == 500) {
            fprintf(stderr, "helper %ld still running: killed\n", (long)pid);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            status = -1;
            break;
        }
        sleep_ms(10);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (seconds)
        *seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    return status;
}

/* Checks that a descendant of the helper is gone; kills it when not. */
static void check_gone(long pid)
{
    if (pid <= 1)
        return;
    int gone = pid_dead(pid);
    CHECK(gone);
    if (!gone)
        kill((pid_t)pid, SIGKILL);
}

/* helper: registers a temporary directory, prints it, runs `sh -c script`
 * with stdout passed through, then prints the shell status and exits 0 */
static int helper_run(const char *group, const char *script)
{
    tempfiles_install_handlers();
    strbuf dir;
    sb_init(&dir);
    if (tempfiles_make_dir("cl1cc-proc-helper-", &dir) != 0)
        return 2;
    printf("%s\n", sb_str(&dir));
    fflush(stdout);
    sb_free(&dir);
    proc_options o = {0};
    o.new_process_group = strcmp(group, "1") == 0;
    o.limits.grace_seconds = 0.3;
    proc_result r;
    const char *a[] = {"sh", "-c", script, NULL};
    int rc = proc_run(a, &o, &r);
    printf("status %d\n", rc == 0 ? proc_shell_status(&r) : -1);
    proc_result_free(&r);
    return 0;
}

/* Prints "child grandchild" pids and waits on the grandchild; says when the
 * signal reached it (the parent's death alone would SIGKILL it silently). */
static const char term_script[] =
    "trap 'echo got-term; exit 3' TERM; sleep 100 & echo $$ $!; wait";
static const char int_script[] =
    "trap 'echo got-int; exit 3' INT; sleep 100 & echo $$ $!; wait";

/* SIGTERM to cl1cc while it waits on a child in its own group: the whole
 * group stops, the temporaries go, and cl1cc dies of SIGTERM. */
static void test_forward_group(void)
{
    helper_out out;
    const char *args[] = {self_path, "helper-run", "1", term_script, NULL};
    pid_t h = spawn_helper(args, 0, &out);
    CHECK(h > 0);
    char dir[4096] = "", pids[128] = "";
    CHECK(read_line(&out, dir, sizeof dir) == 0 && strstr(dir, "cl1cc-proc-helper-"));
    CHECK(read_line(&out, pids, sizeof pids) == 0);
    long child = 0, grandchild = 0;
    CHECK(sscanf(pids, "%ld %ld", &child, &grandchild) == 2 && child > 1 && grandchild > 1);
    CHECK(h > 0 && kill(h, SIGTERM) == 0);
    char marker[64] = "";
    CHECK(read_line(&out, marker, sizeof marker) == 0 && strcmp(marker, "got-term") == 0);
    double secs = 0;
    int st = h > 0 ? wait_status(h, &secs) : -1;
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    CHECK(secs < 3.0);
    CHECK(dir[0] && !path_exists(dir));
    check_gone(child);
    check_gone(grandchild);
    helper_close(&out);
}

/* The same with a child in cl1cc's own group: the child gets the SIGTERM
 * (its background grandchild is not ours to kill then). */
static void test_forward_same(void)
{
    helper_out out;
    const char *args[] = {self_path, "helper-run", "0", term_script, NULL};
    pid_t h = spawn_helper(args, 0, &out);
    CHECK(h > 0);
    char dir[4096] = "", pids[128] = "";
    CHECK(read_line(&out, dir, sizeof dir) == 0 && strstr(dir, "cl1cc-proc-helper-"));
    CHECK(read_line(&out, pids, sizeof pids) == 0);
    long child = 0, grandchild = 0;
    CHECK(sscanf(pids, "%ld %ld", &child, &grandchild) == 2 && child > 1 && grandchild > 1);
    CHECK(h > 0 && kill(h, SIGTERM) == 0);
    char marker[64] = "";
    CHECK(read_line(&out, marker, sizeof marker) == 0 && strcmp(marker, "got-term") == 0);
    double secs = 0;
    int st = h > 0 ? wait_status(h, &secs) : -1;
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    CHECK(secs < 3.0);
    CHECK(dir[0] && !path_exists(dir));
    check_gone(child);
    if (grandchild > 1)
        kill((pid_t)grandchild, SIGKILL); /* not ours to kill in this mode */
    helper_close(&out);
}

/* ^C at a terminal: SIGINT to the foreground group, cl1cc and its child.
 * cl1cc ignores it while waiting, like system(3); the child dies of it and
 * cl1cc reports 130 and exits normally. */
static void test_sigint_same(void)
{
    helper_out out;
    const char *args[] = {self_path, "helper-run", "0", "echo $$; exec sleep 100", NULL};
    pid_t h = spawn_helper(args, 1, &out);
    CHECK(h > 0);
    char dir[4096] = "", line[128] = "";
    CHECK(read_line(&out, dir, sizeof dir) == 0 && strstr(dir, "cl1cc-proc-helper-"));
    CHECK(read_line(&out, line, sizeof line) == 0 && strtol(line, NULL, 10) > 1);
    CHECK(h > 0 && kill(-h, SIGINT) == 0);
    CHECK(read_line(&out, line, sizeof line) == 0 && strcmp(line, "status 130") == 0);
    int st = h > 0 ? wait_status(h, NULL) : -1;
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK(dir[0] && !path_exists(dir));
    helper_close(&out);
}

/* A ^C that came during the wait while cl1cc had SIGINT blocked (between
 * two polls, as when the child's exec woke it and the child died of the same
 * ^C) is ignored like the rest: it is not left pending for the handler that
 * comes back after the wait.  The caller's mask blocks SIGINT here, so every
 * SIGINT of the wait comes while blocked: deterministic. */
static void test_sigint_pending(void)
{
    sigset_t intr, old, pending;
    sigemptyset(&intr);
    sigaddset(&intr, SIGINT);
    struct sigaction mark, saved, after;
    memset(&mark, 0, sizeof mark);
    mark.sa_handler = SIG_DFL;
    sigemptyset(&mark.sa_mask);
    CHECK(sigaction(SIGINT, &mark, &saved) == 0);
    CHECK(sigprocmask(SIG_BLOCK, &intr, &old) == 0);
    const char *a[] = {"sh", "-c", "kill -INT $PPID; exit 5", NULL};
    proc_result r;
    int rc = proc_run(a, NULL, &r);
    CHECK(rc == 0 && r.exited && r.exit_code == 5);
    proc_result_free(&r);
    CHECK(sigpending(&pending) == 0);
    int left = sigismember(&pending, SIGINT);
    CHECK(left == 0);
    CHECK(sigaction(SIGINT, NULL, &after) == 0 && after.sa_handler == SIG_DFL);
    if (left) { /* drop it, so that the test reports instead of dying */
        struct sigaction ign = mark;
        ign.sa_handler = SIG_IGN;
        sigaction(SIGINT, &ign, NULL);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    sigaction(SIGINT, &saved, NULL);
}

/* SIGINT to cl1cc whose child runs in a group of its own (the terminal cannot
 * reach it): passed on, then cl1cc dies of SIGINT after cleaning up. */
static void test_sigint_group(void)
{
    helper_out out;
    const char *args[] = {self_path, "helper-run", "1", int_script, NULL};
    pid_t h = spawn_helper(args, 1, &out);
    CHECK(h > 0);
    char dir[4096] = "", pids[128] = "", marker[64] = "";
    CHECK(read_line(&out, dir, sizeof dir) == 0 && strstr(dir, "cl1cc-proc-helper-"));
    CHECK(read_line(&out, pids, sizeof pids) == 0);
    long child = 0, grandchild = 0;
    CHECK(sscanf(pids, "%ld %ld", &child, &grandchild) == 2 && child > 1 && grandchild > 1);
    CHECK(h > 0 && kill(h, SIGINT) == 0);
    CHECK(read_line(&out, marker, sizeof marker) == 0 && strcmp(marker, "got-int") == 0);
    double secs = 0;
    int st = h > 0 ? wait_status(h, &secs) : -1;
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT);
    CHECK(secs < 3.0);
    CHECK(dir[0] && !path_exists(dir));
    check_gone(child);
    /* a background job ignores SIGINT: the group's SIGKILL at the end took it */
    check_gone(grandchild);
    helper_close(&out);
}

/* ---- tempfiles ----------------------------------------------------------- */

static void fill_dir(const char *dir)
{
    strbuf p;
    sb_init(&p);
    sb_printf(&p, "%s/a/b/c", dir);
    CHECK(dir_create_all(sb_str(&p), 0700) == 0);
    const char *files[] = {"f1", "a/f2", "a/b/f3", "a/b/c/f4", ".hidden"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        sb_clear(&p);
        sb_printf(&p, "%s/%s", dir, files[i]);
        CHECK(file_write_atomic(sb_str(&p), "x", 1) == 0);
    }
    sb_clear(&p);
    sb_printf(&p, "%s/a/link", dir);
    CHECK(symlink("/tmp", sb_str(&p)) == 0); /* removed, never followed */
    sb_free(&p);
}

/* helper child: registers a filled directory, prints it, then exits or waits */
static int helper_tempdir(int wait_for_signal)
{
    tempfiles_install_handlers();
    tempfiles_install_handlers(); /* idempotent */
    strbuf dir;
    sb_init(&dir);
    if (tempfiles_make_dir("cl1cc-proc-helper-", &dir) != 0)
        return 2;
    fill_dir(sb_str(&dir));
    printf("%s\n", sb_str(&dir));
    fflush(stdout);
    sb_free(&dir);
    if (wait_for_signal)
        for (;;)
            pause();
    return failures ? 3 : 0;
}

static void strip_newline(strbuf *sb)
{
    while (sb->len && sb->data[sb->len - 1] == '\n')
        sb->data[--sb->len] = '\0';
}

static void test_tempfiles_exit(void)
{
    /* in process: cleanup removes files and trees, unregister keeps them */
    strbuf d1, d2;
    sb_init(&d1);
    sb_init(&d2);
    CHECK(tempfiles_make_dir("cl1cc-proc-", &d1) == 0);
    CHECK(tempfiles_make_dir("cl1cc-proc-", &d2) == 0);
    fill_dir(sb_str(&d1));
    strbuf file;
    sb_init(&file);
    sb_printf(&file, "%s/kept-file", sb_str(&d2));
    CHECK(file_write_atomic(sb_str(&file), "y", 1) == 0);
    tempfiles_unregister(sb_str(&d2));
    CHECK(tempfiles_register(sb_str(&file)) == 0);
    CHECK(tempfiles_register("") == -1);
    tempfiles_cleanup();
    CHECK(!path_exists(sb_str(&d1)));
    CHECK(path_exists(sb_str(&d2)) && !path_exists(sb_str(&file)));
    CHECK(rmdir(sb_str(&d2)) == 0);
    tempfiles_cleanup(); /* nothing left: harmless */

    /* a helper that registers and exits normally */
    proc_options o = {0};
    o.capture_stdout = 1;
    o.limits.wall_seconds = 20;
    proc_result r;
    const char *a[] = {self_path, "helper-exit", NULL};
    CHECK(proc_run(a, &o, &r) == 0 && r.exited && r.exit_code == 0);
    strip_newline(&r.out);
    CHECK(strstr(sb_str(&r.out), "cl1cc-proc-helper-") != NULL);
    CHECK(r.out.len > 0 && !path_exists(sb_str(&r.out)));
    proc_result_free(&r);
    sb_free(&d1);
    sb_free(&d2);
    sb_free(&file);
}

/* a helper that registers a filled directory, then is signalled: the
 * directory is gone and the helper's status names the signal */
static void test_tempfiles_signal(void)
{
    const int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        helper_out out;
        const char *args[] = {self_path, "helper-wait", NULL};
        pid_t h = spawn_helper(args, 0, &out);
        CHECK(h > 0);
        char dir[4096] = "";
        CHECK(read_line(&out, dir, sizeof dir) == 0 && strstr(dir, "cl1cc-proc-helper-"));
        CHECK(dir[0] && path_exists(dir)); /* it was there while the helper ran */
        CHECK(h > 0 && kill(h, sigs[i]) == 0);
        int st = h > 0 ? wait_status(h, NULL) : -1;
        CHECK(WIFSIGNALED(st) && WTERMSIG(st) == sigs[i]);
        if (!WIFSIGNALED(st) || WTERMSIG(st) != sigs[i])
            fprintf(stderr, "signal %d: helper status 0x%x\n", sigs[i], (unsigned)st);
        CHECK(dir[0] && !path_exists(dir));
        helper_close(&out);
    }
    /* proc_run's own SIGTERM at the wall limit does the same */
    proc_options o = {0};
    o.capture_stdout = 1;
    o.limits.wall_seconds = 1.0;
    o.limits.grace_seconds = 5;
    proc_result r;
    const char *a[] = {self_path, "helper-wait", NULL};
    CHECK(proc_run(a, &o, &r) == 0);
    CHECK(r.timed_out && r.signaled && r.signal == SIGTERM); /* re-raised */
    CHECK(r.wall_seconds < 4.0);
    strip_newline(&r.out);
    CHECK(strstr(sb_str(&r.out), "cl1cc-proc-helper-") != NULL);
    CHECK(r.out.len > 0 && !path_exists(sb_str(&r.out)));
    proc_result_free(&r);
}

/* proc_spawn + proc_wait_children + proc_child_poll: output to files, the
 * group's leftovers killed at the end, exec failures reported at once */
static void test_spawn(void)
{
    char dir[] = "/tmp/cl1cc-proc-spawn-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char out[128], err[128];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(err, sizeof err, "%s/err", dir);
    proc_options o = {0};
    o.new_process_group = 1;
    o.stdout_path = out;
    o.stderr_path = err;
    o.stdin_path = "/dev/null";
    const char *a[] = {"sh", "-c", "sleep 100 & echo $!; echo oops >&2; exit 3", NULL};
    proc_child c;
    int e = -1;
    CHECK(proc_spawn(a, &o, &c, &e) == 0 && e == 0 && c.pid > 0);
    proc_result r;
    int got = 0;
    for (int i = 0; i < 500 && got == 0; i++) {
        proc_child *list[] = {&c};
        CHECK(proc_wait_children(list, 1, 0.1, NULL) == 0);
        got = proc_child_poll(&c, &r);
        if (got == 0)
            proc_result_free(&r);
    }
    CHECK(got == 1 && r.exited && r.exit_code == 3 && c.pid == 0);
    proc_result_free(&r);
    char *text = NULL;
    size_t len = 0;
    CHECK(file_read_all(out, 0, &text, &len) == 0);
    long pid = text ? strtol(text, NULL, 10) : 0;
    CHECK(pid > 1 && pid_dead(pid));
    free(text);
    CHECK(file_read_all(err, 0, &text, &len) == 0 && strcmp(text, "oops\n") == 0);
    free(text);
    /* a signal from the caller reaches the whole group */
    const char *b[] = {"sh", "-c", "sleep 100; exit 0", NULL};
    CHECK(proc_spawn(b, &o, &c, &e) == 0);
    proc_child_signal(&c, SIGTERM);
    got = 0;
    for (int i = 0; i < 500 && got == 0; i++) {
        proc_child *list[] = {&c};
        proc_wait_children(list, 1, 0.1, NULL);
        got = proc_child_poll(&c, &r);
        if (got == 0)
            proc_result_free(&r);
    }
    CHECK(got == 1 && r.signaled && r.signal == SIGTERM);
    proc_result_free(&r);
    /* exec failures and bad requests come back from proc_spawn itself */
    const char *m[] = {"/nonexistent/cl1cc-no-such-program", NULL};
    CHECK(proc_spawn(m, &o, &c, &e) == -1 && e == ENOENT && c.pid == 0);
    o.stdout_path = "/nonexistent/dir/out";
    CHECK(proc_spawn(b, &o, &c, &e) == -1 && e == ENOENT);
    proc_options cap = {0};
    cap.capture_stdout = 1;
    CHECK(proc_spawn(b, &cap, &c, &e) == -1 && e == EINVAL);
    unlink(out);
    unlink(err);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } cases[] = {
        {"exit", test_exit_codes},       {"signal", test_signal},
        {"timeout", test_timeout},       {"term_ignored", test_term_ignored},
        {"group", test_group},           {"big_output", test_big_output},
        {"capture_cap", test_capture_cap}, {"missing", test_missing},
        {"env", test_env},               {"cwd_stdin", test_cwd_stdin},
        {"limits", test_limits},         {"fd_leak", test_fd_leak},
        {"closed_stdio", test_closed_stdio},
        {"forward_group", test_forward_group}, {"forward_same", test_forward_same},
        {"sigint_same", test_sigint_same}, {"sigint_group", test_sigint_group},
        {"sigint_pending", test_sigint_pending},
        {"tempfiles_exit", test_tempfiles_exit}, {"tempfiles_signal", test_tempfiles_signal},
        {"spawn", test_spawn},
    };
    if (argc == 2 && strcmp(argv[1], "helper-exit") == 0)
        return helper_tempdir(0);
    if (argc == 2 && strcmp(argv[1], "helper-wait") == 0)
        return helper_tempdir(1);
    if (argc == 4 && strcmp(argv[1], "helper-run") == 0)
        return helper_run(argv[2], argv[3]);
    int ran = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (argc < 2 || strcmp(argv[1], cases[i].name) == 0) {
            cases[i].run();
            ran++;
        }
    }
    if (!ran) {
        fprintf(stderr, "test_proc: no case %s\n", argc > 1 ? argv[1] : "");
        return 2;
    }
    return CHECK_REPORT(argc > 1 ? argv[1] : "test_proc");
}
