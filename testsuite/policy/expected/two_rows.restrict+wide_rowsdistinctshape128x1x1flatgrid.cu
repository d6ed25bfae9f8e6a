/* cl1cc-launch: grid.y x32 */
__global__ void two_rows(float alpha, float beta, const double *__restrict__ A, const double *__restrict__ B, double *__restrict__ tmp, const double *__restrict__ x,
                         double *__restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockDim.x == 128 && blockDim.y == 1 && blockDim.z == 1) {
    	const int cl1_lane = threadIdx.x % 32;
    	const long long cl1_lin = gridDim.y == 32 ? (long long)blockIdx.y * gridDim.x + blockIdx.x : -1;
    	const int cl1_bx = cl1_lin >= 0 ? (int)(cl1_lin / 32) : (int)blockIdx.x;
    	const int cl1_by = cl1_lin >= 0 ? (int)(cl1_lin % 32) : (int)blockIdx.y;
    	if (gridDim.y == 32) {
    		const int cl1_r = (int)(cl1_by * 4 + threadIdx.x / 32);
    		const int i = cl1_bx * 128 + cl1_r;
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
    	} else for (int cl1_r = (int)(cl1_by * 4 + threadIdx.x / 32); cl1_r < 128; cl1_r += (int)(gridDim.y * 4)) {
    		const int i = cl1_bx * 128 + cl1_r;
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
    } else if (blockIdx.y == 0) if (i < N) {
        for (int j = 0; j < N; j++) {
            tmp[i] += A[i * N + j] * x[j];
            y[i] += B[i * N + j] * x[j];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}
