/*
 * llm_policy.c: pol_llm_propose: the prompt, the chat-completions requests
 * (n proposals in one when the server can, else one by one), and each
 * choice's text through the reply parser into a pol_proposal.  A bad reply
 * is a failed proposal, never a crash; the API key only goes into the
 * Authorization header.
 */
#include "llm_internal.h"

#include <cjson/cJSON.h>
#include <string.h>

static const char *endpoint(const char *url, arena *a)
{
    size_t n = strlen(url);
    while (n > 0 && url[n - 1] == '/')
        n--;
    static const char tail[] = "/chat/completions";
    if (n >= sizeof tail - 1 && memcmp(url + n - (sizeof tail - 1), tail, sizeof tail - 1) == 0)
        return arena_strndup(a, url, n);
    return arena_printf(a, "%.*s%s", (int)n, url, tail);
}

static char *request_body(const pol_llm_config *cfg, const pol_llm_prompt *p, int n)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *messages = cJSON_AddArrayToObject(root, "messages");
    cJSON *sys = cJSON_CreateObject(), *user = cJSON_CreateObject();
    int ok = root && messages && sys && user;
    if (ok) {
        cJSON_AddItemToArray(messages, sys);
        cJSON_AddItemToArray(messages, user);
        ok = cJSON_AddStringToObject(root, "model", cfg->model) &&
             cJSON_AddStringToObject(sys, "role", "system") &&
             cJSON_AddStringToObject(sys, "content", p->system) &&
             cJSON_AddStringToObject(user, "role", "user") &&
             cJSON_AddStringToObject(user, "content", p->user) &&
             cJSON_AddNumberToObject(root, "temperature", cfg->temperature) &&
             cJSON_AddFalseToObject(root, "stream");
        if (ok && n > 1)
            ok = cJSON_AddNumberToObject(root, "n", n) != NULL;
        if (ok && cfg->max_tokens > 0)
            ok = cJSON_AddNumberToObject(root, "max_tokens", cfg->max_tokens) != NULL;
    } else {
        cJSON_Delete(sys);
        cJSON_Delete(user);
    }
    char *text = ok ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    if (!text) {
        log_error("out of memory building a request");
        abort();
    }
    return text;
}

/* A message's content: a string, or an array of {"type":"text","text":..}. */
static const char *content_text(const cJSON *content, arena *a)
{
    if (cJSON_IsString(content))
        return arena_strdup(a, content->valuestring);
    if (!cJSON_IsArray(content))
        return NULL;
    strbuf sb;
    sb_init(&sb);
    const cJSON *part;
    cJSON_ArrayForEach(part, content) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(part, "text");
        if (cJSON_IsString(t))
            sb_puts(&sb, t->valuestring);
    }
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

typedef struct round_state {
    const pol_llm_config *cfg;
    const pol_context *ctx;
    const char *kernel_name;
    const char *key;
    arena *a;
    pol_proposal_vec *out;
    int next_k;
} round_state;

static void add(round_state *st, const char *source, const char *failure)
{
    pol_proposal p;
    p.label = arena_printf(st->a, "llm:%s #%d", st->cfg->model, st->next_k++);
    p.source = source;
    p.failure = source ? NULL : failure;
    vec_push(st->out, p);
    if (source)
        log_verbose("llm: %s: a kernel of %zu bytes", p.label, strlen(source));
    else
        log_verbose("llm: %s failed: %s", p.label, failure);
}

static void add_choice(round_state *st, const cJSON *choice)
{
    const cJSON *message = cJSON_GetObjectItemCaseSensitive(choice, "message");
    const char *text = content_text(cJSON_GetObjectItemCaseSensitive(message, "content"), st->a);
    if (!text) {
        /* completions-style servers put it in "text" */
        text = content_text(cJSON_GetObjectItemCaseSensitive(choice, "text"), st->a);
    }
    if (!text) {
        add(st, NULL, "the reply has no text");
        return;
    }
    if (st->key && *st->key && strstr(text, st->key)) {
        /* a server that echoes the key: never in a name, a message or the
         * database */
        strbuf clean;
        sb_init(&clean);
        sb_puts(&clean, text);
        llm_redact(&clean, st->key);
        text = arena_strdup(st->a, sb_str(&clean));
        sb_free(&clean);
    }
    pol_llm_extract ex;
    pol_llm_extract_kernel(text, st->kernel_name, st->ctx->kernel_source,
                           st->ctx->context_source, st->a, &ex);
    if (!ex.source) {
        const cJSON *finish = cJSON_GetObjectItemCaseSensitive(choice, "finish_reason");
        if (cJSON_IsString(finish) && strcmp(finish->valuestring, "length") == 0)
            ex.failure = arena_printf(st->a, "%s; the reply was cut at its token limit",
                                      ex.failure);
    }
    add(st, ex.source, ex.failure);
}

/* The choices of one completion body; returns how many were used (at most
 * want), or -1 with why in why (in a). */
