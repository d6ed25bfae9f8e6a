/*
 * llm_http.c: one JSON POST over libcurl, as a model server wants it:
 * connect and total timeouts, retries with exponential backoff and jitter
 * on 429, 5xx and connection errors (Retry-After in seconds honoured, and
 * capped), a cap on the reply's size, and error lines without the key.
 */
#include "llm_internal.h"

#include "llm_curl.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

void llm_http_response_init(llm_http_response *rs)
{
    memset(rs, 0, sizeof *rs);
    sb_init(&rs->body);
}

void llm_http_response_free(llm_http_response *rs)
{
    sb_free(&rs->body);
    memset(rs, 0, sizeof *rs);
}

/* libcurl, loaded and started once */
static const curl_api *curl;

static void curl_cleanup_at_exit(void) { curl->global_cleanup(); }

static int curl_ready(strbuf *err)
{
    static int state; /* 0 not yet, 1 ready, -1 failed */
    if (state == 0) {
        curl = llm_curl(err);
        if (!curl) {
            state = -1;
            return -1;
        }
        CURLcode rc = curl->global_init(CURL_GLOBAL_DEFAULT);
        state = rc == CURLE_OK ? 1 : -1;
        if (rc != CURLE_OK)
            sb_printf(err, "libcurl could not start: %s", curl->easy_strerror(rc));
        else if (atexit(curl_cleanup_at_exit) != 0)
            log_verbose("llm: curl_global_cleanup not registered at exit");
    } else if (state < 0) {
        sb_puts(err, "libcurl could not start");
    }
    return state > 0 ? 0 : -1;
}

typedef struct transfer {
    strbuf *body;
    size_t max;
    int too_large;
    double retry_after; /* seconds; -1 none */
} transfer;

static size_t on_body(char *data, size_t size, size_t count, void *user)
{
    transfer *t = user;
    size_t n = size * count;
    if (n > t->max || t->body->len > t->max - n) {
        t->too_large = 1;
        return 0; /* curl stops with CURLE_WRITE_ERROR */
    }
    sb_append(t->body, data, n);
    return n;
}

static size_t on_header(char *data, size_t size, size_t count, void *user)
{
    transfer *t = user;
    size_t n = size * count;
    static const char name[] = "retry-after:";
    if (n > sizeof name - 1 && strncasecmp(data, name, sizeof name - 1) == 0) {
        char value[32];
        size_t v = n - (sizeof name - 1);
        if (v >= sizeof value)
            v = sizeof value - 1;
        memcpy(value, data + sizeof name - 1, v);
        value[v] = '\0';
        char *end;
        errno = 0;
        double seconds = strtod(value, &end);
        while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
            end++;
        /* the seconds form only; an HTTP date is left to the backoff */
        if (errno == 0 && end != value && *end == '\0' && isfinite(seconds) && seconds >= 0)
            t->retry_after = seconds;
    }
    return n;
}

static unsigned long long jitter_state;
static double random_unit(void)
{
    if (!jitter_state)
        jitter_state = ((unsigned long long)time(NULL) << 20) ^ (unsigned long long)getpid() ^
                       0x9e3779b97f4a7c15ULL;
    jitter_state ^= jitter_state << 13;
    jitter_state ^= jitter_state >> 7;
    jitter_state ^= jitter_state << 17;
    return (double)(jitter_state >> 11) / 9007199254740992.0;
}

static void sleep_seconds(double s)
{
    if (!(s > 0))
        return;
    struct timespec ts;
    ts.tv_sec = (time_t)s;
    ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static int retryable_curl_error(CURLcode rc)
{
    switch (rc) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
        return 1;
    default:
        return 0;
    }
}

static long to_ms(double s) { return s > 0 ? (long)(s * 1000.0 + 0.5) : 0; }

/* One try.  Returns the curl code; status and body in rs. */
static CURLcode post_once(CURL *h, llm_http_response *rs, transfer *t, char *curl_err)
{
    sb_clear(&rs->body);
    t->too_large = 0;
    t->retry_after = -1;
    curl_err[0] = '\0';
    rs->status = 0;
    CURLcode rc = curl->easy_perform(h);
    if (rc == CURLE_OK || rc == CURLE_WRITE_ERROR) {
        long status = 0;
        if (curl->easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK)
            rs->status = status;
    }
    return rc;
}

static int setup(CURL *h, const llm_http_request *rq, struct curl_slist *headers, transfer *t,
                 char *curl_err)
{
    CURLcode rc = CURLE_OK;
#define SET(opt, val)                                                        \
    do {                                                                     \
        if (rc == CURLE_OK)                                                  \
            rc = curl->easy_setopt(h, opt, val);                              \
    } while (0)
    SET(CURLOPT_URL, rq->url);
    SET(CURLOPT_POST, 1L);
    SET(CURLOPT_POSTFIELDS, rq->body);
    SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(rq->body));
    SET(CURLOPT_HTTPHEADER, headers);
    SET(CURLOPT_NOSIGNAL, 1L);
    SET(CURLOPT_CONNECTTIMEOUT_MS, to_ms(rq->connect_timeout_s));
    SET(CURLOPT_TIMEOUT_MS, to_ms(rq->timeout_s));
    SET(CURLOPT_WRITEFUNCTION, on_body);
    SET(CURLOPT_WRITEDATA, t);
    SET(CURLOPT_HEADERFUNCTION, on_header);
    SET(CURLOPT_HEADERDATA, t);
    SET(CURLOPT_ERRORBUFFER, curl_err);
    SET(CURLOPT_USERAGENT, "cl1cc");
    SET(CURLOPT_ACCEPT_ENCODING, ""); /* the size cap counts decoded bytes */
