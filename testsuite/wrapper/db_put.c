/*
 * db_put.c: for the tests only: records VARIANT.cu as a verified variant of
 * KERNEL in FILE (compiled with NVCC-FLAGS) in $CL1CC_DB, keyed exactly as
 * the wrapper and `cl1cc rewrite` look it up, as if the harness had
 * verified it; with the GPU name, launch edits and arch the test asks for.
 * Prints each key it recorded.
 * usage: db_put FILE KERNEL VARIANT.cu SPEEDUP [--gpu NAME] [--arch sm_XX]
 *                [--launch-edits JSON] [--instances "k<256>;k<128>"] [--unverified]
 *                -- NVCC-FLAGS...
 *        (--instances: a template kernel's instantiations it was verified on)
 *        db_put --count    (integrity check, then the number of variants)
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "kernel_key.h"
#include "tunedb.h"
#include "wrapper.h"

static int count_rows(void)
{
    arena a;
    arena_init(&a);
    strbuf err;
    sb_init(&err);
    const char *path = tunedb_default_path(&a);
    tunedb *db;
    int rc = 1;
    if (tunedb_open(path, TUNEDB_READONLY, &db, &err) != 0 || tunedb_check(db, &err) != 0) {
        fprintf(stderr, "db_put: %s\n", sb_str(&err));
    } else {
        sqlite3 *conn;
        sqlite3_stmt *st;
        if (sqlite3_open_v2(path, &conn, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
            sqlite3_prepare_v2(conn, "SELECT count(*) FROM variants", -1, &st, NULL) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW) {
            printf("%lld\n", sqlite3_column_int64(st, 0));
            rc = 0;
            sqlite3_finalize(st);
        } else {
            fprintf(stderr, "db_put: %s\n", sqlite3_errmsg(conn));
        }
        sqlite3_close(conn);
    }
    tunedb_close(db);
    sb_free(&err);
    arena_free(&a);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--count") == 0)
        return count_rows();
    const char *gpu = NULL, *arch = NULL, *launch_edits = NULL;
    char *instances = NULL;
    int verified = 1, dash = -1;
    for (int i = 5; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            dash = i;
            break;
        } else if (strcmp(argv[i], "--gpu") == 0 && i + 1 < argc) {
            gpu = argv[++i];
        } else if (strcmp(argv[i], "--arch") == 0 && i + 1 < argc) {
            arch = argv[++i];
        } else if (strcmp(argv[i], "--launch-edits") == 0 && i + 1 < argc) {
            launch_edits = argv[++i];
        } else if (strcmp(argv[i], "--instances") == 0 && i + 1 < argc) {
            instances = argv[++i]; /* ';' between them, stored one a line */
            for (char *c = instances; *c; c++)
                if (*c == ';')
                    *c = '\n';
        } else if (strcmp(argv[i], "--unverified") == 0) {
            verified = 0;
        }
    }
    if (argc < 6 || dash < 0) {
        fprintf(stderr, "usage: db_put FILE KERNEL VARIANT.cu SPEEDUP [--gpu NAME] [--arch sm_XX] "
                        "[--launch-edits JSON] [--instances LIST] [--unverified] -- NVCC-FLAGS...\n");
        return 2;
    }
    nvcc_cmdline cl;
    strbuf err;
    sb_init(&err);
    if (nvcc_cmdline_parse(argc - dash - 1, argv + dash + 1, &cl, &err) != 0) {
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
    cstr_vec archs = {0};
    if (arch)
        vec_push(&archs, arch);
    else
        for (size_t i = 0; i < cl.gpu_archs.len; i++)
            vec_push(&archs, cl.gpu_archs.items[i]);
    int rc = 0;
    for (size_t i = 0; i < archs.len && rc == 0; i++) {
        char key[65];
        kernel_key(&m, k, archs.items[i], (const char *const *)cl.codegen_flags.items,
                   cl.codegen_flags.len, key);
        tunedb_variant v;
        memset(&v, 0, sizeof v);
        v.kernel_key = key;
        v.kernel_name = k->qualified_name;
        v.arch = archs.items[i];
        v.source = variant;
        v.launch_edits = launch_edits;
        v.policy = "test";
        v.verified = verified;
        v.baseline_ms = 2.0;
        v.speedup = atof(argv[4]);
        v.variant_ms = 2.0 / v.speedup;
        v.spread_ms = 0.01;
        v.gpu_name = gpu;
        v.instances = instances;
        rc = tunedb_record_kernel(db, key, k->qualified_name, argv[1], "", NULL, &err) ||
             tunedb_record_variant(db, &v, NULL, &err);
        if (rc == 0)
            printf("%s\n", key);
    }
    if (rc)
        fprintf(stderr, "db_put: %s\n", sb_str(&err));
    vec_free(&archs);
    tunedb_close(db);
    free(variant);
    model_free(&m);
    nvcc_cmdline_free(&cl);
    sb_free(&err);
    arena_free(&a);
    return rc ? 1 : 0;
}
