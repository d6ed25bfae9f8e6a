template <int BLOCK, typename T>
__global__ void __launch_bounds__(BLOCK) scale(T *__restrict__ data, T factor, int n)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i >= n)
        return;
    data[i] = data[i] * factor;
}
