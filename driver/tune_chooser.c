/*
 * tune_chooser.c: the chooser model of a `cl1cc tune` run: loaded before
 * the rounds (--chooser, the database's, the shipped prior, or none),
 * taught what every kernel's variants measured after them.
 */
#include <math.h>
#include <stdlib.h>

#include "builtin.h"
#include "core.h"
#include "tune.h"

/* the chooser model: --chooser, the database's, the shipped prior, or none */
void tune_load_chooser(tune_session *s)
{
    s->chooser_path = s->o.chooser ? s->o.chooser : arena_printf(&s->a, "%s/chooser.json", s->db_dir);
    if (pol_chooser_load(s->chooser_path, &s->chooser, &s->err) == 0)
        return;
    sb_clear(&s->err);
    const char *prior = arena_printf(&s->a, "%s/../share/cl1cc/chooser-prior.json", self_exe_dir());
    if (pol_chooser_load(prior, &s->chooser, &s->err) != 0) {
        log_warn("tune: no chooser model (%s): trying transforms in catalogue order",
                 sb_str(&s->err));
        sb_clear(&s->err);
        s->chooser = pol_chooser_new();
    }
}

static void learn(pol_chooser *c, const tune_target *tk)
{
    size_t n = tk->history.len;
    if (n < 2)
        return;
    const char **labels = xcalloc(n, sizeof *labels);
    double *speedups = xcalloc(n, sizeof *speedups);
    for (size_t i = 0; i < n; i++) {
        labels[i] = tk->history.items[i].label;
        double sp = tk->history.items[i].speedup;
        speedups[i] = isfinite(sp) ? sp : 0;
    }
    pol_chooser_learn(c, tk->features, labels, speedups, n);
    free(labels);
    free(speedups);
}

void tune_learn_all(tune_session *s)
{
    int learning = s->o.learn && s->loop.ran_on_gpu;
    for (size_t i = 0; i < s->targets.len && learning; i++)
        learn(s->chooser, &s->targets.items[i]);
    if (learning && s->chooser && pol_chooser_save(s->chooser, s->chooser_path, &s->err) != 0) {
        log_warn("tune: saving the chooser: %s", sb_str(&s->err));
        sb_clear(&s->err);
    }
}
