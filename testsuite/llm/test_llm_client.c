/*
 * test_llm_client.c: pol_llm_propose against fake_server.py (loopback):
 * normal and several-choice replies, n refused or ignored, retries on 5xx
 * and 429 (counted in the server's log), Retry-After honoured and capped,
 * timeouts, malformed JSON, HTML pages, an oversized body, a cut transfer,
 * 401 with the key echoed back, the key echoed into the reply's code.  The key is in $CL1CC_TEST_LLM_KEY; no
 * proposal or error may contain it (llm_client.sh greps the output too).
 * usage: test_llm_client BASE-URL SERVER-LOG
 */
#include "llm.h"
#include "llm_test_util.h"

#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const char *base_url, *server_log, *secret;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static pol_llm_config config_for(arena *a, const char *scenario)
{
    pol_llm_config cfg;
    pol_llm_config_init(&cfg);
    cfg.url = arena_printf(a, "%s/s/%s/v1/", base_url, scenario);
    cfg.model = "fake-model";
    cfg.key_env = "CL1CC_TEST_LLM_KEY";
    cfg.timeout_s = 2;
    cfg.connect_timeout_s = 1;
    cfg.max_attempts = 3;
    cfg.backoff_s = 0.05;
    cfg.backoff_max_s = 0.5;
    return cfg;
}

static pol_context scale_ctx(int max)
{
    pol_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.kernel_source = scale_kernel;
    ctx.context_source = scale_context;
    ctx.launch_summary = scale_launches;
    ctx.arch = "sm_90";
    ctx.max_proposals = max;
    return ctx;
}

typedef struct log_stats {
    int requests, auth_ok, auth_none, well_formed, with_kernel;
    int n_values[8]; /* n of the first requests */
} log_stats;

static log_stats stats_of(const char *scenario)
{
    log_stats st;
    memset(&st, 0, sizeof st);
    char *text = NULL;
    size_t len;
    if (file_read_all(server_log, 0, &text, &len) != 0) {
        fprintf(stderr, "cannot read %s\n", server_log);
        failures++;
        return st;
    }
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        cJSON *e = cJSON_Parse(line);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "scenario");
        if (cJSON_IsString(name) && strcmp(name->valuestring, scenario) == 0) {
            const cJSON *auth = cJSON_GetObjectItemCaseSensitive(e, "auth");
            const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, "n");
            if (st.requests < 8 && cJSON_IsNumber(n))
                st.n_values[st.requests] = n->valueint;
            st.requests++;
            st.auth_ok += cJSON_IsString(auth) && strcmp(auth->valuestring, "ok") == 0;
            st.auth_none += cJSON_IsString(auth) && strcmp(auth->valuestring, "none") == 0;
            st.well_formed += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "well_formed"));
            st.with_kernel +=
                cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "prompt_has_kernel"));
        }
        cJSON_Delete(e);
    }
    free(text);
    return st;
}

static int contains(const char *s, const char *part) { return s && strstr(s, part) != NULL; }

/* No string handed back may hold the key. */
static void check_no_key(const pol_proposal_vec *v, const strbuf *err)
{
    for (size_t i = 0; i < v->len; i++) {
        CHECK(!contains(v->items[i].source, secret));
        CHECK(!contains(v->items[i].failure, secret));
        CHECK(!contains(v->items[i].label, secret));
    }
    CHECK(!contains(sb_str(err), secret));
}

typedef struct run {
    arena a;
    pol_proposal_vec props;
    strbuf err;
    int rc;
    double seconds;
} run;

static void run_scenario(run *r, const char *scenario, int max, const pol_llm_config *override)
{
    arena_init(&r->a);
    memset(&r->props, 0, sizeof r->props);
    sb_init(&r->err);
    pol_llm_config cfg = override ? *override : config_for(&r->a, scenario);
    pol_context ctx = scale_ctx(max);
    double t0 = now();
    r->rc = pol_llm_propose(&cfg, &ctx, &r->a, &r->props, &r->err);
    r->seconds = now() - t0;
    printf("%s: rc %d in %.2f s\n", scenario, r->rc, r->seconds);
    for (size_t i = 0; i < r->props.len; i++)
        printf("  %s: %s\n", r->props.items[i].label,
               r->props.items[i].source ? "kernel" : r->props.items[i].failure);
    check_no_key(&r->props, &r->err);
}

static void run_free(run *r)
{
    vec_free(&r->props);
    sb_free(&r->err);
    arena_free(&r->a);
}

static const pol_proposal *prop(const run *r, size_t i)
{
    static const pol_proposal none = {NULL, NULL, NULL};
    return i < r->props.len ? &r->props.items[i] : &none;
}

