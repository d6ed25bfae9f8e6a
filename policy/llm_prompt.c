/*
 * llm_prompt.c: the prompt, in CUDA-L1's contrastive form: the task, the
 * kernel with what it needs, the GPU, then earlier variants with their
 * measured speedups, and a request for an analysis, a design and the
 * faster kernel in one ```cuda block.  Pure: the same context gives the
 * same text (testsuite/llm/expected/ holds golden copies).
 */
#include "llm_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_BUDGET 32000
/* a version's heading before its number is known: "## Version 1234: " */
#define HEADING_SLACK 8

static const char system_text[] =
    "You are an expert in CUDA performance engineering. You rewrite one CUDA kernel at a "
    "time so that it runs faster on the given GPU and computes the same results. You reason "
    "from measurements: you compare the versions you are shown and their speedups, and you "
    "build on what made the fast ones fast. You answer with an analysis and then the "
    "complete new kernel in one ```cuda fenced code block.";

/* The kernel's name: the model's, else read from its source. */
static const char *kernel_name(const pol_context *ctx, arena *a)
{
    if (ctx->model && ctx->kernel_index < ctx->model->kernels.len)
        return ctx->model->kernels.items[ctx->kernel_index].name;
    const char *src = ctx->kernel_source ? ctx->kernel_source : "";
    llm_code c;
    llm_code_scan(&c, src, strlen(src));
    const llm_def *d = llm_code_first_kernel(&c);
    const char *name = d ? llm_tok_text(&c, d->name_tok, a) : "the kernel";
    llm_code_free(&c);
    return name;
}

static int measured(const pol_sample *s)
{
    return s->verdict && strcmp(s->verdict, "pass") == 0 && isfinite(s->speedup);
}

static const char *verdict_words(const char *v)
{
    static const struct { const char *verdict, *words; } table[] = {
        {"wrong", "wrong results"},
        {"build_error", "did not compile"},
        {"crash", "crashed"},
        {"timeout", "timed out"},
        {"bad_reply", "no usable code"},
    };
    for (size_t i = 0; v && i < sizeof table / sizeof table[0]; i++)
        if (strcmp(v, table[i].verdict) == 0)
            return table[i].words;
    return v && *v ? v : "not measured";
}

