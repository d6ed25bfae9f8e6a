__global__ void vec_double(int n, int m, double *A, double *B, double *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double s = 0;
        { /* cl1cc vec_loads: 2 iterations a step, 16-byte loads */
            int cl1_vj0 = (1);
            if ((((unsigned long long)(const void *)&A[i * m + cl1_vj0] | (unsigned long long)(const void *)&B[cl1_vj0 + i * m]) & 15) == 0)
                for (; cl1_vj0 + 1 < (m); cl1_vj0 += 2) {
                    const double2 cl1_v0_0 = *(const double2 *)&A[i * m + cl1_vj0];
                    const double2 cl1_v0_1 = *(const double2 *)&B[cl1_vj0 + i * m];
                    { {
            double t = cl1_v0_0.x - cl1_v0_1.x;
            s += t * t;
        } }
                    { {
            double t = cl1_v0_0.y - cl1_v0_1.y;
            s += t * t;
        } }
                }
            for (int j = cl1_vj0; j < m; j++) {
            double t = A[i * m + j] - B[j + i * m];
            s += t * t;
        }
        }
        out[i] = s;
    }
}
