__global__ void vec_scale_row(int n, int m, float s, float *A, float *v, float *B)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        { /* cl1cc vec_loads: 4 iterations a step, 16-byte loads and stores */
            int cl1_vj0 = (0);
            if ((((unsigned long long)(const void *)&A[i * m + cl1_vj0] | (unsigned long long)(const void *)&v[cl1_vj0] | (unsigned long long)(const void *)&B[i * m + cl1_vj0]) & 15) == 0)
                for (; cl1_vj0 + 3 < (m); cl1_vj0 += 4) {
                    const float4 cl1_v0_0 = *(const float4 *)&A[i * m + cl1_vj0];
                    const float4 cl1_v0_1 = *(const float4 *)&v[cl1_vj0];
                    float4 cl1_w0_0;
                    { cl1_w0_0.x = cl1_v0_0.x * s + cl1_v0_1.x; }
                    { cl1_w0_0.y = cl1_v0_0.y * s + cl1_v0_1.y; }
                    { cl1_w0_0.z = cl1_v0_0.z * s + cl1_v0_1.z; }
                    { cl1_w0_0.w = cl1_v0_0.w * s + cl1_v0_1.w; }
                    *(float4 *)&B[i * m + cl1_vj0] = cl1_w0_0;
                }
            for (int j = cl1_vj0; j < m; j++)
            B[i * m + j] = A[i * m + j] * s + v[j];
        }
}