/* One version's text after its "## Version N" heading. */
static const char *render_sample(const pol_sample *s, arena *a)
{
    const char *label = s->label && *s->label ? s->label : NULL;
    strbuf sb;
    sb_init(&sb);
    if (measured(s))
        sb_printf(&sb, ": speedup %.2fx", s->speedup);
    else if (s->verdict && strcmp(s->verdict, "pass") == 0)
        sb_puts(&sb, ": correct, speed not measured");
    else
        sb_printf(&sb, ": failed (%s)", verdict_words(s->verdict));
    if (label)
        sb_printf(&sb, ", made by %s", label);
    sb_printf(&sb, "\n```cuda\n%s\n```\n\n", s->source);
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

typedef struct ranked {
    size_t index;
    const char *text;
} ranked;

static const pol_context *sort_ctx;
static int by_speedup_desc(const void *x, const void *y)
{
    const pol_sample *a = &sort_ctx->history[*(const size_t *)x];
    const pol_sample *b = &sort_ctx->history[*(const size_t *)y];
    if (a->speedup != b->speedup)
        return a->speedup > b->speedup ? -1 : 1;
    /* newer first */
    return *(const size_t *)x > *(const size_t *)y ? -1 : 1;
}

static int by_speedup_asc(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    const pol_sample *sa = &sort_ctx->history[a->index], *sb = &sort_ctx->history[b->index];
    int ma = measured(sa), mb = measured(sb);
    if (ma != mb)
        return ma ? 1 : -1; /* failures first */
    if (ma && sa->speedup != sb->speedup)
        return sa->speedup < sb->speedup ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static int duplicate(const pol_context *ctx, size_t i, const size_t *order, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (strcmp(ctx->history[order[k]].source, ctx->history[i].source) == 0)
            return 1;
    return 0;
}

/* The history in order of information: the fastest, the slowest, and on
 * alternately from both ends of the measured ones; then failures, newest
 * first.  Entries without source and repeats are left out. */
static size_t rank_history(const pol_context *ctx, size_t *order)
{
    size_t n_pass = 0, n = 0;
    size_t *pass = xcalloc(ctx->n_history + 1, sizeof *pass);
    for (size_t i = 0; i < ctx->n_history; i++)
        if (ctx->history[i].source && *ctx->history[i].source && measured(&ctx->history[i]))
            pass[n_pass++] = i;
    sort_ctx = ctx;
    if (n_pass)
        qsort(pass, n_pass, sizeof *pass, by_speedup_desc);
    for (size_t lo = 0, hi = n_pass; lo < hi;) {
        size_t pick = (n_pass - (hi - lo)) % 2 == 0 ? pass[lo++] : pass[--hi];
        if (!duplicate(ctx, pick, order, n))
            order[n++] = pick;
    }
    for (size_t i = ctx->n_history; i-- > 0;) {
        const pol_sample *s = &ctx->history[i];
        if (s->source && *s->source && !measured(s) && !duplicate(ctx, i, order, n))
            order[n++] = i;
    }
    free(pass);
    return n;
}

/* The closing request: analysis, design, code. */
static void ask_text(strbuf *sb, const char *name, int with_history, int with_context)
{
    sb_puts(sb, "# Your answer\n");
    if (with_history)
        sb_puts(sb, "1. Performance analysis: compare the versions above with each other and "
                    "with the original. What makes the faster ones faster, and what made the "
                    "slower or failed ones slower or wrong?\n");
    else
        sb_puts(sb, "1. Performance analysis: what limits the speed of the original kernel on "
                    "this GPU (memory traffic, access patterns, occupancy, divergence, "
                    "synchronization, arithmetic)?\n");
    sb_printf(sb,
              "2. Algorithm design: the optimizations you will apply, and why they keep the "
              "results the same.\n"
              "3. Code: the complete new definition of `%s` in one ```cuda fenced block. New "
              "__device__ helper functions may come before it in the same block%s. No host "
              "code, no main, no tests.\n",
              name, with_context ? "; the code under \"What it uses\" is already in the "
                                   "program and must not be repeated" : "");
}

/* Up to max bytes of text, cut after a whole line when there is one. */
static size_t cut_at_line(const char *text, size_t max)
{
    size_t len = strlen(text);
    if (len <= max)
        return len;
    for (size_t p = max; p > 0; p--)
        if (text[p - 1] == '\n')
            return p - 1;
    return max;
}

void pol_llm_build_prompt(const pol_context *ctx, size_t budget, arena *a, pol_llm_prompt *out)
{
    memset(out, 0, sizeof *out);
    if (budget == 0)
        budget = DEFAULT_BUDGET;
    const char *name = kernel_name(ctx, a);
    const char *gpu = ctx->gpu_name && *ctx->gpu_name ? ctx->gpu_name : "an NVIDIA GPU";
    const char *arch = ctx->arch && *ctx->arch ? ctx->arch : NULL;
    const char *kernel_text = ctx->kernel_source ? ctx->kernel_source : "";
    const char *context = ctx->context_source && *ctx->context_source ? ctx->context_source : NULL;
    const char *launches = ctx->launch_summary && *ctx->launch_summary ? ctx->launch_summary : NULL;

    strbuf head, tail;
    sb_init(&head);
    sb_init(&tail);
    sb_printf(&head,
              "# Task\n"
              "Write a faster version of the CUDA kernel `%s` below, for %s%s%s%s.\n"
              "The new kernel replaces the old one in the same program. It must keep the name "
              "`%s` and the same parameters (types and order), compute the same results for "
              "every input the program can pass (up to floating-point rounding), and work with "
              "the launches shown below, whose grid, block and shared memory do not change.\n\n"
              "# The kernel\n```cuda\n%s\n```\n\n",
              name, gpu, arch ? " (" : "", arch ? arch : "", arch ? ")" : "", name, kernel_text);
    if (launches)
        sb_printf(&tail, "# How it is launched\n%s%s\n", launches,
                  launches[strlen(launches) - 1] == '\n' ? "" : "\n");
    else
        sb_puts(&tail, "# How it is launched\nNo launch of it was found in this file.\n\n");

    size_t n_order = 0;
    size_t *order = xcalloc(ctx->n_history + 1, sizeof *order);
    if (ctx->history)
        n_order = rank_history(ctx, order);
    strbuf ask_history, ask_fresh;
    sb_init(&ask_history);
    sb_init(&ask_fresh);
    ask_text(&ask_history, name, 1, context != NULL);
    ask_text(&ask_fresh, name, 0, context != NULL);

    /* what is always there; the history's wording is the longer one */
    size_t fixed = strlen(system_text) + head.len + tail.len +
                   (ask_history.len > ask_fresh.len ? ask_history.len : ask_fresh.len);
    size_t left = budget > fixed ? budget - fixed : 0;

    strbuf ctx_part;
    sb_init(&ctx_part);
    if (context) {
        static const char intro[] =
            "# What it uses\n"
            "The device functions, types, globals and macros the kernel needs. They stay in "
            "the program as they are.\n```cuda\n";
        static const char outro[] = "\n```\n\n";
        static const char cut_note[] = "\n// ... the rest is left out for length\n```\n\n";
        size_t whole = strlen(intro) + strlen(context) + strlen(outro);
        if (whole <= left) {
            sb_printf(&ctx_part, "%s%s%s", intro, context, outro);
        } else if (left > strlen(intro) + strlen(cut_note) + 80) {
            size_t room = left - strlen(intro) - strlen(cut_note);
            size_t keep = cut_at_line(context, room);
            sb_puts(&ctx_part, intro);
            sb_append(&ctx_part, context, keep);
            sb_puts(&ctx_part, cut_note);
            out->context_truncated = 1;
        } else {
            sb_puts(&ctx_part, "# What it uses\nThe device functions, types, globals and macros "
                               "the kernel needs are in the program; they are left out here "
                               "for length.\n\n");
            out->context_truncated = 1;
        }
        left = left > ctx_part.len ? left - ctx_part.len : 0;
    }

    static const char history_intro[] =
        "# Earlier versions and their speedups\n"
        "Each was measured against the original kernel (1.00x); higher is faster. They are "
        "listed from the slowest to the fastest.\n\n";
    ranked *shown = xcalloc(n_order + 1, sizeof *shown);
    size_t n_shown = 0;
    for (size_t k = 0; k < n_order; k++) {
        const char *text = render_sample(&ctx->history[order[k]], a);
        size_t cost = strlen(text) + strlen("## Version ") + HEADING_SLACK +
                      (n_shown == 0 ? strlen(history_intro) : 0);
        if (cost > left)
            continue;
        left -= cost;
        shown[n_shown].index = order[k];
        shown[n_shown].text = text;
        n_shown++;
    }
    sort_ctx = ctx;
    if (n_shown)
        qsort(shown, n_shown, sizeof *shown, by_speedup_asc);

    strbuf user;
    sb_init(&user);
    sb_append(&user, head.data, head.len);
    sb_append(&user, sb_str(&ctx_part), ctx_part.len);
    sb_append(&user, tail.data, tail.len);
    if (n_shown) {
        sb_puts(&user, history_intro);
        for (size_t k = 0; k < n_shown; k++)
            sb_printf(&user, "## Version %zu%s", k + 1, shown[k].text);
    }
    sb_puts(&user, n_shown ? sb_str(&ask_history) : sb_str(&ask_fresh));
    out->system = system_text;
    out->user = arena_strdup(a, sb_str(&user));
    out->n_history_shown = n_shown;
    sb_free(&user);
    sb_free(&ctx_part);
    sb_free(&head);
    sb_free(&tail);
    sb_free(&ask_history);
    sb_free(&ask_fresh);
    free(shown);
    free(order);
}
