/* cl1cc-launch: grid.y x8 */
__global__ void col_std(int n, double *mean, double *std, double *data)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockDim.x == 256 && blockDim.y == 1 && blockDim.z == 1) {
    	__shared__ double cl1_part0[8][32];
    	const long long cl1_lin = gridDim.y == 8 ? (long long)blockIdx.y * gridDim.x + blockIdx.x : -1;
    	const int cl1_bx = cl1_lin >= 0 ? (int)(cl1_lin / 8) : (int)blockIdx.x;
    	const int cl1_by = cl1_lin >= 0 ? (int)(cl1_lin % 8) : (int)blockIdx.y;
    	const int cl1_t = threadIdx.x + 256 * (threadIdx.y + 1 * threadIdx.z);
    	const int cl1_c = cl1_t % 32, cl1_r = cl1_t / 32;
    	if (gridDim.y == 8) {
    		const int cl1_s = (int)cl1_by;
    		const int j = cl1_bx * 256 + cl1_s * 32 + cl1_c;
    		const bool cl1_in = (j < M);
    		double cl1_acc0 = 0;
    		if (cl1_in) {
    			#pragma unroll 8
    			for (int i = (0) + cl1_r; i < (n); i += 8)
                cl1_acc0 += (data[i * M + j] - mean[j]) * (data[i * M + j] - mean[j]);
    		}
    		cl1_part0[cl1_r][cl1_c] = cl1_acc0;
    		__syncthreads();
    		if (cl1_in && cl1_r == 0) {
    			for (int cl1_w = 1; cl1_w < 8; cl1_w++) { cl1_acc0 += cl1_part0[cl1_w][cl1_c]; }
    			std[j] = (0.0) + cl1_acc0;
    			std[j] /= n;
            std[j] = sqrt(std[j]);
            if (std[j] <= EPS) {
                std[j] = 1.0;
            }
    		}
    	} else for (int cl1_s = (int)cl1_by; cl1_s < 8; cl1_s += (int)gridDim.y) {
    		const int j = cl1_bx * 256 + cl1_s * 32 + cl1_c;
    		const bool cl1_in = (j < M);
    		double cl1_acc0 = 0;
    		if (cl1_in) {
    			#pragma unroll 8
    			for (int i = (0) + cl1_r; i < (n); i += 8)
                cl1_acc0 += (data[i * M + j] - mean[j]) * (data[i * M + j] - mean[j]);
    		}
    		cl1_part0[cl1_r][cl1_c] = cl1_acc0;
    		__syncthreads();
    		if (cl1_in && cl1_r == 0) {
    			for (int cl1_w = 1; cl1_w < 8; cl1_w++) { cl1_acc0 += cl1_part0[cl1_w][cl1_c]; }
    			std[j] = (0.0) + cl1_acc0;
    			std[j] /= n;
            std[j] = sqrt(std[j]);
            if (std[j] <= EPS) {
                std[j] = 1.0;
            }
    		}
    		__syncthreads();
    	}
    } else if (blockIdx.y == 0) if (j < M) {
        std[j] = 0.0;
        for (int i = 0; i < n; i++)
            std[j] += (data[i * M + j] - mean[j]) * (data[i * M + j] - mean[j]);
        std[j] /= n;
        std[j] = sqrt(std[j]);
        if (std[j] <= EPS) {
            std[j] = 1.0;
        }
    }
}
