/*
 * llm.h: the LLM policy.  It asks a model behind an OpenAI-compatible
 * endpoint (vLLM, llama.cpp's server, a hosted API) for faster versions of
 * one kernel, in CUDA-L1's contrastive form, and parses its replies into
 * pol_proposals.  The prompt builder and the reply parser are pure and are
 * exposed here so they can be tested without a server.  docs/LLM.md is the
 * user's guide.
 */
#ifndef CL1CC_LLM_H
#define CL1CC_LLM_H

#include "core.h"
#include "policy.h"

/* ---- configuration -------------------------------------------------------- */

#define POL_LLM_DEFAULT_KEY_ENV "CL1CC_LLM_API_KEY"

/* Strings are borrowed, not copied (argv, string literals): they must outlive
 * the config. */
typedef struct pol_llm_config {
    const char *url;            /* base URL: "http://127.0.0.1:8000/v1"; the
                                   request goes to {url}/chat/completions
                                   (a url already ending in /chat/completions
                                   is used as it is) */
    const char *model;          /* the request's "model" */
    const char *key_env;        /* environment variable holding the API key;
                                   unset or empty: no Authorization header.
                                   The key is never printed or logged. */
    double connect_timeout_s;   /* default 10 */
    double timeout_s;           /* one request, start to end; default 300 */
    int max_attempts;           /* tries of one request on 429, 5xx and
                                   connection errors; default 4 */
    double backoff_s;           /* first retry delay, doubled each retry,
                                   with jitter (x0.5 to x1); default 1 */
    double backoff_max_s;       /* cap on one delay, Retry-After included;
                                   default 60 */
    size_t max_response_bytes;  /* a larger body is an error; default 4 MiB */
    size_t prompt_budget;       /* characters of the prompt (system + user);
                                   default 32000 */
    double temperature;         /* default 0.7 */
    int max_tokens;             /* 0: not sent (the server's default) */
    int n_per_request;          /* proposals asked for in one request ("n");
                                   0: all of them, falling back to one per
                                   request when the server ignores or
                                   refuses n > 1 */
} pol_llm_config;

/* The defaults above; url and model NULL. */
void pol_llm_config_init(pol_llm_config *cfg);

/* One command-line option: arg is argv[i], next argv[i+1] or NULL.  Takes
 * "--cl1-llm-url=URL" and "--cl1-llm-url URL" alike (and so for every
 * option in pol_llm_options_help).  Returns 1 and sets *consumed to 1 or 2
 * when arg is one of ours; 0 with *consumed 0 when it is not; -1 with a
 * one-line message in err (appended) when its value is missing or bad. */
int pol_llm_parse_option(pol_llm_config *cfg, const char *arg, const char *next,
                         int *consumed, strbuf *err);

/* The options, one per line, for a command's usage text. */
const char *pol_llm_options_help(void);

/* 0 when cfg can be used (a url with http:// or https://, a model, an API
 * key without line breaks); else -1 and a one-line message in err. */
int pol_llm_config_check(const pol_llm_config *cfg, strbuf *err);

/* ---- the policy ------------------------------------------------------------ */

/* Asks for up to ctx->max_proposals proposals and appends them to out, with
 * strings in a.  Each is labelled "llm:<model> #k" (k from 1) and has either
 * source (the kernel, see pol_llm_extract_kernel) or source NULL and failure
 * (a bad reply, an HTTP failure, a refusal).  After a failed request no more
 * are sent: that one failure stands for the rest.  Returns how many were
 * appended (0 when max_proposals <= 0), or -1 only for a configuration
 * error (pol_llm_config_check; err says why) or a ctx without
 * kernel_source; nothing is sent then.  ctx->model may be NULL: the
 * kernel's name then comes from kernel_source.  Progress goes to
 * log_verbose; nothing it writes contains the API key. */
int pol_llm_propose(const pol_llm_config *cfg, const pol_context *ctx, arena *a,
                    pol_proposal_vec *out, strbuf *err);

/* ---- the prompt (pure) ----------------------------------------------------- */

typedef struct pol_llm_prompt {
    const char *system;
    const char *user;
    size_t n_history_shown;  /* entries of ctx->history in the prompt */
    int context_truncated;   /* context_source was cut to fit the budget */
} pol_llm_prompt;

/* Builds the two messages for ctx within budget characters (0: the default
 * 32000).  The task, the kernel, the launches and the instructions are
 * always there, whatever the budget; the context comes next (cut when it
 * does not fit), then as many earlier variants as fit, the most informative
 * first: the fastest, the slowest, then alternately from both ends, then
 * the failed ones, newest first.  Shown from slowest to fastest.  Strings
 * in a. */
void pol_llm_build_prompt(const pol_context *ctx, size_t budget, arena *a,
                          pol_llm_prompt *out);

/* ---- the reply parser (pure) ------------------------------------------------ */

typedef struct pol_llm_extract {
    const char *source;  /* the kernel definition, with any new helpers
                            before it; NULL on failure */
    const char *failure; /* one line, when source is NULL */
    int renamed;         /* the reply named the kernel otherwise */
    size_t n_helpers;    /* __device__ functions and macros kept */
} pol_llm_extract;

/* Finds the new definition of the kernel in a model's reply text.
 *   - Code is taken from ``` fenced blocks (cuda, cu, cpp, c++, c, cxx or
 *     no language; others are ignored), or, when there is none, from the
 *     whole reply.  A <think>...</think> section is ignored.
 *   - Of several blocks, the one defining a __global__ named kernel_name
 *     wins; else one defining a __global__ with the same parameters; else
 *     any __global__.  A kernel under another name with as many parameters
 *     is renamed back (renamed is set).
 *   - From a whole file only the __global__ definition is taken (braces
 *     matched outside strings, characters and comments), preceded by the
 *     __device__ functions and #define macros of the reply it uses,
 *     directly or through each other, that context_source does not define.
 *     Other declarations (types, globals, #include) are not kept.
 *   - A different parameter list (count, or a type other than by const,
 *     volatile or __restrict__) is a failure, and so are a reply without
 *     code ("no code in the reply"), code without a __global__ definition
 *     and an unfinished one.
 * original is the kernel's original definition (its parameters are read from
 * it); context_source may be NULL.  Never fails on any input: on success
 * source contains "__global__".  Strings in a. */
void pol_llm_extract_kernel(const char *reply, const char *kernel_name,
                            const char *original, const char *context_source,
                            arena *a, pol_llm_extract *out);

#endif
