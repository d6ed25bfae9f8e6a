__global__ void vec_store_only(int n, int m, double *B)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        { /* cl1cc vec_loads: 2 iterations a step, 16-byte loads and stores */
            int cl1_vj0 = (0);
            if ((((unsigned long long)(const void *)&B[cl1_vj0 + i * m]) & 15) == 0)
                for (; cl1_vj0 + 1 < (m); cl1_vj0 += 2) {
                    double2 cl1_w0_0;
                    { cl1_w0_0.x = 0.5 * (cl1_vj0 + 0) + i; }
                    { cl1_w0_0.y = 0.5 * (cl1_vj0 + 1) + i; }
                    *(double2 *)&B[cl1_vj0 + i * m] = cl1_w0_0;
                }
            for (int j = cl1_vj0; j < m; j++)
            B[j + i * m] = 0.5 * j + i;
        }
}
