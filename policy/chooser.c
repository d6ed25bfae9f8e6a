/*
 * chooser.c: which transforms to try first for which kernels, learned from
 * measurements.  Each transform has a weight per kernel feature; a
 * combination scores the sum over its transforms.  Learning is pairwise
 * (contrastive, after CUDA-L1): for two measured variants of one kernel the
 * faster should score higher, a logistic loss on the score difference
 * weighted by how far apart their log speedups are.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* a weight row for every transform of the catalogue, sized from it
 * (test_chooser checks that each one learns a weight) */
enum { MAX_GROUPS = 4096 };

/* one kernel's measured variants: what the model is fitted on */
typedef struct observation {
    double features[POL_NFEATURES];
    char **combinations;
    double *speedups;
    size_t n;
} observation;

typedef double weight_row[POL_NFEATURES];

struct pol_chooser {
    size_t transforms; /* pol_transform_count(): rows of w */
    weight_row *w;
    size_t pairs_seen;
    VEC(observation) seen;
};

pol_chooser *pol_chooser_new(void)
{
    pol_chooser *c = xcalloc(1, sizeof(pol_chooser));
    c->transforms = pol_transform_count();
    c->w = xcalloc(c->transforms ? c->transforms : 1, sizeof *c->w);
    return c;
}

static void observation_free(observation *o)
{
    for (size_t i = 0; i < o->n; i++)
        free(o->combinations[i]);
    free(o->combinations);
    free(o->speedups);
}

void pol_chooser_free(pol_chooser *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->seen.len; i++)
        observation_free(&c->seen.items[i]);
    vec_free(&c->seen);
    free(c->w);
    free(c);
}

size_t pol_chooser_pairs_seen(const pol_chooser *c)
{
    return c->pairs_seen;
}

/* the transforms of "a+b+c" as indicator flags, one per row of c->w */
static void members(const pol_chooser *c, const char *combination, int *in)
{
    memset(in, 0, c->transforms * sizeof in[0]);
    for (const char *p = combination; p && *p;) {
        const char *end = strchr(p, '+');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        long t = pol_transform_index(p, n);
        if (t >= 0)
            in[t] = 1;
        p = end ? end + 1 : NULL;
    }
}

static double score_members(const pol_chooser *c, const double *f, const int *in)
{
    double s = 0;
    for (size_t t = 0; t < c->transforms; t++)
        if (in[t])
            for (size_t j = 0; j < POL_NFEATURES; j++)
                s += c->w[t][j] * f[j];
    return s;
}

int pol_chooser_measured(const pol_chooser *c, const char *combination)
{
    if (!c)
        return 0;
    int *want = xcalloc(c->transforms ? c->transforms : 1, sizeof *want);
    int *seen = xcalloc(c->transforms ? c->transforms : 1, sizeof *seen);
    int *in = xcalloc(c->transforms ? c->transforms : 1, sizeof *in);
    members(c, combination, want);
    for (size_t o = 0; o < c->seen.len; o++)
        for (size_t v = 0; v < c->seen.items[o].n; v++) {
            members(c, c->seen.items[o].combinations[v], in);
            for (size_t t = 0; t < c->transforms; t++)
                seen[t] |= in[t];
        }
    int measured = 1, any = 0;
    for (size_t t = 0; t < c->transforms; t++) {
        any |= want[t];
        if (want[t] && !seen[t])
            measured = 0;
    }
    free(want), free(seen), free(in);
    return measured && any;
}

double pol_chooser_score(const pol_chooser *c, const double features[POL_NFEATURES],
                         const char *combination)
{
    int *in = xcalloc(c->transforms ? c->transforms : 1, sizeof *in);
    members(c, combination, in);
    double s = score_members(c, features, in);
    free(in);
    return s;
}

static double utility(double speedup)
{
    return log(speedup > 0.05 && isfinite(speedup) ? speedup : 0.05);
}

/* the gradient of the pairwise loss over one observation, added to grad;
 * returns its pairs */
static size_t add_gradient(const pol_chooser *c, const observation *o, weight_row *grad)
{
    size_t pairs = 0;
    int *a = xcalloc(c->transforms ? c->transforms : 1, sizeof *a);
    int *b = xcalloc(c->transforms ? c->transforms : 1, sizeof *b);
    for (size_t i = 0; i < o->n; i++) {
        for (size_t j = 0; j < o->n; j++) {
            double gap = utility(o->speedups[i]) - utility(o->speedups[j]);
            if (gap <= 0.02) /* i must be the faster, beyond noise */
                continue;
            pairs++;
            members(c, o->combinations[i], a);
            members(c, o->combinations[j], b);
            double d = score_members(c, o->features, a) - score_members(c, o->features, b);
            double g = (1 - 1 / (1 + exp(-d))) * (gap < 3 ? gap : 3);
            for (size_t t = 0; t < c->transforms; t++) {
                int diff = a[t] - b[t];
                for (size_t k = 0; diff && k < POL_NFEATURES; k++)
                    grad[t][k] += g * diff * o->features[k];
            }
        }
    }
    free(a);
    free(b);
    return pairs;
}

