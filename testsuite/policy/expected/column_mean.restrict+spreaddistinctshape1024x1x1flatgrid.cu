/* cl1cc-launch: grid.y x32 */
__global__ void column_mean(int m, int n, const double *__restrict__ data, double *__restrict__ mean)
{
    unsigned cl1cc_slice = (blockDim.x + gridDim.y - 1) / gridDim.y;
    if (threadIdx.x >= cl1cc_slice || blockIdx.y * cl1cc_slice + threadIdx.x >= blockDim.x)
        return;
    unsigned col = blockIdx.x * blockDim.x + (blockIdx.y * cl1cc_slice + threadIdx.x);
    if (col < (unsigned)m) {
        double s = 0;
        for (int i = 0; i < n; i++)
            s += data[i * m + col];
        mean[col] = s / n;
    }
}
