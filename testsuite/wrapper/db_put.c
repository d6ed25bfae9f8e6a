/*
 * db_put.c: for the wrapper's tests only: records VARIANT.cu as a verified
 * variant of KERNEL in FILE (compiled with NVCC-FLAGS) in $CL1CC_DB, keyed
 * exactly as the wrapper looks it up, as if the harness had verified it.
 * usage: db_put FILE KERNEL VARIANT.cu SPEEDUP -- NVCC-FLAGS...
 */
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "kernel_key.h"
#include "tunedb.h"
#include "wrapper.h"

int main(int argc, char **argv)
{
    if (argc < 6 || strcmp(argv[5], "--") != 0) {
        fprintf(stderr, "usage: db_put FILE KERNEL VARIANT.cu SPEEDUP -- NVCC-FLAGS...\n");
        return 2;
    }
    nvcc_cmdline cl;
    strbuf err;
    sb_init(&err);
    if (nvcc_cmdline_parse(argc - 6, argv + 6, &cl, &err) != 0) {
        fprintf(stderr, "db_put: %s\n", sb_str(&err));
        return 1;
    }
    fe_options opt;
    memset(&opt, 0, sizeof opt);
    opt.flags = (const char *const *)cl.frontend_flags.items;
    opt.n_flags = cl.frontend_flags.len;
    tu_model m;
    model_init(&m);
    if (fe_parse(argv[1], &opt, &m, &err) != FE_OK) {
        fprintf(stderr, "db_put: %s\n", sb_str(&err));
        return 1;
    }
    const kernel *k = NULL;
    for (size_t i = 0; i < m.kernels.len; i++)
        if (strcmp(m.kernels.items[i].qualified_name, argv[2]) == 0)
            k = &m.kernels.items[i];
    char *variant;
    if (!k || file_read_all(argv[3], 0, &variant, NULL) != 0) {
        fprintf(stderr, "db_put: no kernel %s or no variant %s\n", argv[2], argv[3]);
        return 1;
    }
    arena a;
    arena_init(&a);
    tunedb *db;
    if (tunedb_open(tunedb_default_path(&a), TUNEDB_READWRITE, &db, &err) != 0) {
        fprintf(stderr, "db_put: %s\n", sb_str(&err));
        return 1;
    }
    int rc = 0;
    for (size_t i = 0; i < cl.gpu_archs.len && rc == 0; i++) {
        char key[65];
        kernel_key(&m, k, cl.gpu_archs.items[i], (const char *const *)cl.codegen_flags.items,
                   cl.codegen_flags.len, key);
        tunedb_variant v;
        memset(&v, 0, sizeof v);
        v.kernel_key = key;
        v.kernel_name = k->qualified_name;
        v.arch = cl.gpu_archs.items[i];
        v.source = variant;
        v.policy = "test";
        v.verified = 1;
        v.baseline_ms = 2.0;
        v.speedup = atof(argv[4]);
        v.variant_ms = 2.0 / v.speedup;
        v.spread_ms = 0.01;
        rc = tunedb_record_kernel(db, key, k->qualified_name, argv[1], "", NULL, &err) ||
             tunedb_record_variant(db, &v, NULL, &err);
    }
    if (rc)
        fprintf(stderr, "db_put: %s\n", sb_str(&err));
    tunedb_close(db);
    free(variant);
    model_free(&m);
    nvcc_cmdline_free(&cl);
    sb_free(&err);
    arena_free(&a);
    return rc ? 1 : 0;
}
