__global__ void vec_store_reread(int n, int m, float *A, float *B, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        { /* cl1cc vec_loads: 4 iterations a step, 16-byte loads */
            float cl1_vsum0_0 = out[i];
            int cl1_vj0 = (0);
            if ((((unsigned long long)(const void *)&A[i * m + cl1_vj0]) & 15) == 0)
                for (; cl1_vj0 + 3 < (m); cl1_vj0 += 4) {
                    const float4 cl1_v0_0 = *(const float4 *)&A[i * m + cl1_vj0];
                    { {
            B[i * m + (cl1_vj0 + 0)] = cl1_v0_0.x * 2.0f;
            cl1_vsum0_0 += B[i * m + (cl1_vj0 + 0)];
        } }
                    { {
            B[i * m + (cl1_vj0 + 1)] = cl1_v0_0.y * 2.0f;
            cl1_vsum0_0 += B[i * m + (cl1_vj0 + 1)];
        } }
                    { {
            B[i * m + (cl1_vj0 + 2)] = cl1_v0_0.z * 2.0f;
            cl1_vsum0_0 += B[i * m + (cl1_vj0 + 2)];
        } }
                    { {
            B[i * m + (cl1_vj0 + 3)] = cl1_v0_0.w * 2.0f;
            cl1_vsum0_0 += B[i * m + (cl1_vj0 + 3)];
        } }
                }
            for (int j = cl1_vj0; j < m; j++) {
            B[i * m + j] = A[i * m + j] * 2.0f;
            cl1_vsum0_0 += B[i * m + j];
        }
            out[i] = cl1_vsum0_0;
        }
}
