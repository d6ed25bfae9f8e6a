/*
 * splice_compile.c: compiling a splice plan (splice_tu.h).  Plain nvcc runs
 * first on the user's arguments as written, so the status, stdout, stderr
 * and dependency files are nvcc's own; the spliced copies are then compiled
 * in a private folder of the cache, and their output replaces nvcc's only
 * when that compile succeeds.  A signal that stops either nvcc stops cl1cc
 * with nvcc's status.
 */
#include "splice_tu.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "proc.h"
#include "splice_dir.h"
#include "tempfiles.h"

/* ---- running nvcc, stopping with it ------------------------------------ */

static const int stop_signals[] = {SIGINT, SIGQUIT, SIGTERM, SIGHUP};
#define N_STOP (sizeof stop_signals / sizeof *stop_signals)
static volatile sig_atomic_t caught;

static void on_stop(int sig)
{
    caught = sig;
}

static int is_stop_signal(int sig)
{
    for (size_t i = 0; i < N_STOP; i++)
        if (stop_signals[i] == sig)
            return 1;
    return 0;
}

/* Runs argv (stdout/stderr to the files, or inherited when NULL) and waits.
 * A stop signal that reaches cl1cc meanwhile sets *stopped, and is passed
 * on to nvcc if nvcc still runs half a second later: nvcc shares cl1cc's
 * process group, so a signal to the group (Ctrl-C, make's) reached it
 * already, and a second SIGINT during its cleanup made it exit 255, not 2;
 * a signal to cl1cc alone still stops nvcc.  0, or -1 when nvcc could not
 * start. */
#define PASS_STOP_AFTER_S 0.5
static int run_nvcc(const char *const *argv, const char *out, const char *err_path,
                    proc_result *res, int *stopped)
{
    struct sigaction sa, old[N_STOP];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    caught = 0;
    for (size_t i = 0; i < N_STOP; i++)
        sigaction(stop_signals[i], &sa, &old[i]);
    proc_options po;
    memset(&po, 0, sizeof po);
    po.stdout_path = out;
    po.stderr_path = err_path;
    proc_child child;
    int spawn_errno = 0, rc = -1, passed = 0;
    memset(res, 0, sizeof *res);
    sb_init(&res->out);
    sb_init(&res->err);
    if (proc_spawn(argv, &po, &child, &spawn_errno) == 0) {
        proc_child *list[1] = {&child};
        double caught_at = 0;
        for (;;) {
            if (caught && !passed) {
                double now = proc_now_seconds();
                if (caught_at == 0)
                    caught_at = now;
                else if (now - caught_at >= PASS_STOP_AFTER_S) {
                    passed = 1;
                    proc_child_signal(&child, caught);
                }
            }
            proc_result_free(res);
            int done = proc_child_poll(&child, res);
            if (done != 0) {
                rc = done > 0 ? 0 : -1;
                break;
            }
            proc_wait_children(list, 1, caught ? 0.05 : 0.2, NULL);
        }
    } else {
        res->spawn_failed = 1;
        res->spawn_errno = spawn_errno;
    }
    for (size_t i = 0; i < N_STOP; i++)
        sigaction(stop_signals[i], &old[i], NULL);
    *stopped = caught || (rc == 0 && res->signaled && is_stop_signal(res->signal));
    return rc;
}

int splice_end_as_stopped(int sig)
{
    tempfiles_cleanup();
    if (sig == SIGINT)
        return 2;
    signal(sig, SIG_DFL);
    fflush(NULL);
    raise(sig);
    return 128 + sig;
}

/* cl1cc ends as nvcc ended: its exit status, or the signal that killed it */
static int end_as(const proc_result *res)
{
    tempfiles_cleanup();
    if (res->signaled) {
        signal(res->signal, SIG_DFL);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, res->signal);
        sigprocmask(SIG_UNBLOCK, &set, NULL);
        fflush(NULL);
        raise(res->signal);
        return 128 + res->signal;
    }
    return res->exit_code;
}

/* ---- the spliced compile's arguments ------------------------------------ */

/* The index in the user's argv of the input, when it is there once as
 * written (not inside an -optf file): only that argument is replaced. */
static int argv_index_of(int argc, char **argv, const char *path)
{
    int found = -1;
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], path) == 0) {
            if (found >= 0)
                return -1;
            found = i;
        }
    return found;
}

/* Points the -o value (as the user wrote it) at out; 0 when there is none
 * in argv (then -o is appended). */
