/*
 * llm_internal.h: what the LLM policy's files share and nothing else sees:
 * the small C/CUDA scanner (llm_code.c), the HTTP client (llm_http.c) and
 * the sanitizer for server text that goes into messages (llm_text.c).
 */
#ifndef CL1CC_LLM_INTERNAL_H
#define CL1CC_LLM_INTERNAL_H

#include "core.h"
#include "llm.h"

/* ---- llm_code.c: tokens and top-level definitions of CUDA text ---------- */

typedef enum llm_tok_kind {
    LLM_TOK_IDENT,
    LLM_TOK_NUMBER,
    LLM_TOK_STRING,
    LLM_TOK_CHAR,
    LLM_TOK_PUNCT,    /* one character, or "::" / "->" */
    LLM_TOK_DIRECTIVE /* a whole preprocessor line, continuations included */
} llm_tok_kind;

typedef struct llm_tok {
    llm_tok_kind kind;
    size_t begin, end; /* bytes of the text */
} llm_tok;

/* A function definition (or the unfinished start of one) found in text. */
typedef struct llm_def {
    int is_kernel;            /* __global__ */
    int complete;             /* its body's braces match */
    size_t begin, end;        /* bytes: template header to closing brace */
    size_t first_tok;         /* its first token */
    size_t name_tok;          /* token of its name */
    size_t params_open;       /* token of '(' */
    size_t params_close;      /* token of ')' */
    size_t body_open;         /* token of '{' */
    size_t end_tok;           /* one past its last token */
} llm_def;

/* A #define. */
typedef struct llm_macro {
    size_t tok;                   /* its directive token */
    size_t name_begin, name_end;  /* bytes of the macro's name */
} llm_macro;

typedef struct llm_code {
    const char *text;
    size_t len;
    VEC(llm_tok) toks;
    VEC(llm_def) defs;   /* __global__ and __device__ functions, in order */
    VEC(llm_macro) macros;
    size_t *match;       /* per token: the matching bracket, or (size_t)-1 */
} llm_code;

/* Scans text (not copied: it must outlive c).  Comments are skipped;
 * strings and characters that do not end stop at the end of their line, so
 * prose scans without harm.  Never fails. */
void llm_code_scan(llm_code *c, const char *text, size_t len);
void llm_code_free(llm_code *c);
/* Whether token i is the identifier (or punctuation) word. */
int llm_tok_is(const llm_code *c, size_t i, const char *word);
char *llm_tok_text(const llm_code *c, size_t i, arena *a);
/* The parameters of d, each as a normalized type: no name, no const,
 * volatile or restrict, no default, arrays as pointers, tokens joined by one
 * space ("float *").  (void) is no parameter.  Returns the count. */
size_t llm_def_params(const llm_code *c, const llm_def *d, arena *a, const char ***types);
/* The first __global__ definition, or NULL. */
const llm_def *llm_code_first_kernel(const llm_code *c);

/* ---- llm_text.c: server text made safe for one-line messages ------------ */

/* A short excerpt of a server's body: the message of a JSON error object,
 * the title or text of an HTML page, else the text; control characters as
 * spaces, runs of blanks as one, non-ASCII bytes as '?', key (when not NULL
 * or empty) as "[redacted]", at most max characters ("..." when cut).
 * "(empty body)" for nothing. */
void llm_excerpt(const char *body, size_t len, const char *key, size_t max, strbuf *out);
/* Replaces each occurrence of key (when not NULL or empty) in sb with
 * "[redacted]". */
void llm_redact(strbuf *sb, const char *key);
/* Whether a body looks like an HTML page. */
int llm_looks_like_html(const char *body, size_t len);
/* url without "user:password@" and without the query, for messages. */
const char *llm_display_url(const char *url, arena *a);

/* ---- llm_http.c: POST JSON with timeouts, retries and a size cap --------- */

typedef struct llm_http_request {
    const char *url;           /* the whole URL */
    const char *body;          /* JSON */
    const char *api_key;       /* NULL or "": no Authorization header */
    double connect_timeout_s, timeout_s;
    int max_attempts;
    double backoff_s, backoff_max_s;
    size_t max_response_bytes;
} llm_http_request;

typedef struct llm_http_response {
    long status;    /* of the last try; 0 when none got an answer */
    strbuf body;    /* of the last try */
    int attempts;   /* tries made */
    int retryable;  /* the last failure was 429, 5xx or the connection */
} llm_http_response;

void llm_http_response_init(llm_http_response *rs);
void llm_http_response_free(llm_http_response *rs);
/* Returns 0 on a 2xx answer (body in rs), else -1 with one line in err that
 * never contains the key: "HTTP 401 from URL: excerpt", "HTTP 503 from URL
 * after 4 tries: ...", "no answer from URL within 5 s (2 tries)". */
int llm_http_post(const llm_http_request *rq, llm_http_response *rs, strbuf *err);

#endif
