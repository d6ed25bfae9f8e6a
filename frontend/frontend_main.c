/*
 * frontend_main.c: cl1cc-frontend, the one program that loads libclang.
 * `cl1cc` runs it for each parse (parse_isolated.c), so a crash, a stack
 * overflow or a hang of libclang never takes cl1cc down, and cl1cc itself
 * starts without loading LLVM.  It parses on a thread with a large stack
 * and writes its answer to stdout:
 *
 *     CL1P STATUS DIAGNOSTICS-BYTES\n DIAGNOSTICS MODEL
 *
 * usage: cl1cc-frontend [--with-bodies] [--max-errors N] [--max-source-bytes N]
 *                       [--cuda-path DIR] [--stub-dir DIR] FILE [-- CLANG-FLAGS...]
 */
#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

/* Deeply nested code (a 6000-branch else-if chain, a 100k-term sum)
 * recurses deeply in clang and in the AST walk; stack pages are only
 * committed when touched. */
#define PARSE_STACK_BYTES ((size_t)1 << 30)

typedef struct parse_job {
    const char *path;
    fe_options opt;
    tu_model model;
    strbuf diags;
    fe_status status;
} parse_job;

static void *run_job(void *arg)
{
    parse_job *job = arg;
    job->status = fe_parse_in_process(job->path, &job->opt, &job->model, &job->diags);
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

static int usage(void)
{
    fprintf(stderr, "usage: cl1cc-frontend [--with-bodies] [--max-errors N] "
                    "[--max-source-bytes N] [--cuda-path DIR] [--stub-dir DIR] FILE "
                    "[-- CLANG-FLAGS...]\n");
    return 2;
}

/* 0, or 2 after the usage */
static int parse_args(int argc, char **argv, parse_job *job)
{
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0 && argv[i][2]; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--with-bodies") == 0) {
            job->opt.with_bodies = 1;
        } else if (i + 1 < argc && strcmp(a, "--max-errors") == 0) {
            job->opt.max_errors = atoi(argv[++i]);
        } else if (i + 1 < argc && strcmp(a, "--max-source-bytes") == 0) {
            job->opt.max_source_bytes = (size_t)strtoull(argv[++i], NULL, 10);
        } else if (i + 1 < argc && strcmp(a, "--cuda-path") == 0) {
            job->opt.cuda_path = argv[++i];
        } else if (i + 1 < argc && strcmp(a, "--stub-dir") == 0) {
            job->opt.stub_dir = argv[++i];
        } else {
            return usage();
        }
    }
    if (i >= argc)
        return usage();
    job->path = argv[i++];
    if (i < argc && strcmp(argv[i], "--") == 0)
        i++;
    job->opt.flags = (const char *const *)(argv + i);
    job->opt.n_flags = (size_t)(argc - i);
    return 0;
}

int main(int argc, char **argv)
{
    if (config_verbose())
        log_set_level(LOG_VERBOSE);
    parse_job job;
    memset(&job, 0, sizeof job);
    if (parse_args(argc, argv, &job) != 0)
        return 2;
    /* libclang parses on a thread of its own with an 8 MB stack unless told
     * to use the caller's */
    setenv("LIBCLANG_NOTHREADS", "1", 1);
    /* over a file-size limit the precompiled header's write fails and the
     * parse goes on without it, instead of the process dying */
    signal(SIGXFSZ, SIG_IGN);
    /* tests make the parser crash where no real TU reliably does */
    const char *fault = config_test_fault();
    if (fault && strcmp(fault, "parser-crash") == 0) {
        signal(SIGSEGV, SIG_DFL); /* a sanitizer's handler would exit instead */
        raise(SIGSEGV);
    }
    /* a crash only while the precompiled headers are in use (a PCH that
     * is mapped and cut short dies of SIGBUS) */
    if (fault && strcmp(fault, "parser-crash-pch") == 0 && !config_no_pch()) {
        signal(SIGBUS, SIG_DFL);
        raise(SIGBUS);
    }
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
    sb_printf(&out, "CL1P %d %zu\n", (int)job.status, job.diags.len);
    sb_append(&out, sb_str(&job.diags), job.diags.len);
    if (job.status == FE_OK)
        model_encode(&job.model, &out);
    int rc = write_all(STDOUT_FILENO, out.data, out.len) == 0 ? 0 : 1;
    sb_free(&out);
    sb_free(&job.diags);
    model_free(&job.model);
    return rc;
}
