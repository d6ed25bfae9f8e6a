/*
 * pol_tool.c: runs one combination of built-in transforms on one kernel of a
 * file and prints the new definition (or "refused: why"), or with
 * --propose prints the labels the search would propose first.  For the
 * policy's fixture tests.
 *   pol_tool FILE KERNEL COMBINATION [--block N] [--shape X,Y,Z] [--distinct] [--fast-math]
 *            [--flat-grid] [--grid X,Y,Z]
 *            [--whole-file] [-I.. -D..]   (the file with the kernel replaced)
 *   pol_tool FILE KERNEL --propose [--block N] [--distinct] [--chooser F]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "frontend.h"
#include "test_util.h"

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: pol_tool FILE KERNEL COMBINATION|--propose [options]\n");
        return 2;
    }
    pol_facts facts;
    memset(&facts, 0, sizeof facts);
    const char *chooser_path = NULL;
    const char *flags[64];
    size_t n_flags = 0;
    int whole_file = 0;
    for (int i = 4; i < argc; i++) {
        if (strcmp(argv[i], "--block") == 0 && i + 1 < argc)
            facts.block_threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "--shape") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%d,%d,%d", &facts.block[0], &facts.block[1], &facts.block[2]) != 3)
                return 2;
            facts.block_threads = facts.block[0] * facts.block[1] * facts.block[2];
        } else if (strcmp(argv[i], "--grid") == 0 && i + 1 < argc) {
            unsigned *g = facts.grid_gcd;
            if (sscanf(argv[++i], "%u,%u,%u", &g[0], &g[1], &g[2]) != 3)
                return 2;
            memcpy(facts.grid_max, facts.grid_gcd, sizeof facts.grid_max);
            facts.flat_grid = g[1] == 1 && g[2] == 1;
        } else if (strcmp(argv[i], "--flat-grid") == 0)
            facts.flat_grid = 1;
        else if (strcmp(argv[i], "--distinct") == 0)
            facts.pointers_distinct = 1;
        else if (strcmp(argv[i], "--fast-math") == 0)
            facts.fast_math = 1;
        else if (strcmp(argv[i], "--whole-file") == 0)
            whole_file = 1;
        else if (strcmp(argv[i], "--chooser") == 0 && i + 1 < argc)
            chooser_path = argv[++i];
        else if ((strncmp(argv[i], "-I", 2) == 0 || strncmp(argv[i], "-D", 2) == 0) && n_flags < 64)
            flags[n_flags++] = argv[i];
    }
    tu_model m;
    if (parse_fixture(argv[1], 1, flags, n_flags, &m) != 0)
        return 1;
    long index = -1;
    for (size_t i = 0; i < m.kernels.len; i++)
        if (strcmp(m.kernels.items[i].name, argv[2]) == 0)
            index = (long)i;
    if (index < 0) {
        fprintf(stderr, "pol_tool: no kernel %s\n", argv[2]);
        return 1;
    }
    const kernel *k = &m.kernels.items[index];
    arena a;
    arena_init(&a);
    int rc = 0;
    if (strcmp(argv[3], "--propose") == 0) {
        pol_chooser *c = NULL;
        strbuf err;
        sb_init(&err);
        if (chooser_path && pol_chooser_load(chooser_path, &c, &err) != 0) {
            fprintf(stderr, "pol_tool: %s\n", sb_str(&err));
            return 1;
        }
        sb_free(&err);
        pol_context ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.model = &m;
        ctx.kernel_index = (size_t)index;
        ctx.kernel_source = fe_range_text(&m, &k->decl_range, &a);
        ctx.max_proposals = 16;
        pol_search_options so;
        memset(&so, 0, sizeof so);
        so.chooser = c;
        so.facts = facts;
        pol_proposal_vec props = {0};
        size_t n = pol_builtin_propose(&ctx, &so, &a, &props);
        for (size_t i = 0; i < n; i++)
            printf("%s\n", props.items[i].label);
        vec_free(&props);
        pol_chooser_free(c);
    } else {
        const char *source, *why;
        strbuf err;
        sb_init(&err);
        int r = pol_apply_combination(argv[3], &m, k, &facts, &a, &source, &why, &err);
        const source_file *sf = model_file(&m, k->decl_range.file);
        if (r == 0 && whole_file && sf)
            printf("%.*s%s%s", (int)k->decl_range.begin, sf->text, source,
                   sf->text + k->decl_range.end);
        else if (r == 0)
            printf("%s\n", source);
        else if (r == 1)
            printf("refused: %s\n", why);
        else {
            fprintf(stderr, "pol_tool: %s\n", sb_str(&err));
            rc = 1;
        }
        sb_free(&err);
    }
    arena_free(&a);
    model_free(&m);
    return rc;
}
