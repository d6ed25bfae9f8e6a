/*
 * tune_retrain.c: `cl1cc tune --retrain [--chooser FILE]`: learns the
 * chooser afresh from every kernel in the tuning database (its features and
 * every variant measured for it, failed ones counting as no speedup) and
 * writes the model.  The shipped prior can be remade this way from merged
 * device runs (testsuite/bench/merge_tuning_dbs.py, docs/TUNING.md).
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "tune.h"
#include "tunedb.h"

static int features_from_json(const char *text, double f[POL_NFEATURES])
{
    cJSON *o = cJSON_Parse(text);
    if (!cJSON_IsObject(o)) {
        cJSON_Delete(o);
        return -1;
    }
    for (size_t i = 0; i < POL_NFEATURES; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, pol_feature_name(i));
        f[i] = cJSON_IsNumber(v) ? v->valuedouble : 0;
    }
    cJSON_Delete(o);
    return 0;
}

int tune_retrain(const tune_options *o)
{
    arena a;
    arena_init(&a);
    strbuf err;
    sb_init(&err);
    int rc = 1;
    tunedb *db = NULL;
    pol_chooser *c = pol_chooser_new();
    const char *path = tunedb_default_path(&a);
    const char *out = o->chooser;
    if (!out && path) {
        char *dir = arena_strdup(&a, path);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        out = arena_printf(&a, "%s/chooser.json", dir);
    }
    int open = tunedb_open(path, TUNEDB_READONLY, &db, &err);
    if (open != 0) {
        log_error("tune --retrain: %s", open > 0 ? "no tuning database yet" : sb_str(&err));
        goto done;
    }
    tunedb_kernel_list ks;
    if (tunedb_list_kernels_with_features(db, &a, &ks, &err) != 0) {
        log_error("tune --retrain: %s", sb_str(&err));
        goto done;
    }
    size_t kernels = 0, pairs = 0;
    for (size_t i = 0; i < ks.len; i++) {
        double f[POL_NFEATURES];
        tunedb_variant_list vs;
        if (features_from_json(ks.items[i].features_json, f) != 0 ||
            tunedb_list_variants(db, ks.items[i].key, NULL, &a, &vs, &err) != 0) {
            sb_clear(&err);
            continue;
        }
        const char **labels = xcalloc(vs.len + 1, sizeof *labels);
        double *speedups = xcalloc(vs.len + 1, sizeof *speedups);
        size_t n = 0;
        for (size_t v = 0; v < vs.len; v++) {
            if (!vs.items[v].transforms || !vs.items[v].transforms[0])
                continue;
            labels[n] = vs.items[v].transforms;
            speedups[n] = vs.items[v].verified && isfinite(vs.items[v].speedup)
                              ? vs.items[v].speedup : 0;
            n++;
        }
        size_t p = pol_chooser_learn(c, f, labels, speedups, n);
        pairs += p;
        kernels += p > 0;
        free(labels);
        free(speedups);
    }
    if (pol_chooser_save(c, out, &err) != 0) {
        log_error("tune --retrain: %s", sb_str(&err));
        goto done;
    }
    printf("chooser learned from %zu pair(s) of variants of %zu kernel(s): %s\n", pairs, kernels,
           out);
    rc = 0;
done:
    tunedb_close(db);
    pol_chooser_free(c);
    sb_free(&err);
    arena_free(&a);
    return rc;
}
