__global__ void vec_offset(int n, int m, int off, float *A, float *v, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j;
    if (i < n) {
        float s = 0.5f;
        { /* cl1cc vec_loads: 4 iterations a step, 16-byte loads */
            decltype(j) cl1_vj0 = (0);
            if ((((unsigned long long)(const void *)&A[off + i * m + cl1_vj0] | (unsigned long long)(const void *)&v[cl1_vj0 + off]) & 15) == 0)
                for (; cl1_vj0 + 3 < (m); cl1_vj0 += 4) {
                    const float4 cl1_v0_0 = *(const float4 *)&A[off + i * m + cl1_vj0];
                    const float4 cl1_v0_1 = *(const float4 *)&v[cl1_vj0 + off];
                    { s = s * 0.5f + cl1_v0_0.x * cl1_v0_1.x + (float)(cl1_vj0 + 0); }
                    { s = s * 0.5f + cl1_v0_0.y * cl1_v0_1.y + (float)(cl1_vj0 + 1); }
                    { s = s * 0.5f + cl1_v0_0.z * cl1_v0_1.z + (float)(cl1_vj0 + 2); }
                    { s = s * 0.5f + cl1_v0_0.w * cl1_v0_1.w + (float)(cl1_vj0 + 3); }
                }
            for (j = cl1_vj0; j < m; j++)
            s = s * 0.5f + A[off + i * m + j] * v[j + off] + (float)j;
        }
        out[i] = s + (float)j;
    }
}
