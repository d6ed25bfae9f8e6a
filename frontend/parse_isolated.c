/*
 * parse_isolated.c: fe_parse runs libclang in a child process, on a thread
 * with a large stack, and takes the model back as bytes (core's model
 * codec).  A crash, a stack overflow or a hang of the parser on a user's
 * code then costs a diagnostic line, never the cl1cc process (and so never
 * the user's build).
 */
#include "internal.h"

#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

/* Deeply nested code (a 6000-branch else-if chain, a 100k-term sum)
 * recurses deeply in clang and in the AST walk; stack pages are only
 * committed when touched. */
#define PARSE_STACK_BYTES ((size_t)1 << 30)
#define PARSE_TIMEOUT_SECONDS 600
#define MODEL_BYTES_LIMIT ((size_t)2 << 30)

typedef struct parse_job {
    const char *path;
    const fe_options *opt;
    tu_model model;
    strbuf diags;
    fe_status status;
} parse_job;

static void *run_job(void *arg)
{
    parse_job *job = arg;
    job->status = fe_parse_in_process(job->path, job->opt, &job->model, &job->diags);
    return NULL;
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The child: parse, then write status, diagnostics and model; never returns. */
static _Noreturn void child_parse(int fd, const char *path, const fe_options *opt)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    /* libclang reports a crash it recovered from over a dozen lines of its
     * own: the parent says it in one */
    if (log_get_level() < LOG_VERBOSE) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDERR_FILENO);
            close(null);
        }
    }
    /* libclang parses on a thread of its own with an 8 MB stack unless told
     * to use the caller's */
    setenv("LIBCLANG_NOTHREADS", "1", 1);
    /* over a file-size limit the precompiled header's write fails and the
     * parse goes on without it, instead of the process dying */
    signal(SIGXFSZ, SIG_IGN);
    /* tests make the parser crash where no real TU reliably does */
    const char *fault = config_test_fault();
    if (fault && strcmp(fault, "parser-crash") == 0)
        raise(SIGSEGV);
    parse_job job;
    memset(&job, 0, sizeof job);
    job.path = path;
    job.opt = opt;
    model_init(&job.model);
    sb_init(&job.diags);
    pthread_attr_t attr;
    pthread_t thread;
    int threaded = pthread_attr_init(&attr) == 0 &&
                   pthread_attr_setstacksize(&attr, PARSE_STACK_BYTES) == 0 &&
                   pthread_create(&thread, &attr, run_job, &job) == 0;
    if (threaded)
        pthread_join(thread, NULL);
    else
        run_job(&job); /* no room for the large stack: the usual one */
    strbuf out;
    sb_init(&out);
    char header[32];
    int n = snprintf(header, sizeof header, "CL1P %d %zu\n", (int)job.status, job.diags.len);
    sb_append(&out, header, (size_t)n);
    sb_append(&out, sb_str(&job.diags), job.diags.len);
    if (job.status == FE_OK)
        model_encode(&job.model, &out);
    int rc = write_all(fd, out.data, out.len) == 0 ? 0 : 1;
    _exit(rc);
}

/* Reads the child's whole answer, giving up after the time limit. */
static int read_answer(int fd, pid_t pid, strbuf *answer, int *timed_out)
{
    char buf[65536];
    *timed_out = 0;
    time_t deadline = time(NULL) + PARSE_TIMEOUT_SECONDS;
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        int left = (int)(deadline - time(NULL));
        if (left <= 0) {
            *timed_out = 1;
            kill(pid, SIGKILL);
            return -1;
        }
        int r = poll(&p, 1, left * 1000);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            continue;
        ssize_t got = read(fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return -1;
        if (got == 0)
            return 0;
        if (answer->len + (size_t)got > MODEL_BYTES_LIMIT)
            return -1;
        sb_append(answer, buf, (size_t)got);
    }
}

static int wait_child(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return status;
}

/* The answer "CL1P STATUS DIAGLEN\n" DIAGS MODEL */
static fe_status take_answer(const strbuf *answer, tu_model *out, strbuf *diags,
                             const char *path)
{
    const char *text = answer->data ? answer->data : "";
    int status = -1;
    size_t diag_len = 0, header = 0;
    const char *eol = memchr(text, '\n', answer->len);
    if (!eol || sscanf(text, "CL1P %d %zu", &status, &diag_len) != 2 ||
        (size_t)(eol + 1 - text) + diag_len > answer->len) {
        sb_printf(diags, "%s: error: the parser process gave no answer\n", path);
        return FE_INTERNAL;
    }
    header = (size_t)(eol + 1 - text);
    sb_append(diags, text + header, diag_len);
    if (status != FE_OK)
        return status == FE_USER_ERROR ? FE_USER_ERROR : FE_INTERNAL;
    size_t at = header + diag_len;
    if (model_decode(text + at, answer->len - at, out) != 0) {
        sb_printf(diags, "%s: error: the parser process gave a malformed model\n", path);
        return FE_INTERNAL;
    }
    return FE_OK;
}

fe_status fe_parse(const char *path, const fe_options *opt, tu_model *out,
                   strbuf *diags)
{
    if (config_parse_in_process())
        return fe_parse_in_process(path, opt, out, diags);
    int fds[2];
    if (pipe(fds) != 0) {
        sb_printf(diags, "%s: error: no pipe for the parser process: %s\n", path,
                  strerror(errno));
        return FE_INTERNAL;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        sb_printf(diags, "%s: error: could not start the parser process: %s\n", path,
                  strerror(errno));
        return FE_INTERNAL;
    }
    if (pid == 0) {
        close(fds[0]);
        child_parse(fds[1], path, opt);
    }
    close(fds[1]);
    strbuf answer;
    sb_init(&answer);
    int timed_out = 0;
    int read_rc = read_answer(fds[0], pid, &answer, &timed_out);
    close(fds[0]);
    if (read_rc != 0 && !timed_out)
        kill(pid, SIGKILL);
    int status = wait_child(pid);
    fe_status st;
    if (timed_out) {
        sb_printf(diags, "%s: error: the parser took over %d s: given up\n", path,
                  PARSE_TIMEOUT_SECONDS);
        st = FE_INTERNAL;
    } else if (status >= 0 && WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        sb_printf(diags, "%s: error: libclang crashed reading it (signal %d, %s)\n", path,
                  sig, strsignal(sig));
        st = FE_INTERNAL;
    } else if (read_rc != 0 || status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        sb_printf(diags, "%s: error: the parser process failed\n", path);
        st = FE_INTERNAL;
    } else {
        st = take_answer(&answer, out, diags, path);
    }
    sb_free(&answer);
    return st;
}
