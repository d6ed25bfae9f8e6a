/* cl1cc-launch: grid.x sm */
__global__ void scale_clamp(float *out, float *in, float factor, int n, unsigned int cl1cc_grid_x)
{
    /* wrong: only the blocks of the first wave, never the rest of the grid */
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = fminf(fmaxf(in[i] * factor, 0.f), 1.f);
}
