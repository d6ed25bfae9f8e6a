/*
 * llm_config.c: the LLM policy's settings: defaults, the --cl1-llm-*
 * command-line options (one table), and the check done before anything is
 * sent.
 */
#include "llm_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void pol_llm_config_init(pol_llm_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->key_env = POL_LLM_DEFAULT_KEY_ENV;
    cfg->connect_timeout_s = 10;
    cfg->timeout_s = 300;
    cfg->max_attempts = 4;
    cfg->backoff_s = 1;
    cfg->backoff_max_s = 60;
    cfg->max_response_bytes = 4u << 20;
    cfg->prompt_budget = 32000;
    cfg->temperature = 0.7;
}

typedef enum { OPT_STRING, OPT_ENV_NAME, OPT_REAL, OPT_INT, OPT_SIZE } opt_kind;

typedef struct option {
    const char *name;
    opt_kind kind;
    size_t offset;
    double min, max; /* for numbers */
    const char *metavar, *help;
} option;

#define FIELD(f) offsetof(pol_llm_config, f)
static const option options[] = {
    {"--cl1-llm-url", OPT_STRING, FIELD(url), 0, 0, "URL",
     "the endpoint's base URL, e.g. http://127.0.0.1:8000/v1"},
    {"--cl1-llm-model", OPT_STRING, FIELD(model), 0, 0, "NAME", "the model to ask"},
    {"--cl1-llm-key-env", OPT_ENV_NAME, FIELD(key_env), 0, 0, "VAR",
     "the environment variable holding the API key (" POL_LLM_DEFAULT_KEY_ENV ")"},
    {"--cl1-llm-timeout", OPT_REAL, FIELD(timeout_s), 0.001, 86400, "S",
     "one request, start to end (300)"},
    {"--cl1-llm-connect-timeout", OPT_REAL, FIELD(connect_timeout_s), 0.001, 3600, "S",
     "connecting (10)"},
    {"--cl1-llm-attempts", OPT_INT, FIELD(max_attempts), 1, 100, "N",
     "tries of a request on 429, 5xx and connection errors (4)"},
    {"--cl1-llm-backoff", OPT_REAL, FIELD(backoff_s), 0, 3600, "S",
     "first retry delay, doubled each time, with jitter (1)"},
    {"--cl1-llm-backoff-max", OPT_REAL, FIELD(backoff_max_s), 0, 86400, "S",
     "the longest delay, Retry-After included (60)"},
    {"--cl1-llm-max-response", OPT_SIZE, FIELD(max_response_bytes), 1024, 1 << 30, "BYTES",
     "a larger reply is an error (4M)"},
    {"--cl1-llm-prompt-budget", OPT_SIZE, FIELD(prompt_budget), 1, 1 << 30, "CHARS",
     "the prompt's size (32000)"},
    {"--cl1-llm-temperature", OPT_REAL, FIELD(temperature), 0, 2, "T",
     "sampling temperature (0.7)"},
    {"--cl1-llm-max-tokens", OPT_INT, FIELD(max_tokens), 0, 10000000, "N",
     "the reply's length in tokens (0: the server's default)"},
    {"--cl1-llm-n-per-request", OPT_INT, FIELD(n_per_request), 0, 1000, "N",
     "proposals per request (0: all in one when the server can)"},
};
#undef FIELD
#define N_OPTIONS (sizeof options / sizeof options[0])

const char *pol_llm_options_help(void)
{
    static char text[2048];
    if (!text[0]) {
        size_t used = 0;
        for (size_t i = 0; i < N_OPTIONS && used < sizeof text; i++) {
            char left[64];
            snprintf(left, sizeof left, "%s %s", options[i].name, options[i].metavar);
            int n = snprintf(text + used, sizeof text - used, "  %-32s %s\n", left,
                             options[i].help);
            if (n < 0)
                break;
            used += (size_t)n;
        }
    }
    return text;
}

static int parse_size(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s)
        return -1;
    switch (*end) {
    case 'k': case 'K': v *= 1024; end++; break;
    case 'm': case 'M': v *= 1024 * 1024; end++; break;
    case 'g': case 'G': v *= 1024.0 * 1024 * 1024; end++; break;
    default: break;
    }
    if (*end || v != floor(v))
        return -1;
    *out = v;
    return 0;
}

