#include <cstdio>

#include "inc/row_sums.cuh"

void sums_b(int n, const float *a, float *s)
{
    row_sums<<<(n + 255) / 256, 256>>>(n, a, s);
}
