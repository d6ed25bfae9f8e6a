__global__ void col_sum(int n, float *A, float *tmp, float *y)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;

    if (blockDim.x == 32 && blockDim.y == 8 && blockDim.z == 1) {
    	__shared__ float cl1_part0[8][32];
    	const int cl1_t = threadIdx.x + 32 * (threadIdx.y + 8 * threadIdx.z);
    	const int cl1_c = cl1_t % 32, cl1_r = cl1_t / 32;
    	if (gridDim.y == 1) {
    		const int cl1_s = (int)blockIdx.y;
    		const int j = blockIdx.x * 32 + cl1_s * 32 + cl1_c;
    		const bool cl1_in = (j < M);
    		int i;
    		float cl1_acc0 = 0;
    		if (cl1_in) {
    			#pragma unroll 8
    			for (i = (0) + cl1_r; i < (n); i += 8)
            {
                cl1_acc0 += A[i * M + j] * tmp[i];
            }
    		}
    		cl1_part0[cl1_r][cl1_c] = cl1_acc0;
    		__syncthreads();
    		if (cl1_in && cl1_r == 0) {
    			for (int cl1_w = 1; cl1_w < 8; cl1_w++) { cl1_acc0 += cl1_part0[cl1_w][cl1_c]; }
    			y[j] = (0) + cl1_acc0;
    		}
    	} else for (int cl1_s = (int)blockIdx.y; cl1_s < 1; cl1_s += (int)gridDim.y) {
    		const int j = blockIdx.x * 32 + cl1_s * 32 + cl1_c;
    		const bool cl1_in = (j < M);
    		int i;
    		float cl1_acc0 = 0;
    		if (cl1_in) {
    			#pragma unroll 8
    			for (i = (0) + cl1_r; i < (n); i += 8)
            {
                cl1_acc0 += A[i * M + j] * tmp[i];
            }
    		}
    		cl1_part0[cl1_r][cl1_c] = cl1_acc0;
    		__syncthreads();
    		if (cl1_in && cl1_r == 0) {
    			for (int cl1_w = 1; cl1_w < 8; cl1_w++) { cl1_acc0 += cl1_part0[cl1_w][cl1_c]; }
    			y[j] = (0) + cl1_acc0;
    		}
    		__syncthreads();
    	}
    } else if (j < M)
    {
        y[j] = 0;
        int i;
        for (i = 0; i < n; i++)
        {
            y[j] += A[i * M + j] * tmp[i];
        }
    }
}
