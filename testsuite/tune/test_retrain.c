/*
 * test_retrain.c CL1CC WORKDIR: `cl1cc tune --retrain` learns the chooser
 * afresh from a tuning database: kernels with features, variants with
 * transforms and speedups (unverified ones count as failures).  The model
 * it writes ranks the transforms as the measurements say.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "builtin.h"
#include "check.h"
#include "tunedb.h"

static void put_variant(tunedb *db, const char *key, const char *transforms, int verified,
                        double speedup)
{
    tunedb_variant v;
    memset(&v, 0, sizeof v);
    v.kernel_key = key;
    v.kernel_name = "k";
    v.arch = "sm_90";
    v.source = transforms; /* any text: each variant's own */
    v.policy = "builtin";
    v.transforms = transforms;
    v.verified = verified;
    v.baseline_ms = v.variant_ms = v.spread_ms = 1.0;
    v.speedup = speedup;
    strbuf err;
    sb_init(&err);
    CHECK(tunedb_record_variant(db, &v, NULL, &err) == 0);
    sb_free(&err);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_retrain CL1CC WORKDIR\n");
        return 2;
    }
    char db_path[4096], model[4096], cmd[12288];
    snprintf(db_path, sizeof db_path, "%s/tuning.db", argv[2]);
    snprintf(model, sizeof model, "%s/chooser.json", argv[2]);
    remove(db_path);
    remove(model);
    strbuf err;
    sb_init(&err);
    tunedb *db = NULL;
    CHECK(tunedb_open(db_path, TUNEDB_READWRITE, &db, &err) == 0);
    if (!db)
        return CHECK_REPORT("tune_retrain");
    char key1[65], key2[65];
    memset(key1, 'a', 64);
    key1[64] = '\0';
    memset(key2, 'b', 64);
    key2[64] = '\0';
    /* features by name: bias, and writes_in_loops only for the first */
    CHECK(tunedb_record_kernel(db, key1, "k1", "a.cu", "src1",
                               "{\"bias\":1,\"writes_in_loops\":1}", &err) == 0);
    CHECK(tunedb_record_kernel(db, key2, "k2", "b.cu", "src2", "{\"bias\":1}", &err) == 0);
    put_variant(db, key1, "regacc", 1, 3.0);
    put_variant(db, key1, "unroll4", 1, 1.0);
    put_variant(db, key1, "restrict", 0, 0); /* failed */
    put_variant(db, key2, "unroll4", 1, 1.4);
    put_variant(db, key2, "regacc", 1, 1.0);
    tunedb_close(db);

    snprintf(cmd, sizeof cmd, "CL1CC_DB='%s' '%s' tune --retrain --chooser '%s'", db_path, argv[1],
             model);
    CHECK(system(cmd) == 0);
    pol_chooser *c = NULL;
    CHECK(pol_chooser_load(model, &c, &err) == 0);
    if (c) {
        CHECK(pol_chooser_observation_count(c) == 2);
        double f1[POL_NFEATURES] = {0}, f2[POL_NFEATURES] = {0};
        for (size_t i = 0; i < POL_NFEATURES; i++) {
            if (strcmp(pol_feature_name(i), "bias") == 0)
                f1[i] = f2[i] = 1;
            if (strcmp(pol_feature_name(i), "writes_in_loops") == 0)
                f1[i] = 1;
        }
        CHECK(pol_chooser_score(c, f1, "regacc") > pol_chooser_score(c, f1, "unroll4"));
        CHECK(pol_chooser_score(c, f1, "unroll4") > pol_chooser_score(c, f1, "restrict"));
        CHECK(pol_chooser_score(c, f2, "unroll4") > pol_chooser_score(c, f2, "regacc"));
        pol_chooser_free(c);
    }
    /* no database: a clear error, exit 1 */
    snprintf(cmd, sizeof cmd, "CL1CC_DB='%s/none.db' '%s' tune --retrain --chooser '%s/x.json' 2>/dev/null",
             argv[2], argv[1], argv[2]);
    int rc = system(cmd);
    CHECK(rc != -1 && WEXITSTATUS(rc) == 1);
    sb_free(&err);
    return CHECK_REPORT("tune_retrain");
}
