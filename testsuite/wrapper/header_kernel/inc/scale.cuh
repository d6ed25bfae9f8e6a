// A kernel defined in a project header that two translation units include
// (testsuite/wrapper/header_kernel.sh): static, so each TU has its own.
#pragma once

#include "helpers.cuh"

static __global__ void scale_all(float *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = scaled(data[i]);
}
