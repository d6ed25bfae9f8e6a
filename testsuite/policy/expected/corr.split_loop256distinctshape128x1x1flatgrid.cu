/* cl1cc-launch: grid.y x256 */
__global__ void corr(int m, int n, double *sym, const double *data)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    int i, j2;
    const bool cl1cc_split = ((m-1)) <= (m) && (m) <= (m) && ((j1 + 1)) >= 0;
    if (!cl1cc_split && blockIdx.y != 0)
        return;
    const int cl1cc_y0 = cl1cc_split ? (int)blockIdx.y : 0;
    const int cl1cc_ystep = cl1cc_split ? (int)gridDim.y : 1;
    if (j1 < (m - 1))
    {
        if (cl1cc_y0 == 0) { sym[j1 * m + j1] = 1.0; }
        for (j2 = ((j1 + 1)) + cl1cc_y0; j2 < m; j2 += cl1cc_ystep)
        {
            double s = 0;
            for (i = 0; i < n; i++)
                s += data[i * m + j1] * data[i * m + j2];
            sym[j1 * m + j2] = s;
            sym[j2 * m + j1] = s;
        }
    }
}
