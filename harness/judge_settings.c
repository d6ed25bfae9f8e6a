/*
 * judge_settings.c: the judge's settings (seeds, rounds, timed runs, time
 * limit, sanitizer, isolation, the API key's variable) and their one
 * spelling on a command line,
 * written by `cl1cc tune` and read by `cl1cc judge` and `cl1cc tune`.
 */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

void hn_judge_settings_init(hn_judge_settings *s)
{
    memset(s, 0, sizeof *s);
    s->seeds = 2;
    s->rounds = 3;
    s->timed_runs = 20;
    s->timeout_s = 30;
}

/* a setting with a value: its option, and where it goes */
typedef enum setting_kind {
    SETTING_COUNT,
    SETTING_POSITIVE_INT,
    SETTING_POSITIVE,
    SETTING_ENV_NAME /* a const char * */
} setting_kind;

typedef struct setting_option {
    const char *name;
    setting_kind kind;
    size_t offset; /* of the int, double or string in hn_judge_settings */
} setting_option;

static const setting_option valued[] = {
    {"--runs", SETTING_POSITIVE_INT, offsetof(hn_judge_settings, timed_runs)},
    {"--rounds", SETTING_POSITIVE_INT, offsetof(hn_judge_settings, rounds)},
    {"--seeds", SETTING_COUNT, offsetof(hn_judge_settings, seeds)},
    {"--timeout", SETTING_POSITIVE, offsetof(hn_judge_settings, timeout_s)},
    {"--cl1-llm-key-env", SETTING_ENV_NAME, offsetof(hn_judge_settings, key_env)},
};

static const struct {
    const char *name;
    size_t offset;
} flags[] = {
    {"--sanitize", offsetof(hn_judge_settings, sanitize)},
    {"--isolate", offsetof(hn_judge_settings, isolate_every_run)},
};

static int set_value(hn_judge_settings *s, const setting_option *opt, const char *value,
                     strbuf *err)
{
    char *end;
    if (!value) {
        sb_printf(err, "%s needs a value", opt->name);
        return -1;
    }
    if (opt->kind == SETTING_COUNT) {
        if (!*value || strspn(value, "0123456789") != strlen(value)) {
            sb_printf(err, "%s wants a count, not '%s'", opt->name, value);
            return -1;
        }
        *(int *)((char *)s + opt->offset) = atoi(value);
        return 2;
    }
    if (opt->kind == SETTING_ENV_NAME) {
        if (!*value || strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789") !=
                           strlen(value) || (*value >= '0' && *value <= '9')) {
            sb_printf(err, "%s wants a variable name, not '%s'", opt->name, value);
            return -1;
        }
        *(const char **)((char *)s + opt->offset) = value;
        return 2;
    }
    double v = strtod(value, &end);
    if (*end || !(v > 0)) {
        sb_printf(err, "%s wants a positive number, not '%s'", opt->name, value);
        return -1;
    }
    if (opt->kind == SETTING_POSITIVE_INT)
        *(int *)((char *)s + opt->offset) = (int)v;
    else
        *(double *)((char *)s + opt->offset) = v;
    return 2;
}

int hn_judge_settings_option(hn_judge_settings *s, const char *name, const char *value,
                             strbuf *err)
{
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (strcmp(name, flags[i].name) == 0) {
            *(int *)((char *)s + flags[i].offset) = 1;
            return 1;
        }
    for (size_t i = 0; i < sizeof valued / sizeof valued[0]; i++)
        if (strcmp(name, valued[i].name) == 0)
            return set_value(s, &valued[i], value, err);
    return 0;
}

void hn_judge_settings_argv(const hn_judge_settings *s, cstr_vec *argv, arena *a)
{
    for (size_t i = 0; i < sizeof valued / sizeof valued[0]; i++) {
        const char *field = (const char *)s + valued[i].offset;
        if (valued[i].kind == SETTING_ENV_NAME && !*(const char *const *)field)
            continue; /* unset: none */
        vec_push(argv, valued[i].name);
        if (valued[i].kind == SETTING_ENV_NAME)
            vec_push(argv, *(const char *const *)field);
        else if (valued[i].kind == SETTING_POSITIVE)
            vec_push(argv, arena_printf(a, "%g", *(const double *)field));
        else
            vec_push(argv, arena_printf(a, "%d", *(const int *)field));
    }
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (*(const int *)((const char *)s + flags[i].offset))
            vec_push(argv, flags[i].name);
}
