// long_kernel.cu: a kernel whose one launch takes about 250 ms, and a short
// one, for gpu_long_kernel.sh (the capture's launch_ms, the judge's timing of
// long kernels).  spin runs a long dependent chain of integer mixing per
// thread, few threads (latency-bound), with the iteration count a parameter:
// the program times one launch of known length and sets the count so that
// its last launch takes TARGET_MS on whatever GPU it runs.  Launches, in
// order: scramble twice (k1/0, k1/1), spin as a warm-up (k0/0), to calibrate
// (k0/1) and at full length (k0/2).  It checks two elements on the CPU and
// exits non-zero if they differ.
#include <cstdio>
#include <cstdlib>

#define TARGET_MS 250.0
#define CALIBRATION_ITERS (1 << 22)

#define CHECK(call)                                                        \
    do {                                                                   \
        cudaError_t e_ = (call);                                           \
        if (e_ != cudaSuccess) {                                           \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,             \
                    cudaGetErrorString(e_));                               \
            exit(2);                                                       \
        }                                                                  \
    } while (0)

// every iteration feeds the next: nothing folds or overlaps
__global__ void spin(unsigned *out, const unsigned *in, int iters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = in[i];
        for (int k = 0; k < iters; k++) {
            x += (unsigned)k;
            x ^= x >> 15;
            x *= 0x2c1b3c6du;
            x ^= x >> 12;
        }
        out[i] = x;
    }
}

// a few microseconds
__global__ void scramble(unsigned *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = (v[i] ^ (v[i] >> 16)) * 0x45d9f3bu + (unsigned)i;
}

static unsigned spin_host(unsigned x, int iters)
{
    for (int k = 0; k < iters; k++) {
        x += (unsigned)k;
        x ^= x >> 15;
        x *= 0x2c1b3c6du;
        x ^= x >> 12;
    }
    return x;
}

static unsigned scramble_host(unsigned v, int i)
{
    return (v ^ (v >> 16)) * 0x45d9f3bu + (unsigned)i;
}

int main()
{
    const int threads = 64, blocks = 64, n = threads * blocks;
    unsigned *h = (unsigned *)malloc(n * sizeof(unsigned));
    unsigned *got = (unsigned *)malloc(n * sizeof(unsigned));
    if (!h || !got)
        return 2;
    for (int i = 0; i < n; i++)
        h[i] = (unsigned)i * 2654435761u ^ 0x9e3779b9u;
    unsigned *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_out, n * sizeof(unsigned)));
    CHECK(cudaMemcpy(d_in, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_out, 0, n * sizeof(unsigned)));
    for (int r = 0; r < 2; r++) {
        scramble<<<(n + 255) / 256, 256>>>(d_in, n);
        for (int i = 0; i < n; i++)
            h[i] = scramble_host(h[i], i);
    }
    CHECK(cudaGetLastError());

    // the iteration count for TARGET_MS: a warm-up, then one timed launch
    spin<<<blocks, threads>>>(d_out, d_in, 1 << 12, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, 0));
    spin<<<blocks, threads>>>(d_out, d_in, CALIBRATION_ITERS, n);
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float calibration_ms = 0;
    CHECK(cudaEventElapsedTime(&calibration_ms, start, stop));
    double iters_d = calibration_ms > 0 ? CALIBRATION_ITERS * (TARGET_MS / calibration_ms) : 0;
    int iters = iters_d > (1 << 28) ? (1 << 28) : iters_d > CALIBRATION_ITERS ? (int)iters_d
                                                                              : CALIBRATION_ITERS;

    CHECK(cudaEventRecord(start, 0));
    spin<<<blocks, threads>>>(d_out, d_in, iters, n);
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaGetLastError());
    CHECK(cudaEventSynchronize(stop));
    float last_ms = 0;
    CHECK(cudaEventElapsedTime(&last_ms, start, stop));
    CHECK(cudaMemcpy(got, d_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned checksum = 0;
    for (int i = 0; i < n; i++)
        checksum = checksum * 31u + got[i];
    int bad = 0;
    const int probe[2] = {0, n - 1};
    for (int p = 0; p < 2; p++)
        if (got[probe[p]] != spin_host(h[probe[p]], iters)) {
            fprintf(stderr, "long_kernel: element %d is %08x, the CPU says %08x\n", probe[p],
                    got[probe[p]], spin_host(h[probe[p]], iters));
            bad = 1;
        }
    printf("long_kernel: %d iterations took %.1f ms (%d took %.1f ms; the aim was %.0f ms), "
           "checksum %08x, %s\n",
           iters, last_ms, CALIBRATION_ITERS, calibration_ms, TARGET_MS, checksum,
           bad ? "WRONG" : "right");
    free(h);
    free(got);
    return bad;
}
