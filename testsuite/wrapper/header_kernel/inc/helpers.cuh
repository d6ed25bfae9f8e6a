// What the header kernel needs, included by the header with "...".
#ifndef HEADER_KERNEL_HELPERS_CUH
#define HEADER_KERNEL_HELPERS_CUH

#define HELPER_FACTOR 2.0f

__device__ inline float scaled(float v) { return v * HELPER_FACTOR + 1.0f; }

#endif
