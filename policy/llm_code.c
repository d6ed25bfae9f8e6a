/*
 * llm_code.c: a small scanner for the CUDA text a model writes: tokens that
 * skip comments and keep strings and characters whole (core/cuda_text.h),
 * then the __global__ and __device__ function definitions and #defines at
 * brace level.  It is
 * no C++ parser; it is what lets the reply parser match braces safely and
 * find a kernel in prose, fences or a whole file.
 */
#include "llm_internal.h"
#include "cuda_text.h"

#include <ctype.h>
#include <string.h>

static int is_ident_start(int ch) { return isalpha(ch) || ch == '_' || ch == '$'; }
static int is_ident_char(int ch) { return isalnum(ch) || ch == '_' || ch == '$'; }

static void push_tok(llm_code *c, llm_tok_kind kind, size_t begin, size_t end)
{
    llm_tok t = {kind, begin, end};
    vec_push(&c->toks, t);
}

static void tokenize(llm_code *c)
{
    const char *s = c->text;
    size_t len = c->len, p = 0;
    int line_start = 1; /* only blanks since the last newline */
    while (p < len) {
        unsigned char ch = (unsigned char)s[p];
        if (ch == '\n') {
            line_start = 1;
            p++;
            continue;
        }
        if (isspace(ch) || ch == '\0') {
            p++;
            continue;
        }
        size_t after = ctext_skip_comment(s, len, p);
        if (after != p) { /* a line comment ends at its newline */
            p = after;
            continue;
        }
        size_t begin = p;
        if (ch == '#' && line_start) {
            while (p < len && s[p] != '\n') {
                if (s[p] == '\\' && p + 1 < len && s[p + 1] == '\n')
                    p++;
                else if (s[p] == '\\' && p + 2 < len && s[p + 1] == '\r' && s[p + 2] == '\n')
                    p += 2;
                p++;
            }
            push_tok(c, LLM_TOK_DIRECTIVE, begin, p);
            continue;
        }
        line_start = 0;
        if (is_ident_start(ch)) {
            while (p < len && is_ident_char((unsigned char)s[p]))
                p++;
            /* L"..", u8'..' and friends: the prefix belongs to the literal */
            if (p < len && (s[p] == '"' || s[p] == '\'') && p - begin <= 2) {
                p = ctext_skip_literal(s, len, p);
                push_tok(c, s[p - 1] == '\'' ? LLM_TOK_CHAR : LLM_TOK_STRING, begin, p);
                continue;
            }
            push_tok(c, LLM_TOK_IDENT, begin, p);
        } else if (isdigit(ch) || (ch == '.' && p + 1 < len && isdigit((unsigned char)s[p + 1]))) {
            while (p < len) {
                unsigned char d = (unsigned char)s[p];
                if ((d == '+' || d == '-') && strchr("eEpP", s[p - 1]))
                    p++;
                else if (is_ident_char(d) || d == '.' ||
                         (d == '\'' && p + 1 < len && isalnum((unsigned char)s[p + 1])))
                    p++;
                else
                    break;
            }
            push_tok(c, LLM_TOK_NUMBER, begin, p);
        } else if (ch == '"' || ch == '\'') {
            p = ctext_skip_literal(s, len, p);
            push_tok(c, ch == '"' ? LLM_TOK_STRING : LLM_TOK_CHAR, begin, p);
        } else {
            p++;
            if (p < len && ((ch == ':' && s[p] == ':') || (ch == '-' && s[p] == '>')))
                p++;
            push_tok(c, LLM_TOK_PUNCT, begin, p);
        }
    }
}

int llm_tok_is(const llm_code *c, size_t i, const char *word)
{
    if (i >= c->toks.len)
        return 0;
    const llm_tok *t = &c->toks.items[i];
    size_t n = strlen(word);
    return t->end - t->begin == n && memcmp(c->text + t->begin, word, n) == 0;
}

char *llm_tok_text(const llm_code *c, size_t i, arena *a)
{
    const llm_tok *t = &c->toks.items[i];
    return arena_strndup(a, c->text + t->begin, t->end - t->begin);
}

static int is_ident(const llm_code *c, size_t i)
{
    return i < c->toks.len && c->toks.items[i].kind == LLM_TOK_IDENT;
}

/* No real head of a definition is longer; the bound keeps prose after a
 * stray "__device__" from being read to the end once per such word. */
