/*
 * test_judge_io.c: what crosses between `cl1cc tune` and its `cl1cc judge`
 * children: verdict names (one spelling, both ways), the judge's settings
 * as options (written by one side, read by the other) and the judgement's
 * JSON (written, read back field by field); the API keys the judge hides
 * from its children.
 */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static void test_verdicts(void)
{
    static const char *const names[] = {"pending", "pass", "wrong", "build_error", "crash",
                                        "timeout", "sanitizer", "error", "not_run", "bad_reply"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        verdict_kind v;
        CHECK(verdict_parse(names[i], &v) == 0);
        CHECK(strcmp(verdict_name(v), names[i]) == 0);
    }
    verdict_kind v = VERDICT_PASS;
    CHECK(verdict_parse("passed", &v) == -1 && v == VERDICT_UNKNOWN);
    CHECK(verdict_parse(NULL, &v) == -1 && v == VERDICT_UNKNOWN);
    CHECK(strcmp(verdict_name((verdict_kind)999), "unknown") == 0);
}

static void test_settings(void)
{
    hn_judge_settings s, back;
    hn_judge_settings_init(&s);
    CHECK(s.seeds == 2 && s.rounds == 3 && s.timed_runs == 20 && s.timeout_s == 30);
    strbuf err;
    sb_init(&err);
    CHECK(hn_judge_settings_option(&s, "--seeds", "0", &err) == 2 && s.seeds == 0);
    CHECK(hn_judge_settings_option(&s, "--runs", "7", &err) == 2 && s.timed_runs == 7);
    CHECK(hn_judge_settings_option(&s, "--timeout", "2.5", &err) == 2 && s.timeout_s == 2.5);
    CHECK(hn_judge_settings_option(&s, "--isolate", "x.cu", &err) == 1 && s.isolate_every_run);
    CHECK(hn_judge_settings_option(&s, "--record", NULL, &err) == 0);
    CHECK(err.len == 0);
    CHECK(hn_judge_settings_option(&s, "--seeds", "-1", &err) == -1 && strstr(sb_str(&err), "count"));
    sb_clear(&err);
    CHECK(hn_judge_settings_option(&s, "--rounds", "0", &err) == -1 && strstr(sb_str(&err), "positive"));
    sb_clear(&err);
    CHECK(hn_judge_settings_option(&s, "--timeout", NULL, &err) == -1);
    sb_clear(&err);
    CHECK(hn_judge_settings_option(&s, "--cl1-llm-key-env", "9KEY", &err) == -1 &&
          strstr(sb_str(&err), "variable name") && !s.key_env);
    sb_clear(&err);
    CHECK(hn_judge_settings_option(&s, "--cl1-llm-key-env", "MY KEY", &err) == -1 && !s.key_env);
    sb_clear(&err);
    {
        /* unset, it is not on the command line */
        hn_judge_settings plain;
        hn_judge_settings_init(&plain);
        arena pa;
        arena_init(&pa);
        cstr_vec pv = {0};
        hn_judge_settings_argv(&plain, &pv, &pa);
        for (size_t i = 0; i < pv.len; i++)
            CHECK(strcmp(pv.items[i], "--cl1-llm-key-env") != 0);
        vec_free(&pv);
        arena_free(&pa);
    }
    CHECK(hn_judge_settings_option(&s, "--cl1-llm-key-env", "MY_KEY_2", &err) == 2 &&
          strcmp(s.key_env, "MY_KEY_2") == 0);
    /* what one side writes, the other reads back */
    arena a;
    arena_init(&a);
    cstr_vec argv = {0};
    hn_judge_settings_argv(&s, &argv, &a);
    hn_judge_settings_init(&back);
    for (size_t i = 0; i < argv.len;) {
        int used = hn_judge_settings_option(&back, argv.items[i],
                                            i + 1 < argv.len ? argv.items[i + 1] : NULL, &err);
        CHECK(used > 0);
        i += used > 0 ? (size_t)used : 1;
    }
    CHECK(back.seeds == 0 && back.timed_runs == 7 && back.rounds == 3 && back.timeout_s == 2.5 &&
          back.isolate_every_run == 1 && back.sanitize == 0);
    CHECK(back.key_env && strcmp(back.key_env, "MY_KEY_2") == 0);
    vec_free(&argv);
    arena_free(&a);
    sb_free(&err);
}

/* the judge's process loses the API keys (its children inherit what it
 * has), the rest of its environment stays */
static void test_hide_keys(void)
{
    CHECK(setenv("CL1CC_LLM_API_KEY", "secret-1", 1) == 0);
    CHECK(setenv("OPENAI_API_KEY", "secret-2", 1) == 0);
    CHECK(setenv("TEST_OTHER_KEY", "secret-3", 1) == 0);
    CHECK(setenv("TEST_NOT_A_KEY", "visible", 1) == 0);
    hn_judge_settings s;
    hn_judge_settings_init(&s);
    CHECK(hn_judge_hide_keys(&s) == 0);
    CHECK(!getenv("CL1CC_LLM_API_KEY") && !getenv("OPENAI_API_KEY"));
    CHECK(getenv("TEST_OTHER_KEY") && getenv("TEST_NOT_A_KEY"));
    s.key_env = "TEST_OTHER_KEY";
    CHECK(hn_judge_hide_keys(&s) == 0);
    CHECK(!getenv("TEST_OTHER_KEY") && strcmp(getenv("TEST_NOT_A_KEY"), "visible") == 0);
}

