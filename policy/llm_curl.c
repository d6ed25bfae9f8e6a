/*
 * llm_curl.c: libcurl, loaded when the LLM policy first needs it.  cl1cc
 * runs as nvcc on every compile of a build; linking libcurl (and the TLS,
 * Kerberos and LDAP libraries it pulls in) would make each of those starts
 * pay for loading them.
 */
#include "llm_curl.h"

#include <dlfcn.h>

static curl_api api;
static int loaded; /* 1: loaded, -1: failed */
static char failure[256];

#define LOAD(field, symbol)                                                    \
    do {                                                                       \
        *(void **)&api.field = dlsym(lib, symbol);                             \
        if (!api.field) {                                                      \
            snprintf(failure, sizeof failure, "libcurl lacks %s", symbol);     \
            return -1;                                                         \
        }                                                                      \
    } while (0)

static int load(void)
{
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        lib = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "libcurl cannot be loaded: %s",
                 why ? why : "not found");
        return -1;
    }
    LOAD(global_init, "curl_global_init");
    LOAD(global_cleanup, "curl_global_cleanup");
    LOAD(easy_init, "curl_easy_init");
    LOAD(easy_setopt, "curl_easy_setopt");
    LOAD(easy_perform, "curl_easy_perform");
    LOAD(easy_getinfo, "curl_easy_getinfo");
    LOAD(easy_cleanup, "curl_easy_cleanup");
    LOAD(easy_strerror, "curl_easy_strerror");
    LOAD(slist_append, "curl_slist_append");
    LOAD(slist_free_all, "curl_slist_free_all");
    return 0;
}

const curl_api *llm_curl(strbuf *err)
{
    if (!loaded)
        loaded = load() == 0 ? 1 : -1;
    if (loaded < 0) {
        sb_puts(err, failure);
        return NULL;
    }
    return &api;
}
