/*
 * proc.c: fork + execvpe with limits, output capture through ppoll(), a wall
 * clock with SIGTERM then SIGKILL of the child's process group, termination
 * signals passed on to the child, exec failures sent back through a pipe.
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

extern char **environ;

#define DEFAULT_CAPTURE_CAP ((size_t)16 << 20)

double proc_now_seconds(void)
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

/* ---- child side: only async-signal-safe calls after fork -------------- */

static _Noreturn void child_fail(int errpipe)
{
    int e = errno;
    ssize_t n;
    do
        n = write(errpipe, &e, sizeof e);
    while (n < 0 && errno == EINTR);
    _exit(127);
}

static int close_span(unsigned first, unsigned last)
{
#ifdef SYS_close_range
    return (int)syscall(SYS_close_range, first, last, 0u);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/* Closes every fd from lo (> 2) up, except keep. */
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

/* When the parent runs with 0, 1 or 2 closed, a pipe can land there: move it
 * above 2 so that the dup2 calls below neither clobber it nor keep its
 * close-on-exec flag (dup2(fd, fd) does nothing).  The low copy keeps
 * close-on-exec, so the child sees that stream closed, as the parent had it. */
static int child_lift(int fd, int errpipe)
{
    if (fd < 0 || fd > 2)
        return fd;
    int high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (high < 0)
        child_fail(errpipe);
    return high;
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

static int child_open_output(const char *path, int errpipe)
{
    int fd = child_lift(open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), errpipe);
    if (fd < 0)
        child_fail(errpipe);
    return fd;
}

static _Noreturn void child_exec(const char *const argv[], const proc_options *opt, char **envp,
                                 pid_t parent, int errpipe, int out_w, int err_w)
{
    /* Every signal is blocked across the fork; reset the dispositions before
     * unblocking (the parent ignores SIGINT/SIGQUIT while it waits, and
     * handlers such as tempfiles' must not run here). */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGSTOP)
            sigaction(sig, &dfl, NULL); /* fails harmlessly for the reserved ones */
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

    errpipe = child_lift(errpipe, errpipe);
    out_w = child_lift(out_w, errpipe);
    err_w = child_lift(err_w, errpipe);
    if (opt->stdin_path) {
        int fd = child_lift(open(opt->stdin_path, O_RDONLY | O_CLOEXEC), errpipe);
        if (fd < 0 || dup2(fd, 0) < 0)
            child_fail(errpipe);
    }
    if (out_w < 0 && opt->stdout_path)
        out_w = child_open_output(opt->stdout_path, errpipe);
    if (err_w < 0 && opt->stderr_path)
        err_w = child_open_output(opt->stderr_path, errpipe);
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

    execvpe(argv[0], (char *const *)argv, envp);
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

static int name_matches(const char *entry, const char *name, size_t len)
{
    return strncmp(entry, name, len) == 0 && entry[len] == '=';
}

/* The child's environment, built before the fork (setenv is not safe in the
 * child of a threaded parent).  NULL with errno EINVAL for a malformed
 * env_set entry; *owned says whether to free the array (not its strings). */
static char **build_env(const proc_options *opt, int *owned)
{
    *owned = 0;
    if (!opt->env_set && !opt->env_unset)
        return environ;
    for (const char *const *s = opt->env_set; s && *s; s++) {
        const char *eq = strchr(*s, '=');
        if (!eq || eq == *s) {
            errno = EINVAL;
            return NULL;
        }
    }
    cstr_vec env = {0};
    for (char **e = environ; e && *e; e++) {
        int drop = 0;
        for (const char *const *u = opt->env_unset; u && *u && !drop; u++)
            drop = name_matches(*e, *u, strlen(*u));
        for (const char *const *s = opt->env_set; s && *s && !drop; s++)
            drop = name_matches(*e, *s, (size_t)(strchr(*s, '=') - *s));
        if (!drop)
            vec_push(&env, *e);
    }
    for (const char *const *s = opt->env_set; s && *s; s++)
        vec_push(&env, *s);
    vec_push(&env, (const char *)NULL);
    *owned = 1;
    return (char **)env.items;
}

/* ---- signals while the parent waits ------------------------------------- */

/* Signals that would end cl1cc while it waits.  With a child of its own
 * process group, the terminal's SIGINT/SIGQUIT reach the child already, so
 * the parent ignores them, as system(3) does.  Otherwise (and always for
 * SIGTERM/SIGHUP) the parent catches the signal, passes it on to the child's
 * group, stops it like at a timeout, and raises the signal again once the
 * child is reaped, so that the parent's own disposition (tempfiles' handler,
 * or the default) then applies. */
static const int wait_signals[] = {SIGINT, SIGQUIT, SIGTERM, SIGHUP};
#define N_WAIT_SIGNALS (sizeof wait_signals / sizeof *wait_signals)
static volatile sig_atomic_t caught_signal;

static void on_wait_signal(int sig)
{
    caught_signal = sig;
}

typedef struct wait_signal_state {
    struct sigaction old[N_WAIT_SIGNALS];
    int changed[N_WAIT_SIGNALS];
    int ignored[N_WAIT_SIGNALS]; /* set to SIG_IGN for the wait */
    sigset_t wait_mask; /* the mask ppoll waits with: the caller's own */
} wait_signal_state;

static void wait_signals_install(wait_signal_state *ws, int same_group)
{
    caught_signal = 0;
    for (size_t i = 0; i < N_WAIT_SIGNALS; i++) {
        int sig = wait_signals[i];
        ws->changed[i] = ws->ignored[i] = 0;
        if (sigaction(sig, NULL, &ws->old[i]) != 0 || ws->old[i].sa_handler == SIG_IGN)
            continue; /* nohup and background jobs keep ignoring them */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sigfillset(&sa.sa_mask);
        sa.sa_handler = same_group && (sig == SIGINT || sig == SIGQUIT) ? SIG_IGN : on_wait_signal;
        if (sigaction(sig, &sa, NULL) == 0) {
            ws->changed[i] = 1;
            ws->ignored[i] = sa.sa_handler == SIG_IGN;
        } else
            log_warn("sigaction %d: %s", sig, strerror(errno));
    }
}

/* A signal ignored for the wait but sent while it was blocked (outside
 * ppoll) stays pending on Linux, and would reach the restored handler once
 * the caller's mask comes back; setting SIG_IGN again discards it (POSIX
 * sigaction), so ^C during the wait ends the child only, whenever it came. */
static void wait_signals_restore(wait_signal_state *ws)
{
    for (size_t i = 0; i < N_WAIT_SIGNALS; i++) {
        if (!ws->changed[i])
            continue;
        if (ws->ignored[i]) {
            struct sigaction ign;
            memset(&ign, 0, sizeof ign);
            ign.sa_handler = SIG_IGN;
            sigemptyset(&ign.sa_mask);
            (void)sigaction(wait_signals[i], &ign, NULL);
        }
        if (sigaction(wait_signals[i], &ws->old[i], NULL) != 0)
            log_warn("sigaction %d: %s", wait_signals[i], strerror(errno));
    }
}

static void set_mask(const sigset_t *mask)
{
    if (sigprocmask(SIG_SETMASK, mask, NULL) != 0)
        log_warn("sigprocmask: %s", strerror(errno));
}

/* a waitpid status into res */
static void record_status(proc_result *res, int status)
{
    if (WIFEXITED(status)) {
        res->exited = 1;
        res->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        res->signaled = 1;
        res->signal = WTERMSIG(status);
    }
}

/* the pipes of a run: the child's exec errno, and its stdout and stderr
 * when captured; 0, or -1 with errno and every pipe closed */
static int open_pipes(const proc_options *opt, int errp[2], int outp[2], int errout[2])
{
    if (make_pipe(errp) == 0 && (!opt->capture_stdout || make_pipe(outp) == 0) &&
        (!opt->capture_stderr || make_pipe(errout) == 0))
        return 0;
    int saved = errno;
    close_fd(&errp[0]), close_fd(&errp[1]), close_fd(&outp[0]), close_fd(&outp[1]);
    close_fd(&errout[0]), close_fd(&errout[1]);
    errno = saved;
    return -1;
}

/* A running child watched by proc_run: its output read, its limits and
 * the caller's signals applied, until it has exited and its pipes are
 * drained. */
typedef struct run_watch {
    pid_t pid;
    int group;
    proc_result *res;
    capture caps[2];
    int errp;              /* the exec-errno pipe's read end */
    int child_errno;
    size_t errno_got;
    int pidfd;
    int exited;
    int stopping;          /* SIGTERM (or the caught signal) sent; SIGKILL at kill_at */
    int passed_signal;     /* a signal of ours passed on: raised again at the end */
    double grace, term_at, kill_at;
    double drain_until;    /* after the exit, how long leftover writers may hold the pipes */
    const sigset_t *wait_mask;
} run_watch;

/* the signals the child gets at time t: the caller's caught one passed on,
 * SIGTERM at the wall-time limit, SIGKILL after the grace */
static void watch_limits(run_watch *w, double t)
{
    if (w->exited)
        return;
    if (caught_signal && !w->passed_signal) {
        w->passed_signal = caught_signal;
        if (!w->stopping) {
            signal_child(w->pid, w->group, w->passed_signal);
            w->stopping = 1;
            w->kill_at = t + w->grace;
        }
    }
    if (!w->stopping && w->term_at > 0 && t >= w->term_at) {
        w->res->timed_out = 1;
        signal_child(w->pid, w->group, SIGTERM);
        w->stopping = 1;
        w->kill_at = t + w->grace;
    }
    if (w->kill_at > 0 && t >= w->kill_at) {
        signal_child(w->pid, w->group, SIGKILL);
        w->kill_at = 0;
    }
}

/* how long ppoll may sleep at time t with n descriptors (NULL: no limit) */
static struct timespec *watch_timeout(const run_watch *w, double t, int n, struct timespec *ts)
{
    double wake = w->exited ? w->drain_until
                            : (w->kill_at > 0 ? w->kill_at : (w->stopping ? 0 : w->term_at));
    double wait_s = wake > 0 ? wake - t + 0.001 : -1;
    if (!w->exited && w->pidfd < 0 && (wait_s < 0 || wait_s > 0.02))
        wait_s = 0.02; /* no pidfd: look at the child now and then */
    if (wait_s < 0 && n == 0)
        wait_s = 0.02;
    if (wait_s < 0)
        return NULL;
    ts->tv_sec = (time_t)wait_s;
    ts->tv_nsec = (long)((wait_s - (double)ts->tv_sec) * 1e9);
    return ts;
}

/* what is readable: output into the captures, the exec errno */
static void watch_read(run_watch *w, const struct pollfd *pfd, int n)
{
    for (int i = 0; i < n; i++) {
        if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        if (pfd[i].fd == w->errp) {
            ssize_t got = read(w->errp, (char *)&w->child_errno + w->errno_got,
                               sizeof w->child_errno - w->errno_got);
            if (got > 0)
                w->errno_got += (size_t)got;
            else if (got == 0 || (errno != EINTR && errno != EAGAIN))
                close_fd(&w->errp);
        } else if (pfd[i].fd != w->pidfd) { /* the pidfd: the loop head sees the exit */
            for (int c = 0; c < 2; c++)
                if (w->caps[c].fd == pfd[i].fd)
                    capture_read(&w->caps[c]);
        }
    }
}

/* one wait for output, the exit or a deadline */
static void watch_poll(run_watch *w, double t)
{
    struct pollfd pfd[4];
    int n = 0;
    for (int i = 0; i < 2; i++)
        if (w->caps[i].fd >= 0)
            pfd[n++] = (struct pollfd){.fd = w->caps[i].fd, .events = POLLIN};
    if (w->errp >= 0)
        pfd[n++] = (struct pollfd){.fd = w->errp, .events = POLLIN};
    if (!w->exited && w->pidfd >= 0)
        pfd[n++] = (struct pollfd){.fd = w->pidfd, .events = POLLIN};
    struct timespec ts;
    int r = ppoll(pfd, (nfds_t)n, watch_timeout(w, t, n, &ts), w->wait_mask);
    if (r < 0) {
        if (errno == EINTR)
            return;
        log_warn("poll: %s", strerror(errno));
        struct timespec pause_ts = {0, 20 * 1000 * 1000};
        nanosleep(&pause_ts, NULL);
        return;
    }
    watch_read(w, pfd, n);
}

static void watch(run_watch *w)
{
    for (;;) {
        if (!w->exited && child_has_exited(w->pid)) {
            w->exited = 1;
            if (w->group)
                kill(-w->pid, SIGKILL); /* leftovers of the group; fails if none */
            w->drain_until = proc_now_seconds() + 1.0;
        }
        if (w->exited && w->caps[0].fd < 0 && w->caps[1].fd < 0 && w->errp < 0)
            break;
        double t = proc_now_seconds();
        if (w->exited && t >= w->drain_until)
            break;
        watch_limits(w, t);
        watch_poll(w, t);
    }
    close_fd(&w->caps[0].fd);
    close_fd(&w->caps[1].fd);
    close_fd(&w->errp);
    close_fd(&w->pidfd);
}

/* the child reaped into res, the caller's signal state back (and a signal
 * it caught meanwhile raised again); 0, or -1 when it never ran */
static int reap(run_watch *w, double start, wait_signal_state *ws, const sigset_t *caller_mask)
{
    proc_result *res = w->res;
    int status = 0;
    pid_t got;
    do
        got = waitpid(w->pid, &status, 0);
    while (got < 0 && errno == EINTR);
    int wait_errno = errno;
    res->wall_seconds = proc_now_seconds() - start;
    int passed_signal = w->passed_signal ? w->passed_signal : caught_signal; /* arrived as the child ended */
    wait_signals_restore(ws);
    set_mask(caller_mask);
    if (passed_signal)
        raise(passed_signal); /* the caller's disposition decides; usually no return */
    if (got < 0) {
        log_warn("waitpid: %s", strerror(wait_errno));
        res->spawn_failed = 1;
        res->spawn_errno = wait_errno;
        return -1;
    }
    if (w->errno_got == sizeof w->child_errno) {
        res->spawn_failed = 1;
        res->spawn_errno = w->child_errno;
        return -1;
    }
    record_status(res, status);
    return 0;
}

static int spawn_failed(proc_result *res, int err)
{
    res->spawn_failed = 1;
    res->spawn_errno = err;
    return -1;
}

int proc_run(const char *const argv[], const proc_options *opt_in, proc_result *res)
{
    static const proc_options defaults;
    const proc_options *opt = opt_in ? opt_in : &defaults;
    memset(res, 0, sizeof *res);
    sb_init(&res->out);
    sb_init(&res->err);
    if (!argv || !argv[0])
        return spawn_failed(res, EINVAL);
    int env_owned;
    char **envp = build_env(opt, &env_owned);
    if (!envp)
        return spawn_failed(res, errno);
    int errp[2] = {-1, -1}, outp[2] = {-1, -1}, errout[2] = {-1, -1};
    if (open_pipes(opt, errp, outp, errout) != 0) {
        int saved = errno;
        if (env_owned)
            free(envp);
        return spawn_failed(res, saved);
    }

    int group = opt->new_process_group;
    /* All signals blocked across the fork, so no handler of the parent's runs
     * in the child before it resets them; the waiting signals stay blocked
     * outside ppoll so that none is lost between a check and the wait. */
    sigset_t all, caller_mask, loop_mask;
    sigfillset(&all);
    if (sigprocmask(SIG_SETMASK, &all, &caller_mask) != 0)
        log_warn("sigprocmask: %s", strerror(errno));
    wait_signal_state ws;
    wait_signals_install(&ws, !group);
    loop_mask = caller_mask;
    for (size_t i = 0; i < N_WAIT_SIGNALS; i++)
        sigaddset(&loop_mask, wait_signals[i]);
    ws.wait_mask = caller_mask;

    double start = proc_now_seconds();
    pid_t parent = getpid();
    fflush(NULL); /* what the parent printed comes before what the child prints */
    pid_t pid = fork();
    if (pid == 0)
        child_exec(argv, opt, envp, parent, errp[1], outp[1], errout[1]);
    int fork_errno = errno;
    set_mask(&loop_mask);
    if (env_owned)
        free(envp);
    close_fd(&errp[1]);
    close_fd(&outp[1]);
    close_fd(&errout[1]);
    if (pid < 0) {
        wait_signals_restore(&ws);
        set_mask(&caller_mask);
        close_fd(&errp[0]), close_fd(&outp[0]), close_fd(&errout[0]);
        return spawn_failed(res, fork_errno);
    }
    /* also done in the child; whichever runs first wins, and the other's
     * failure (EACCES after the exec) is expected */
    if (group)
        (void)setpgid(pid, pid);

    size_t cap = opt->capture_cap ? opt->capture_cap : DEFAULT_CAPTURE_CAP;
    run_watch w = {
        .pid = pid, .group = group, .res = res,
        .caps = {{outp[0], &res->out, &res->out_truncated, cap},
                 {errout[0], &res->err, &res->err_truncated, cap}},
        .errp = errp[0], .pidfd = open_pidfd(pid),
        .grace = opt->limits.grace_seconds > 0 ? opt->limits.grace_seconds : 1.0,
        .term_at = opt->limits.wall_seconds > 0 ? start + opt->limits.wall_seconds : 0,
        .wait_mask = &ws.wait_mask,
    };
    watch(&w);
    return reap(&w, start, &ws, &caller_mask);
}

/* ---- children that run while the caller does other work --------------- */

int proc_spawn(const char *const argv[], const proc_options *opt_in, proc_child *child,
               int *spawn_errno)
{
    static const proc_options defaults;
    const proc_options *opt = opt_in ? opt_in : &defaults;
    memset(child, 0, sizeof *child);
    child->pidfd = -1;
    *spawn_errno = 0;
    if (!argv || !argv[0] || opt->capture_stdout || opt->capture_stderr) {
        *spawn_errno = EINVAL;
        return -1;
    }
    int env_owned;
    char **envp = build_env(opt, &env_owned);
    if (!envp) {
        *spawn_errno = errno;
        return -1;
    }
    int errp[2];
    if (make_pipe(errp) != 0) {
        *spawn_errno = errno;
        if (env_owned)
            free(envp);
        return -1;
    }
    /* every signal blocked across the fork, as in proc_run */
    sigset_t all, caller_mask;
    sigfillset(&all);
    if (sigprocmask(SIG_SETMASK, &all, &caller_mask) != 0)
        log_warn("sigprocmask: %s", strerror(errno));
    double start = proc_now_seconds();
    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        child_exec(argv, opt, envp, parent, errp[1], -1, -1);
    int fork_errno = errno;
    set_mask(&caller_mask);
    if (env_owned)
        free(envp);
    close_fd(&errp[1]);
    if (pid < 0) {
        close_fd(&errp[0]);
        *spawn_errno = fork_errno;
        return -1;
    }
    if (opt->new_process_group)
        (void)setpgid(pid, pid); /* as in proc_run: whichever runs first wins */

    /* The pipe closes at the exec (close-on-exec) or carries the errno of
     * what failed before it; this waits only for the exec, not the program. */
    int child_errno = 0;
    size_t got = 0;
    while (got < sizeof child_errno) {
        ssize_t n = read(errp[0], (char *)&child_errno + got, sizeof child_errno - got);
        if (n > 0)
            got += (size_t)n;
        else if (n == 0 || errno != EINTR)
            break;
    }
    close_fd(&errp[0]);
    if (got == sizeof child_errno) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        *spawn_errno = child_errno;
        return -1;
    }
    child->pid = (long)pid;
    child->group = opt->new_process_group;
    child->pidfd = open_pidfd(pid);
    child->start = start;
    return 0;
}