#define MAX_HEAD_TOKENS 64
#define NO_MATCH ((size_t)-1)

static int bracket(const llm_code *c, size_t i, int *open)
{
    const llm_tok *t = &c->toks.items[i];
    if (t->kind != LLM_TOK_PUNCT || t->end - t->begin != 1)
        return -1;
    const char *p = strchr("({[)}]", c->text[t->begin]);
    if (!p)
        return -1;
    *open = p - "({[)}]" < 3;
    return (int)((p - "({[)}]") % 3);
}

/* match[i]: for a bracket ( { [ or its closer, the other one, or NO_MATCH;
 * each kind is matched on its own, by count. */
static void match_brackets(llm_code *c)
{
    size_t n = c->toks.len;
    c->match = xcalloc(n ? n : 1, sizeof *c->match);
    size_t *stack[3];
    size_t depth[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++)
        stack[k] = xcalloc(n ? n : 1, sizeof *stack[k]);
    for (size_t i = 0; i < n; i++) {
        c->match[i] = NO_MATCH;
        int open, kind = bracket(c, i, &open);
        if (kind < 0)
            continue;
        if (open) {
            stack[kind][depth[kind]++] = i;
        } else if (depth[kind] > 0) {
            size_t o = stack[kind][--depth[kind]];
            c->match[o] = i;
            c->match[i] = o;
        }
    }
    for (int k = 0; k < 3; k++)
        free(stack[k]);
}

/* The token after the group opened at i; c->toks.len, and *closed 0, when
 * it does not close. */
static size_t skip_group(const llm_code *c, size_t i, int *closed)
{
    *closed = c->match[i] != NO_MATCH && c->match[i] > i;
    return *closed ? c->match[i] + 1 : c->toks.len;
}

/* The token that opened the <...> closed at i, walking back; NO_MATCH when
 * none before a ";" or a brace. */
static size_t group_start(const llm_code *c, size_t i, const char *open, const char *close)
{
    int depth = 0;
    for (size_t k = i + 1; k-- > 0;) {
        if (llm_tok_is(c, k, close))
            depth++;
        else if (llm_tok_is(c, k, open) && --depth == 0)
            return k;
        else if (llm_tok_is(c, k, ";") || llm_tok_is(c, k, "{") || llm_tok_is(c, k, "}"))
            return NO_MATCH;
    }
    return NO_MATCH;
}

/* identifiers followed by a parenthesized group that is not a call */
static int is_attribute_word(const llm_code *c, size_t i)
{
    static const char *const words[] = {"__launch_bounds__", "__attribute__", "__align__",
                                        "alignas", "__declspec", "decltype", "__cluster_dims__",
                                        "__maxnreg__", NULL};
    for (int w = 0; words[w]; w++)
        if (llm_tok_is(c, i, words[w]))
            return 1;
    return 0;
}

static int is_specifier_word(const llm_code *c, size_t i)
{
    static const char *const words[] = {"static", "inline", "__inline__", "__forceinline__",
                                        "__noinline__", "__host__", "__device__", "__global__",
                                        "extern", "constexpr", NULL};
    for (int w = 0; words[w]; w++)
        if (llm_tok_is(c, i, words[w]))
            return 1;
    return 0;
}

/* Walks back from the specifier at i over what belongs to the same
 * definition: other specifiers, extern "C", template<...> headers,
 * __launch_bounds__(...) and [[...]] attributes.  Returns the first token. */
static size_t definition_start(const llm_code *c, size_t i)
{
    size_t first = i;
    while (first > 0) {
        size_t k = first - 1;
        if (is_specifier_word(c, k)) {
            first = k;
        } else if (c->toks.items[k].kind == LLM_TOK_STRING && llm_tok_is(c, k - 1, "extern")) {
            first = k - 1;
        } else if (llm_tok_is(c, k, ">")) {
            size_t open = group_start(c, k, "<", ">");
            if (open == NO_MATCH || open == 0 || !llm_tok_is(c, open - 1, "template"))
                break;
            first = open - 1;
        } else if (llm_tok_is(c, k, ")")) {
            size_t open = c->match[k] < k ? c->match[k] : NO_MATCH;
            if (open == NO_MATCH || open == 0 || !is_attribute_word(c, open - 1))
                break;
            first = open - 1;
        } else if (llm_tok_is(c, k, "]") && llm_tok_is(c, k - 1, "]")) {
            /* [[...]]: the outer pair, with the inner one just inside */
            size_t open = c->match[k] < k ? c->match[k] : NO_MATCH;
            if (open == NO_MATCH || !llm_tok_is(c, open + 1, "[") || c->match[open + 1] != k - 1)
                break;
            first = open;
        } else {
            break;
        }
    }
    return first;
}

