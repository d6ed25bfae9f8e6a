/*
 * llm_reply.c: from a model's reply to the new definition of one kernel.
 * Finds the code (fenced blocks, or the bare reply), picks the kernel, checks
 * its parameters against the original's, renames it back when the model
 * renamed it, and keeps the new __device__ helpers and macros it uses.
 * llm.h (pol_llm_extract_kernel) states the rules.
 */
#include "llm_internal.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

typedef struct block {
    const char *text;
    size_t len;
    int code;    /* a C/C++/CUDA language, or none given */
    llm_code scan;
} block;
typedef VEC(block) block_vec;

/* What a model writes after its code fence for C-family code. */
static int code_language(const char *info, size_t n)
{
    static const char *const names[] = {"cuda", "cu", "cuh", "cpp", "c++", "cxx", "cc", "c",
                                        "h", "hpp", "cuda-c", "cuda-cpp", "cuda_cpp", NULL};
    if (n == 0)
        return 1;
    for (int i = 0; names[i]; i++)
        if (strlen(names[i]) == n && strncasecmp(info, names[i], n) == 0)
            return 1;
    return 0;
}

/* ``` or ~~~ fenced blocks; an unclosed one runs to the end of the text. */
static void find_blocks(const char *s, size_t len, block_vec *out)
{
    size_t p = 0;
    int open = 0;
    char fence = 0;
    size_t fence_len = 0;
    block cur = {0};
    while (p < len) {
        size_t ls = p, le = p;
        while (le < len && s[le] != '\n')
            le++;
        p = le < len ? le + 1 : len;
        size_t q = ls;
        while (q < le && (s[q] == ' ' || s[q] == '\t'))
            q++;
        size_t n = 0;
        while (q + n < le && (s[q + n] == '`' || s[q + n] == '~') && s[q + n] == s[q])
            n++;
        if (n < 3)
            continue;
        if (!open) {
            fence = s[q];
            fence_len = n;
            size_t info = q + n;
            while (info < le && isspace((unsigned char)s[info]))
                info++;
            size_t word = info;
            while (word < le && !isspace((unsigned char)s[word]) && s[word] != '{')
                word++;
            cur.code = code_language(s + info, word - info);
            cur.text = s + p;
            open = 1;
            continue;
        }
        size_t rest = q + n;
        while (rest < le && isspace((unsigned char)s[rest]))
            rest++;
        if (s[q] == fence && n >= fence_len && rest == le) {
            cur.len = (size_t)(s + ls - cur.text);
            vec_push(out, cur);
            open = 0;
        }
    }
    if (open) {
        cur.len = (size_t)(s + len - cur.text);
        vec_push(out, cur);
    }
}

static int count_kernels(const block *b)
{
    int n = 0;
    for (size_t i = 0; i < b->scan.defs.len; i++)
        n += b->scan.defs.items[i].is_kernel;
    return n;
}

typedef struct original_shape {
    const char *name;
    int known;          /* params below are valid */
    size_t n_params;
    const char **params;
    llm_code scan;
    const llm_def *def; /* in scan */
} original_shape;

static int same_tokens(const llm_code *a, const llm_def *da, const llm_code *b, const llm_def *db)
{
    if (da->end_tok - da->first_tok != db->end_tok - db->first_tok)
        return 0;
    for (size_t i = 0; i < da->end_tok - da->first_tok; i++) {
        const llm_tok *ta = &a->toks.items[da->first_tok + i];
        const llm_tok *tb = &b->toks.items[db->first_tok + i];
        if (ta->end - ta->begin != tb->end - tb->begin ||
            memcmp(a->text + ta->begin, b->text + tb->begin, ta->end - ta->begin) != 0)
            return 0;
    }
    return 1;
}

