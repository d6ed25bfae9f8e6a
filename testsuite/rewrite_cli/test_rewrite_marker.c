/*
 * test_rewrite_marker.c: rw_apply and rw_revert round-trip byte for byte
 * (indented, extern "C", inline, CRLF, random texts), damaged or edited
 * markers are refused with file:line, rw_is_rewritten tells marked
 * kernels, rw_unified_diff's hunks, and the tune JSON reader's tolerance.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "rewrite.h"

#include "check.h"

static size_t find(const char *text, const char *needle)
{
    const char *p = strstr(text, needle);
    CHECK(p != NULL);
    return p ? (size_t)(p - text) : 0;
}

static rw_provenance prov(const char *kernel)
{
    rw_provenance p = {kernel, 1.5, "sm_90", "NVIDIA H200", "2025-01-01",
                       "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
                       "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"};
    return p;
}

/* applies, checks the marked kernels, reverts, compares */
static char *round_trip(const char *text, rw_kernel_change *c, size_t n)
{
    strbuf out, back, err;
    sb_init(&out);
    sb_init(&back);
    sb_init(&err);
    CHECK(rw_apply(text, strlen(text), "t.cu", c, n, &out, &err) == RW_OK);
    long restored = rw_revert(sb_str(&out), out.len, "t.cu", &back, &err);
    long marks = (long)n;
    for (size_t i = 0; i < n; i++)
        marks += (long)c[i].n_launches;
    CHECK(restored == marks);
    CHECK(back.len == strlen(text) && memcmp(sb_str(&back), text, back.len) == 0);
    if (err.len)
        fprintf(stderr, "%s\n", sb_str(&err));
    sb_free(&back);
    sb_free(&err);
    return sb_take(&out);
}

static void test_indented_and_prefixed(void)
{
    const char *text = "namespace ns {\n"
                       "    template <typename T>\n"
                       "    __global__ void k(T *x) { x[0] = 1; }\n"
                       "}\n"
                       "extern \"C\" __global__ void e(float *x) { x[0] = 2; }\n"
                       "void go(float *x) { e<<<1, 32>>>(x); }\n";
    rw_kernel_change c[2];
    memset(c, 0, sizeof c);
    c[0].begin = find(text, "template");
    c[0].end = find(text, "}\n}") + 1;
    c[0].variant = "\n\ntemplate <typename T>\n    __global__ void k(T *x) { x[0] = 3; }\n\n";
    c[0].prov = prov("ns::k");
    c[1].begin = find(text, "__global__ void e");
    c[1].end = find(text, "}\nvoid go") + 1;
    c[1].variant = "__global__ void e(float *x) { x[0] = 4; }";
    c[1].prov = prov("e");
    rw_launch_change lc = {find(text, "32>>>"), find(text, "32>>>") + 2, "64"};
    c[1].launches = &lc;
    c[1].n_launches = 1;
    char *out = round_trip(text, c, 2);
    /* the marker starts the kernel's line, at its indentation */
    CHECK(strstr(out, "namespace ns {\n    /* cl1cc-optimized: kernel=ns::k speedup=1.50 arch=sm_90 "
                      "gpu=\"NVIDIA H200\" date=2025-01-01\n     * key=") != NULL);
    CHECK(strstr(out, "cl1cc-optimized-end */\n    template <typename T>\n    __global__ void k(T *x) { x[0] = 3; }\n}") != NULL);
    CHECK(strstr(out, "\n/* cl1cc-optimized: kernel=e ") != NULL);
    CHECK(strstr(out, "cl1cc-optimized-end */\nextern \"C\" __global__ void e(float *x) { x[0] = 4; }\n") != NULL);
    CHECK(strstr(out, "e<<<1, /* cl1cc-launch was=MzI= len=2 sha=") != NULL);
    CHECK(strstr(out, " */64>>>(x)") != NULL);
    CHECK(rw_is_rewritten(out, strlen(out), find(out, "template <typename T>\n    __global__ void k(T *x) { x[0] = 3")));
    CHECK(rw_is_rewritten(out, strlen(out), find(out, "__global__ void e")));
    CHECK(!rw_is_rewritten(out, strlen(out), find(out, "void go")));
    CHECK(!rw_is_rewritten(text, strlen(text), find(text, "template")));
    free(out);
}

