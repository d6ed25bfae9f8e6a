__global__ void spin(unsigned *out, const unsigned *in, int iters, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = in[i];
    for (int k = 0; k < iters; ++k) {
        v += (unsigned)k;
        v ^= v >> 15;
        v *= 0x2c1b3c6du;
        v ^= v >> 12;
    }
    out[i] = v;
}
