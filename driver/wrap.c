/*
 * wrap.c: cl1cc as nvcc.  With nothing to apply (no database, no entry for
 * this TU's kernels, CL1CC_DISABLE=1, a phase that makes no code) it execs
 * the real nvcc with the arguments untouched.  Otherwise plain nvcc runs
 * first and the copies of the .cu inputs with verified variants spliced in
 * (or, under `cl1cc capture`, with launch sites instrumented) are compiled
 * after it (splice_compile.c); a failure of its own before nvcc ran falls
 * back to plain nvcc with a one-line warning.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "core.h"
#include "driver.h"
#include "splice_tu.h"
#include "tempfiles.h"
#include "wrapper.h"

/* more nvcc runs in one chain than any sane setup makes: a loop */
#define MAX_CHAIN 8

static int same_as_self(const char *path)
{
    char a[4096], b[4096];
    ssize_t n = readlink("/proc/self/exe", a, sizeof a - 1);
    if (n <= 0 || !realpath(path, b))
        return 0;
    a[n] = '\0';
    return strcmp(a, b) == 0;
}

/* CMAKE_CUDA_COMPILER_LAUNCHER=cl1cc gives "cl1cc /path/to/nvcc ARGS"; by
 * hand, "cl1cc nvcc ARGS" names it as a shell would, on PATH.  1 with the
 * path in out; -1 when that nvcc is in the exec chain (it ran cl1cc). */
static int launcher_nvcc(const char *arg, strbuf *out)
{
    const char *base = strrchr(arg, '/');
    if (strcmp(base ? base + 1 : arg, "nvcc") != 0)
        return 0;
    if (!base) {
        char self[4096];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        self[n > 0 ? n : 0] = '\0';
        if (nvcc_locate_on_path(arg, n > 0 ? self : NULL, out) == 0)
            return 1;
        return 0;
    }
    if (access(arg, X_OK) != 0 || same_as_self(arg))
        return 0;
    if (nvcc_in_exec_chain(arg))
        return -1;
    sb_puts(out, arg);
    return 1;
}

/* cl1cc's own writes fail with EFBIG under ulimit -f instead of killing it
 * (no cache, not a dead build); nvcc gets the disposition the user gave */
static struct sigaction user_xfsz;
static int xfsz_changed;

static void ignore_xfsz(void)
{
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    xfsz_changed = sigaction(SIGXFSZ, &ign, &user_xfsz) == 0;
}

static void restore_xfsz(void)
{
    if (xfsz_changed)
        sigaction(SIGXFSZ, &user_xfsz, NULL);
    xfsz_changed = 0;
}

/* A stop signal that reaches cl1cc outside an nvcc run (while it reads
 * the TU, between its nvcc runs, before it execs nvcc) is noted from the
 * start of the command to its end, and cl1cc then ends as nvcc does for
 * it: SIGINT with nvcc's status 2, the others by the signal.  (During an
 * nvcc run splice_compile.c's handler passes it on and cl1cc ends as nvcc
 * ended.)  testsuite/faults/signals.sh checks SIGINT at every point of a
 * run against nvcc's own status: under load a signal fell in the gaps
 * between the handlers and killed cl1cc with status 130. */
static const int planning_stops[] = {SIGINT, SIGQUIT, SIGTERM, SIGHUP};
#define N_PLANNING_STOPS (sizeof planning_stops / sizeof *planning_stops)
static volatile sig_atomic_t planning_stopped;
static struct sigaction planning_old[N_PLANNING_STOPS];

static void on_planning_stop(int sig)
{
    planning_stopped = sig;
}

static int stops_noted;

static void note_stops_while_planning(int on)
{
    if (on == stops_noted)
        return;
    stops_noted = on;
    for (size_t i = 0; i < N_PLANNING_STOPS; i++) {
        if (!on) {
            sigaction(planning_stops[i], &planning_old[i], NULL);
            continue;
        }
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_planning_stop;
        sigemptyset(&sa.sa_mask);
        sigaction(planning_stops[i], &sa, &planning_old[i]);
        if (planning_old[i].sa_handler == SIG_IGN) /* nohup: kept */
            sigaction(planning_stops[i], &planning_old[i], NULL);
    }
}


static int phase_makes_code(nvcc_phase p)
{
    return p == NVCC_PHASE_COMPILE || p == NVCC_PHASE_DEVICE_C || p == NVCC_PHASE_LINK ||
           p == NVCC_PHASE_PTX || p == NVCC_PHASE_CUBIN || p == NVCC_PHASE_FATBIN;
}

