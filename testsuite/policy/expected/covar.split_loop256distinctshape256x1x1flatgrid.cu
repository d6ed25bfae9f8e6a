/* cl1cc-launch: grid.y x256 */
__global__ void covar(int m, int n, float *sym, float *data)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    int i, j2;

    const bool cl1cc_split = (m) <= (m) && (m) <= (m) && (j1) >= 0;
    if (!cl1cc_split && blockIdx.y != 0)
        return;
    const int cl1cc_y0 = cl1cc_split ? (int)blockIdx.y : 0;
    const int cl1cc_ystep = cl1cc_split ? (int)gridDim.y : 1;
    if (j1 < m)
    {
        for (j2 = (j1) + cl1cc_y0; j2 < m; j2 += cl1cc_ystep)
        {
            sym[j1 * m + j2] = 0.0;
            for (i = 0; i < n; i++)
            {
                sym[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
            }
            sym[j2 * m + j1] = sym[j1 * m + j2];
        }
    }
}