/* the weights fitted afresh on everything seen by full-batch gradient
 * steps, so the order in which kernels were tuned does not matter */
static void refit(pol_chooser *c)
{
    size_t rows = c->transforms ? c->transforms : 1;
    memset(c->w, 0, rows * sizeof *c->w);
    weight_row *grad = xcalloc(rows, sizeof *grad);
    const double rate = 0.5, decay = 1e-3;
    size_t pairs = 0;
    for (int step = 0; step < 200; step++) {
        memset(grad, 0, rows * sizeof *grad);
        pairs = 0;
        for (size_t g = 0; g < c->seen.len; g++)
            pairs += add_gradient(c, &c->seen.items[g], grad);
        if (!pairs)
            break;
        for (size_t t = 0; t < c->transforms; t++)
            for (size_t k = 0; k < POL_NFEATURES; k++)
                c->w[t][k] += rate * grad[t][k] / (double)pairs * 4 - decay * c->w[t][k];
    }
    free(grad);
    c->pairs_seen = pairs;
}

static void add_observation(pol_chooser *c, const double *features, const char *const *combinations,
                            const double *speedups, size_t n)
{
    if (c->seen.len >= MAX_GROUPS) { /* the oldest go first */
        observation_free(&c->seen.items[0]);
        memmove(c->seen.items, c->seen.items + 1, (c->seen.len - 1) * sizeof *c->seen.items);
        c->seen.len--;
    }
    observation o;
    memcpy(o.features, features, sizeof o.features);
    o.n = n;
    o.combinations = xcalloc(n ? n : 1, sizeof *o.combinations);
    o.speedups = xcalloc(n ? n : 1, sizeof *o.speedups);
    for (size_t i = 0; i < n; i++) {
        o.combinations[i] = xstrdup(combinations[i] ? combinations[i] : "");
        o.speedups[i] = isfinite(speedups[i]) && speedups[i] > 0 ? speedups[i] : 0;
    }
    vec_push(&c->seen, o);
}

size_t pol_chooser_learn(pol_chooser *c, const double features[POL_NFEATURES],
                         const char *const *combinations, const double *speedups, size_t n)
{
    size_t pairs = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            pairs += utility(speedups[i]) - utility(speedups[j]) > 0.02;
    if (!pairs)
        return 0;
    add_observation(c, features, combinations, speedups, n);
    refit(c);
    return pairs;
}

int pol_chooser_save(const pol_chooser *c, const char *path, strbuf *err)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "format", 1);
    cJSON_AddNumberToObject(root, "pairs_seen", (double)c->pairs_seen);
    cJSON *fs = cJSON_AddArrayToObject(root, "features");
    for (size_t j = 0; j < POL_NFEATURES; j++)
        cJSON_AddItemToArray(fs, cJSON_CreateString(pol_feature_name(j)));
    cJSON *ws = cJSON_AddObjectToObject(root, "weights");
    for (size_t t = 0; t < c->transforms; t++) {
        cJSON *row = cJSON_CreateArray();
        for (size_t j = 0; j < POL_NFEATURES; j++)
            cJSON_AddItemToArray(row, cJSON_CreateNumber(round(c->w[t][j] * 1e6) / 1e6));
        cJSON_AddItemToObject(ws, pol_transform_name(t), row);
    }
    cJSON *obs = cJSON_AddArrayToObject(root, "observations");
    for (size_t g = 0; g < c->seen.len; g++) {
        const observation *o = &c->seen.items[g];
        cJSON *e = cJSON_CreateObject();
        cJSON *f = cJSON_AddArrayToObject(e, "features");
        for (size_t j = 0; j < POL_NFEATURES; j++)
            cJSON_AddItemToArray(f, cJSON_CreateNumber(round(o->features[j] * 1e6) / 1e6));
        cJSON *vs = cJSON_AddArrayToObject(e, "variants");
        for (size_t i = 0; i < o->n; i++) {
            cJSON *v = cJSON_CreateArray();
            cJSON_AddItemToArray(v, cJSON_CreateString(o->combinations[i]));
            cJSON_AddItemToArray(v, cJSON_CreateNumber(round(o->speedups[i] * 1e4) / 1e4));
            cJSON_AddItemToArray(vs, v);
        }
        cJSON_AddItemToArray(obs, e);
    }
    return json_write_file(root, path, 0, err);
}