#if LIBCURL_VERSION_NUM >= 0x075500
    SET(CURLOPT_PROTOCOLS_STR, "http,https");
#else
    SET(CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
#undef SET
    return rc == CURLE_OK ? 0 : -1;
}

int llm_http_post(const llm_http_request *rq, llm_http_response *rs, strbuf *err)
{
    if (curl_ready(err) != 0)
        return -1;
    arena a;
    arena_init(&a);
    const char *where = llm_display_url(rq->url, &a);
    CURL *h = curl->easy_init();
    struct curl_slist *headers = NULL;
    int ok = h != NULL;
    static const char *const fixed[] = {"Content-Type: application/json",
                                        "Accept: application/json", "Expect:", NULL};
    for (int i = 0; ok && fixed[i]; i++) {
        struct curl_slist *more = curl->slist_append(headers, fixed[i]);
        ok = more != NULL;
        if (more)
            headers = more;
    }
    if (ok && rq->api_key && *rq->api_key) {
        strbuf auth;
        sb_init(&auth);
        sb_printf(&auth, "Authorization: Bearer %s", rq->api_key);
        struct curl_slist *more = curl->slist_append(headers, sb_str(&auth));
        memset(auth.data, 0, auth.len);
        sb_free(&auth);
        ok = more != NULL;
        if (more)
            headers = more;
    }
    transfer t = {&rs->body, rq->max_response_bytes ? rq->max_response_bytes : 4u << 20, 0, -1};
    char curl_err[CURL_ERROR_SIZE];
    curl_err[0] = '\0';
    if (!ok || setup(h, rq, headers, &t, curl_err) != 0) {
        sb_printf(err, "could not set up the request to %s", where);
        curl->slist_free_all(headers);
        if (h)
            curl->easy_cleanup(h);
        arena_free(&a);
        return -1;
    }

    int attempts = rq->max_attempts > 0 ? rq->max_attempts : 1;
    int result = -1;
    strbuf last; /* why the last try failed */
    sb_init(&last);
    for (rs->attempts = 1;; rs->attempts++) {
        CURLcode rc = post_once(h, rs, &t, curl_err);
        sb_clear(&last);
        rs->retryable = 0;
        if (t.too_large) {
            sb_printf(&last, "the reply from %s is larger than %zu bytes", where, t.max);
            break;
        }
        if (rc == CURLE_OK && rs->status >= 200 && rs->status < 300) {
            result = 0;
            break;
        }
        if (rc == CURLE_OK) {
            sb_printf(&last, "HTTP %ld from %s: ", rs->status, where);
            llm_excerpt(rs->body.data ? rs->body.data : "", rs->body.len, rq->api_key, 160,
                        &last);
            rs->retryable = rs->status == 408 || rs->status == 429 || rs->status >= 500;
        } else if (rc == CURLE_OPERATION_TIMEDOUT && strncmp(curl_err, "Connection", 10) == 0) {
            sb_printf(&last, "could not connect to %s within %g s", where, rq->connect_timeout_s);
            rs->retryable = 1;
        } else if (rc == CURLE_OPERATION_TIMEDOUT) {
            sb_printf(&last, "no answer from %s within %g s", where, rq->timeout_s);
            rs->retryable = 1;
        } else {
            /* curl's own message names the host at most, never a header */
            sb_printf(&last, "could not reach %s: %s", where,
                      curl_err[0] ? curl_err : curl->easy_strerror(rc));
            rs->retryable = retryable_curl_error(rc);
        }
        if (!rs->retryable || rs->attempts >= attempts)
            break;
        double delay = rq->backoff_s * pow(2.0, rs->attempts - 1);
        delay *= 0.5 + 0.5 * random_unit();
        if (t.retry_after >= 0)
            delay = t.retry_after;
        if (delay > rq->backoff_max_s)
            delay = rq->backoff_max_s;
        log_verbose("llm: %s; try %d of %d in %.1f s", sb_str(&last), rs->attempts + 1, attempts,
                    delay);
        sleep_seconds(delay);
    }
    if (result != 0) {
        sb_puts(err, sb_str(&last));
        if (rs->attempts > 1)
            sb_printf(err, " (%d tries)", rs->attempts);
    }
    sb_free(&last);
    curl->slist_free_all(headers);
    curl->easy_cleanup(h);
    arena_free(&a);
    return result;
}
