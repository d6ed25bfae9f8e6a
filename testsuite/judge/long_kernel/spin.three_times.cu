__global__ void spin(unsigned *out, const unsigned *in, int iters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x0 = in[i], x = 0;
        /* the whole chain three times over, one pass after the other: each
         * pass starts from in[i] ^ (the last pass's result & keep), and keep
         * is 0 because clock64() is never negative, which the compiler
         * cannot know; so the result is the original's, at 3x the time */
        for (int pass = 0; pass < 3; pass++) {
            unsigned keep = 0u - (unsigned)(clock64() < 0);
            x = x0 ^ (x & keep);
            for (int k = 0; k < iters; k++) {
                x += (unsigned)k;
                x ^= x >> 15;
                x *= 0x2c1b3c6du;
                x ^= x >> 12;
            }
        }
        out[i] = x;
    }
}