int pol_chooser_load(const char *path, pol_chooser **out, strbuf *err)
{
    char *text = NULL;
    if (file_read_all(path, 1 << 20, &text, NULL) != 0) {
        sb_printf(err, "%s: %s", path, strerror(errno));
        return -1;
    }
    cJSON *root = cJSON_Parse(text);
    free(text);
    cJSON *fs = cJSON_GetObjectItemCaseSensitive(root, "features");
    cJSON *ws = cJSON_GetObjectItemCaseSensitive(root, "weights");
    if (!root || !cJSON_IsArray(fs) || !cJSON_IsObject(ws)) {
        sb_printf(err, "%s: not a cl1cc chooser model", path);
        cJSON_Delete(root);
        return -1;
    }
    pol_chooser *c = pol_chooser_new();
    cJSON *pairs = cJSON_GetObjectItemCaseSensitive(root, "pairs_seen");
    if (cJSON_IsNumber(pairs) && pairs->valuedouble >= 0)
        c->pairs_seen = (size_t)pairs->valuedouble;
    /* map the file's features onto ours by name */
    int nf = cJSON_GetArraySize(fs);
    long *column = xcalloc(nf > 0 ? (size_t)nf : 1, sizeof *column);
    for (int j = 0; j < nf; j++) {
        cJSON *f = cJSON_GetArrayItem(fs, j);
        column[j] = -1;
        for (size_t k = 0; cJSON_IsString(f) && k < POL_NFEATURES; k++)
            if (strcmp(f->valuestring, pol_feature_name(k)) == 0)
                column[j] = (long)k;
    }
    cJSON *row;
    cJSON_ArrayForEach(row, ws)
    {
        long t = row->string ? pol_transform_index(row->string, strlen(row->string)) : -1;
        if (t < 0 || !cJSON_IsArray(row))
            continue;
        for (int j = 0; j < nf && j < cJSON_GetArraySize(row); j++) {
            cJSON *v = cJSON_GetArrayItem(row, j);
            if (column[j] >= 0 && cJSON_IsNumber(v) && isfinite(v->valuedouble))
                c->w[t][column[j]] = v->valuedouble;
        }
    }
    cJSON *obs = cJSON_GetObjectItemCaseSensitive(root, "observations");
    cJSON *e;
    cJSON_ArrayForEach(e, obs)
    {
        cJSON *f = cJSON_GetObjectItemCaseSensitive(e, "features");
        cJSON *vs = cJSON_GetObjectItemCaseSensitive(e, "variants");
        if (!cJSON_IsArray(f) || !cJSON_IsArray(vs))
            continue;
        double features[POL_NFEATURES] = {0};
        for (int j = 0; j < nf && j < cJSON_GetArraySize(f); j++) {
            cJSON *v = cJSON_GetArrayItem(f, j);
            if (column[j] >= 0 && cJSON_IsNumber(v) && isfinite(v->valuedouble))
                features[column[j]] = v->valuedouble;
        }
        size_t n = (size_t)cJSON_GetArraySize(vs), k = 0;
        const char **combos = xcalloc(n + 1, sizeof *combos);
        double *speedups = xcalloc(n + 1, sizeof *speedups);
        cJSON *v;
        cJSON_ArrayForEach(v, vs)
        {
            cJSON *name = cJSON_GetArrayItem(v, 0), *sp = cJSON_GetArrayItem(v, 1);
            if (cJSON_IsString(name) && cJSON_IsNumber(sp)) {
                combos[k] = name->valuestring;
                speedups[k++] = sp->valuedouble;
            }
        }
        add_observation(c, features, combos, speedups, k);
        free(combos);
        free(speedups);
    }
    cJSON_Delete(root);
    free(column);
    /* the weights follow from the observations: fitted again here, a model
     * written by a build whose catalogue was smaller gets weights for the
     * transforms it measured but could not weigh */
    if (c->seen.len)
        refit(c);
    *out = c;
    return 0;
}

size_t pol_chooser_observation_count(const pol_chooser *c)
{
    return c->seen.len;
}

int pol_chooser_observation(const pol_chooser *c, size_t i, const double **features,
                            const char *const **combinations, const double **speedups,
                            size_t *n)
{
    if (i >= c->seen.len)
        return -1;
    const observation *o = &c->seen.items[i];
    *features = o->features;
    *combinations = (const char *const *)o->combinations;
    *speedups = o->speedups;
    *n = o->n;
    return 0;
}
