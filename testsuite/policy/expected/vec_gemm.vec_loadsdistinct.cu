__global__ void vec_gemm(int n, float alpha, float beta, float *a, float *b, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        c[i * n + j] *= beta;
        { /* cl1cc vec_loads: 4 iterations a step, 16-byte loads */
            float cl1_vsum0_0 = c[i * n + j];
            int cl1_vj0 = (0);
            if ((((unsigned long long)(const void *)&a[i * n + cl1_vj0]) & 15) == 0)
                for (; cl1_vj0 + 3 < (n); cl1_vj0 += 4) {
                    const float4 cl1_v0_0 = *(const float4 *)&a[i * n + cl1_vj0];
                    { cl1_vsum0_0 += alpha * cl1_v0_0.x * b[(cl1_vj0 + 0) * n + j]; }
                    { cl1_vsum0_0 += alpha * cl1_v0_0.y * b[(cl1_vj0 + 1) * n + j]; }
                    { cl1_vsum0_0 += alpha * cl1_v0_0.z * b[(cl1_vj0 + 2) * n + j]; }
                    { cl1_vsum0_0 += alpha * cl1_v0_0.w * b[(cl1_vj0 + 3) * n + j]; }
                }
            for (int k = cl1_vj0; k < n; k++)
            cl1_vsum0_0 += alpha * a[i * n + k] * b[k * n + j];
            c[i * n + j] = cl1_vsum0_0;
        }
    }
}