static int plain(const char *nvcc, int argc, char **argv, nvcc_cmdline *cl, strbuf *a, strbuf *b)
{
    if (cl)
        nvcc_cmdline_free(cl);
    sb_free(b);
    restore_xfsz();
    note_stops_while_planning(0);
    if (planning_stopped) {
        sb_free(a);
        return splice_end_as_stopped(planning_stopped);
    }
    int rc = driver_exec_nvcc(nvcc, argc, argv);
    sb_free(a);
    return rc;
}

int cmd_wrap_nvcc(int argc, char **argv)
{
    /* the temporaries' handlers first (splice_plan_compile would install
     * them over the noting one later, and a stop between two nvcc runs then
     * killed cl1cc with 130); the noting handler over them */
    tempfiles_install_handlers();
    note_stops_while_planning(1);
    strbuf nvcc, err;
    sb_init(&nvcc);
    sb_init(&err);
    int launcher = argc >= 1 ? launcher_nvcc(argv[0], &nvcc) : 0;
    if (launcher > 0) {
        argc--;
        argv++;
    } else if (launcher < 0) {
        sb_printf(&err, "%s runs cl1cc again (an exec loop): stopping", argv[0]);
    } else {
        driver_find_nvcc(&nvcc, &err);
    }
    if (err.len || nvcc_exec_chain_length() >= MAX_CHAIN) {
        log_error("%s", err.len ? sb_str(&err) : "nvcc and cl1cc run each other (an exec loop): stopping");
        sb_free(&nvcc);
        sb_free(&err);
        return 127;
    }
    const char *real = sb_str(&nvcc);
    nvcc_exec_chain_add(real);
    if (config_disabled())
        return plain(real, argc, argv, NULL, &nvcc, &err);

    nvcc_cmdline cl;
    if (nvcc_cmdline_parse(argc, argv, &cl, &err) != 0) {
        /* a missing options file: nvcc says so itself */
        log_verbose("%s; running plain nvcc", sb_str(&err));
        return plain(real, argc, argv, &cl, &nvcc, &err);
    }
    size_t cuda_inputs = 0;
    for (size_t i = 0; i < cl.inputs.len; i++)
        cuda_inputs += cl.inputs.items[i].lang == NVCC_LANG_CU;
    if (!phase_makes_code(cl.phase) || cl.dryrun || cuda_inputs == 0)
        return plain(real, argc, argv, &cl, &nvcc, &err);

    /* under a cl1cc that runs this one as its nvcc (an nvcc that execs
     * cl1cc), the outer one splices: this one only passes through */
    if (nvcc_exec_chain_length() > 1)
        return plain(real, argc, argv, &cl, &nvcc, &err);
    /* nvcc does not expand "@file": it fails on it, and so does the build */
    for (int i = 0; i < argc; i++)
        if (argv[i][0] == '@')
            return plain(real, argc, argv, &cl, &nvcc, &err);

    ignore_xfsz();
    splice_plan plan;
    const char *capture_files = config_capture_files();
    const char *capture_dir = config_capture_dir();
    splice_status st = capture_files && capture_dir
                           ? splice_plan_capture(&cl, capture_files, capture_dir, &plan, &err)
                           : splice_plan_make(&cl, &plan, &err);
    if (planning_stopped) {
        splice_plan_free(&plan);
        return splice_end_as_stopped(planning_stopped);
    }
    if (st == SPLICE_NOTHING) {
        log_verbose("%s", err.len ? sb_str(&err) : "nothing to apply: plain nvcc");
        splice_plan_free(&plan);
        return plain(real, argc, argv, &cl, &nvcc, &err);
    }
    if (st != SPLICE_OK) {
        log_warn("%s; running plain nvcc", sb_str(&err));
        splice_plan_free(&plan);
        return plain(real, argc, argv, &cl, &nvcc, &err);
    }
    int rc = splice_plan_compile(real, argc, argv, &cl, &plan, &err);
    splice_plan_free(&plan);
    tempfiles_cleanup();
    if (planning_stopped) { /* between its nvcc runs */
        nvcc_cmdline_free(&cl);
        sb_free(&err);
        sb_free(&nvcc);
        return splice_end_as_stopped(planning_stopped);
    }
    if (rc < 0) {
        log_warn("%s; running plain nvcc", sb_str(&err));
        return plain(real, argc, argv, &cl, &nvcc, &err);
    }
    nvcc_cmdline_free(&cl);
    sb_free(&err);
    sb_free(&nvcc);
    return rc;
}