/* The reason a kernel's parameters differ from the original's, or NULL. */
static const char *signature_problem(const original_shape *o, const llm_code *c, const llm_def *d,
                                     arena *a)
{
    if (!o->known)
        return NULL;
    const char **types;
    size_t n = llm_def_params(c, d, a, &types);
    const char *name = llm_tok_text(c, d->name_tok, a);
    if (n != o->n_params)
        return arena_printf(a, "the reply's kernel '%s' takes %zu parameter%s, the original %zu",
                            name, n, n == 1 ? "" : "s", o->n_params);
    for (size_t i = 0; i < n; i++)
        if (strcmp(types[i], o->params[i]) != 0)
            return arena_printf(a, "parameter %zu of the reply's kernel '%s' is '%s', the "
                                   "original's '%s'", i + 1, name, types[i], o->params[i]);
    return NULL;
}

typedef struct choice {
    size_t block, def;
    int score;
    const char *problem; /* signature */
    int named;
} choice;

/* The best kernel over the blocks for which use[b] is set; score < 0 when
 * there is none. */
static choice choose(const block_vec *blocks, const int *use, const original_shape *o, arena *a)
{
    choice best = {0, 0, -1, NULL, 0};
    for (size_t b = 0; b < blocks->len; b++) {
        if (!use[b])
            continue;
        const llm_code *c = &blocks->items[b].scan;
        for (size_t i = 0; i < c->defs.len; i++) {
            const llm_def *d = &c->defs.items[i];
            if (!d->is_kernel)
                continue;
            int named = o->name && llm_tok_is(c, d->name_tok, o->name);
            const char *problem = signature_problem(o, c, d, a);
            int score = problem ? (named ? 100 : 0) : (named || !o->name ? 300 : 200);
            score += d->complete ? 20 : 0;
            if (!o->def || !same_tokens(c, d, &o->scan, o->def))
                score += 10;
            if (score >= best.score) {
                best.block = b;
                best.def = i;
                best.score = score;
                best.problem = problem;
                best.named = named;
            }
        }
    }
    return best;
}

/* ---- the helpers the kernel uses -------------------------------------- */

/* More would be no helpers but noise; the bound keeps a hostile reply fast. */
#define MAX_HELPERS 256

typedef struct helper {
    size_t block;
    const char *name;
    size_t name_len;
    size_t begin, end;           /* bytes in the block */
    size_t tok_begin, tok_end;   /* tokens whose identifiers it uses */
    int keep;
} helper;
typedef VEC(helper) helper_vec;

static int name_in(const cstr_vec *names, const char *text, size_t n)
{
    for (size_t i = 0; i < names->len; i++)
        if (strlen(names->items[i]) == n && memcmp(names->items[i], text, n) == 0)
            return 1;
    return 0;
}

/* Names of the functions and macros context defines. */
static void context_names(const char *context, arena *a, cstr_vec *out)
{
    if (!context)
        return;
    llm_code c;
    llm_code_scan(&c, context, strlen(context));
    for (size_t i = 0; i < c.defs.len; i++)
        vec_push(out, llm_tok_text(&c, c.defs.items[i].name_tok, a));
    for (size_t i = 0; i < c.macros.len; i++)
        vec_push(out, arena_strndup(a, context + c.macros.items[i].name_begin,
                                    c.macros.items[i].name_end - c.macros.items[i].name_begin));
    llm_code_free(&c);
}

static void add_helper(helper_vec *hs, size_t b, const char *name, size_t begin, size_t end,
                       size_t tb, size_t te, const cstr_vec *skip, const char *kernel_name)
{
    if (hs->len >= MAX_HELPERS || name_in(skip, name, strlen(name)) ||
        (kernel_name && strcmp(name, kernel_name) == 0))
        return;
    /* a name defined in an earlier (preferred) block is not taken again */
    for (size_t i = 0; i < hs->len; i++)
        if (hs->items[i].block != b && strcmp(hs->items[i].name, name) == 0)
            return;
    helper h = {b, name, strlen(name), begin, end, tb, te, 0};
    vec_push(hs, h);
}

