/* cl1cc-launch: grid.y x64 */
__global__ void gram(int m, int n, float *__restrict__ sym, const float *__restrict__ data)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    int i, j2;

    const bool cl1cc_split = (M) <= (M) && (M) <= (M) && (j1) >= 0;
    if (!cl1cc_split && blockIdx.y != 0)
        return;
    const int cl1cc_y0 = cl1cc_split ? (int)blockIdx.y : 0;
    const int cl1cc_ystep = cl1cc_split ? (int)gridDim.y : 1;
    if (j1 < M)
    {
        for (j2 = (j1) + cl1cc_y0; j2 < M; j2 += cl1cc_ystep)
        {
            sym[j1 * M + j2] = 0.0f;
            { float cl1_acc0 = sym[j1 * M + j2];
            for (i = 0; i < N; i++)
            {
                cl1_acc0 += data[i * M + j1] * data[i * M + j2];
            } sym[j1 * M + j2] = cl1_acc0; }
            sym[j2 * M + j1] = sym[j1 * M + j2];
        }
    }
}
