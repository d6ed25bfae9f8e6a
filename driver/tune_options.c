/*
 * tune_options.c: the command line of `cl1cc tune`: tables of its flags
 * and of its options with a value; the judge's settings are the harness's
 * (hn_judge_settings_option), the LLM's the policy's.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tune.h"

/* flags: the int at offset set to value */
static const struct {
    const char *name;
    size_t offset;
    int value;
} flags[] = {
    {"-h", offsetof(tune_options, help), 1},
    {"--help", offsetof(tune_options, help), 1},
    {"--retrain", offsetof(tune_options, retrain), 1},
    {"--no-learn", offsetof(tune_options, learn), 0},
    {"--cl1-fast-math", offsetof(tune_options, fast_math), 1},
};

/* options whose value is kept as given */
static const struct {
    const char *name;
    size_t offset; /* of a const char * */
} strings[] = {
    {"--gpus", offsetof(tune_options, pool.gpus)},
    {"--slurm-partition", offsetof(tune_options, pool.slurm_partition)},
    {"--slurm-gres", offsetof(tune_options, pool.slurm_gres)},
    {"--work", offsetof(tune_options, work)},
    {"--run", offsetof(tune_options, run_cmd)},
    {"--build", offsetof(tune_options, build_cmd)},
    {"--captures", offsetof(tune_options, captures)},
    {"--json", offsetof(tune_options, json)},
    {"-p", offsetof(tune_options, build_dir)},
    {"--chooser", offsetof(tune_options, chooser)},
};

/* options with a positive number: an int, or the double budget */
static const struct {
    const char *name;
    size_t offset;
    int is_double;
} numbers[] = {
    {"--limit", offsetof(tune_options, limit), 0},
    {"--kernel-evals", offsetof(tune_options, kernel_evals), 0},
    {"--per-round", offsetof(tune_options, per_round), 0},
    {"--judges-per-gpu", offsetof(tune_options, judges_per_gpu), 0},
    {"--llm-per-round", offsetof(tune_options, llm_per_round), 0},
    {"--budget-seconds", offsetof(tune_options, budget_seconds), 1},
};

#define AT(o, offset, type) (*(type *)((char *)(o) + (offset)))
#define N(table) (sizeof table / sizeof table[0])

static int positive(const char *name, const char *value, double *out)
{
    char *end;
    double v = strtod(value, &end);
    if (*end || !(v > 0)) {
        log_error("tune: %s wants a positive number, not '%s'", name, value);
        return -1;
    }
    *out = v;
    return 0;
}

/* A judge's first minute is mostly nvcc building its driver, on one CPU,
 * before it needs the GPU: with the CPUs for it, more judges at once give
 * every kernel of a program with many its first verdict sooner (their
 * timings still take the GPU one at a time).  4, up to 8 with 16 CPUs. */
static int default_judges_per_gpu(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    long n = cpus / 2;
    return n < 4 ? 4 : n > 8 ? 8 : (int)n;
}

static void defaults(tune_options *o)
{
    memset(o, 0, sizeof *o);
    o->limit = 2;
    o->budget_seconds = 900;
    o->kernel_evals = 24;
    o->per_round = 6;
    o->judges_per_gpu = default_judges_per_gpu();
    o->learn = 1;
    hn_judge_settings_init(&o->judge);
    o->judge.timed_runs = 10; /* tune's judges time fewer runs than the judge alone */
    o->use_builtin = 1;
    o->llm_per_round = 2;
    pol_llm_config_init(&o->llm);
    pool_options_init(&o->pool);
}

static int flag(tune_options *o, const char *arg)
{
    for (size_t i = 0; i < N(flags); i++)
        if (strcmp(arg, flags[i].name) == 0) {
            AT(o, flags[i].offset, int) = flags[i].value;
            return 1;
        }
    return 0;
}

/* an option with its value; 0, or -1 after saying what is wrong */
static int valued(tune_options *o, const char *arg, const char *value, const char **policy)
{
    for (size_t i = 0; i < N(strings); i++)
        if (strcmp(arg, strings[i].name) == 0) {
            AT(o, strings[i].offset, const char *) = value;
            return 0;
        }
    for (size_t i = 0; i < N(numbers); i++)
        if (strcmp(arg, numbers[i].name) == 0) {
            double v;
            if (positive(arg, value, &v) != 0)
                return -1;
            if (numbers[i].is_double)
                AT(o, numbers[i].offset, double) = v;
            else
                AT(o, numbers[i].offset, int) = (int)v;
            return 0;
        }
    if (strcmp(arg, "--policy") == 0) {
        *policy = value;
    } else if (strcmp(arg, "--kernel") == 0) {
        o->kernels[o->n_kernels++] = value;
    } else if (strcmp(arg, "--seed") == 0) {
        o->seed = strtoull(value, NULL, 10);
    } else if (strcmp(arg, "--cl1-backend") == 0) {
        static const char *const names[] = {[POOL_LOCAL] = "local", [POOL_SLURM] = "slurm"};
        for (size_t b = 0; b < N(names); b++)
            if (strcmp(value, names[b]) == 0) {
                o->pool.backend = (pool_backend)b;
                return 0;
            }
        log_error("tune: --cl1-backend is local or slurm, not '%s'", value);
        return -1;
    } else if (strcmp(arg, "--order") == 0) {
        static const char *const names[] = {[TUNE_ORDER_LEARNED] = "learned",
                                            [TUNE_ORDER_RANDOM] = "random",
                                            [TUNE_ORDER_CATALOGUE] = "catalogue"};
        for (size_t b = 0; b < N(names); b++)
            if (strcmp(value, names[b]) == 0) {
                o->order = (tune_order)b;
                return 0;
            }
        log_error("tune: --order is learned, random or catalogue, not '%s'", value);
        return -1;
    } else {
        log_error("tune: unknown option '%s'", arg);
        return -1;
    }
    return 0;
}

