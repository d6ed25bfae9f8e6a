/* cl1cc-launch: grid.y x32 */
__global__ void two_back(int n, float *A, float *B, float *X)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockDim.x == 64 && blockDim.y == 1 && blockDim.z == 1) {
    	const int cl1_lane = threadIdx.x % 32;
    	const long long cl1_lin = gridDim.y == 32 ? (long long)blockIdx.y * gridDim.x + blockIdx.x : -1;
    	const int cl1_bx = cl1_lin >= 0 ? (int)(cl1_lin / 32) : (int)blockIdx.x;
    	const int cl1_by = cl1_lin >= 0 ? (int)(cl1_lin % 32) : (int)blockIdx.y;
    	for (int cl1_row = (int)(cl1_by * 2 + threadIdx.x / 32); cl1_row < 64; cl1_row += (int)(gridDim.y * 2)) {
    		const decltype(t) cl1_walk = (decltype(t))(cl1_bx * 64 + cl1_row);
    		const auto t = cl1_walk;
    		if (t < n) {
    			float cl1_h0_1{};
    			float cl1_h0_2{};
    			{
    				const int v = (int)(2) + 0;
    				if (v < (n - 1))
    					cl1_h0_1 = X[t * W + (v - 1)];
    			}
    			{
    				const int v = (int)(2) + 0;
    				if (v < (n - 1))
    					cl1_h0_2 = X[t * W + (v - 2)];
    			}
    			float cl1_r3{}, cl1_n3{};
    			float cl1_r4{}, cl1_n4{};
    			{
    				const int v = (int)(2) + cl1_lane;
    				if (v < (n - 1)) {
    					cl1_r3 = A[t * W + (v + 1)];
    					cl1_r4 = A[t * W + (v - 1)];
    				}
    			}
    			for (int cl1_v0 = (2); cl1_v0 < (n - 1); cl1_v0 += 32) {
    				{
    					const int v = cl1_v0 + 32 + cl1_lane;
    					if (v < (n - 1)) {
    						cl1_n3 = A[t * W + (v + 1)];
    						cl1_n4 = A[t * W + (v - 1)];
    					}
    				}
    				float cl1_m0{};
    				#pragma unroll
    				for (int cl1_s = 0; cl1_s < 32; cl1_s++) {
    					const int v = cl1_v0 + cl1_s;
    					if (v < (n - 1)) {
    						float cl1_c0;
    						const float cl1_x3 = __shfl_sync(0xffffffffu, cl1_r3, cl1_s);
    						const float cl1_x4 = __shfl_sync(0xffffffffu, cl1_r4, cl1_s);
    						 {
                cl1_c0 = 0.5f * cl1_h0_2 - 0.25f * cl1_h0_1 + cl1_x3 - cl1_x4;
            }
    						if (cl1_lane == cl1_s)
    							cl1_m0 = cl1_c0;
    						cl1_h0_2 = cl1_h0_1;
    						cl1_h0_1 = cl1_c0;
    					}
    				}
    				{
    					const int v = cl1_v0 + cl1_lane;
    					if (v < (n - 1)) {
    						X[t * W + v] = cl1_m0;
    					}
    				}
    				cl1_r3 = cl1_n3;
    				cl1_r4 = cl1_n4;
    			}
    		}
    	}
    } else if (blockIdx.y == 0) if (t < n) {
        for (int v = 2; v < n - 1; v++) {
            X[t * W + v] = 0.5f * X[t * W + (v - 2)] - 0.25f * X[t * W + (v - 1)] + A[t * W + (v + 1)] - A[t * W + (v - 1)];
        }
    }
}
