/*
 * proc.c: fork + execvp with limits, output capture through poll(), a wall
 * clock with SIGTERM then SIGKILL of the child's process group, and exec
 * failures reported back through a close-on-exec pipe.
 */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_CAPTURE_CAP ((size_t)16 << 20)

static double now_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0; /* cannot happen for CLOCK_MONOTONIC on Linux */
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void close_fd(int *fd)
{
    if (*fd >= 0) {
        close(*fd); /* on Linux the fd is released even on EINTR */
        *fd = -1;
    }
}

/* ---- child side: only async-signal-safe calls (and setenv, see below) -- */

static _Noreturn void child_fail(int errpipe)
{
    int e = errno;
    ssize_t n;
    do
        n = write(errpipe, &e, sizeof e);
    while (n < 0 && errno == EINTR);
    _exit(127);
}

/* Closes every fd from lo up (lo > 2), except keep. */
static int close_span(unsigned first, unsigned last)
{
#ifdef SYS_close_range
    return (int)syscall(SYS_close_range, first, last, 0u);
#else
    errno = ENOSYS;
    return -1;
#endif
}

static void child_close_from(int lo, int keep)
{
    int ok;
    if (keep >= lo) {
        ok = (keep == lo || close_span((unsigned)lo, (unsigned)keep - 1) == 0)
             && close_span((unsigned)keep + 1, ~0u) == 0;
    } else {
        ok = close_span((unsigned)lo, ~0u) == 0;
    }
    if (ok)
        return;
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 1 << 20)
        max = 1 << 20;
    for (int fd = lo; fd < max; fd++)
        if (fd != keep)
            close(fd);
}

static int child_set_limit(int resource, rlim_t value)
{
    struct rlimit old, lim;
    if (getrlimit(resource, &old) != 0)
        return -1;
    lim.rlim_cur = value;
    lim.rlim_max = value;
    if (old.rlim_max != RLIM_INFINITY && old.rlim_max < value)
        lim.rlim_cur = lim.rlim_max = old.rlim_max;
    return setrlimit(resource, &lim);
}

static _Noreturn void child_exec(const char *const argv[], const proc_options *opt, pid_t parent,
                                 int errpipe, int out_w, int err_w)
{
    /* Dispositions and mask first: the parent ignores SIGINT/SIGQUIT while
     * it waits and may have handlers of its own. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGSTOP)
            sigaction(sig, &dfl, NULL); /* fails harmlessly for reserved ones */
    sigset_t none;
    sigemptyset(&none);
    if (sigprocmask(SIG_SETMASK, &none, NULL) != 0)
        child_fail(errpipe);

    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
        child_fail(errpipe);
    if (getppid() != parent) /* the parent died before prctl took effect */
        _exit(127);
    if (opt->new_process_group && setpgid(0, 0) != 0)
        child_fail(errpipe);

    if (opt->stdin_path) {
        int fd = open(opt->stdin_path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || dup2(fd, 0) < 0)
            child_fail(errpipe);
        if (fd != 0)
            close(fd);
    }
    if (out_w >= 0 && dup2(out_w, 1) < 0)
        child_fail(errpipe);
    if (err_w >= 0 && dup2(err_w, 2) < 0)
        child_fail(errpipe);
    child_close_from(3, errpipe);

    if (opt->cwd && chdir(opt->cwd) != 0)
        child_fail(errpipe);
    const proc_limits *lim = &opt->limits;
    if (lim->cpu_seconds > 0 && child_set_limit(RLIMIT_CPU, (rlim_t)lim->cpu_seconds) != 0)
        child_fail(errpipe);
    if (lim->file_size_bytes > 0 && child_set_limit(RLIMIT_FSIZE, (rlim_t)lim->file_size_bytes) != 0)
        child_fail(errpipe);
    if (lim->open_files > 0 && child_set_limit(RLIMIT_NOFILE, (rlim_t)lim->open_files) != 0)
        child_fail(errpipe);
    if (lim->no_core && child_set_limit(RLIMIT_CORE, 0) != 0)
        child_fail(errpipe);

    /* setenv is not async-signal-safe; cl1cc spawns from a single thread, so
     * no lock can be held across the fork. */
    for (const char *const *u = opt->env_unset; u && *u; u++)
        if (unsetenv(*u) != 0)
            child_fail(errpipe);
    for (const char *const *s = opt->env_set; s && *s; s++) {
        const char *eq = strchr(*s, '=');
        char name[256];
        size_t n = eq ? (size_t)(eq - *s) : 0;
        if (!eq || n == 0 || n >= sizeof name) {
            errno = EINVAL;
            child_fail(errpipe);
        }
        memcpy(name, *s, n);
        name[n] = '\0';
        if (setenv(name, eq + 1, 1) != 0)
            child_fail(errpipe);
    }

    execvp(argv[0], (char *const *)argv);
    child_fail(errpipe);
}

