/* cl1cc-launch: grid.y x8 */
__global__ void back_sweep(int n, float *A, float *B, float *X)
{
    unsigned cl1cc_slice = (blockDim.x + gridDim.y - 1) / gridDim.y;
    if (threadIdx.x >= cl1cc_slice || blockIdx.y * cl1cc_slice + threadIdx.x >= blockDim.x)
        return;
    int t = blockIdx.x * blockDim.x + (blockIdx.y * cl1cc_slice + threadIdx.x);
    if (cl1cc_slice == 32 && blockDim.x % 32 == 0) {
    	__shared__ float cl1_tile0[32][65];
    	__shared__ float cl1_tile1[32][65];
    	__shared__ float cl1_tile2[32][65];
    	const unsigned cl1_lane = threadIdx.x % 32;
    	const bool cl1_in = (t < n);
    	for (int cl1_v0 = (0); cl1_v0 < (n - 2); cl1_v0 += 64) {
    		for (int cl1_i0 = 0; cl1_i0 < 65; cl1_i0 += 22) {
    			float cl1_x0[22];
    			bool cl1_ok0[22];
    			float cl1_x1[22];
    			bool cl1_ok1[22];
    			float cl1_x2[22];
    			bool cl1_ok2[22];
    			#pragma unroll
    			for (int cl1_u = 0; cl1_u < 22; cl1_u++) {
    				const int cl1_e = (cl1_i0 + cl1_u) * 32 + (int)cl1_lane;
    				{
    				const int cl1_r = cl1_e / 65, cl1_c = cl1_e % 65;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_v0 + (0) + cl1_c;
    				cl1_ok0[cl1_u] = cl1_e < 2080 && (cl1_row < n) && ((cl1_c >= 0 && cl1_c < 64 && cl1_p - (0) < (n - 2))
    				    || (cl1_c >= 1 && cl1_c < 65 && cl1_p - (1) < (n - 2)));
    				if (cl1_ok0[cl1_u]) cl1_x0[cl1_u] = X[cl1_row * W + (n - cl1_p - 2)];
    				}
    				{
    				const int cl1_r = cl1_e / 64, cl1_c = cl1_e % 64;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_v0 + (0) + cl1_c;
    				cl1_ok1[cl1_u] = cl1_e < 2048 && (cl1_row < n) && ((cl1_c >= 0 && cl1_c < 64 && cl1_p - (0) < (n - 2)));
    				if (cl1_ok1[cl1_u]) cl1_x1[cl1_u] = A[cl1_row * W + (n - cl1_p - 3)];
    				}
    				{
    				const int cl1_r = cl1_e / 64, cl1_c = cl1_e % 64;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_v0 + (0) + cl1_c;
    				cl1_ok2[cl1_u] = cl1_e < 2048 && (cl1_row < n) && ((cl1_c >= 0 && cl1_c < 64 && cl1_p - (0) < (n - 2)));
    				if (cl1_ok2[cl1_u]) cl1_x2[cl1_u] = B[cl1_row * W + (n - 3 - cl1_p)];
    				}
    			}
    			#pragma unroll
    			for (int cl1_u = 0; cl1_u < 22; cl1_u++) {
    				const int cl1_e = (cl1_i0 + cl1_u) * 32 + (int)cl1_lane;
    				{
    				const int cl1_r = cl1_e / 65, cl1_c = cl1_e % 65;
    				if (cl1_ok0[cl1_u]) cl1_tile0[cl1_r][cl1_c] = cl1_x0[cl1_u];
    				}
    				{
    				const int cl1_r = cl1_e / 64, cl1_c = cl1_e % 64;
    				if (cl1_ok1[cl1_u]) cl1_tile1[cl1_r][cl1_c] = cl1_x1[cl1_u];
    				}
    				{
    				const int cl1_r = cl1_e / 64, cl1_c = cl1_e % 64;
    				if (cl1_ok2[cl1_u]) cl1_tile2[cl1_r][cl1_c] = cl1_x2[cl1_u];
    				}
    			}
    		}
    		__syncwarp();
    		if (cl1_in && cl1_v0 + 64 <= (n - 2)) {
    			#pragma unroll
    			for (int cl1_s = 0; cl1_s < 64; cl1_s++) {
    				const int v = cl1_v0 + cl1_s;
    				(void)v;
    				 {
                cl1_tile0[cl1_lane][cl1_s + 0] = (cl1_tile0[cl1_lane][cl1_s + 0] - cl1_tile0[cl1_lane][cl1_s + 1] * cl1_tile1[cl1_lane][cl1_s + 0]) / cl1_tile2[cl1_lane][cl1_s + 0];
            }
    			}
    		} else if (cl1_in) {
    			#pragma unroll
    			for (int cl1_s = 0; cl1_s < 64; cl1_s++) {
    				const int v = cl1_v0 + cl1_s;
    				if (v < (n - 2))
    				 {
                cl1_tile0[cl1_lane][cl1_s + 0] = (cl1_tile0[cl1_lane][cl1_s + 0] - cl1_tile0[cl1_lane][cl1_s + 1] * cl1_tile1[cl1_lane][cl1_s + 0]) / cl1_tile2[cl1_lane][cl1_s + 0];
            }
    			}
    		}
    		__syncwarp();
    		for (int cl1_i0 = 0; cl1_i0 < 65; cl1_i0 += 22) {
    			float cl1_x0[22];
    			bool cl1_ok0[22];
    			#pragma unroll
    			for (int cl1_u = 0; cl1_u < 22; cl1_u++) {
    				const int cl1_e = (cl1_i0 + cl1_u) * 32 + (int)cl1_lane;
    				{
    				const int cl1_r = cl1_e / 65, cl1_c = cl1_e % 65;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_v0 + (0) + cl1_c;
    				cl1_ok0[cl1_u] = cl1_e < 2080 && (cl1_row < n) && ((cl1_c >= 0 && cl1_c < 64 && cl1_p - (0) < (n - 2)));
    				if (cl1_ok0[cl1_u]) cl1_x0[cl1_u] = cl1_tile0[cl1_r][cl1_c];
    				}
    			}
    			#pragma unroll
    			for (int cl1_u = 0; cl1_u < 22; cl1_u++) {
    				const int cl1_e = (cl1_i0 + cl1_u) * 32 + (int)cl1_lane;
    				{
    				const int cl1_r = cl1_e / 65, cl1_c = cl1_e % 65;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_v0 + (0) + cl1_c;
    				if (cl1_ok0[cl1_u]) X[cl1_row * W + (n - cl1_p - 2)] = cl1_x0[cl1_u];
    				}
    			}
    		}
    		__syncwarp();
    	}
    } else if (t < n) {
        for (int v = 0; v < n - 2; v++) {
            X[t * W + (n - v - 2)] = (X[t * W + (n - 2 - v)] - X[t * W + (n - 2 - v - 1)] * A[t * W + (n - v - 3)]) / B[t * W + (n - 3 - v)];
        }
    }
}