static void test_json(const char *dir)
{
    hn_judge_result *r = calloc(2, sizeof *r);
    hn_judge_result *back = r + 1;
    r->file = "/src/a.cu";
    r->kernel = "ns::k";
    r->n_captures = 2;
    snprintf(r->arch, sizeof r->arch, "sm_90");
    snprintf(r->gpu_name, sizeof r->gpu_name, "NVIDIA H100");
    r->ran_on_gpu = 1;
    r->original = (hn_timing){20, 2.0, 1.5, 3.0, 1.8, 2.2};
    r->build_seconds = 4.5;
    r->check_seconds = 1.25;
    r->timing_seconds = 3;
    r->total_seconds = 9;
    r->check_run_seconds = 0.75;
    r->lock_wait_seconds = 0.5;
    r->captures_repeated = 2;
    r->check_runs = 11;
    r->slowest_check_run_seconds = 0.25;
    r->n_variants = 2;
    r->variants[0].label = "restrict";
    snprintf(r->variants[0].hash, sizeof r->variants[0].hash, "%064d", 7);
    r->variants[0].verdict = VERDICT_PASS;
    r->variants[0].timing = (hn_timing){20, 1.0, 0.9, 1.1, 0.95, 1.05};
    r->variants[0].speedup = 2.0;
    r->variants[0].significant = 1;
    r->variants[1].label = NULL;
    r->variants[1].verdict = VERDICT_BUILD_ERROR;
    snprintf(r->variants[1].detail, sizeof r->variants[1].detail, "nvcc said \"no\"\nline 2");
    r->variants[1].speedup = NAN;
    r->variants[0].pct_of_limit = 40;
    r->variants[1].pct_of_limit = NAN;
    r->roofline = (hn_roofline){3e6, 1e6, 8e9, 0.5, "compute"};
    r->peaks = (hn_device_peaks){3e12, 6.7e13, HN_LAUNCH_OVERHEAD_MS};
    r->original_pct_of_limit = 20;
    char path[4096];
    snprintf(path, sizeof path, "%s/judge.json", dir);
    strbuf err;
    sb_init(&err);
    CHECK(hn_judge_json_write(r, path, &err) == 0);
    char *text = NULL;
    CHECK(file_read_all(path, 0, &text, NULL) == 0);
    CHECK(text && strstr(text, "\"median_ms\":\t2") && strstr(text, "\"verdict\":\t\"build_error\""));
    arena a;
    arena_init(&a);
    CHECK(text && hn_judge_json_read(text, back, &a, &err) == 0);
    CHECK(strcmp(back->file, "/src/a.cu") == 0 && strcmp(back->kernel, "ns::k") == 0);
    CHECK(back->n_captures == 2 && back->ran_on_gpu == 1);
    CHECK(strcmp(back->arch, "sm_90") == 0 && strcmp(back->gpu_name, "NVIDIA H100") == 0);
    CHECK(back->original.runs == 20 && back->original.median_ms == 2.0 &&
          back->original.p25_ms == 1.8 && back->original.p75_ms == 2.2 &&
          back->original.min_ms == 1.5 && back->original.max_ms == 3.0);
    CHECK(back->build_seconds == 4.5 && back->check_seconds == 1.25 &&
          back->timing_seconds == 3 && back->total_seconds == 9);
    CHECK(back->check_run_seconds == 0.75 && back->lock_wait_seconds == 0.5);
    CHECK(back->captures_repeated == 2);
    CHECK(back->check_runs == 11 && back->slowest_check_run_seconds == 0.25);
    CHECK(back->n_variants == 2);
    CHECK(strcmp(back->variants[0].label, "restrict") == 0 &&
          strcmp(back->variants[0].hash, r->variants[0].hash) == 0 &&
          back->variants[0].verdict == VERDICT_PASS && back->variants[0].speedup == 2.0 &&
          back->variants[0].significant == 1 && back->variants[0].timing.median_ms == 1.0);
    CHECK(strcmp(back->variants[1].label, "") == 0 &&
          back->variants[1].verdict == VERDICT_BUILD_ERROR &&
          strcmp(back->variants[1].detail, r->variants[1].detail) == 0 &&
          back->variants[1].speedup == 0); /* NaN is written as 0 */
    /* the roofline, unknown ones null */
    CHECK(text && strstr(text, "\"bytes\":\t4000000") && strstr(text, "\"pct_of_limit\":\tnull"));
    CHECK(back->roofline.read_bytes == 3e6 && back->roofline.written_bytes == 1e6 &&
          back->roofline.flops == 8e9 && back->roofline.limit_ms == 0.5 &&
          strcmp(back->roofline.bound, "compute") == 0 && back->peaks.copy_bytes_per_s == 3e12 &&
          back->peaks.fp32_flops_per_s == 6.7e13 && back->original_pct_of_limit == 20);
    CHECK(back->variants[0].pct_of_limit == 40 && isnan(back->variants[1].pct_of_limit));
    /* missing fields: NaN numbers, an unknown verdict */
    CHECK(hn_judge_json_read("{\"variants\": [{\"verdict\": \"great\"}]}", back, &a, &err) == 0);
    CHECK(back->n_variants == 1 && back->variants[0].verdict == VERDICT_UNKNOWN &&
          isnan(back->variants[0].timing.median_ms) && isnan(back->original.median_ms) &&
          !back->ran_on_gpu && isnan(back->roofline.limit_ms) &&
          isnan(back->variants[0].pct_of_limit) && isnan(back->original_pct_of_limit));
    CHECK(hn_judge_json_read("[1, 2]", back, &a, &err) == -1 && err.len > 0);
    free(text);
    arena_free(&a);
    sb_free(&err);
    unlink(path);
    free(r);
}

int main(int argc, char **argv)
{
    test_verdicts();
    test_settings();
    test_hide_keys();
    test_json(argc > 1 ? argv[1] : ".");
    return CHECK_REPORT("harness_judge_io");
}