static int set_value(pol_llm_config *cfg, const option *o, const char *value, strbuf *err)
{
    char *field = (char *)cfg + o->offset;
    if (o->kind == OPT_STRING || o->kind == OPT_ENV_NAME) {
        if (!*value) {
            sb_printf(err, "%s: empty value", o->name);
            return -1;
        }
        if (o->kind == OPT_ENV_NAME) {
            int good = isalpha((unsigned char)value[0]) || value[0] == '_';
            for (const char *p = value; good && *p; p++)
                good = isalnum((unsigned char)*p) || *p == '_';
            if (!good) {
                sb_printf(err, "%s: '%s' is not an environment variable's name", o->name, value);
                return -1;
            }
        }
        memcpy(field, &value, sizeof value);
        return 0;
    }
    double v;
    char *end = NULL;
    int bad;
    if (o->kind == OPT_SIZE) {
        bad = parse_size(value, &v) != 0;
    } else {
        errno = 0;
        v = strtod(value, &end);
        bad = errno || end == value || *end || !isfinite(v) ||
              (o->kind == OPT_INT && v != floor(v));
    }
    if (bad || v < o->min || v > o->max) {
        sb_printf(err, "%s: '%s' is not a %s from %g to %g", o->name, value,
                  o->kind == OPT_REAL ? "number" : "whole number", o->min, o->max);
        return -1;
    }
    if (o->kind == OPT_REAL) {
        memcpy(field, &v, sizeof v);
    } else if (o->kind == OPT_INT) {
        int i = (int)v;
        memcpy(field, &i, sizeof i);
    } else {
        size_t z = (size_t)v;
        memcpy(field, &z, sizeof z);
    }
    return 0;
}

int pol_llm_parse_option(pol_llm_config *cfg, const char *arg, const char *next,
                         int *consumed, strbuf *err)
{
    *consumed = 0;
    if (!arg || strncmp(arg, "--cl1-llm-", 10) != 0)
        return 0;
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const option *o = &options[i];
        size_t n = strlen(o->name);
        if (strncmp(arg, o->name, n) != 0 || (arg[n] != '\0' && arg[n] != '='))
            continue;
        const char *value = arg[n] == '=' ? arg + n + 1 : next;
        if (!value) {
            sb_printf(err, "%s needs a value", o->name);
            return -1;
        }
        if (set_value(cfg, o, value, err) != 0)
            return -1;
        *consumed = arg[n] == '=' ? 1 : 2;
        return 1;
    }
    size_t shown = strcspn(arg, "=");
    sb_printf(err, "unknown option '%.*s'", (int)shown, arg);
    return -1;
}

int pol_llm_config_check(const pol_llm_config *cfg, strbuf *err)
{
    if (!cfg->url || !*cfg->url) {
        sb_puts(err, "no endpoint: give --cl1-llm-url (e.g. http://127.0.0.1:8000/v1)");
        return -1;
    }
    if (strncmp(cfg->url, "http://", 7) != 0 && strncmp(cfg->url, "https://", 8) != 0) {
        arena a;
        arena_init(&a);
        sb_printf(err, "--cl1-llm-url: '%s' is not an http:// or https:// URL",
                  llm_display_url(cfg->url, &a));
        arena_free(&a);
        return -1;
    }
    if (!cfg->model || !*cfg->model) {
        sb_puts(err, "no model: give --cl1-llm-model (the name the server knows it by)");
        return -1;
    }
    const char *env = cfg->key_env && *cfg->key_env ? cfg->key_env : POL_LLM_DEFAULT_KEY_ENV;
    const char *key = getenv(env);
    if (key && strpbrk(key, "\r\n")) {
        sb_printf(err, "the API key in $%s has a line break", env);
        return -1;
    }
    if (cfg->max_attempts < 1 || !(cfg->timeout_s > 0) || !(cfg->connect_timeout_s > 0)) {
        sb_puts(err, "the LLM timeouts and attempts must be positive");
        return -1;
    }
    return 0;
}
