/*
 * llm_curl.h: the libcurl functions the LLM policy uses, loaded on first
 * use (llm_curl.c) rather than linked, so that cl1cc starts without them.
 */
#ifndef CL1CC_LLM_CURL_H
#define CL1CC_LLM_CURL_H

#include <curl/curl.h>

#include "core.h"

typedef struct curl_api {
    CURLcode (*global_init)(long flags);
    void (*global_cleanup)(void);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *h, CURLoption option, ...);
    CURLcode (*easy_perform)(CURL *h);
    CURLcode (*easy_getinfo)(CURL *h, CURLINFO info, ...);
    void (*easy_cleanup)(CURL *h);
    const char *(*easy_strerror)(CURLcode rc);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
    void (*slist_free_all)(struct curl_slist *list);
} curl_api;

/* The functions, or NULL with the reason in err (no libcurl.so.4). */
const curl_api *llm_curl(strbuf *err);

#endif
