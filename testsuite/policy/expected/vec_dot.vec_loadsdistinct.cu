__global__ void vec_dot(int n, int m, const float *A, const float *v, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = 0;
        { /* cl1cc vec_loads: 4 iterations a step, 16-byte loads */
            float cl1_vsum0_0 = out[i];
            int cl1_vj0 = (0);
            if ((((unsigned long long)(const void *)&A[i * m + cl1_vj0] | (unsigned long long)(const void *)&v[cl1_vj0]) & 15) == 0)
                for (; cl1_vj0 + 3 < (m); cl1_vj0 += 4) {
                    const float4 cl1_v0_0 = *(const float4 *)&A[i * m + cl1_vj0];
                    const float4 cl1_v0_1 = *(const float4 *)&v[cl1_vj0];
                    { cl1_vsum0_0 += cl1_v0_0.x * cl1_v0_1.x; }
                    { cl1_vsum0_0 += cl1_v0_0.y * cl1_v0_1.y; }
                    { cl1_vsum0_0 += cl1_v0_0.z * cl1_v0_1.z; }
                    { cl1_vsum0_0 += cl1_v0_0.w * cl1_v0_1.w; }
                }
            for (int j = cl1_vj0; j < m; j++)
            cl1_vsum0_0 += A[i * m + j] * v[j];
            out[i] = cl1_vsum0_0;
        }
    }
}
