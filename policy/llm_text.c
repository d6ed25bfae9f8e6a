/*
 * llm_text.c: what a server sent, made fit for a one-line message: the
 * useful part of a JSON error or an HTML page, no control characters, and
 * never the API key, even when the server echoes it back.
 */
#include "llm_internal.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

int llm_looks_like_html(const char *body, size_t len)
{
    size_t p = 0;
    while (p < len && isspace((unsigned char)body[p]))
        p++;
    if (p >= len || body[p] != '<')
        return 0;
    size_t rest = len - p;
    return (rest >= 9 && strncasecmp(body + p, "<!doctype", 9) == 0) ||
           (rest >= 5 && strncasecmp(body + p, "<html", 5) == 0) ||
           (rest >= 5 && strncasecmp(body + p, "<head", 5) == 0) ||
           (rest >= 5 && strncasecmp(body + p, "<body", 5) == 0) ||
           (rest >= 5 && strncasecmp(body + p, "<?xml", 5) == 0);
}

/* The message of {"error": {"message": ...}}, {"error": "..."},
 * {"message": ...} or {"detail": ...}, or NULL. */
static char *json_error_message(const char *body, size_t len)
{
    cJSON *root = cJSON_ParseWithLength(body, len);
    if (!root)
        return NULL;
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "error");
    const cJSON *m = NULL;
    if (cJSON_IsObject(e))
        m = cJSON_GetObjectItemCaseSensitive(e, "message");
    else if (cJSON_IsString(e))
        m = e;
    if (!cJSON_IsString(m))
        m = cJSON_GetObjectItemCaseSensitive(root, "message");
    if (!cJSON_IsString(m))
        m = cJSON_GetObjectItemCaseSensitive(root, "detail");
    char *out = cJSON_IsString(m) && m->valuestring ? xstrdup(m->valuestring) : NULL;
    cJSON_Delete(root);
    return out;
}

/* The text of an HTML page: its <title> when it has one, else what is
 * outside the tags (scripts and styles included: it is only an excerpt). */
static void html_text(const char *body, size_t len, strbuf *out)
{
    const char *title = NULL;
    for (size_t p = 0; p + 7 <= len; p++)
        if (strncasecmp(body + p, "<title>", 7) == 0) {
            title = body + p + 7;
            break;
        }
    if (title) {
        const char *end = title;
        while ((size_t)(end - body) < len && *end != '<')
            end++;
        if (end > title) {
            sb_append(out, title, (size_t)(end - title));
            return;
        }
    }
    int in_tag = 0;
    for (size_t p = 0; p < len; p++) {
        if (body[p] == '<')
            in_tag = 1;
        else if (body[p] == '>' && in_tag) {
            in_tag = 0;
            sb_putc(out, ' ');
        } else if (!in_tag)
            sb_putc(out, body[p]);
    }
}

void llm_redact(strbuf *sb, const char *key)
{
    if (!key || !*key)
        return;
    size_t klen = strlen(key);
    strbuf out;
    sb_init(&out);
    const char *s = sb_str(sb);
    const char *hit;
    while ((hit = strstr(s, key)) != NULL) {
        sb_append(&out, s, (size_t)(hit - s));
        sb_puts(&out, "[redacted]");
        s = hit + klen;
    }
    sb_puts(&out, s);
    sb_free(sb);
    *sb = out;
}

void llm_excerpt(const char *body, size_t len, const char *key, size_t max, strbuf *out)
{
    strbuf raw;
    sb_init(&raw);
    char *message = json_error_message(body, len);
    if (message)
        sb_puts(&raw, message);
    else if (llm_looks_like_html(body, len))
        html_text(body, len, &raw);
    else
        sb_append(&raw, body, len);
    free(message);
    /* the key is redacted before anything can cut it in two */
    llm_redact(&raw, key);
    size_t start = out->len, shown = 0;
    int blank = 1, cut = 0;
    for (size_t p = 0; p < raw.len; p++) {
        unsigned char ch = (unsigned char)raw.data[p];
        if (ch < 0x20 || ch == 0x7f || ch == ' ') {
            blank = 1;
            continue;
        }
        if (shown >= max) {
            cut = 1;
            break;
        }
        if (blank && shown) {
            sb_putc(out, ' ');
            shown++;
        }
        blank = 0;
        sb_putc(out, ch >= 0x80 ? '?' : (char)ch);
        shown++;
    }
    if (cut)
        sb_puts(out, "...");
    if (out->len == start)
        sb_puts(out, "(empty body)");
    sb_free(&raw);
}

const char *llm_display_url(const char *url, arena *a)
{
    const char *scheme = strstr(url, "://");
    const char *host = scheme ? scheme + 3 : url;
    size_t host_len = strcspn(host, "/?#");
    const char *at = memchr(host, '@', host_len);
    const char *rest = at ? at + 1 : host;
    size_t keep = strcspn(rest, "?#");
    return arena_printf(a, "%.*s%.*s", (int)(host - url), url, (int)keep, rest);
}
