__global__ void bump(int *v, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    v[i] = add_one(v[i]);
}
