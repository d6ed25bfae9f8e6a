__global__ void row_dot(int n, float *A, float *x, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (blockDim.x == 256 && blockDim.y == 1 && blockDim.z == 1) {
    	const int cl1_lane = threadIdx.x % 32;
    	for (int cl1_r = 0; cl1_r < 32; cl1_r += 4) {
    		const int cl1_row = blockIdx.x * 256 + (threadIdx.x / 32) * 32 + cl1_r;
    		int j;
    		float cl1_acc0_0 = 0;
    		float cl1_acc0_1 = 0;
    		float cl1_acc0_2 = 0;
    		float cl1_acc0_3 = 0;
    		#pragma unroll 4
    		for (j = (0) + cl1_lane; j < (M); j += 32) {
    			{ const int i = cl1_row + 0; if (i < N) 
            {
                cl1_acc0_0 += A[i * M + j] * x[j];
            } }
    			{ const int i = cl1_row + 1; if (i < N) 
            {
                cl1_acc0_1 += A[i * M + j] * x[j];
            } }
    			{ const int i = cl1_row + 2; if (i < N) 
            {
                cl1_acc0_2 += A[i * M + j] * x[j];
            } }
    			{ const int i = cl1_row + 3; if (i < N) 
            {
                cl1_acc0_3 += A[i * M + j] * x[j];
            } }
    		}
    		for (int cl1_o = 16; cl1_o > 0; cl1_o /= 2) {
    			cl1_acc0_0 += __shfl_down_sync(0xffffffffu, cl1_acc0_0, cl1_o);
    			cl1_acc0_1 += __shfl_down_sync(0xffffffffu, cl1_acc0_1, cl1_o);
    			cl1_acc0_2 += __shfl_down_sync(0xffffffffu, cl1_acc0_2, cl1_o);
    			cl1_acc0_3 += __shfl_down_sync(0xffffffffu, cl1_acc0_3, cl1_o);
    		}
    		if (cl1_lane == 0) {
    			{ const int i = cl1_row + 0; if (i < N) { out[i] = (0) + cl1_acc0_0; } }
    			{ const int i = cl1_row + 1; if (i < N) { out[i] = (0) + cl1_acc0_1; } }
    			{ const int i = cl1_row + 2; if (i < N) { out[i] = (0) + cl1_acc0_2; } }
    			{ const int i = cl1_row + 3; if (i < N) { out[i] = (0) + cl1_acc0_3; } }
    		}
    	}
    } else if (i < N)
    {
        out[i] = 0;
        int j;
        for (j = 0; j < M; j++)
        {
            out[i] += A[i * M + j] * x[j];
        }
    }
}
