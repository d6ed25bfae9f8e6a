/* cl1cc-launch: grid.y x64 */
__global__ void gram_ld(int m, int ld, float *sym, const float *data)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    const bool cl1cc_split = (m) <= (ld) && (m) <= (ld) && (j1) >= 0;
    if (!cl1cc_split && blockIdx.y != 0)
        return;
    const int cl1cc_y0 = cl1cc_split ? (int)blockIdx.y : 0;
    const int cl1cc_ystep = cl1cc_split ? (int)gridDim.y : 1;
    if (j1 < m) {
        for (int j2 = (j1) + cl1cc_y0; j2 < m; j2 += cl1cc_ystep) {
            float s = 0;
            for (int i = 0; i < N; i++)
                s += data[i * m + j1] * data[i * m + j2];
            sym[j1 * ld + j2] = s + sym[j2 * ld + j1];
        }
    }
}