/* Marks the helpers that tokens [tb, te) of c name. */
static int mark_used(const llm_code *c, size_t tb, size_t te, helper_vec *hs)
{
    int changed = 0;
    for (size_t t = tb; t < te && t < c->toks.len; t++) {
        const llm_tok *tok = &c->toks.items[t];
        if (tok->kind == LLM_TOK_DIRECTIVE) {
            /* a macro's or a directive's body: scan its words too */
            llm_code inner;
            llm_code_scan(&inner, c->text + tok->begin + 1, tok->end - tok->begin - 1);
            changed |= mark_used(&inner, 0, inner.toks.len, hs);
            llm_code_free(&inner);
            continue;
        }
        if (tok->kind != LLM_TOK_IDENT)
            continue;
        for (size_t i = 0; i < hs->len; i++) {
            helper *h = &hs->items[i];
            if (!h->keep && h->name_len == tok->end - tok->begin &&
                memcmp(h->name, c->text + tok->begin, tok->end - tok->begin) == 0) {
                h->keep = 1;
                changed = 1;
            }
        }
    }
    return changed;
}

/* Blocks in preference order: the kernel's first, then the others. */
static void collect_helpers(const block_vec *blocks, const int *use, size_t kb,
                            const llm_def *kernel_def, const cstr_vec *skip,
                            const char *kernel_name, arena *a, helper_vec *hs)
{
    for (size_t pass = 0; pass <= blocks->len; pass++) {
        size_t b = pass == 0 ? kb : pass - 1;
        if ((pass > 0 && b == kb) || !use[b])
            continue;
        const llm_code *c = &blocks->items[b].scan;
        for (size_t i = 0; i < c->defs.len; i++) {
            const llm_def *d = &c->defs.items[i];
            if (d->is_kernel || !d->complete)
                continue;
            add_helper(hs, b, llm_tok_text(c, d->name_tok, a), d->begin, d->end, d->first_tok,
                       d->end_tok, skip, kernel_name);
        }
        for (size_t i = 0; i < c->macros.len; i++) {
            const llm_macro *m = &c->macros.items[i];
            if (b == kb && m->tok >= kernel_def->first_tok && m->tok < kernel_def->end_tok)
                continue; /* it stays where it is, inside the kernel */
            const llm_tok *t = &c->toks.items[m->tok];
            add_helper(hs, b, arena_strndup(a, c->text + m->name_begin, m->name_end - m->name_begin),
                       t->begin, t->end, m->tok, m->tok + 1, skip, kernel_name);
        }
    }
}

static int helper_order(const void *x, const void *y)
{
    const helper *a = x, *b = y;
    if (a->block != b->block)
        return a->block < b->block ? -1 : 1;
    return a->begin < b->begin ? -1 : a->begin > b->begin;
}

/* ---- putting it together ---------------------------------------------- */

static void shape_of_original(const char *original, const char *kernel_name, arena *a,
                              original_shape *o)
{
    memset(o, 0, sizeof *o);
    o->name = kernel_name && *kernel_name ? kernel_name : NULL;
    if (!original)
        return;
    llm_code_scan(&o->scan, original, strlen(original));
    o->def = llm_code_first_kernel(&o->scan);
    if (!o->def)
        return;
    if (!o->name)
        o->name = llm_tok_text(&o->scan, o->def->name_tok, a);
    o->n_params = llm_def_params(&o->scan, o->def, a, &o->params);
    o->known = 1;
}

static const char *after_thinking(const char *reply)
{
    const char *p = reply, *hit;
    while ((hit = strstr(p, "</think>")) != NULL)
        p = hit + 8;
    return p;
}

