__global__ void two_rows(float alpha, float beta, double *A, double *B, double *tmp, double *x,
                         double *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockDim.x == 32 && blockDim.y == 8 && blockDim.z == 1) {
    	__shared__ double cl1_tile0[32][33];
    	__shared__ double cl1_tile1[32][33];
    	const bool cl1_in = (i < N);
    	double cl1_acc0 = 0;
    	if (cl1_in) cl1_acc0 = tmp[i];
    	double cl1_acc1 = 0;
    	if (cl1_in) cl1_acc1 = y[i];
    	const int cl1_tid = threadIdx.x + 32 * (threadIdx.y + 8 * threadIdx.z);
    	for (int cl1_k0 = (0); cl1_k0 < (N); cl1_k0 += 32) {
    		__syncthreads();
    		for (int cl1_t = cl1_tid; cl1_t < 1024; cl1_t += 256) {
    			const int cl1_row = blockIdx.x * 32 + cl1_t / 32;
    			const int cl1_kx = cl1_k0 + cl1_t % 32;
    			cl1_tile0[cl1_t / 32][cl1_t % 32] = (cl1_kx < (N) && 1 && (cl1_row < N)) ? A[(cl1_row) * (N) + cl1_kx] : (double)0;
    		}
    		for (int cl1_t = cl1_tid; cl1_t < 1024; cl1_t += 256) {
    			const int cl1_row = blockIdx.x * 32 + cl1_t / 32;
    			const int cl1_kx = cl1_k0 + cl1_t % 32;
    			cl1_tile1[cl1_t / 32][cl1_t % 32] = (cl1_kx < (N) && 1 && (cl1_row < N)) ? B[(cl1_row) * (N) + cl1_kx] : (double)0;
    		}
    		__syncthreads();
    		if (cl1_in) {
    			if (cl1_k0 + 32 <= (N)) {
    				#pragma unroll
    				for (int j = cl1_k0; j < cl1_k0 + 32; j++) {
                cl1_acc0 += cl1_tile0[threadIdx.x][j - cl1_k0] * x[j];
                cl1_acc1 += cl1_tile1[threadIdx.x][j - cl1_k0] * x[j];
            }
    			} else {
    				for (int j = cl1_k0; j < (N); j++) {
                cl1_acc0 += cl1_tile0[threadIdx.x][j - cl1_k0] * x[j];
                cl1_acc1 += cl1_tile1[threadIdx.x][j - cl1_k0] * x[j];
            }
    			}
    		}
    	}
    	if (cl1_in) { tmp[i] = cl1_acc0; y[i] = cl1_acc1; y[i] = alpha * tmp[i] + beta * y[i]; }
    } else if (i < N) {
        for (int j = 0; j < N; j++) {
            tmp[i] += A[i * N + j] * x[j];
            y[i] += B[i * N + j] * x[j];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}
