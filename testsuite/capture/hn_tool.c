/*
 * hn_tool.c: drives the harness's source generators from the command line
 * for the tests: `hn_tool instrument FILE RUNTIME-HEADER [CLANG-FLAGS...]`
 * prints the instrumented TU (tagged as `cl1cc capture` tags it, from the
 * file's real path); `hn_tool replay FILE KERNEL REPLAY-HEADER
 * [instance=INSTANTIATION...] VARIANT-FILE... [-- CLANG-FLAGS...]` prints a
 * replay driver (a template kernel's, one row per instantiation).
 */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "harness.h"

static int parse(const char *file, int argc, char **argv, tu_model *m)
{
    fe_options opt;
    memset(&opt, 0, sizeof opt);
    opt.flags = (const char *const *)argv;
    opt.n_flags = (size_t)argc;
    strbuf diags;
    sb_init(&diags);
    fe_status st = fe_parse(file, &opt, m, &diags);
    fputs(sb_str(&diags), stderr);
    sb_free(&diags);
    return st == FE_OK ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    tu_model m;
    model_init(&m);
    strbuf out, report, err;
    sb_init(&out);
    sb_init(&report);
    sb_init(&err);
    int rc = 1;
    if (strcmp(argv[1], "instrument") == 0) {
        arena a;
        arena_init(&a);
        if (parse(argv[2], argc - 4, argv + 4, &m) == 0 &&
            hn_instrument(&m, argv[3], hn_capture_tag(argv[2], &a), NULL, 0, &out, &report, &err) >= 0)
            rc = 0;
        hn_report_other_files(&m, NULL, 0, &report);
        arena_free(&a);
    } else if (strcmp(argv[1], "replay") == 0 && argc >= 5) {
        int dash = argc;
        for (int i = 5; i < argc; i++)
            if (strcmp(argv[i], "--") == 0)
                dash = i;
        if (parse(argv[2], dash < argc ? argc - dash - 1 : 0, argv + dash + 1, &m) == 0) {
            long index = -1;
            for (size_t i = 0; i < m.kernels.len; i++)
                if (strcmp(m.kernels.items[i].qualified_name, argv[3]) == 0)
                    index = (long)i;
            const char **variants = calloc((size_t)argc, sizeof *variants);
            const char **instances = calloc((size_t)argc, sizeof *instances);
            size_t n = 0, ni = 0;
            for (int i = 5; i < dash; i++) {
                char *text;
                if (strncmp(argv[i], "instance=", 9) == 0)
                    instances[ni++] = argv[i] + 9;
                else if (file_read_all(argv[i], 0, &text, NULL) == 0)
                    variants[n++] = text;
            }
            if (index >= 0 && hn_replay_source_instances(&m, (size_t)index, variants, n, instances,
                                                         ni, argv[4], &out, &err) == 0)
                rc = 0;
            free(instances);
            for (size_t i = 0; i < n; i++)
                free((char *)variants[i]);
            free(variants);
        }
    }
    fputs(sb_str(&out), stdout);
    fputs(sb_str(&report), stderr);
    if (rc)
        fprintf(stderr, "hn_tool: %s\n", sb_str(&err));
    sb_free(&out);
    sb_free(&report);
    sb_free(&err);
    model_free(&m);
    return rc;
}