/* ---- parent side --------------------------------------------------------- */

typedef struct capture {
    int fd;
    strbuf *sb;
    int *truncated;
    size_t cap;
} capture;

/* Reads what is there; returns 0 at end of file (fd closed), 1 otherwise. */
static int capture_read(capture *c)
{
    char buf[65536];
    ssize_t n = read(c->fd, buf, sizeof buf);
    if (n < 0) {
        if (errno == EINTR || errno == EAGAIN)
            return 1;
        log_warn("reading a child's output: %s", strerror(errno));
        close_fd(&c->fd);
        return 0;
    }
    if (n == 0) {
        close_fd(&c->fd);
        return 0;
    }
    size_t room = c->sb->len < c->cap ? c->cap - c->sb->len : 0;
    size_t keep = (size_t)n < room ? (size_t)n : room;
    if (keep)
        sb_append(c->sb, buf, keep);
    if (keep < (size_t)n)
        *c->truncated = 1;
    return 1;
}

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
    int fd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (fd >= 0 && fcntl(fd, F_SETFD, FD_CLOEXEC) == 0)
        return fd;
    if (fd >= 0)
        close(fd);
#endif
    return -1;
}

/* 1 when the child has exited (still a zombie, so its pid and process group
 * id cannot be reused yet), 0 when it runs. */
static int child_has_exited(pid_t pid)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    for (;;) {
        if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0)
            return info.si_pid == pid;
        if (errno != EINTR) {
            log_warn("waitid: %s", strerror(errno));
            return 1; /* reaping below reports it */
        }
    }
}

static void signal_child(pid_t pid, int group, int sig)
{
    if (group && kill(-pid, sig) == 0)
        return;
    if (kill(pid, sig) != 0 && errno != ESRCH)
        log_warn("kill %ld: %s", (long)pid, strerror(errno));
}

void proc_result_free(proc_result *res)
{
    sb_free(&res->out);
    sb_free(&res->err);
}

int proc_shell_status(const proc_result *res)
{
    if (res->spawn_failed)
        return 127;
    if (res->timed_out)
        return 124;
    if (res->signaled)
        return 128 + res->signal;
    if (res->exited)
        return res->exit_code;
    return 127;
}

static int make_pipe(int fds[2])
{
    if (pipe2(fds, O_CLOEXEC) != 0) {
        fds[0] = fds[1] = -1;
        return -1;
    }
    return 0;
}

