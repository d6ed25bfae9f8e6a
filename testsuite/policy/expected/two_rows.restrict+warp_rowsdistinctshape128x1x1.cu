__global__ void two_rows(float alpha, float beta, const double *__restrict__ A, const double *__restrict__ B, double *__restrict__ tmp, const double *__restrict__ x,
                         double *__restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockDim.x == 128 && blockDim.y == 1 && blockDim.z == 1) {
    	const int cl1_lane = threadIdx.x % 32;
    	for (int cl1_r = 0; cl1_r < 32; cl1_r++) {
    		const int i = blockIdx.x * 128 + (threadIdx.x / 32) * 32 + cl1_r;
    		if (i < N) {
    			double cl1_acc0 = 0;
    			double cl1_acc1 = 0;
    			#pragma unroll 4
    			for (int j = (0) + cl1_lane; j < (N); j += 32) {
                cl1_acc0 += A[i * N + j] * x[j];
                cl1_acc1 += B[i * N + j] * x[j];
            }
    			for (int cl1_o = 16; cl1_o > 0; cl1_o /= 2) {
    				cl1_acc0 += __shfl_down_sync(0xffffffffu, cl1_acc0, cl1_o);
    				cl1_acc1 += __shfl_down_sync(0xffffffffu, cl1_acc1, cl1_o);
    			}
    			if (cl1_lane == 0) { tmp[i] = tmp[i] + cl1_acc0; y[i] = y[i] + cl1_acc1; y[i] = alpha * tmp[i] + beta * y[i]; }
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
