__global__ void two_rows(float alpha, float beta, const double *__restrict__ A, const double *__restrict__ B, double *__restrict__ tmp, const double *__restrict__ x,
                         double *__restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockDim.x == 256 && blockDim.y == 1 && blockDim.z == 1) {
    	const int cl1_lane = threadIdx.x % 32;
    	for (int cl1_r = 0; cl1_r < 32; cl1_r += 4) {
    		const int cl1_row = blockIdx.x * 256 + (threadIdx.x / 32) * 32 + cl1_r;
    		double cl1_acc0_0 = 0;
    		double cl1_acc1_0 = 0;
    		double cl1_acc0_1 = 0;
    		double cl1_acc1_1 = 0;
    		double cl1_acc0_2 = 0;
    		double cl1_acc1_2 = 0;
    		double cl1_acc0_3 = 0;
    		double cl1_acc1_3 = 0;
    		#pragma unroll 4
    		for (int j = (0) + cl1_lane; j < (N); j += 32) {
    			{ const int i = cl1_row + 0; if (i < N)  {
                cl1_acc0_0 += A[i * N + j] * x[j];
                cl1_acc1_0 += B[i * N + j] * x[j];
            } }
    			{ const int i = cl1_row + 1; if (i < N)  {
                cl1_acc0_1 += A[i * N + j] * x[j];
                cl1_acc1_1 += B[i * N + j] * x[j];
            } }
    			{ const int i = cl1_row + 2; if (i < N)  {
                cl1_acc0_2 += A[i * N + j] * x[j];
                cl1_acc1_2 += B[i * N + j] * x[j];
            } }
    			{ const int i = cl1_row + 3; if (i < N)  {
                cl1_acc0_3 += A[i * N + j] * x[j];
                cl1_acc1_3 += B[i * N + j] * x[j];
            } }
    		}
    		for (int cl1_o = 16; cl1_o > 0; cl1_o /= 2) {
    			cl1_acc0_0 += __shfl_down_sync(0xffffffffu, cl1_acc0_0, cl1_o);
    			cl1_acc1_0 += __shfl_down_sync(0xffffffffu, cl1_acc1_0, cl1_o);
    			cl1_acc0_1 += __shfl_down_sync(0xffffffffu, cl1_acc0_1, cl1_o);
    			cl1_acc1_1 += __shfl_down_sync(0xffffffffu, cl1_acc1_1, cl1_o);
    			cl1_acc0_2 += __shfl_down_sync(0xffffffffu, cl1_acc0_2, cl1_o);
    			cl1_acc1_2 += __shfl_down_sync(0xffffffffu, cl1_acc1_2, cl1_o);
    			cl1_acc0_3 += __shfl_down_sync(0xffffffffu, cl1_acc0_3, cl1_o);
    			cl1_acc1_3 += __shfl_down_sync(0xffffffffu, cl1_acc1_3, cl1_o);
    		}
    		if (cl1_lane == 0) {
    			{ const int i = cl1_row + 0; if (i < N) { tmp[i] = tmp[i] + cl1_acc0_0; y[i] = y[i] + cl1_acc1_0; y[i] = alpha * tmp[i] + beta * y[i]; } }
    			{ const int i = cl1_row + 1; if (i < N) { tmp[i] = tmp[i] + cl1_acc0_1; y[i] = y[i] + cl1_acc1_1; y[i] = alpha * tmp[i] + beta * y[i]; } }
    			{ const int i = cl1_row + 2; if (i < N) { tmp[i] = tmp[i] + cl1_acc0_2; y[i] = y[i] + cl1_acc1_2; y[i] = alpha * tmp[i] + beta * y[i]; } }
    			{ const int i = cl1_row + 3; if (i < N) { tmp[i] = tmp[i] + cl1_acc0_3; y[i] = y[i] + cl1_acc1_3; y[i] = alpha * tmp[i] + beta * y[i]; } }
    		}
    	}
    } else if (i < N) {
        for (int j = 0; j < N; j++) {
            tmp[i] += A[i * N + j] * x[j];
            y[i] += B[i * N + j] * x[j];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}