/* argv[*i] and what it takes; 0, or -1 after saying what is wrong */
static int one_option(tune_options *o, int argc, char **argv, int *i, const char **policy,
                      strbuf *err)
{
    const char *arg = argv[*i];
    const char *value = *i + 1 < argc ? argv[*i + 1] : NULL;
    int consumed = 0, llm = pol_llm_parse_option(&o->llm, arg, value, &consumed, err);
    if (llm != 0) {
        *i += consumed - 1;
        return llm < 0 ? -1 : 0;
    }
    /* --name=value spellings */
    const char *eq = strchr(arg, '=');
    char name[64];
    int inline_value = eq && strncmp(arg, "--", 2) == 0 && (size_t)(eq - arg) < sizeof name;
    if (inline_value) {
        snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
        arg = name;
        value = eq + 1;
    }
    int used = hn_judge_settings_option(&o->judge, arg, value, err);
    if (used != 0) {
        *i += inline_value || used < 0 ? 0 : used - 1;
        return used < 0 ? -1 : 0;
    }
    if (!value) {
        log_error("tune: %s needs a value", arg);
        return -1;
    }
    *i += !inline_value;
    return valued(o, arg, value, policy);
}

/* --policy builtin|llm|both against the LLM's configuration; 0 or -1 */
static int apply_policy(tune_options *o, const char *policy)
{
    if (policy && strcmp(policy, "builtin") != 0 && strcmp(policy, "llm") != 0 &&
        strcmp(policy, "both") != 0) {
        log_error("tune: --policy is builtin, llm or both, not '%s'", policy);
        return -1;
    }
    if (policy && strcmp(policy, "builtin") != 0 && !o->llm.url) {
        log_error("tune: --policy %s needs --cl1-llm-url and --cl1-llm-model", policy);
        return -1;
    }
    if (policy && strcmp(policy, "builtin") == 0)
        o->llm.url = NULL;
    if (policy && strcmp(policy, "llm") == 0)
        o->use_builtin = 0;
    if (o->llm.url) {
        strbuf why;
        sb_init(&why);
        int ok = pol_llm_config_check(&o->llm, &why) == 0;
        if (!ok)
            log_error("tune: %s", sb_str(&why));
        sb_free(&why);
        if (!ok)
            return -1;
    }
    return 0;
}

int tune_parse_options(int argc, char **argv, tune_options *o)
{
    defaults(o);
    const char *policy = NULL;
    strbuf err;
    sb_init(&err);
    o->files = xcalloc((size_t)argc + 1, sizeof *o->files);
    o->kernels = xcalloc((size_t)argc + 1, sizeof *o->kernels);
    int rc = 0;
    for (int i = 0; i < argc && rc == 0 && !o->help; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            o->nvcc_flags = argv + i + 1;
            o->n_nvcc_flags = (size_t)(argc - i - 1);
            break;
        }
        if (flag(o, arg))
            continue;
        if (arg[0] != '-') {
            o->files[o->n_files++] = arg;
            continue;
        }
        rc = one_option(o, argc, argv, &i, &policy, &err);
        if (rc != 0 && err.len)
            log_error("tune: %s", sb_str(&err));
    }
    sb_free(&err);
    if (rc != 0)
        return -1;
    if (o->help || o->retrain)
        return 0;
    if (apply_policy(o, policy) != 0)
        return -1;
    /* the judges hide the API key from the variants: $CL1CC_LLM_API_KEY
     * always, and the variable --cl1-llm-key-env names */
    if (o->llm.key_env && strcmp(o->llm.key_env, POL_LLM_DEFAULT_KEY_ENV) != 0)
        o->judge.key_env = o->llm.key_env;
    if (!o->n_files) {
        log_error("tune: no files to tune");
        return -1;
    }
    if (!o->run_cmd && !o->captures) {
        log_error("tune: --run CMD (to capture launches) or --captures DIR is needed");
        return -1;
    }
    return 0;
}

void tune_options_free(tune_options *o)
{
    free(o->files);
    free(o->kernels);
    o->files = NULL;
    o->kernels = NULL;
}
