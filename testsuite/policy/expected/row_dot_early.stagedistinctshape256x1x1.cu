__global__ void row_dot_early(int rows, int n, const float *A, const float *x, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockDim.x == 256 && blockDim.y == 1 && blockDim.z == 1) {
    	__shared__ float cl1_tile0[256][33];
    	const bool cl1_in = (!(i >= rows) && !(n < 0));
    	if (cl1_in) { out[i] = 0; }
    	float cl1_acc0 = 0;
    	if (cl1_in) cl1_acc0 = out[i];
    	const int cl1_tid = threadIdx.x + 256 * (threadIdx.y + 1 * threadIdx.z);
    	for (int cl1_k0 = (0); cl1_k0 < (n); cl1_k0 += 32) {
    		__syncthreads();
    		for (int cl1_t = cl1_tid; cl1_t < 8192; cl1_t += 256) {
    			const int cl1_row = blockIdx.x * 256 + cl1_t / 32;
    			const int cl1_kx = cl1_k0 + cl1_t % 32;
    			cl1_tile0[cl1_t / 32][cl1_t % 32] = (cl1_kx < (n) && 1 && (!(cl1_row >= rows)) && (!(n < 0))) ? A[(cl1_row) * (n) + cl1_kx] : (float)0;
    		}
    		__syncthreads();
    		if (cl1_in) {
    			if (cl1_k0 + 32 <= (n)) {
    				#pragma unroll
    				for (int j = cl1_k0; j < cl1_k0 + 32; j++)
            cl1_acc0 += cl1_tile0[threadIdx.x][j - cl1_k0] * x[j];
    			} else {
    				for (int j = cl1_k0; j < (n); j++)
            cl1_acc0 += cl1_tile0[threadIdx.x][j - cl1_k0] * x[j];
    			}
    		}
    	}
    	if (cl1_in) { out[i] = cl1_acc0; }
    } else {
    if (i >= rows || n < 0) {
        return;
    }
    out[i] = 0;
    for (int j = 0; j < n; j++)
        out[i] += A[i * n + j] * x[j];
}
}