static int redirect_output(cstr_vec *args, int argc, char **argv, const char *out, arena *a)
{
    int done = 0;
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        if ((!strcmp(s, "-o") || !strcmp(s, "--output-file")) && i + 1 < argc) {
            args->items[i + 2] = out;
            i++;
            done = 1;
        } else if (!strncmp(s, "-o=", 3) || !strncmp(s, "--output-file=", 14)) {
            args->items[i + 1] = arena_printf(a, "%.*s%s", (int)(strchr(s, '=') - s + 1), s, out);
            done = 1;
        }
    }
    return done;
}

static const char *dir_of(const char *path, arena *a)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return ".";
    if (slash == path)
        return "/";
    return arena_strndup(a, path, (size_t)(slash - path));
}

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* nvcc hands -Xcompiler values to the host compiler through a shell */
static const char *shell_word(const char *s, arena *a)
{
    if (strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-") ==
        strlen(s))
        return s;
    strbuf sb;
    sb_init(&sb);
    sb_putc(&sb, '\'');
    for (const char *c = s; *c; c++) {
        if (*c == '\'')
            sb_puts(&sb, "'\\''");
        else
            sb_putc(&sb, *c);
    }
    sb_putc(&sb, '\'');
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

/* ---- the spliced output in place of nvcc's ------------------------------ */

/* Copies from over to (nvcc's output) through a temporary beside it and a
 * rename, so a failed write (a full disk, ulimit -f) leaves nvcc's file. */
static int install_output(const char *from, const char *to, strbuf *err)
{
    char *data;
    size_t len;
    if (file_read_all(from, 0, &data, &len) != 0) {
        sb_printf(err, "the spliced compile's output %s: %s", from, strerror(errno));
        return -1;
    }
    struct stat st;
    mode_t mode = stat(to, &st) == 0 ? st.st_mode & 07777 : 0644;
    strbuf tmp;
    sb_init(&tmp);
    const char *slash = strrchr(to, '/');
    sb_printf(&tmp, "%.*s.cl1cc-%ld-%s.tmp", slash ? (int)(slash - to + 1) : 0, to,
              (long)getpid(), base_of(to));
    int rc = -1;
    int fd = open(sb_str(&tmp), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        tempfiles_register(sb_str(&tmp));
        size_t done = 0;
        while (done < len) {
            ssize_t w = write(fd, data + done, len - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                break;
            done += (size_t)w;
        }
        int e = errno;
        if (done == len && fchmod(fd, mode) == 0 && close(fd) == 0) {
            fd = -1;
            if (rename(sb_str(&tmp), to) == 0)
                rc = 0;
        }
        if (rc != 0)
            e = errno ? errno : e;
        if (fd >= 0)
            close(fd);
        if (rc != 0) {
            unlink(sb_str(&tmp));
            errno = e;
        }
        tempfiles_unregister(sb_str(&tmp));
    }
    if (rc != 0)
        sb_printf(err, "cannot put the spliced build's output in %s: %s", to, strerror(errno));
    sb_free(&tmp);
    free(data);
    return rc;
}

/* ---- the whole compile -------------------------------------------------- */

typedef struct prepared {
    cstr_vec argv;       /* the spliced compile's argv, NULL-terminated */
    const char *output;  /* the user's output (nvcc's) */
    const char *private_output;
    splice_dir dir;
} prepared;

static int prepare(const char *nvcc, int argc, char **argv, const nvcc_cmdline *cl,
                   const splice_plan *plan, arena *a, prepared *p, strbuf *err)
{
    p->output = cl->output;
    if (!p->output) {
        if (cl->inputs.len != 1 && cl->phase != NVCC_PHASE_LINK) {
            sb_puts(err, "several inputs and no -o: cannot keep nvcc's output names");
            return -1;
        }
        p->output = nvcc_default_output(cl, 0, a);
        if (!p->output) {
            sb_puts(err, "no output file to put the spliced build in");
            return -1;
        }
    }
    const char *src_dir = NULL;
    for (size_t i = 0; i < plan->inputs.len; i++) {
        const char *d = dir_of(plan->inputs.items[i].original, a);
        if (src_dir && strcmp(src_dir, d) != 0) {
            sb_puts(err, "spliced inputs in several folders: their includes cannot all resolve "
                         "as before");
            return -1;
        }
        src_dir = d;
    }
    if (strchr(src_dir, ',')) {
        sb_printf(err, "%s: a folder name with a comma cannot be passed to the host compiler",
                  src_dir);
        return -1;
    }
    if (splice_dir_open(plan->inputs.items[0].original, &p->dir, err) != 0)
        return -1;
    vec_push(&p->argv, nvcc);
    for (int i = 0; i < argc; i++)
        vec_push(&p->argv, argv[i]);
    for (size_t i = 0; i < plan->inputs.len; i++) {
        const spliced_input *si = &plan->inputs.items[i];
        int at = argv_index_of(argc, argv, si->original);
        if (at < 0) {
            sb_printf(err, "%s: not on the command line as an argument of its own (an options "
                           "file?): nothing is replaced there", si->original);
            return -1;
        }
        const char *copy = splice_dir_write_copy(&p->dir, i, si->original, si->text, a, err);
        if (!copy)
            return -1;
        p->argv.items[at + 1] = copy;
    }
    p->private_output = splice_dir_output(&p->dir, base_of(p->output), a);
    if (!redirect_output(&p->argv, argc, argv, p->private_output, a)) {
        vec_push(&p->argv, "-o");
        vec_push(&p->argv, p->private_output);
    }
    if (cl->dep_generate && cl->dep_with_compile) {
        vec_push(&p->argv, "-MF");
        vec_push(&p->argv, splice_dir_output(&p->dir, "deps.d", a));
    }
    /* the copy's folder is private: "..." includes look in the source's first */
    vec_push(&p->argv, "-Xcompiler");
    vec_push(&p->argv, "-iquote");
    vec_push(&p->argv, "-Xcompiler");
    vec_push(&p->argv, shell_word(src_dir, a));
    vec_push(&p->argv, NULL);
    return 0;
}

int splice_plan_compile(const char *nvcc, int argc, char **argv, const nvcc_cmdline *cl,
                        const splice_plan *plan, strbuf *err)
{
    arena a;
    arena_init(&a);
    tempfiles_install_handlers();
    prepared p;
    memset(&p, 0, sizeof p);
    p.dir.lock_fd = -1;
    int status = -1;
    if (prepare(nvcc, argc, argv, cl, plan, &a, &p, err) != 0)
        goto done;

    /* 1. nvcc as the user asked: its status and everything it prints or writes */
    cstr_vec plain = {0};
    vec_push(&plain, nvcc);
    for (int i = 0; i < argc; i++)
        vec_push(&plain, argv[i]);
    vec_push(&plain, NULL);
    proc_result res;
    int stopped = 0;
    int rc = run_nvcc((const char *const *)plain.items, NULL, NULL, &res, &stopped);
    vec_free(&plain);
    if (rc != 0) {
        sb_printf(err, "could not run %s", nvcc);
        proc_result_free(&res);
        goto done;
    }
    if (stopped || !res.exited || res.exit_code != 0) {
        status = end_as(&res);
        proc_result_free(&res);
        goto done;
    }
    proc_result_free(&res);

    /* 2. the spliced copies, in the private folder */
    const char *out_log = splice_dir_output(&p.dir, "nvcc.out", &a);
    const char *err_log = splice_dir_output(&p.dir, "nvcc.err", &a);
    rc = run_nvcc((const char *const *)p.argv.items, out_log, err_log, &res, &stopped);
    if (stopped) {
        /* the user's nvcc had finished: cl1cc ends as nvcc does for the
         * signal, not with what its own nvcc said (255 when the signal
         * reached nvcc's cicc first) */
        status = splice_end_as_stopped(caught ? caught : res.signal);
        proc_result_free(&res);
        goto done;
    }
    status = 0;
    if (rc != 0 || !res.exited || res.exit_code != 0) {
        char *text = NULL;
        size_t len = 0;
        if (rc == 0 && config_verbose() && file_read_all(err_log, 1 << 20, &text, &len) == 0)
            fputs(text, stderr);
        free(text);
        log_warn("the TU with verified variants spliced in did not compile (nvcc: %s %d); "
                 "plain nvcc's output kept",
                 rc != 0 ? "could not start" : res.exited ? "exit status" : "signal",
                 rc != 0 ? res.spawn_errno : res.exited ? res.exit_code : res.signal);
    } else if (install_output(p.private_output, p.output, err) != 0) {
        log_warn("%s; plain nvcc's output kept", sb_str(err));
    }
    proc_result_free(&res);
done:
    splice_dir_close(&p.dir);
    vec_free(&p.argv);
    arena_free(&a);
    return status;
}