static void normal_replies(void)
{
    run r;
    run_scenario(&r, "normal", 1, NULL);
    CHECK(r.rc == 1 && contains(prop(&r, 0)->source, "__ldg(&in[i])"));
    CHECK(contains(prop(&r, 0)->label, "llm:fake-model #1"));
    log_stats st = stats_of("normal");
    CHECK(st.requests == 1 && st.auth_ok == 1 && st.well_formed == 1 && st.with_kernel == 1);
    CHECK(st.n_values[0] == 1);
    run_free(&r);

    /* three choices in one request; a refusal among them is one failure */
    run_scenario(&r, "multi", 3, NULL);
    CHECK(r.rc == 3 && prop(&r, 0)->source && prop(&r, 2)->source);
    CHECK(prop(&r, 1)->source == NULL && contains(prop(&r, 1)->failure, "no code in the reply"));
    CHECK(contains(prop(&r, 2)->label, "#3") && contains(prop(&r, 2)->source, "load_scaled"));
    st = stats_of("multi");
    CHECK(st.requests == 1 && st.n_values[0] == 3);
    run_free(&r);

    /* a server that ignores n: the rest one by one */
    run_scenario(&r, "ignores_n", 3, NULL);
    CHECK(r.rc == 3 && prop(&r, 0)->source && prop(&r, 1)->source && prop(&r, 2)->source);
    st = stats_of("ignores_n");
    CHECK(st.requests == 3 && st.n_values[0] == 3 && st.n_values[1] == 1 && st.n_values[2] == 1);
    run_free(&r);

    /* a server that refuses n > 1 */
    run_scenario(&r, "rejects_n", 2, NULL);
    CHECK(r.rc == 2 && prop(&r, 0)->source && prop(&r, 1)->source);
    st = stats_of("rejects_n");
    CHECK(st.requests == 3 && st.n_values[0] == 2 && st.n_values[1] == 1);
    run_free(&r);

    /* one proposal per request when asked */
    arena a;
    arena_init(&a);
    pol_llm_config cfg = config_for(&a, "sequential");
    cfg.n_per_request = 1;
    run_scenario(&r, "sequential", 2, &cfg);
    CHECK(r.rc == 2 && prop(&r, 0)->source && prop(&r, 1)->source);
    st = stats_of("sequential");
    CHECK(st.requests == 2 && st.n_values[0] == 1 && st.n_values[1] == 1);
    run_free(&r);

    /* content as a list of parts; the quoted original is not taken */
    run_scenario(&r, "content_parts", 1, NULL);
    CHECK(r.rc == 1 && contains(prop(&r, 0)->source, "__restrict__"));
    run_free(&r);

    /* bad replies are failed proposals with their reasons */
    run_scenario(&r, "bad_replies", 4, NULL);
    CHECK(r.rc == 4);
    for (size_t i = 0; i < 4; i++)
        CHECK(prop(&r, i)->source == NULL && prop(&r, i)->failure);
    CHECK(contains(prop(&r, 1)->failure, "'double *'"));
    CHECK(contains(prop(&r, 2)->failure, "takes 3 parameters"));
    CHECK(contains(prop(&r, 3)->failure, "no __global__"));
    run_free(&r);

    /* no key in the environment: no Authorization header */
    const char *saved = getenv("CL1CC_TEST_LLM_KEY");
    char *copy = saved ? xstrdup(saved) : NULL;
    unsetenv("CL1CC_TEST_LLM_KEY");
    run_scenario(&r, "normal", 1, NULL);
    CHECK(r.rc == 1 && stats_of("normal").auth_none == 1);
    run_free(&r);
    if (copy)
        setenv("CL1CC_TEST_LLM_KEY", copy, 1);
    free(copy);
    arena_free(&a);
}

static void retries(void)
{
    run r;
    run_scenario(&r, "retry_500", 1, NULL);
    CHECK(r.rc == 1 && prop(&r, 0)->source);
    CHECK(stats_of("retry_500").requests == 2);
    run_free(&r);

    run_scenario(&r, "always_503", 2, NULL);
    CHECK(r.rc == 1 && !prop(&r, 0)->source);
    CHECK(contains(prop(&r, 0)->failure, "HTTP 503") &&
          contains(prop(&r, 0)->failure, "the engine is overloaded") &&
          contains(prop(&r, 0)->failure, "(3 tries)"));
    CHECK(stats_of("always_503").requests == 3);
    run_free(&r);

    /* Retry-After: 1 is waited for, not the 0.05 s backoff */
    arena a;
    arena_init(&a);
    pol_llm_config cfg = config_for(&a, "rate_limited");
    cfg.backoff_max_s = 5;
    run_scenario(&r, "rate_limited", 1, &cfg);
    CHECK(r.rc == 1 && prop(&r, 0)->source && r.seconds >= 0.95 && r.seconds < 4);
    CHECK(stats_of("rate_limited").requests == 2);
    run_free(&r);

    /* Retry-After: 3600 is capped at backoff_max (0.5 s) */
    run_scenario(&r, "rate_limited_long", 1, NULL);
    CHECK(r.rc == 1 && prop(&r, 0)->source && r.seconds < 3);
    CHECK(stats_of("rate_limited_long").requests == 2);
    run_free(&r);

    /* slower than the timeout: each try gives up after 1 s */
    cfg = config_for(&a, "slow");
    cfg.timeout_s = 1;
    cfg.max_attempts = 2;
    run_scenario(&r, "slow", 1, &cfg);
    CHECK(r.rc == 1 && !prop(&r, 0)->source && contains(prop(&r, 0)->failure, "within 1 s") &&
          contains(prop(&r, 0)->failure, "(2 tries)"));
    CHECK(r.seconds >= 1.9 && r.seconds < 3.9);
    CHECK(stats_of("slow").requests == 2);
    run_free(&r);

    /* a transfer cut short is a connection error, tried again */
    run_scenario(&r, "cut_transfer", 1, NULL);
    CHECK(r.rc == 1 && !prop(&r, 0)->source && contains(prop(&r, 0)->failure, "(3 tries)"));
    CHECK(stats_of("cut_transfer").requests == 3);
    run_free(&r);

    /* nobody listening */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t alen = sizeof addr;
    CHECK(fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0 &&
          getsockname(fd, (struct sockaddr *)&addr, &alen) == 0);
    cfg = config_for(&a, "x");
    cfg.url = arena_printf(&a, "http://127.0.0.1:%d/v1", ntohs(addr.sin_port));
    close(fd);
    run_scenario(&r, "refused", 1, &cfg);
    CHECK(r.rc == 1 && contains(prop(&r, 0)->failure, "could not reach") &&
          contains(prop(&r, 0)->failure, "(3 tries)"));
    run_free(&r);
    arena_free(&a);
}

