// bench_cuda.h: what the GPU check programs of testsuite/bench/ share:
// CHECK (a CUDA call that fails ends the program, exit 2), time_ms (the
// median of reps timed runs after one warm-up) and fetch (a device array
// copied back).
#ifndef CL1CC_BENCH_CUDA_H
#define CL1CC_BENCH_CUDA_H

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                              \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

/* median ms of reps runs of f (after one warm-up) */
template <class F> static float time_ms(F f, int reps)
{
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    std::vector<float> ms;
    f();
    for (int r = 0; r < reps; r++) {
        CHECK(cudaEventRecord(e0));
        f();
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float t;
        CHECK(cudaEventElapsedTime(&t, e0, e1));
        ms.push_back(t);
    }
    CHECK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

static std::vector<float> fetch(const float *d, size_t n)
{
    std::vector<float> h(n);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
}

#endif
