/* cl1cc-launch: grid.y x32 */
__global__ void row_dot_n(int rows, int n, const float *A, const float *x, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockDim.x == 256 && blockDim.y == 1 && blockDim.z == 1) {
    	const int cl1_lane = threadIdx.x % 32;
    	const long long cl1_lin = gridDim.y == 32 ? (long long)blockIdx.y * gridDim.x + blockIdx.x : -1;
    	const int cl1_bx = cl1_lin >= 0 ? (int)(cl1_lin / 32) : (int)blockIdx.x;
    	const int cl1_by = cl1_lin >= 0 ? (int)(cl1_lin % 32) : (int)blockIdx.y;
    	if (gridDim.y == 32) {
    		const int cl1_r = (int)(cl1_by * 8 + threadIdx.x / 32);
    		const int i = cl1_bx * 256 + cl1_r;
    		if (i < rows) {
    			float cl1_acc0 = 0;
    			#pragma unroll 4
    			for (int j = (0) + cl1_lane; j < (n); j += 32)
                cl1_acc0 += A[i * n + j] * x[j];
    			for (int cl1_o = 16; cl1_o > 0; cl1_o /= 2) {
    				cl1_acc0 += __shfl_down_sync(0xffffffffu, cl1_acc0, cl1_o);
    			}
    			if (cl1_lane == 0) { out[i] = (0) + cl1_acc0; }
    		}
    	} else for (int cl1_r = (int)(cl1_by * 8 + threadIdx.x / 32); cl1_r < 256; cl1_r += (int)(gridDim.y * 8)) {
    		const int i = cl1_bx * 256 + cl1_r;
    		if (i < rows) {
    			float cl1_acc0 = 0;
    			#pragma unroll 4
    			for (int j = (0) + cl1_lane; j < (n); j += 32)
                cl1_acc0 += A[i * n + j] * x[j];
    			for (int cl1_o = 16; cl1_o > 0; cl1_o /= 2) {
    				cl1_acc0 += __shfl_down_sync(0xffffffffu, cl1_acc0, cl1_o);
    			}
    			if (cl1_lane == 0) { out[i] = (0) + cl1_acc0; }
    		}
    	}
    } else if (blockIdx.y == 0) if (i < rows) {
        out[i] = 0;
        for (int j = 0; j < n; j++)
            out[i] += A[i * n + j] * x[j];
    }
}