/* From the specifier at i, a function definition: the name before the
 * first "(" that is no attribute, the parameters, then "{" with nothing
 * but qualifiers between.  0 when it is a declaration or a variable. */
static int parse_definition(const llm_code *c, size_t i, llm_def *d)
{
    size_t n = c->toks.len, j = i + 1;
    int closed;
    memset(d, 0, sizeof *d);
    for (;;) {
        /* a name comes soon after a specifier: prose after a stray
         * "__device__" is not read to the end, once per such word */
        if (j > i + MAX_HEAD_TOKENS || j >= n || llm_tok_is(c, j, ";") ||
            llm_tok_is(c, j, "{") || llm_tok_is(c, j, "}") ||
            llm_tok_is(c, j, "=") || llm_tok_is(c, j, "[") ||
            c->toks.items[j].kind == LLM_TOK_DIRECTIVE)
            return 0;
        if (is_attribute_word(c, j) && llm_tok_is(c, j + 1, "(")) {
            j = skip_group(c, j + 1, &closed);
            continue;
        }
        if (llm_tok_is(c, j, "(")) {
            if (!is_ident(c, j - 1) || j - 1 == i || is_specifier_word(c, j - 1))
                return 0;
            break;
        }
        j++;
    }
    d->name_tok = j - 1;
    d->params_open = j;
    size_t after = skip_group(c, j, &closed);
    if (!closed || after >= n)
        return 0;
    d->params_close = after - 1;
    /* qualifiers, a trailing return type, __launch_bounds__ after ")" */
    size_t k = after;
    for (int guard = 0; k < n && guard < 32; guard++) {
        if (llm_tok_is(c, k, "{"))
            break;
        if (llm_tok_is(c, k, ";") || llm_tok_is(c, k, "=") || llm_tok_is(c, k, "}") ||
            llm_tok_is(c, k, ",") || c->toks.items[k].kind == LLM_TOK_DIRECTIVE)
            return 0;
        if (llm_tok_is(c, k, "(")) {
            k = skip_group(c, k, &closed);
            continue;
        }
        k++;
    }
    if (k >= n || !llm_tok_is(c, k, "{"))
        return 0;
    d->body_open = k;
    size_t end = skip_group(c, k, &closed);
    d->complete = closed;
    d->end_tok = end;
    size_t first = definition_start(c, i);
    d->first_tok = first;
    d->begin = c->toks.items[first].begin;
    d->end = d->complete ? c->toks.items[end - 1].end : c->len;
    for (size_t t = first; t < d->name_tok; t++)
        if (llm_tok_is(c, t, "__global__"))
            d->is_kernel = 1;
    return 1;
}

static void find_macro(llm_code *c, size_t i)
{
    const llm_tok *t = &c->toks.items[i];
    const char *s = c->text;
    size_t p = t->begin + 1;
    while (p < t->end && (s[p] == ' ' || s[p] == '\t'))
        p++;
    if (t->end - p < 7 || strncmp(s + p, "define", 6) != 0 || !isspace((unsigned char)s[p + 6]))
        return;
    p += 6;
    while (p < t->end && (s[p] == ' ' || s[p] == '\t'))
        p++;
    size_t name = p;
    while (p < t->end && is_ident_char((unsigned char)s[p]))
        p++;
    if (p == name)
        return;
    llm_macro m = {i, name, p};
    vec_push(&c->macros, m);
}

void llm_code_scan(llm_code *c, const char *text, size_t len)
{
    memset(c, 0, sizeof *c);
    c->text = text;
    c->len = len;
    tokenize(c);
    match_brackets(c);
    for (size_t i = 0; i < c->toks.len; i++) {
        if (c->toks.items[i].kind == LLM_TOK_DIRECTIVE) {
            find_macro(c, i);
            continue;
        }
        if (!llm_tok_is(c, i, "__global__") && !llm_tok_is(c, i, "__device__"))
            continue;
        llm_def d;
        if (parse_definition(c, i, &d)) {
            vec_push(&c->defs, d);
            i = d.end_tok - 1;
        }
    }
}