static int take_choices(round_state *st, const strbuf *body, int want, const char **why)
{
    const char *data = body->data ? body->data : "";
    cJSON *root = cJSON_ParseWithLength(data, body->len);
    strbuf sb;
    sb_init(&sb);
    int used = -1;
    if (!root) {
        if (llm_looks_like_html(data, body->len))
            sb_puts(&sb, "the server sent an HTML page, not JSON: ");
        else
            sb_printf(&sb, "the server's reply is not JSON (malformed or cut short, %zu "
                           "bytes): ", body->len);
        llm_excerpt(data, body->len, st->key, 80, &sb);
    } else {
        const cJSON *choices = cJSON_GetObjectItemCaseSensitive(root, "choices");
        const cJSON *error = cJSON_GetObjectItemCaseSensitive(root, "error");
        if (cJSON_IsArray(choices) && cJSON_GetArraySize(choices) > 0) {
            used = 0;
            const cJSON *choice;
            cJSON_ArrayForEach(choice, choices) {
                if (used == want)
                    break;
                add_choice(st, choice);
                used++;
            }
        } else if (error) {
            sb_puts(&sb, "the server answered with an error: ");
            llm_excerpt(data, body->len, st->key, 160, &sb);
        } else {
            sb_puts(&sb, "the server's reply has no choices");
        }
        cJSON_Delete(root);
    }
    if (used < 0)
        *why = arena_strdup(st->a, sb_str(&sb));
    sb_free(&sb);
    return used;
}

int pol_llm_propose(const pol_llm_config *cfg, const pol_context *ctx, arena *a,
                    pol_proposal_vec *out, strbuf *err)
{
    if (pol_llm_config_check(cfg, err) != 0)
        return -1;
    if (!ctx || !ctx->kernel_source || !*ctx->kernel_source) {
        sb_puts(err, "the LLM policy needs the kernel's source");
        return -1;
    }
    if (ctx->max_proposals <= 0)
        return 0;
    const char *env = cfg->key_env && *cfg->key_env ? cfg->key_env : POL_LLM_DEFAULT_KEY_ENV;
    const char *key = getenv(env);
    log_verbose("llm: %s at %s, API key %s $%s", cfg->model, llm_display_url(cfg->url, a),
                key && *key ? "from" : "not set in", env);

    round_state st = {cfg, ctx, NULL, key, a, out, 1};
    if (ctx->model && ctx->kernel_index < ctx->model->kernels.len)
        st.kernel_name = ctx->model->kernels.items[ctx->kernel_index].name;
    pol_llm_prompt prompt;
    pol_llm_build_prompt(ctx, cfg->prompt_budget, a, &prompt);
    log_verbose("llm: prompt of %zu characters, %zu earlier versions shown%s",
                strlen(prompt.system) + strlen(prompt.user), prompt.n_history_shown,
                prompt.context_truncated ? ", context cut" : "");

    llm_http_request rq;
    memset(&rq, 0, sizeof rq);
    rq.url = endpoint(cfg->url, a);
    rq.api_key = key;
    rq.connect_timeout_s = cfg->connect_timeout_s;
    rq.timeout_s = cfg->timeout_s;
    rq.max_attempts = cfg->max_attempts;
    rq.backoff_s = cfg->backoff_s;
    rq.backoff_max_s = cfg->backoff_max_s;
    rq.max_response_bytes = cfg->max_response_bytes;

    int total = ctx->max_proposals, got = 0;
    int per_request = cfg->n_per_request > 0 ? cfg->n_per_request : total;
    size_t before = out->len;
    while (got < total) {
        int n = total - got < per_request ? total - got : per_request;
        char *body = request_body(cfg, &prompt, n);
        rq.body = body;
        llm_http_response rs;
        llm_http_response_init(&rs);
        strbuf why;
        sb_init(&why);
        int rc = llm_http_post(&rq, &rs, &why);
        cJSON_free(body);
        if (rc != 0 && n > 1 && cfg->n_per_request == 0 &&
            (rs.status == 400 || rs.status == 422)) {
            /* some servers refuse "n": ask one at a time */
            log_verbose("llm: %s; asking for one proposal per request", sb_str(&why));
            per_request = 1;
            llm_http_response_free(&rs);
            sb_free(&why);
            continue;
        }
        int used = -1;
        const char *failure = NULL;
        if (rc != 0)
            failure = arena_strdup(a, sb_str(&why));
        else
            used = take_choices(&st, &rs.body, n, &failure);
        llm_http_response_free(&rs);
        sb_free(&why);
        if (used <= 0) {
            /* one failure stands for the rest of the round */
            add(&st, NULL, failure ? failure : "the server's reply has no choices");
            break;
        }
        got += used;
        if (used < n && cfg->n_per_request == 0)
            per_request = 1; /* the server ignores "n" */
    }
    return (int)(out->len - before);
}