static void test_inline_and_crlf(void)
{
    const char *text = "// dos\r\n__global__ void a(int *p) { p[0] = 1; } __global__ void b(int *p) { p[1] = 2; }\r\n";
    rw_kernel_change c;
    memset(&c, 0, sizeof c);
    c.begin = find(text, "__global__ void b");
    c.end = find(text, "}\r\n") + 1;
    c.variant = "__global__ void b(int *p)\n{\n    p[1] = 3;\n}\n";
    c.prov = prov("b");
    char *out = round_trip(text, &c, 1);
    CHECK(strstr(out, "p[0] = 1; } /* cl1cc-optimized: kernel=b ") != NULL);
    CHECK(strstr(out, "\r\n * key=") != NULL);
    CHECK(strstr(out, "cl1cc-optimized-end */\r\n__global__ void b(int *p)\r\n{\r\n    p[1] = 3;\r\n}\r\n") != NULL);
    for (const char *p = out; (p = strchr(p, '\n')) != NULL; p++)
        CHECK(p > out && p[-1] == '\r'); /* no bare LF came in */
    CHECK(rw_is_rewritten(out, strlen(out), find(out, "__global__ void b")));
    CHECK(!rw_is_rewritten(out, strlen(out), find(out, "__global__ void a")));
    free(out);
}

static void expect_revert_error(const char *text, const char *fragment)
{
    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    CHECK(rw_revert(text, strlen(text), "t.cu", &out, &err) == -1);
    CHECK(out.len == 0);
    CHECK(strncmp(sb_str(&err), "t.cu:", 5) == 0);
    if (!strstr(sb_str(&err), fragment)) {
        fprintf(stderr, "want '%s' in: %s\n", fragment, sb_str(&err));
        CHECK(0);
    }
    sb_free(&out);
    sb_free(&err);
}

static void test_damage_refused(void)
{
    const char *text = "int x;\n__global__ void k(float *x) { x[0] = 1; }\nvoid f(float *x) { k<<<1, 2>>>(x); }\n";
    rw_kernel_change c;
    memset(&c, 0, sizeof c);
    c.begin = find(text, "__global__");
    c.end = find(text, "}\nvoid") + 1;
    c.variant = "__global__ void k(float *x) { x[0] = 9; }";
    c.prov = prov("k");
    rw_launch_change lc = {find(text, "2>>>"), find(text, "2>>>") + 1, "4"};
    c.launches = &lc;
    c.n_launches = 1;
    char *out = round_trip(text, &c, 1);

    char *edited = xstrdup(out);
    edited[find(edited, "x[0] = 9") + 7] = '8';
    expect_revert_error(edited, "t.cu:2: the kernel after this cl1cc marker was edited");
    free(edited);

    edited = xstrdup(out);
    size_t data = find(edited, "zlib-base64:\n * ") + 16;
    edited[data] = edited[data] == 'A' ? 'B' : 'A';
    expect_revert_error(edited, "damaged cl1cc marker");
    free(edited);

    edited = xstrdup(out);
    edited[find(edited, "cl1cc-optimized-end")] = 'X';
    expect_revert_error(edited, "without its end line");
    free(edited);

    edited = xstrdup(out);
    memcpy(edited + find(edited, "original="), "originaX=", 9);
    expect_revert_error(edited, "no replaced= or original=");
    free(edited);

    edited = xstrdup(out);
    edited[find(edited, " */4>>>") + 3] = '5';
    expect_revert_error(edited, "launch argument after this cl1cc-launch comment was edited");
    free(edited);

    /* an empty variant would delete the kernel */
    c.variant = " \n ";
    strbuf o, err;
    sb_init(&o);
    sb_init(&err);
    CHECK(rw_apply(text, strlen(text), "t.cu", &c, 1, &o, &err) == RW_BAD_EDITS);
    CHECK(strstr(sb_str(&err), "empty") != NULL);
    sb_free(&o);
    sb_free(&err);
    free(out);
}

