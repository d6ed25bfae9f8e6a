__global__ void two_rows(float alpha, float beta, double *A, double *B, double *tmp, double *x,
                         double *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        { /* cl1cc vec_loads: 2 iterations a step, 16-byte loads */
            double cl1_vsum0_0 = tmp[i];
            double cl1_vsum0_1 = y[i];
            int cl1_vj0 = (0);
            if ((((unsigned long long)(const void *)&A[i * N + cl1_vj0] | (unsigned long long)(const void *)&x[cl1_vj0] | (unsigned long long)(const void *)&B[i * N + cl1_vj0]) & 15) == 0)
                for (; cl1_vj0 + 1 < (N); cl1_vj0 += 2) {
                    const double2 cl1_v0_0 = *(const double2 *)&A[i * N + cl1_vj0];
                    const double2 cl1_v0_1 = *(const double2 *)&x[cl1_vj0];
                    const double2 cl1_v0_2 = *(const double2 *)&B[i * N + cl1_vj0];
                    { {
            cl1_vsum0_0 += cl1_v0_0.x * cl1_v0_1.x;
            cl1_vsum0_1 += cl1_v0_2.x * cl1_v0_1.x;
        } }
                    { {
            cl1_vsum0_0 += cl1_v0_0.y * cl1_v0_1.y;
            cl1_vsum0_1 += cl1_v0_2.y * cl1_v0_1.y;
        } }
                }
            for (int j = cl1_vj0; j < N; j++) {
            cl1_vsum0_0 += A[i * N + j] * x[j];
            cl1_vsum0_1 += B[i * N + j] * x[j];
        }
            tmp[i] = cl1_vsum0_0;
            y[i] = cl1_vsum0_1;
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}