void proc_child_signal(const proc_child *child, int sig)
{
    if (child->pid > 0)
        signal_child((pid_t)child->pid, child->group, sig);
}

int proc_child_poll(proc_child *child, proc_result *res)
{
    memset(res, 0, sizeof *res);
    sb_init(&res->out);
    sb_init(&res->err);
    if (child->pid <= 0) {
        res->spawn_failed = 1;
        res->spawn_errno = ECHILD;
        return -1;
    }
    pid_t pid = (pid_t)child->pid;
    if (!child_has_exited(pid))
        return 0;
    /* still a zombie: the group id cannot have been reused yet */
    if (child->group)
        kill(-pid, SIGKILL); /* leftovers of the group; fails if none */
    int status = 0;
    pid_t w;
    do
        w = waitpid(pid, &status, 0);
    while (w < 0 && errno == EINTR);
    int wait_errno = errno;
    res->wall_seconds = proc_now_seconds() - child->start;
    close_fd(&child->pidfd);
    child->pid = 0;
    if (w < 0) {
        log_warn("waitpid: %s", strerror(wait_errno));
        res->spawn_failed = 1;
        res->spawn_errno = wait_errno;
        return -1;
    }
    record_status(res, status);
    return 1;
}

int proc_wait_children(proc_child *const *children, size_t n, double timeout_s,
                       const sigset_t *wait_mask)
{
    struct pollfd stack_fds[64];
    struct pollfd *pfd = n <= 64 ? stack_fds : xcalloc(n, sizeof *pfd);
    nfds_t count = 0;
    int without_pidfd = 0;
    for (size_t i = 0; i < n; i++) {
        if (!children[i] || children[i]->pid <= 0)
            continue;
        if (children[i]->pidfd >= 0)
            pfd[count++] = (struct pollfd){.fd = children[i]->pidfd, .events = POLLIN};
        else
            without_pidfd = 1;
    }
    if (without_pidfd && (timeout_s < 0 || timeout_s > 0.02))
        timeout_s = 0.02; /* no pidfd: look at the children now and then */
    struct timespec ts, *tsp = NULL;
    if (timeout_s >= 0) {
        ts.tv_sec = (time_t)timeout_s;
        ts.tv_nsec = (long)((timeout_s - (double)ts.tv_sec) * 1e9);
        tsp = &ts;
    }
    int r = ppoll(pfd, count, tsp, wait_mask);
    int saved = errno;
    if (pfd != stack_fds)
        free(pfd);
    if (r < 0) {
        errno = saved;
        if (saved != EINTR)
            log_warn("poll: %s", strerror(saved));
        return -1;
    }
    return 0;
}