/* random texts, kernels at random places: the revert is always exact */
static void test_random_round_trips(void)
{
    srand(12345);
    int applied = 0;
    static const char alphabet[] = "abc {}();\t \n\r\"_*/é";
    for (int iter = 0; iter < 300; iter++) {
        size_t len = 20 + (size_t)(rand() % 400);
        char *text = xmalloc(len + 1);
        for (size_t i = 0; i < len; i++)
            text[i] = alphabet[rand() % (int)(sizeof alphabet - 1)];
        text[len] = '\0';
        /* no accidental marker: the alphabet cannot spell one */
        size_t n = 1 + (size_t)(rand() % 3), pos = 0;
        rw_kernel_change c[3];
        memset(c, 0, sizeof c);
        size_t made = 0;
        for (size_t k = 0; k < n; k++) {
            size_t begin = pos + (size_t)(rand() % 40), end = begin + 1 + (size_t)(rand() % 40);
            if (end > len)
                break;
            /* kernels do not start inside the previous marker's line prefix */
            c[made].begin = begin;
            c[made].end = end;
            c[made].variant = (rand() % 2) ? "__global__ void v() {}" : "__global__ void v()\n{\n}\n";
            c[made].prov = prov("v");
            made++;
            pos = end + 1;
        }
        if (!made) {
            free(text);
            continue;
        }
        strbuf out, back, err;
        sb_init(&out);
        sb_init(&back);
        sb_init(&err);
        rw_status st = rw_apply(text, len, "r.cu", c, made, &out, &err);
        if (st == RW_OK) {
            applied++;
            long r = rw_revert(sb_str(&out), out.len, "r.cu", &back, &err);
            CHECK(r == (long)made);
            CHECK(back.len == len && memcmp(sb_str(&back), text, len) == 0);
        } else {
            /* only overlap (a marker region reaching back to the line start) */
            CHECK(strstr(sb_str(&err), "overlap") != NULL);
        }
        sb_free(&out);
        sb_free(&back);
        sb_free(&err);
        free(text);
    }
    CHECK(applied > 150);
}

static void test_diff(void)
{
    strbuf d;
    sb_init(&d);
    const char *a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
    const char *b = "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n";
    rw_unified_diff("x.cu", a, strlen(a), b, strlen(b), 3, &d);
    const char *want = "diff --git a/x.cu b/x.cu\n--- a/x.cu\n+++ b/x.cu\n"
                       "@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n"
                       "@@ -10,3 +10,4 @@\n 10\n 11\n 12\n+13\n";
    CHECK(strcmp(sb_str(&d), want) == 0);
    if (strcmp(sb_str(&d), want) != 0)
        fprintf(stderr, "%s", sb_str(&d));
    sb_clear(&d);
    rw_unified_diff("x.cu", a, strlen(a), a, strlen(a), 3, &d);
    CHECK(d.len == 0);
    rw_unified_diff("x.cu", "a\nb", 3, "a\nc", 3, 3, &d);
    CHECK(strcmp(sb_str(&d), "diff --git a/x.cu b/x.cu\n--- a/x.cu\n+++ b/x.cu\n@@ -1,2 +1,2 @@\n a\n"
                             "-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n") == 0);
    sb_clear(&d);
    rw_unified_diff("x.cu", "", 0, "new\n", 4, 3, &d);
    CHECK(strstr(sb_str(&d), "@@ -0,0 +1,1 @@\n+new\n") != NULL);
    sb_clear(&d);
    /* nearby changes share a hunk */
    rw_unified_diff("x.cu", a, strlen(a), "1\nX\n3\n4\n5\n6\n7\n8\nY\n10\n11\n12\n", 27, 3, &d);
    CHECK(strstr(sb_str(&d), "@@ -1,12 +1,12 @@\n") != NULL);
    sb_free(&d);
}

