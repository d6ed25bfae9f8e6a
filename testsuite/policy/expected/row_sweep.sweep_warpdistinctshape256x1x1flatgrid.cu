/* cl1cc-launch: grid.y x32 */
__global__ void row_sweep(int n, float *A, float *B, float *X)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockDim.x == 256 && blockDim.y == 1 && blockDim.z == 1) {
    	const int cl1_lane = threadIdx.x % 32;
    	const long long cl1_lin = gridDim.y == 32 ? (long long)blockIdx.y * gridDim.x + blockIdx.x : -1;
    	const int cl1_bx = cl1_lin >= 0 ? (int)(cl1_lin / 32) : (int)blockIdx.x;
    	const int cl1_by = cl1_lin >= 0 ? (int)(cl1_lin % 32) : (int)blockIdx.y;
    	for (int cl1_row = (int)(cl1_by * 8 + threadIdx.x / 32); cl1_row < 256; cl1_row += (int)(gridDim.y * 8)) {
    		const decltype(t) cl1_walk = (decltype(t))(cl1_bx * 256 + cl1_row);
    		const auto t = cl1_walk;
    		if (t < n) {
    			float cl1_h0_1{};
    			{
    				const int v = (int)(1) + 0;
    				if (v < (n))
    					cl1_h0_1 = X[t * W + (v - 1)];
    			}
    			float cl1_r1{}, cl1_n1{};
    			float cl1_r3{}, cl1_n3{};
    			float cl1_h5_1{};
    			{
    				const int v = (int)(1) + 0;
    				if (v < (n))
    					cl1_h5_1 = B[t * W + (v - 1)];
    			}
    			float cl1_r6{}, cl1_n6{};
    			{
    				const int v = (int)(1) + cl1_lane;
    				if (v < (n)) {
    					cl1_r1 = X[t * W + v];
    					cl1_r3 = A[t * W + v];
    					cl1_r6 = B[t * W + v];
    				}
    			}
    			for (int cl1_v0 = (1); cl1_v0 < (n); cl1_v0 += 32) {
    				{
    					const int v = cl1_v0 + 32 + cl1_lane;
    					if (v < (n)) {
    						cl1_n1 = X[t * W + v];
    						cl1_n3 = A[t * W + v];
    						cl1_n6 = B[t * W + v];
    					}
    				}
    				float cl1_m0{};
    				float cl1_m5{};
    				#pragma unroll
    				for (int cl1_s = 0; cl1_s < 32; cl1_s++) {
    					const int v = cl1_v0 + cl1_s;
    					if (v < (n)) {
    						float cl1_c0;
    						const float cl1_x1 = __shfl_sync(0xffffffffu, cl1_r1, cl1_s);
    						const float cl1_x3 = __shfl_sync(0xffffffffu, cl1_r3, cl1_s);
    						float cl1_c5;
    						const float cl1_x6 = __shfl_sync(0xffffffffu, cl1_r6, cl1_s);
    						 {
                cl1_c0 = cl1_x1 - cl1_h0_1 * cl1_x3 / cl1_h5_1;
                cl1_c5 = cl1_x6 - cl1_x3 * cl1_x3 / cl1_h5_1;
            }
    						if (cl1_lane == cl1_s)
    							cl1_m0 = cl1_c0;
    						cl1_h0_1 = cl1_c0;
    						if (cl1_lane == cl1_s)
    							cl1_m5 = cl1_c5;
    						cl1_h5_1 = cl1_c5;
    					}
    				}
    				{
    					const int v = cl1_v0 + cl1_lane;
    					if (v < (n)) {
    						X[t * W + v] = cl1_m0;
    						B[t * W + v] = cl1_m5;
    					}
    				}
    				cl1_r1 = cl1_n1;
    				cl1_r3 = cl1_n3;
    				cl1_r6 = cl1_n6;
    			}
    		}
    	}
    } else if (blockIdx.y == 0) if (t < n) {
        for (int v = 1; v < n; v++) {
            X[t * W + v] = X[t * W + v] - X[t * W + (v - 1)] * A[t * W + v] / B[t * W + (v - 1)];
            B[t * W + v] = B[t * W + v] - A[t * W + v] * A[t * W + v] / B[t * W + (v - 1)];
        }
    }
}
