/*
 * tune_cmd.c: `cl1cc tune --run CMD [--build CMD] FILES... [-- NVCC-FLAGS]`:
 * the whole loop, in order.  Captures real launches of the user's program,
 * then for every captured kernel runs rounds of propose -> judge -> record:
 * proposals (the built-in policy, the LLM's) that the harness verifies and
 * times (`cl1cc judge` children), the measurements fed back into the next
 * round and into the chooser and recorded in the tuning database; it ends
 * with a table (and --json).  The steps: tune_setup.c (before the rounds),
 * tune_targets.c (what to tune), tune_round.c (a round), tune_chooser.c
 * and tune_report.c (after the rounds).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compdb.h"
#include "core.h"
#include "driver.h"
#include "tune.h"

double tune_now(void)
{
    return proc_now_seconds();
}

static void session_free(tune_session *s)
{
    for (size_t i = 0; i < s->targets.len; i++) {
        tune_target *tk = &s->targets.items[i];
        vec_free(&tk->history);
        vec_free(&tk->row.progress_t);
        vec_free(&tk->row.progress_best);
    }
    vec_free(&s->targets);
    for (size_t i = 0; i < s->models.len; i++) {
        model_free(s->models.items[i]);
        free(s->models.items[i]);
    }
    vec_free(&s->models);
    pol_chooser_free(s->chooser);
    tunedb_close(s->loop.db);
    nvcc_cmdline_free(&s->cl);
    sb_free(&s->err);
    tune_options_free(&s->o);
    arena_free(&s->a);
}

/* capture -> what to tune -> rounds of propose -> judge -> record ->
 * learn -> report; the exit code */
static int tune(tune_session *s)
{
    if (tune_find_places(s) != 0)
        return 1;
    double capture_started = tune_now();
    if (tune_capture(s) != 0)
        return 1;
    if (s->o.run_cmd) {
        s->loop.capture_seconds = tune_now() - capture_started;
        if (hn_capture_phases_read(s->captures, s->loop.capture_phases) != 0)
            memset(s->loop.capture_phases, 0, sizeof s->loop.capture_phases);
    }
    tune_detect_gpu(s);
    if (tune_find_targets(s) != 0)
        return 1;
    tune_key_targets(s);
    tune_load_chooser(s);
    if (tune_make_work_dir(s) != 0)
        return 1;
    tune_share_gpus(s);
    s->loop.ran_on_gpu = 1; /* until a judgement says otherwise */
    /* the budget is for tuning: the capture (the user's whole program, its
     * CPU reference included) does not count against it */
    s->tuning_started = s->loop.tuning_started = tune_now();
    int more;
    for (int round = 1; (more = tune_round(s, round)) > 0; round++)
        ;
    if (more < 0)
        return 1;
    tune_learn_all(s);
    int rc = tune_report(s);
    size_t captured = 0;
    for (size_t i = 0; i < s->targets.len; i++)
        captured += s->targets.items[i].n_captured > 0;
    if (rc == 0 && s->targets.len && !captured) {
        printf("tune: nothing was captured: no launch of any kernel (each one's reason above)\n");
        rc = TUNE_EXIT_NOTHING_CAPTURED;
    }
    return rc;
}

int cmd_tune(int argc, char **argv)
{
    tune_session s;
    memset(&s, 0, sizeof s);
    int parsed = tune_parse_options(argc, argv, &s.o);
    if (parsed != 0 || s.o.help || s.o.retrain) {
        int rc = parsed != 0 ? 2 : s.o.help ? 0 : tune_retrain(&s.o);
        if (parsed != 0 || s.o.help)
            driver_usage("tune", stderr);
        tune_options_free(&s.o);
        return rc;
    }
    arena_init(&s.a);
    sb_init(&s.err);
    s.loop.judge = &s.o.judge;
    s.loop.started = tune_now();
    /* -p BUILD: the files' flags from the build, before those after "--" */
    cstr_vec flags = {0};
    if (s.o.build_dir) {
        if (compdb_common_flags(s.o.build_dir, s.o.files, s.o.n_files, s.o.nvcc_flags,
                                s.o.n_nvcc_flags, &s.a, &flags, &s.err) != 0) {
            log_error("tune: %s", sb_str(&s.err));
            vec_free(&flags);
            sb_free(&s.err);
            tune_options_free(&s.o);
            arena_free(&s.a);
            return 2;
        }
        vec_push(&flags, NULL);
        s.o.nvcc_flags = arena_alloc(&s.a, flags.len * sizeof *s.o.nvcc_flags);
        memcpy(s.o.nvcc_flags, flags.items, flags.len * sizeof *s.o.nvcc_flags);
        s.o.n_nvcc_flags = flags.len - 1;
        vec_free(&flags);
    }
    if (nvcc_cmdline_parse((int)s.o.n_nvcc_flags, s.o.nvcc_flags, &s.cl, &s.err) != 0) {
        log_error("tune: %s", sb_str(&s.err));
        sb_free(&s.err);
        tune_options_free(&s.o);
        arena_free(&s.a);
        return 2;
    }
    s.loop.cl = &s.cl;
    s.loop.nvcc_flags = (const char *const *)s.o.nvcc_flags;
    s.loop.n_nvcc_flags = s.o.n_nvcc_flags;
    int rc = tune(&s);
    session_free(&s);
    return rc;
}