static void bad_answers(void)
{
    run r;
    run_scenario(&r, "malformed", 1, NULL);
    CHECK(r.rc == 1 && contains(prop(&r, 0)->failure, "not JSON"));
    CHECK(stats_of("malformed").requests == 1);
    run_free(&r);

    run_scenario(&r, "html", 1, NULL);
    CHECK(r.rc == 1 && contains(prop(&r, 0)->failure, "HTML page") &&
          contains(prop(&r, 0)->failure, "503 Service Temporarily Unavailable"));
    run_free(&r);

    run_scenario(&r, "html_502", 1, NULL);
    CHECK(r.rc == 1 && contains(prop(&r, 0)->failure, "HTTP 502") &&
          contains(prop(&r, 0)->failure, ": 502 Bad Gateway (3 tries)"));
    CHECK(stats_of("html_502").requests == 3);
    run_free(&r);

    arena a;
    arena_init(&a);
    pol_llm_config cfg = config_for(&a, "oversized");
    cfg.max_response_bytes = 1 << 20;
    run_scenario(&r, "oversized", 1, &cfg);
    CHECK(r.rc == 1 && contains(prop(&r, 0)->failure, "larger than 1048576 bytes"));
    CHECK(stats_of("oversized").requests == 1);
    run_free(&r);
    /* the same body fits under the default 4 MiB: it is a reply without code */
    run_scenario(&r, "oversized", 1, NULL);
    CHECK(r.rc == 1 && contains(prop(&r, 0)->failure, "no code"));
    run_free(&r);

    run_scenario(&r, "no_choices", 1, NULL);
    CHECK(r.rc == 1 && contains(prop(&r, 0)->failure, "no choices"));
    run_free(&r);

    run_scenario(&r, "error_object", 1, NULL);
    CHECK(r.rc == 1 && contains(prop(&r, 0)->failure, "model 'nope' does not exist"));
    run_free(&r);

    run_scenario(&r, "finish_length", 1, NULL);
    CHECK(r.rc == 1 && contains(prop(&r, 0)->failure, "unfinished") &&
          contains(prop(&r, 0)->failure, "token limit"));
    run_free(&r);

    /* 401: one clear line, no retry, the echoed key redacted */
    run_scenario(&r, "unauthorized", 2, NULL);
    CHECK(r.rc == 1 && contains(prop(&r, 0)->failure, "HTTP 401 from http://127.0.0.1:") &&
          contains(prop(&r, 0)->failure, "Incorrect API key provided: [redacted]"));
    log_stats st = stats_of("unauthorized");
    CHECK(st.requests == 1 && st.auth_ok == 1);
    run_free(&r);

    /* the key echoed into the reply's kernel name, a type and a comment:
     * neither the proposal nor its failure holds it */
    run_scenario(&r, "key_in_reply", 1, NULL);
    CHECK(r.rc == 1 && (contains(prop(&r, 0)->failure, "[redacted]") ||
                        contains(prop(&r, 0)->source, "[redacted]")));
    run_free(&r);
    arena_free(&a);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_llm_client BASE-URL SERVER-LOG\n");
        return 2;
    }
    base_url = argv[1];
    server_log = argv[2];
    secret = getenv("CL1CC_TEST_LLM_KEY");
    if (!secret || strlen(secret) < 16) {
        fprintf(stderr, "test_llm_client: set CL1CC_TEST_LLM_KEY to a key of 16+ characters\n");
        return 2;
    }
    log_set_level(LOG_VERBOSE);
    normal_replies();
    retries();
    bad_answers();
    return CHECK_REPORT("llm_client");
}
