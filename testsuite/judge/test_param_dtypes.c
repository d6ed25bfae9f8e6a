/*
 * test_param_dtypes.c: how the judge compares a kernel parameter's
 * allocation (driver/param_dtypes.c): pointee types, C's integer types, and
 * a template kernel's `T *` through the instantiations its captures name.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "frontend.h"
#include "param_dtypes.h"
#include "test_util.h"

static const kernel *find(const tu_model *m, const char *name)
{
    for (size_t i = 0; i < m->kernels.len; i++)
        if (strcmp(m->kernels.items[i].name, name) == 0)
            return &m->kernels.items[i];
    return NULL;
}

static void dtypes_of(const kernel *k, const char *const *inst, size_t n, hn_dtype *out)
{
    for (size_t i = 0; i < HN_MAX_ARGS; i++)
        out[i] = (hn_dtype)-1;
    driver_param_dtypes(k, inst, n, out, HN_MAX_ARGS);
}

static void test_plain(const tu_model *m)
{
    const kernel *k = find(m, "plain");
    CHECK(k != NULL);
    if (!k)
        return;
    hn_dtype t[HN_MAX_ARGS];
    dtypes_of(k, NULL, 0, t);
    CHECK(t[0] == HN_F64 && t[1] == HN_U32 && t[2] == HN_I16);
}

static void test_template(const tu_model *m)
{
    const kernel *k = find(m, "sop");
    CHECK(k != NULL && k->is_template);
    if (!k)
        return;
    hn_dtype t[HN_MAX_ARGS];
    /* one instantiation: Type float, IdxType int */
    const char *one[] = {"sop<float, int, 256>"};
    dtypes_of(k, one, 1, t);
    CHECK(t[0] == HN_F32 && t[1] == HN_F32 && t[2] == HN_I32);
    CHECK(t[3] == HN_F32 && t[4] == HN_I32 && t[5] == HN_U64 && t[6] == HN_I8);
    CHECK(t[7] == HN_BYTES); /* a value */
    /* two that agree, spelled apart, with namespaces */
    const char *agree[] = {"ns::sop<float, long long, 128>", "ns::sop<float,long long,256>"};
    dtypes_of(k, agree, 2, t);
    CHECK(t[0] == HN_F32 && t[1] == HN_F32 && t[2] == HN_I64);
    /* two that do not: Type is compared byte for byte, IdxType still known */
    const char *differ[] = {"sop<float, int, 256>", "sop<double, int, 256>"};
    dtypes_of(k, differ, 2, t);
    CHECK(t[0] == HN_BYTES && t[1] == HN_BYTES && t[2] == HN_I32 && t[3] == HN_F32);
    /* a type not known, nested arguments counted as one */
    const char *nested[] = {"sop<Pair<int, 2>, unsigned int, 64>"};
    dtypes_of(k, nested, 1, t);
    CHECK(t[0] == HN_BYTES && t[2] == HN_U32);
    /* no instantiation named, or one not parsed */
    dtypes_of(k, NULL, 0, t);
    CHECK(t[0] == HN_BYTES && t[2] == HN_BYTES && t[3] == HN_F32);
    const char *broken[] = {"sop"};
    dtypes_of(k, broken, 1, t);
    CHECK(t[0] == HN_BYTES && t[4] == HN_I32);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_param_dtypes FIXTURE\n");
        return 2;
    }
    tu_model m;
    if (parse_fixture(argv[1], 0, NULL, 0, &m) != 0)
        return 1;
    test_plain(&m);
    test_template(&m);
    model_free(&m);
    return CHECK_REPORT("judge_param_dtypes");
}