static void test_tune_json(void)
{
    arena a;
    arena_init(&a);
    strbuf err;
    sb_init(&err);
    tune_run run;
    const char *json =
        "{\"cl1cc_version\": \"0.1.0\", \"arch\": \"sm_90\", \"later\": {\"x\": [1]},\n"
        " \"kernels\": [ {\"file\": \"/a/x.cu\", \"kernel\": \"k|1\", \"status\": \"improved\",\n"
        "   \"speedup\": 2.5, \"baseline_ms\": 1.0, \"best_ms\": 0.4, \"new\": true},\n"
        "  {\"kernel\": \"k2\", \"status\": \"no_gain\", \"speedup\": \"fast\"},\n"
        "  {\"kernel\": \"k3\"} ] }";
    CHECK(report_parse_tune(json, &a, &run, &err) == 0);
    CHECK(run.kernels.len == 3);
    CHECK(run.ran_on_gpu == -1 && isnan(run.wall_seconds) && run.budget_evaluations == -1);
    CHECK(!strcmp(run.arch, "sm_90") && run.gpu_name == NULL);
    CHECK(run.kernels.items[0].speedup == 2.5 && run.kernels.items[0].variants_tried == -1);
    CHECK(isnan(run.kernels.items[1].speedup) && run.kernels.items[1].file == NULL);
    CHECK(!strcmp(run.kernels.items[2].status, "unknown"));
    report_totals t;
    report_count(&run, &t);
    CHECK(t.kernels == 3 && t.improved == 1 && t.no_gain == 1 && t.other == 1);
    CHECK(t.best_speedup == 2.5 && fabs(t.geomean_speedup - 2.5) < 1e-12);

    report_input in;
    memset(&in, 0, sizeof in);
    in.run = &run;
    in.display_root = "/a";
    in.exit_code = 0;
    strbuf out;
    sb_init(&out);
    report_markdown(&in, &out);
    CHECK(strstr(sb_str(&out), "| `k\\|1` | `x.cu` | improved |") != NULL);
    sb_clear(&out);
    report_html(&in, &out);
    CHECK(strstr(sb_str(&out), "<svg") != NULL && strstr(sb_str(&out), "<script") == NULL);
    CHECK(strstr(sb_str(&out), "src=") == NULL && strstr(sb_str(&out), "href=") == NULL);
    sb_clear(&out);
    report_summary_json(&in, &out);
    CHECK(strstr(sb_str(&out), "\"result\":\t\"nothing_to_do\"") != NULL);
    sb_free(&out);
    tune_run_free(&run);

    CHECK(report_parse_tune("{\"kernels\": 3}", &a, &run, &err) == -1);
    CHECK(strstr(sb_str(&err), "no \"kernels\" array") != NULL);
    sb_clear(&err);
    CHECK(report_parse_tune("{\n\"kernels\": [\n,]}", &a, &run, &err) == -1);
    CHECK(strstr(sb_str(&err), "line 3") != NULL);
    sb_clear(&err);
    CHECK(report_parse_tune("{\"kernels\": [1]}", &a, &run, &err) == -1);
    CHECK(strstr(sb_str(&err), "kernels[0] is not an object") != NULL);
    sb_free(&err);
    arena_free(&a);
}

int main(void)
{
    test_indented_and_prefixed();
    test_inline_and_crlf();
    test_damage_refused();
    test_random_round_trips();
    test_diff();
    test_tune_json();
    return CHECK_REPORT("test_rewrite_marker");
}