void llm_code_free(llm_code *c)
{
    vec_free(&c->toks);
    vec_free(&c->defs);
    vec_free(&c->macros);
    free(c->match);
    c->match = NULL;
}

const llm_def *llm_code_first_kernel(const llm_code *c)
{
    for (size_t i = 0; i < c->defs.len; i++)
        if (c->defs.items[i].is_kernel)
            return &c->defs.items[i];
    return NULL;
}

static int is_builtin_type_word(const llm_code *c, size_t i)
{
    static const char *const words[] = {"int", "char", "float", "double", "short", "long",
                                        "unsigned", "signed", "bool", "void", "auto", NULL};
    for (int w = 0; words[w]; w++)
        if (llm_tok_is(c, i, words[w]))
            return 1;
    return 0;
}

static int is_qualifier_word(const llm_code *c, size_t i)
{
    return llm_tok_is(c, i, "const") || llm_tok_is(c, i, "volatile") ||
           llm_tok_is(c, i, "__restrict__") || llm_tok_is(c, i, "__restrict") ||
           llm_tok_is(c, i, "restrict") || llm_tok_is(c, i, "register");
}

/* One parameter's tokens [b, e) as a normalized type. */
static const char *normalize_param(const llm_code *c, size_t b, size_t e, arena *a)
{
    /* no default argument; arrays from the first "[" on become one "*" */
    size_t stop = e, array = e;
    int depth = 0;
    for (size_t k = b; k < e; k++) {
        if (llm_tok_is(c, k, "(") || llm_tok_is(c, k, "<"))
            depth++;
        else if ((llm_tok_is(c, k, ")") || llm_tok_is(c, k, ">")) && depth > 0)
            depth--;
        else if (depth == 0 && llm_tok_is(c, k, "=")) {
            stop = k;
            break;
        } else if (depth == 0 && llm_tok_is(c, k, "[") && array == e)
            array = k;
    }
    if (array > stop)
        array = stop;
    size_t last = array; /* one past the tokens that name the type */
    size_t kept = 0;
    for (size_t k = b; k < last; k++)
        if (!is_qualifier_word(c, k))
            kept++;
    /* the declarator's name: a last identifier after some type */
    if (kept > 1) {
        size_t k = last;
        while (k > b && is_qualifier_word(c, k - 1))
            k--;
        if (k > b && is_ident(c, k - 1) && !is_builtin_type_word(c, k - 1))
            last = k - 1;
    }
    strbuf sb;
    sb_init(&sb);
    for (size_t k = b; k < last; k++) {
        if (is_qualifier_word(c, k) || c->toks.items[k].kind == LLM_TOK_DIRECTIVE)
            continue;
        if (sb.len)
            sb_putc(&sb, ' ');
        const llm_tok *t = &c->toks.items[k];
        sb_append(&sb, c->text + t->begin, t->end - t->begin);
    }
    if (array < stop)
        sb_puts(&sb, sb.len ? " *" : "*");
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

size_t llm_def_params(const llm_code *c, const llm_def *d, arena *a, const char ***types)
{
    size_t b = d->params_open + 1, e = d->params_close;
    size_t cap = 1;
    for (size_t k = b; k < e; k++)
        if (llm_tok_is(c, k, ","))
            cap++;
    const char **out = arena_alloc(a, cap * sizeof *out);
    size_t count = 0, start = b;
    int depth = 0;
    for (size_t k = b; k <= e; k++) {
        if (k < e) {
            if (llm_tok_is(c, k, "(") || llm_tok_is(c, k, "[") || llm_tok_is(c, k, "{") ||
                llm_tok_is(c, k, "<"))
                depth++;
            else if ((llm_tok_is(c, k, ")") || llm_tok_is(c, k, "]") || llm_tok_is(c, k, "}") ||
                      llm_tok_is(c, k, ">")) && depth > 0)
                depth--;
            if (!(depth == 0 && llm_tok_is(c, k, ",")))
                continue;
        }
        if (k > start)
            out[count++] = normalize_param(c, start, k, a);
        start = k + 1;
    }
    if (count == 1 && strcmp(out[0], "void") == 0)
        count = 0;
    *types = out;
    return count;
}
