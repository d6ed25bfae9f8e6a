/* cl1cc-launch: grid.y x32 */
__global__ void back_sweep(int n, float *A, float *B, float *X)
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
    			for (int cl1_v0 = (0); cl1_v0 < (n - 2); cl1_v0 += 128) {
    				float cl1_r1[4];
    				float cl1_r2[4];
    				float cl1_r3[4];
    				float cl1_r4[4];
    				#pragma unroll
    				for (int cl1_q = 0; cl1_q < 4; cl1_q++) {
    					const int v = cl1_v0 + cl1_q * 32 + cl1_lane;
    					if (v < (n - 2)) {
    						cl1_r1[cl1_q] = X[t * W + (n - 2 - v)];
    						cl1_r2[cl1_q] = X[t * W + (n - 2 - v - 1)];
    						cl1_r3[cl1_q] = A[t * W + (n - v - 3)];
    						cl1_r4[cl1_q] = B[t * W + (n - 3 - v)];
    					}
    				}
    				__syncwarp();
    				#pragma unroll
    				for (int cl1_q = 0; cl1_q < 4; cl1_q++) {
    					const int v = cl1_v0 + cl1_q * 32 + cl1_lane;
    					if (v < (n - 2))
    					 {
                X[t * W + (n - v - 2)] = (cl1_r1[cl1_q] - cl1_r2[cl1_q] * cl1_r3[cl1_q]) / cl1_r4[cl1_q];
            }
    				}
    			}
    		}
    	}
    } else if (blockIdx.y == 0) if (t < n) {
        for (int v = 0; v < n - 2; v++) {
            X[t * W + (n - v - 2)] = (X[t * W + (n - 2 - v)] - X[t * W + (n - 2 - v - 1)] * A[t * W + (n - v - 3)]) / B[t * W + (n - 3 - v)];
        }
    }
}
