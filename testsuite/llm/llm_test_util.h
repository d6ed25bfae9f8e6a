/*
 * llm_test_util.h: what the LLM policy's test programs share: the kernel
 * of fixtures/scale.cu with its context, and golden-file comparison
 * (CL1CC_UPDATE_GOLDEN=1 rewrites the expected files instead).
 */
#ifndef CL1CC_LLM_TEST_UTIL_H
#define CL1CC_LLM_TEST_UTIL_H

#include "check.h"
#include "core.h"

#include <stdlib.h>
#include <string.h>

static const char scale_kernel[] =
    "__global__ void scale(float *out, const float *in, float factor, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        out[i] = clampf(in[i] * factor, -1e30f, 1e30f);\n"
    "}";

static const char scale_context[] =
    "#define SCALE_BLOCK 256\n"
    "\n"
    "__device__ float clampf(float x, float lo, float hi)\n"
    "{\n"
    "    return fminf(fmaxf(x, lo), hi);\n"
    "}";

static const char scale_launches[] =
    "scale<<<(n + SCALE_BLOCK - 1) / SCALE_BLOCK, SCALE_BLOCK>>>(out, in, 2.0f, n) in main";

/* Compares text with the file at path; 0 when equal.  On a difference it
 * says where and writes the text beside the build as path's name + ".actual". */
__attribute__((unused)) static int golden_compare(const char *path, const char *text)
{
    const char *update = getenv("CL1CC_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        if (file_write_atomic(path, text, strlen(text)) != 0) {
            fprintf(stderr, "cannot write %s\n", path);
            return -1;
        }
        return 0;
    }
    char *expected = NULL;
    size_t len = 0;
    if (file_read_all(path, 0, &expected, &len) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        return -1;
    }
    int rc = 0;
    if (strcmp(expected, text) != 0) {
        size_t at = 0, line = 1;
        while (expected[at] && expected[at] == text[at]) {
            if (text[at] == '\n')
                line++;
            at++;
        }
        const char *base = strrchr(path, '/');
        char actual[1100];
        snprintf(actual, sizeof actual, "%s.actual", base ? base + 1 : path);
        if (file_write_atomic(actual, text, strlen(text)) != 0)
            actual[0] = '\0';
        fprintf(stderr, "%s: differs at line %zu (the output is in %s)\n", path, line,
                actual[0] ? actual : "(not written)");
        rc = -1;
    }
    free(expected);
    return rc;
}

#endif