int proc_run(const char *const argv[], const proc_options *opt_in, proc_result *res)
{
    static const proc_options defaults;
    const proc_options *opt = opt_in ? opt_in : &defaults;
    memset(res, 0, sizeof *res);
    sb_init(&res->out);
    sb_init(&res->err);
    if (!argv || !argv[0]) {
        res->spawn_failed = 1;
        res->spawn_errno = EINVAL;
        return -1;
    }

    int errp[2] = {-1, -1}, outp[2] = {-1, -1}, errout[2] = {-1, -1};
    if (make_pipe(errp) != 0 || (opt->capture_stdout && make_pipe(outp) != 0)
        || (opt->capture_stderr && make_pipe(errout) != 0)) {
        res->spawn_failed = 1;
        res->spawn_errno = errno;
        close_fd(&errp[0]), close_fd(&errp[1]), close_fd(&outp[0]), close_fd(&outp[1]);
        close_fd(&errout[0]), close_fd(&errout[1]);
        return -1;
    }

    /* like system(3): a ^C at the terminal goes to the child, which decides */
    struct sigaction ign, old_int, old_quit;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);

    double start = now_seconds();
    pid_t parent = getpid();
    fflush(NULL); /* so buffered output is not written twice */
    pid_t pid = fork();
    if (pid == 0)
        child_exec(argv, opt, parent, errp[1], outp[1], errout[1]);
    int fork_errno = errno;
    close_fd(&errp[1]);
    close_fd(&outp[1]);
    close_fd(&errout[1]);
    if (pid < 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        close_fd(&errp[0]), close_fd(&outp[0]), close_fd(&errout[0]);
        res->spawn_failed = 1;
        res->spawn_errno = fork_errno;
        return -1;
    }
    int group = opt->new_process_group;
    if (group)
        setpgid(pid, pid); /* also in the child; whichever runs first wins */

    size_t cap = opt->capture_cap ? opt->capture_cap : DEFAULT_CAPTURE_CAP;
    capture caps[2] = {{outp[0], &res->out, &res->out_truncated, cap},
                       {errout[0], &res->err, &res->err_truncated, cap}};
    int child_errno = 0;
    size_t errno_got = 0;
    int pidfd = open_pidfd(pid);
    int exited = 0;
    double grace = opt->limits.grace_seconds > 0 ? opt->limits.grace_seconds : 1.0;
    double term_at = opt->limits.wall_seconds > 0 ? start + opt->limits.wall_seconds : 0;
    double kill_at = 0;
    double drain_until = 0; /* after the exit, how long leftover writers may hold the pipes */

    for (;;) {
        if (!exited && child_has_exited(pid)) {
            exited = 1;
            if (group)
                kill(-pid, SIGKILL); /* leftovers of the group; fails if none */
            drain_until = now_seconds() + 1.0;
        }
        if (exited && caps[0].fd < 0 && caps[1].fd < 0 && errp[0] < 0)
            break;
        double t = now_seconds();
        if (exited && t >= drain_until)
            break;
        if (!exited && term_at > 0 && t >= term_at && !res->timed_out) {
            res->timed_out = 1;
            signal_child(pid, group, SIGTERM);
            kill_at = t + grace;
        }
        if (!exited && kill_at > 0 && t >= kill_at) {
            signal_child(pid, group, SIGKILL);
            kill_at = 0;
        }

        struct pollfd pfd[4];
        int n = 0;
        for (int i = 0; i < 2; i++)
            if (caps[i].fd >= 0)
                pfd[n++] = (struct pollfd){.fd = caps[i].fd, .events = POLLIN};
        if (errp[0] >= 0)
            pfd[n++] = (struct pollfd){.fd = errp[0], .events = POLLIN};
        if (!exited && pidfd >= 0)
            pfd[n++] = (struct pollfd){.fd = pidfd, .events = POLLIN};
        double wake = exited ? drain_until : (kill_at > 0 ? kill_at : (res->timed_out ? 0 : term_at));
        int timeout_ms = -1;
        if (wake > 0)
            timeout_ms = (int)((wake - t) * 1000.0) + 1;
        if (!exited && pidfd < 0 && (timeout_ms < 0 || timeout_ms > 20))
            timeout_ms = 20; /* no pidfd: look at the child now and then */
        if (timeout_ms < 0 && n == 0)
            timeout_ms = 20;
        int r = poll(pfd, (nfds_t)n, timeout_ms);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            log_warn("poll: %s", strerror(errno));
            struct timespec ts = {0, 20 * 1000 * 1000};
            nanosleep(&ts, NULL);
            continue;
        }
        for (int i = 0; i < n; i++) {
            if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if (pfd[i].fd == errp[0]) {
                ssize_t got = read(errp[0], (char *)&child_errno + errno_got,
                                   sizeof child_errno - errno_got);
                if (got > 0)
                    errno_got += (size_t)got;
                else if (got == 0 || (errno != EINTR && errno != EAGAIN))
                    close_fd(&errp[0]);
            } else if (pfd[i].fd == pidfd) {
                /* the loop head sees the exit */
            } else {
                for (int c = 0; c < 2; c++)
                    if (caps[c].fd == pfd[i].fd)
                        capture_read(&caps[c]);
            }
        }
    }
    close_fd(&caps[0].fd);
    close_fd(&caps[1].fd);
    close_fd(&errp[0]);
    close_fd(&pidfd);

    int status = 0;
    pid_t w;
    do
        w = waitpid(pid, &status, 0);
    while (w < 0 && errno == EINTR);
    res->wall_seconds = now_seconds() - start;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    if (w < 0) {
        log_warn("waitpid: %s", strerror(errno));
        res->spawn_failed = 1;
        res->spawn_errno = errno;
        return -1;
    }
    if (errno_got == sizeof child_errno) {
        res->spawn_failed = 1;
        res->spawn_errno = child_errno;
        return -1;
    }
    if (WIFEXITED(status)) {
        res->exited = 1;
        res->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        res->signaled = 1;
        res->signal = WTERMSIG(status);
    }
    return 0;
}
