/*
 * tune_options.c: the command line of `cl1cc tune`.
 */
#include <stdlib.h>
#include <string.h>

#include "tune.h"

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

int tune_parse_options(int argc, char **argv, tune_options *o)
{
    memset(o, 0, sizeof *o);
    o->limit = 2;
    o->budget_seconds = 900;
    o->kernel_evals = 24;
    o->per_round = 6;
    o->learn = 1;
    o->judge_runs = 10;
    o->judge_rounds = 3;
    o->judge_seeds = 2;
    o->judge_timeout = 30;
    o->use_builtin = 1;
    o->llm_per_round = 2;
    pol_llm_config_init(&o->llm);
    pool_options_init(&o->pool);
    const char *policy = NULL;
    strbuf err;
    sb_init(&err);
    o->files = xcalloc((size_t)argc + 1, sizeof *o->files);
    o->kernels = xcalloc((size_t)argc + 1, sizeof *o->kernels);
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        double v;
        if (strcmp(arg, "--") == 0) {
            o->nvcc_flags = argv + i + 1;
            o->n_nvcc_flags = (size_t)(argc - i - 1);
            break;
        }
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            o->help = 1;
            return 0;
        }
        if (strcmp(arg, "--retrain") == 0) {
            o->retrain = 1;
            continue;
        }
        if (strcmp(arg, "--no-learn") == 0) {
            o->learn = 0;
            continue;
        }
        if (strcmp(arg, "--cl1-fast-math") == 0) {
            o->fast_math = 1;
            continue;
        }
        if (arg[0] != '-') {
            o->files[o->n_files++] = arg;
            continue;
        }
        int consumed = 0, llm = pol_llm_parse_option(&o->llm, arg, next, &consumed, &err);
        if (llm < 0) {
            log_error("tune: %s", sb_str(&err));
            sb_free(&err);
            return -1;
        }
        if (llm > 0) {
            i += consumed - 1;
            continue;
        }
        /* --name=value spellings of the pool's options */
        const char *eq = strchr(arg, '=');
        char name[64];
        if (eq && strncmp(arg, "--", 2) == 0 && (size_t)(eq - arg) < sizeof name) {
            snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
            arg = name;
            next = eq + 1;
            i--; /* nothing more to consume */
        }
        if (!next) {
            log_error("tune: %s needs a value", arg);
            return -1;
        }
        i++;
        if (strcmp(arg, "--cl1-backend") == 0) {
            if (strcmp(next, "local") == 0)
                o->pool.backend = POOL_LOCAL;
            else if (strcmp(next, "slurm") == 0)
                o->pool.backend = POOL_SLURM;
            else {
                log_error("tune: --cl1-backend is local or slurm, not '%s'", next);
                return -1;
            }
        } else if (strcmp(arg, "--gpus") == 0) {
            o->pool.gpus = next;
        } else if (strcmp(arg, "--slurm-partition") == 0) {
            o->pool.slurm_partition = next;
        } else if (strcmp(arg, "--slurm-gres") == 0) {
            o->pool.slurm_gres = next;
        } else if (strcmp(arg, "--work") == 0) {
            o->work = next;
        } else if (strcmp(arg, "--policy") == 0) {
            policy = next;
        } else if (strcmp(arg, "--run") == 0) {
            o->run_cmd = next;
        } else if (strcmp(arg, "--build") == 0) {
            o->build_cmd = next;
        } else if (strcmp(arg, "--captures") == 0) {
            o->captures = next;
        } else if (strcmp(arg, "--json") == 0) {
            o->json = next;
        } else if (strcmp(arg, "--chooser") == 0) {
            o->chooser = next;
        } else if (strcmp(arg, "--kernel") == 0) {
            o->kernels[o->n_kernels++] = next;
        } else if (strcmp(arg, "--order") == 0) {
            if (strcmp(next, "learned") == 0)
                o->order = TUNE_ORDER_LEARNED;
            else if (strcmp(next, "random") == 0)
                o->order = TUNE_ORDER_RANDOM;
            else if (strcmp(next, "catalogue") == 0)
                o->order = TUNE_ORDER_CATALOGUE;
            else {
                log_error("tune: --order is learned, random or catalogue, not '%s'", next);
                return -1;
            }
        } else if (strcmp(arg, "--seed") == 0) {
            o->seed = strtoull(next, NULL, 10);
        } else if (strcmp(arg, "--timeout") == 0) {
            if (positive(arg, next, &o->judge_timeout) != 0)
                return -1;
        } else if (strcmp(arg, "--budget-seconds") == 0) {
            if (positive(arg, next, &o->budget_seconds) != 0)
                return -1;
        } else {
            int *target = strcmp(arg, "--limit") == 0          ? &o->limit
                          : strcmp(arg, "--kernel-evals") == 0 ? &o->kernel_evals
                          : strcmp(arg, "--per-round") == 0    ? &o->per_round
                          : strcmp(arg, "--runs") == 0         ? &o->judge_runs
                          : strcmp(arg, "--rounds") == 0       ? &o->judge_rounds
                          : strcmp(arg, "--seeds") == 0        ? &o->judge_seeds
                          : strcmp(arg, "--llm-per-round") == 0 ? &o->llm_per_round
                                                               : NULL;
            if (!target) {
                log_error("tune: unknown option '%s'", arg);
                return -1;
            }
            if (strcmp(arg, "--seeds") == 0) {
                v = atoi(next);
                if (v < 0 || strspn(next, "0123456789") != strlen(next)) {
                    log_error("tune: --seeds wants a count, not '%s'", next);
                    return -1;
                }
            } else if (positive(arg, next, &v) != 0) {
                return -1;
            }
            *target = (int)v;
        }
    }
    sb_free(&err);
    if (o->retrain)
        return 0;
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
        if (pol_llm_config_check(&o->llm, &why) != 0) {
            log_error("tune: %s", sb_str(&why));
            sb_free(&why);
            return -1;
        }
        sb_free(&why);
    }
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
