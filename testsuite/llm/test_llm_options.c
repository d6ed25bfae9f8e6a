/*
 * test_llm_options.c: the --cl1-llm-* options in both spellings, bad
 * values, options that are not ours, and the configuration check.
 */
#include "llm.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

static int parse(pol_llm_config *cfg, const char *arg, const char *next, int *consumed,
                 strbuf *err)
{
    sb_clear(err);
    return pol_llm_parse_option(cfg, arg, next, consumed, err);
}

int main(void)
{
    pol_llm_config cfg;
    pol_llm_config_init(&cfg);
    strbuf err;
    sb_init(&err);
    int used;

    CHECK(cfg.max_attempts == 4 && cfg.max_response_bytes == 4u << 20 &&
          strcmp(cfg.key_env, "CL1CC_LLM_API_KEY") == 0 && cfg.url == NULL);

    CHECK(parse(&cfg, "--cl1-llm-url=http://127.0.0.1:8000/v1", NULL, &used, &err) == 1 &&
          used == 1 && strcmp(cfg.url, "http://127.0.0.1:8000/v1") == 0);
    CHECK(parse(&cfg, "--cl1-llm-model", "cuda-l1", &used, &err) == 1 && used == 2 &&
          strcmp(cfg.model, "cuda-l1") == 0);
    CHECK(parse(&cfg, "--cl1-llm-key-env", "MY_KEY", &used, &err) == 1 &&
          strcmp(cfg.key_env, "MY_KEY") == 0);
    CHECK(parse(&cfg, "--cl1-llm-timeout=2.5", NULL, &used, &err) == 1 && cfg.timeout_s == 2.5);
    CHECK(parse(&cfg, "--cl1-llm-connect-timeout", "1", &used, &err) == 1 &&
          cfg.connect_timeout_s == 1);
    CHECK(parse(&cfg, "--cl1-llm-attempts=7", NULL, &used, &err) == 1 && cfg.max_attempts == 7);
    CHECK(parse(&cfg, "--cl1-llm-max-response=1M", NULL, &used, &err) == 1 &&
          cfg.max_response_bytes == 1u << 20);
    CHECK(parse(&cfg, "--cl1-llm-prompt-budget", "8k", &used, &err) == 1 &&
          cfg.prompt_budget == 8192);
    CHECK(parse(&cfg, "--cl1-llm-temperature=0", NULL, &used, &err) == 1 && cfg.temperature == 0);
    CHECK(parse(&cfg, "--cl1-llm-max-tokens=4096", NULL, &used, &err) == 1 &&
          cfg.max_tokens == 4096);
    CHECK(parse(&cfg, "--cl1-llm-n-per-request=1", NULL, &used, &err) == 1 &&
          cfg.n_per_request == 1);
    CHECK(parse(&cfg, "--cl1-llm-backoff=0.25", NULL, &used, &err) == 1 && cfg.backoff_s == 0.25);
    CHECK(parse(&cfg, "--cl1-llm-backoff-max=3", NULL, &used, &err) == 1 &&
          cfg.backoff_max_s == 3);

    /* not ours: untouched, nothing said */
    CHECK(parse(&cfg, "-O3", NULL, &used, &err) == 0 && used == 0 && err.len == 0);
    CHECK(parse(&cfg, "--cl1-db=x", NULL, &used, &err) == 0 && used == 0);
    CHECK(parse(&cfg, NULL, NULL, &used, &err) == 0);

    /* bad values and typos */
    CHECK(parse(&cfg, "--cl1-llm-url", NULL, &used, &err) == -1 && strstr(sb_str(&err), "value"));
    CHECK(parse(&cfg, "--cl1-llm-url=", NULL, &used, &err) == -1);
    CHECK(parse(&cfg, "--cl1-llm-attempts=0", NULL, &used, &err) == -1 &&
          strstr(sb_str(&err), "--cl1-llm-attempts"));
    CHECK(parse(&cfg, "--cl1-llm-attempts=2.5", NULL, &used, &err) == -1);
    CHECK(parse(&cfg, "--cl1-llm-timeout=soon", NULL, &used, &err) == -1);
    CHECK(parse(&cfg, "--cl1-llm-timeout=nan", NULL, &used, &err) == -1);
    CHECK(parse(&cfg, "--cl1-llm-max-response=12Q", NULL, &used, &err) == -1);
    CHECK(parse(&cfg, "--cl1-llm-key-env=1BAD", NULL, &used, &err) == -1);
    CHECK(parse(&cfg, "--cl1-llm-key-env=A-B", NULL, &used, &err) == -1);
    CHECK(parse(&cfg, "--cl1-llm-modle=x", NULL, &used, &err) == -1 &&
          strstr(sb_str(&err), "unknown option '--cl1-llm-modle'"));
    CHECK(parse(&cfg, "--cl1-llm-urlx=1", NULL, &used, &err) == -1);
    CHECK(cfg.max_attempts == 7 && strcmp(cfg.key_env, "MY_KEY") == 0);

    /* every option is in the help */
    const char *help = pol_llm_options_help();
    CHECK(strstr(help, "--cl1-llm-url URL") && strstr(help, "--cl1-llm-key-env VAR") &&
          strstr(help, "--cl1-llm-n-per-request N") && strstr(help, "CL1CC_LLM_API_KEY"));

    /* the check */
    pol_llm_config c;
    pol_llm_config_init(&c);
    sb_clear(&err);
    CHECK(pol_llm_config_check(&c, &err) == -1 && strstr(sb_str(&err), "--cl1-llm-url"));
    c.url = "ftp://host/v1";
    sb_clear(&err);
    CHECK(pol_llm_config_check(&c, &err) == -1 && strstr(sb_str(&err), "http"));
    c.url = "https://user:secret@host/v1?token=secret";
    sb_clear(&err);
    CHECK(pol_llm_config_check(&c, &err) == -1 && strstr(sb_str(&err), "--cl1-llm-model"));
    c.model = "m";
    c.key_env = "CL1CC_TEST_LLM_KEY";
    setenv("CL1CC_TEST_LLM_KEY", "sk-line\nbreak", 1);
    sb_clear(&err);
    CHECK(pol_llm_config_check(&c, &err) == -1 && strstr(sb_str(&err), "$CL1CC_TEST_LLM_KEY") &&
          !strstr(sb_str(&err), "sk-line"));
    setenv("CL1CC_TEST_LLM_KEY", "sk-fine", 1);
    sb_clear(&err);
    CHECK(pol_llm_config_check(&c, &err) == 0);
    c.url = "ftp://user:secret@host/v1?token=secret";
    sb_clear(&err);
    CHECK(pol_llm_config_check(&c, &err) == -1 && !strstr(sb_str(&err), "secret"));

    /* a configuration error sends nothing and appends nothing */
    pol_proposal_vec props = {0};
    pol_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.kernel_source = "__global__ void k() {}";
    ctx.max_proposals = 2;
    arena a;
    arena_init(&a);
    pol_llm_config none;
    pol_llm_config_init(&none);
    sb_clear(&err);
    CHECK(pol_llm_propose(&none, &ctx, &a, &props, &err) == -1 && props.len == 0 && err.len);
    c.url = "http://127.0.0.1:9/v1";
    ctx.kernel_source = NULL;
    sb_clear(&err);
    CHECK(pol_llm_propose(&c, &ctx, &a, &props, &err) == -1 && props.len == 0);
    ctx.kernel_source = "__global__ void k() {}";
    ctx.max_proposals = 0;
    CHECK(pol_llm_propose(&c, &ctx, &a, &props, &err) == 0 && props.len == 0);
    arena_free(&a);
    vec_free(&props);
    sb_free(&err);
    return CHECK_REPORT("llm_options");
}
