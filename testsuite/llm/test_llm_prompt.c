/*
 * test_llm_prompt.c: golden prompts (expected/prompt_NAME.txt) for a kernel
 * without history, with mixed history, with more history than the budget
 * holds and with a context that must be cut; and the budget's rules.
 */
#include "llm.h"
#include "llm_test_util.h"

#include <math.h>

static pol_context base_context(void)
{
    pol_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.kernel_source = scale_kernel;
    ctx.context_source = scale_context;
    ctx.launch_summary = scale_launches;
    ctx.arch = "sm_90";
    ctx.gpu_name = "NVIDIA H200";
    ctx.max_proposals = 4;
    return ctx;
}

static const char *variant(arena *a, const char *body)
{
    return arena_printf(a,
                        "__global__ void scale(float *out, const float *in, float factor, int n)\n"
                        "{\n%s\n}",
                        body);
}

static size_t prompt_size(const pol_llm_prompt *p) { return strlen(p->system) + strlen(p->user); }

static void golden(const char *dir, const char *name, const pol_llm_prompt *p)
{
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "=== system\n%s\n=== user\n%s", p->system, p->user);
    char path[1024];
    snprintf(path, sizeof path, "%s/prompt_%s.txt", dir, name);
    if (golden_compare(path, sb_str(&sb)) != 0)
        failures++;
    sb_free(&sb);
}

static void no_history(const char *dir)
{
    arena a;
    arena_init(&a);
    pol_context ctx = base_context();
    pol_llm_prompt p;
    pol_llm_build_prompt(&ctx, 0, &a, &p);
    CHECK(p.n_history_shown == 0 && !p.context_truncated);
    CHECK(strstr(p.user, scale_kernel) && strstr(p.user, scale_context) &&
          strstr(p.user, scale_launches) && strstr(p.user, "NVIDIA H200 (sm_90)"));
    CHECK(strstr(p.user, "```cuda") && strstr(p.user, "`scale`"));
    golden(dir, "no_history", &p);
    arena_free(&a);
}

static void mixed_history(const char *dir)
{
    arena a;
    arena_init(&a);
    pol_context ctx = base_context();
    ctx.gpu_name = NULL;
    ctx.arch = "sm_80";
    pol_sample h[] = {
        {variant(&a, "    // restrict\n    int i = blockIdx.x * blockDim.x + threadIdx.x;"),
         "restrict", "pass", 1.35},
        {variant(&a, "    // unrolled by 8, off by one"), "unroll8", "wrong", NAN},
        {variant(&a, "    // through shared memory"), "shared-tiling", "pass", 0.80},
        {variant(&a, "    float4 v = in[0]; // does not compile"), "vector4", "build_error", NAN},
        {variant(&a, "    // grid-stride loop with __ldg"), "llm:cuda-l1 #2", "pass", 2.10},
        {variant(&a, "    // restrict\n    int i = blockIdx.x * blockDim.x + threadIdx.x;"),
         "restrict again", "pass", 1.30},
        {NULL, "nothing", "bad_reply", NAN},
        {variant(&a, "    // passed, not timed"), NULL, "pass", NAN},
    };
    ctx.history = h;
    ctx.n_history = sizeof h / sizeof h[0];
    pol_llm_prompt p;
    pol_llm_build_prompt(&ctx, 0, &a, &p);
    /* the repeat and the entry without source are not shown */
    CHECK(p.n_history_shown == 6);
    CHECK(!strstr(p.user, "restrict again") && !strstr(p.user, "nothing"));
    /* slowest to fastest, failures first */
    const char *wrong = strstr(p.user, "unroll8"), *slow = strstr(p.user, "shared-tiling");
    const char *mid = strstr(p.user, "made by restrict"), *best = strstr(p.user, "cuda-l1 #2");
    CHECK(wrong && slow && mid && best && wrong < slow && slow < mid && mid < best);
    CHECK(strstr(p.user, "speedup 2.10x") && strstr(p.user, "failed (did not compile)"));
    golden(dir, "mixed_history", &p);
    arena_free(&a);
}

static void over_budget(const char *dir)
{
    arena a;
    arena_init(&a);
    pol_context ctx = base_context();
    enum { N = 12 };
    pol_sample h[N];
    for (int i = 0; i < N; i++) {
        /* speedups 0.50, 0.95, 1.40, ... in a shuffled order */
        int rank = (i * 5) % N;
        h[i].speedup = 0.5 + 0.45 * rank;
        h[i].verdict = "pass";
        h[i].label = arena_printf(&a, "v%02d", rank);
        h[i].source = variant(&a, arena_printf(&a, "    // version %02d: a body long enough to "
                                                   "count against the prompt's budget\n"
                                                   "    out[0] = in[0] * factor * %d;",
                                               rank, rank));
    }
    ctx.history = h;
    ctx.n_history = N;
    pol_llm_prompt all;
    pol_llm_build_prompt(&ctx, 0, &a, &all);
    CHECK(all.n_history_shown == N);
    size_t one = strlen(h[0].source) + 60;
    size_t budget = prompt_size(&all) - (N - 4) * one;
    pol_llm_prompt p;
    pol_llm_build_prompt(&ctx, budget, &a, &p);
    CHECK(p.n_history_shown >= 3 && p.n_history_shown < N);
    CHECK(prompt_size(&p) <= budget);
    /* the fastest and the slowest stay; the middle goes first */
    CHECK(strstr(p.user, "v11") && strstr(p.user, "v00") && strstr(p.user, "v10"));
    CHECK(!strstr(p.user, "v05") && !strstr(p.user, "v06"));
    golden(dir, "over_budget", &p);

    /* a budget below what must be there: no history, nothing else lost */
    pol_llm_build_prompt(&ctx, 10, &a, &p);
    CHECK(p.n_history_shown == 0 && strstr(p.user, scale_kernel) &&
          strstr(p.user, scale_launches));
    arena_free(&a);
}

static void context_cut(const char *dir)
{
    arena a;
    arena_init(&a);
    pol_context ctx = base_context();
    strbuf big;
    sb_init(&big);
    for (int i = 0; i < 40; i++)
        sb_printf(&big, "__device__ float helper%02d(float x) { return x * %d.0f; }\n", i, i);
    ctx.context_source = arena_strdup(&a, sb_str(&big));
    sb_free(&big);
    ctx.gpu_name = NULL;
    ctx.arch = NULL;
    ctx.launch_summary = NULL;
    pol_llm_prompt whole;
    pol_llm_build_prompt(&ctx, 0, &a, &whole);
    CHECK(!whole.context_truncated);
    size_t budget = prompt_size(&whole) - 1500;
    pol_llm_prompt p;
    pol_llm_build_prompt(&ctx, budget, &a, &p);
    CHECK(p.context_truncated && prompt_size(&p) <= budget);
    CHECK(strstr(p.user, "helper00") && !strstr(p.user, "helper39"));
    CHECK(strstr(p.user, "No launch of it was found"));
    golden(dir, "context_cut", &p);
    arena_free(&a);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_llm_prompt EXPECTED-DIR\n");
        return 2;
    }
    no_history(argv[1]);
    mixed_history(argv[1]);
    over_budget(argv[1]);
    context_cut(argv[1]);
    return CHECK_REPORT("llm_prompt");
}