static void assemble(const block_vec *blocks, const int *use, const choice *ch,
                     const original_shape *o, const char *context, arena *a, pol_llm_extract *out)
{
    const block *kb = &blocks->items[ch->block];
    const llm_code *c = &kb->scan;
    const llm_def *d = &c->defs.items[ch->def];
    cstr_vec skip = {0};
    context_names(context, a, &skip);
    helper_vec hs = {0};
    const char *name = llm_tok_text(c, d->name_tok, a);
    collect_helpers(blocks, use, ch->block, d, &skip, o->name ? o->name : name, a, &hs);
    mark_used(c, d->first_tok, d->end_tok, &hs);
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < hs.len; i++)
            if (hs.items[i].keep == 1) {
                hs.items[i].keep = 2; /* its own uses are marked */
                const helper *h = &hs.items[i];
                mark_used(&blocks->items[h->block].scan, h->tok_begin, h->tok_end, &hs);
                changed = 1;
            }
    }
    if (hs.len)
        qsort(hs.items, hs.len, sizeof *hs.items, helper_order);
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < hs.len; i++) {
        const helper *h = &hs.items[i];
        if (!h->keep)
            continue;
        sb_append(&sb, blocks->items[h->block].text + h->begin, h->end - h->begin);
        sb_puts(&sb, "\n\n");
        out->n_helpers++;
    }
    const llm_tok *nt = &c->toks.items[d->name_tok];
    if (o->name && strcmp(name, o->name) != 0) {
        sb_append(&sb, kb->text + d->begin, nt->begin - d->begin);
        sb_puts(&sb, o->name);
        sb_append(&sb, kb->text + nt->end, d->end - nt->end);
        out->renamed = 1;
    } else {
        sb_append(&sb, kb->text + d->begin, d->end - d->begin);
    }
    out->source = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    vec_free(&hs);
    vec_free(&skip);
}

void pol_llm_extract_kernel(const char *reply, const char *kernel_name, const char *original,
                            const char *context_source, arena *a, pol_llm_extract *out)
{
    memset(out, 0, sizeof *out);
    original_shape o;
    shape_of_original(original, kernel_name, a, &o);
    const char *text = after_thinking(reply ? reply : "");
    size_t len = strlen(text);
    block_vec blocks = {0};
    find_blocks(text, len, &blocks);
    size_t n_fenced = blocks.len;
    /* the bare reply comes last: the fallback when no block has a kernel */
    block whole = {text, len, 1, {0}};
    vec_push(&blocks, whole);
    int *use = arena_alloc(a, blocks.len * sizeof *use);
    for (size_t b = 0; b < blocks.len; b++)
        llm_code_scan(&blocks.items[b].scan, blocks.items[b].text, blocks.items[b].len);

    /* fenced C-family blocks, then every fenced block, then the whole reply */
    choice ch = {0, 0, -1, NULL, 0};
    for (int round = 0; round < 3 && ch.score < 0; round++) {
        int any = 0;
        for (size_t b = 0; b < blocks.len; b++) {
            use[b] = round == 0 ? b < n_fenced && blocks.items[b].code
                   : round == 1 ? b < n_fenced
                                : b == n_fenced;
            any |= use[b] && count_kernels(&blocks.items[b]) > 0;
        }
        if (any)
            ch = choose(&blocks, use, &o, a);
    }

    size_t blank = strspn(text, " \t\r\n");
    if (ch.score < 0) {
        out->failure = blank == len       ? "the reply is empty"
                       : n_fenced         ? "no __global__ kernel in the reply's code"
                                          : "no code in the reply";
    } else if (ch.problem) {
        out->failure = ch.problem;
    } else if (!blocks.items[ch.block].scan.defs.items[ch.def].complete) {
        const llm_code *c = &blocks.items[ch.block].scan;
        out->failure = arena_printf(a, "the reply's kernel '%s' is unfinished (its braces do "
                                       "not close)",
                                    llm_tok_text(c, c->defs.items[ch.def].name_tok, a));
    } else {
        assemble(&blocks, use, &ch, &o, context_source, a, out);
        if (!strstr(out->source, "__global__")) {
            out->source = NULL;
            out->failure = "no __global__ kernel in the reply's code";
        }
    }
    for (size_t b = 0; b < blocks.len; b++)
        llm_code_free(&blocks.items[b].scan);
    vec_free(&blocks);
    llm_code_free(&o.scan);
}
