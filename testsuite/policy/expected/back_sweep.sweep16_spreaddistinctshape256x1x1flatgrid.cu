/* cl1cc-launch: grid.y x8 */
__global__ void back_sweep(int n, float *A, float *B, float *X)
{
    unsigned cl1cc_slice = (blockDim.x + gridDim.y - 1) / gridDim.y;
    if (threadIdx.x >= cl1cc_slice || blockIdx.y * cl1cc_slice + threadIdx.x >= blockDim.x)
        return;
    int t = blockIdx.x * blockDim.x + (blockIdx.y * cl1cc_slice + threadIdx.x);
    if (t < n) {
    	for (int cl1_v0 = (0); cl1_v0 < (n - 2); cl1_v0 += 16) {
    		float cl1_w0[16];
    		float cl1_r1[16];
    		float cl1_r2[16];
    		float cl1_r3[16];
    		float cl1_r4[16];
    		#pragma unroll
    		for (int cl1_s = 0; cl1_s < 16; cl1_s++) {
    			const int v = cl1_v0 + cl1_s;
    			if (v < (n - 2)) {
    				if (true) cl1_r1[cl1_s] = X[t * W + (n - 2 - v)];
    				if (true) cl1_r2[cl1_s] = X[t * W + (n - 2 - v - 1)];
    				if (true) cl1_r3[cl1_s] = A[t * W + (n - v - 3)];
    				if (true) cl1_r4[cl1_s] = B[t * W + (n - 3 - v)];
    			}
    		}
    		#pragma unroll
    		for (int cl1_s = 0; cl1_s < 16; cl1_s++) {
    			const int v = cl1_v0 + cl1_s;
    			if (v < (n - 2))
    			 {
                X[t * W + (n - v - 2)] = cl1_w0[cl1_s] = (cl1_r1[cl1_s] - cl1_r2[cl1_s] * cl1_r3[cl1_s]) / cl1_r4[cl1_s];
            }
    		}
    	}
    } else if (t < n) {
        for (int v = 0; v < n - 2; v++) {
            X[t * W + (n - v - 2)] = (X[t * W + (n - 2 - v)] - X[t * W + (n - 2 - v - 1)] * A[t * W + (n - v - 3)]) / B[t * W + (n - 3 - v)];
        }
    }
}
