/* cl1cc-launch: grid.y x8 */
__global__ void row_sweep(int n, float *A, float *B, float *X)
{
    unsigned cl1cc_slice = (blockDim.x + gridDim.y - 1) / gridDim.y;
    if (threadIdx.x >= cl1cc_slice || blockIdx.y * cl1cc_slice + threadIdx.x >= blockDim.x)
        return;
    int t = blockIdx.x * blockDim.x + (blockIdx.y * cl1cc_slice + threadIdx.x);
    if (cl1cc_slice == 32 && blockDim.x % 32 == 0) {
    	__shared__ float cl1_tile0[32][17];
    	__shared__ float cl1_tile1[32][17];
    	__shared__ float cl1_tile2[32][17];
    	const unsigned cl1_lane = threadIdx.x % 32;
    	const bool cl1_in = (t < n);
    	float cl1_x0[17];
    	float cl1_x1[17];
    	float cl1_x2[17];
    	{
    		const int cl1_vn = (1);
    		if (cl1_vn < (n)) {
    		#pragma unroll
    		for (int cl1_i = 0; cl1_i < 17; cl1_i++) {
    			const int cl1_e = cl1_i * 32 + (int)cl1_lane;
    			{
    				bool cl1_ok;
    				const int cl1_r = cl1_e / 17, cl1_c = cl1_e % 17;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_vn + (-1) + cl1_c;
    				cl1_ok = cl1_e < 544 && (cl1_row < n) && ((cl1_c >= 1 && cl1_c < 17 && cl1_p - (0) < (n))
    				    || (cl1_c >= 0 && cl1_c < 16 && cl1_p - (-1) < (n)));
    				if (cl1_ok) cl1_x0[cl1_i] = X[cl1_row * W + cl1_p];
    			}
    			{
    				bool cl1_ok;
    				const int cl1_r = cl1_e / 16, cl1_c = cl1_e % 16;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_vn + (0) + cl1_c;
    				cl1_ok = cl1_e < 512 && (cl1_row < n) && ((cl1_c >= 0 && cl1_c < 16 && cl1_p - (0) < (n)));
    				if (cl1_ok) cl1_x1[cl1_i] = A[cl1_row * W + cl1_p];
    			}
    			{
    				bool cl1_ok;
    				const int cl1_r = cl1_e / 17, cl1_c = cl1_e % 17;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_vn + (0) + cl1_c;
    				cl1_ok = cl1_e < 544 && (cl1_row < n) && ((cl1_c >= 0 && cl1_c < 16 && cl1_p - (0) < (n))
    				    || (cl1_c >= 1 && cl1_c < 17 && cl1_p - (1) < (n)));
    				if (cl1_ok) cl1_x2[cl1_i] = B[cl1_row * W + (cl1_p - 1)];
    			}
    		}
    		}
    	}
    	for (int cl1_v0 = (1); cl1_v0 < (n); cl1_v0 += 16) {
    		const bool cl1_first = cl1_v0 == (1);
    		if (!cl1_first) {
    			for (int cl1_e = (int)cl1_lane; cl1_e < 32; cl1_e += 32) {
    				const int cl1_r = cl1_e / 1, cl1_c = cl1_e % 1;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				if (cl1_row < n) cl1_tile0[cl1_r][cl1_c] = cl1_tile0[cl1_r][cl1_c + 16];
    			}
    			for (int cl1_e = (int)cl1_lane; cl1_e < 32; cl1_e += 32) {
    				const int cl1_r = cl1_e / 1, cl1_c = cl1_e % 1;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				if (cl1_row < n) cl1_tile2[cl1_r][cl1_c] = cl1_tile2[cl1_r][cl1_c + 16];
    			}
    		}
    		__syncwarp();
    		#pragma unroll
    		for (int cl1_i = 0; cl1_i < 17; cl1_i++) {
    			const int cl1_e = cl1_i * 32 + (int)cl1_lane;
    			{
    				bool cl1_ok;
    				const int cl1_r = cl1_e / 17, cl1_c = cl1_e % 17;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_v0 + (-1) + cl1_c;
    				cl1_ok = cl1_e < 544 && (cl1_row < n) && ((cl1_c >= 1 && cl1_c < 17 && cl1_p - (0) < (n))
    				    || (cl1_c >= 0 && cl1_c < 16 && cl1_p - (-1) < (n))) && (cl1_first || cl1_c >= 1);
    				if (cl1_ok) cl1_tile0[cl1_r][cl1_c] = cl1_x0[cl1_i];
    			}
    			{
    				bool cl1_ok;
    				const int cl1_r = cl1_e / 16, cl1_c = cl1_e % 16;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_v0 + (0) + cl1_c;
    				cl1_ok = cl1_e < 512 && (cl1_row < n) && ((cl1_c >= 0 && cl1_c < 16 && cl1_p - (0) < (n)));
    				if (cl1_ok) cl1_tile1[cl1_r][cl1_c] = cl1_x1[cl1_i];
    			}
    			{
    				bool cl1_ok;
    				const int cl1_r = cl1_e / 17, cl1_c = cl1_e % 17;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_v0 + (0) + cl1_c;
    				cl1_ok = cl1_e < 544 && (cl1_row < n) && ((cl1_c >= 0 && cl1_c < 16 && cl1_p - (0) < (n))
    				    || (cl1_c >= 1 && cl1_c < 17 && cl1_p - (1) < (n))) && (cl1_first || cl1_c >= 1);
    				if (cl1_ok) cl1_tile2[cl1_r][cl1_c] = cl1_x2[cl1_i];
    			}
    		}
    		__syncwarp();
    		{
    		const int cl1_vn = cl1_v0 + 16;
    		if (cl1_vn < (n)) {
    		#pragma unroll
    		for (int cl1_i = 0; cl1_i < 17; cl1_i++) {
    			const int cl1_e = cl1_i * 32 + (int)cl1_lane;
    			{
    				bool cl1_ok;
    				const int cl1_r = cl1_e / 17, cl1_c = cl1_e % 17;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_vn + (-1) + cl1_c;
    				cl1_ok = cl1_e < 544 && (cl1_row < n) && ((cl1_c >= 1 && cl1_c < 17 && cl1_p - (0) < (n))
    				    || (cl1_c >= 0 && cl1_c < 16 && cl1_p - (-1) < (n))) && cl1_c >= 1;
    				if (cl1_ok) cl1_x0[cl1_i] = X[cl1_row * W + cl1_p];
    			}
    			{
    				bool cl1_ok;
    				const int cl1_r = cl1_e / 16, cl1_c = cl1_e % 16;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_vn + (0) + cl1_c;
    				cl1_ok = cl1_e < 512 && (cl1_row < n) && ((cl1_c >= 0 && cl1_c < 16 && cl1_p - (0) < (n)));
    				if (cl1_ok) cl1_x1[cl1_i] = A[cl1_row * W + cl1_p];
    			}
    			{
    				bool cl1_ok;
    				const int cl1_r = cl1_e / 17, cl1_c = cl1_e % 17;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_vn + (0) + cl1_c;
    				cl1_ok = cl1_e < 544 && (cl1_row < n) && ((cl1_c >= 0 && cl1_c < 16 && cl1_p - (0) < (n))
    				    || (cl1_c >= 1 && cl1_c < 17 && cl1_p - (1) < (n))) && cl1_c >= 1;
    				if (cl1_ok) cl1_x2[cl1_i] = B[cl1_row * W + (cl1_p - 1)];
    			}
    		}
    		}
    		}
    		if (cl1_in && cl1_v0 + 16 <= (n)) {
    			#pragma unroll
    			for (int cl1_s = 0; cl1_s < 16; cl1_s++) {
    				const int v = cl1_v0 + cl1_s;
    				(void)v;
    				 {
                cl1_tile0[cl1_lane][cl1_s + 1] = cl1_tile0[cl1_lane][cl1_s + 1] - cl1_tile0[cl1_lane][cl1_s + 0] * cl1_tile1[cl1_lane][cl1_s + 0] / cl1_tile2[cl1_lane][cl1_s + 0];
                cl1_tile2[cl1_lane][cl1_s + 1] = cl1_tile2[cl1_lane][cl1_s + 1] - cl1_tile1[cl1_lane][cl1_s + 0] * cl1_tile1[cl1_lane][cl1_s + 0] / cl1_tile2[cl1_lane][cl1_s + 0];
            }
    			}
    		} else if (cl1_in) {
    			#pragma unroll
    			for (int cl1_s = 0; cl1_s < 16; cl1_s++) {
    				const int v = cl1_v0 + cl1_s;
    				if (v < (n))
    				 {
                cl1_tile0[cl1_lane][cl1_s + 1] = cl1_tile0[cl1_lane][cl1_s + 1] - cl1_tile0[cl1_lane][cl1_s + 0] * cl1_tile1[cl1_lane][cl1_s + 0] / cl1_tile2[cl1_lane][cl1_s + 0];
                cl1_tile2[cl1_lane][cl1_s + 1] = cl1_tile2[cl1_lane][cl1_s + 1] - cl1_tile1[cl1_lane][cl1_s + 0] * cl1_tile1[cl1_lane][cl1_s + 0] / cl1_tile2[cl1_lane][cl1_s + 0];
            }
    			}
    		}
    		__syncwarp();
    		for (int cl1_i0 = 0; cl1_i0 < 17; cl1_i0 += 3) {
    			float cl1_x0[3];
    			bool cl1_ok0[3];
    			float cl1_x2[3];
    			bool cl1_ok2[3];
    			#pragma unroll
    			for (int cl1_u = 0; cl1_u < 3; cl1_u++) {
    				const int cl1_e = (cl1_i0 + cl1_u) * 32 + (int)cl1_lane;
    				{
    				const int cl1_r = cl1_e / 17, cl1_c = cl1_e % 17;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_v0 + (-1) + cl1_c;
    				cl1_ok0[cl1_u] = cl1_e < 544 && (cl1_row < n) && ((cl1_c >= 1 && cl1_c < 17 && cl1_p - (0) < (n)));
    				if (cl1_ok0[cl1_u]) cl1_x0[cl1_u] = cl1_tile0[cl1_r][cl1_c];
    				}
    				{
    				const int cl1_r = cl1_e / 17, cl1_c = cl1_e % 17;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_v0 + (0) + cl1_c;
    				cl1_ok2[cl1_u] = cl1_e < 544 && (cl1_row < n) && ((cl1_c >= 1 && cl1_c < 17 && cl1_p - (1) < (n)));
    				if (cl1_ok2[cl1_u]) cl1_x2[cl1_u] = cl1_tile2[cl1_r][cl1_c];
    				}
    			}
    			#pragma unroll
    			for (int cl1_u = 0; cl1_u < 3; cl1_u++) {
    				const int cl1_e = (cl1_i0 + cl1_u) * 32 + (int)cl1_lane;
    				{
    				const int cl1_r = cl1_e / 17, cl1_c = cl1_e % 17;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_v0 + (-1) + cl1_c;
    				if (cl1_ok0[cl1_u]) X[cl1_row * W + cl1_p] = cl1_x0[cl1_u];
    				}
    				{
    				const int cl1_r = cl1_e / 17, cl1_c = cl1_e % 17;
    				const decltype(t) cl1_row = t - (decltype(t))cl1_lane + (decltype(t))cl1_r;
    				const int cl1_p = cl1_v0 + (0) + cl1_c;
    				if (cl1_ok2[cl1_u]) B[cl1_row * W + (cl1_p - 1)] = cl1_x2[cl1_u];
    				}
    			}
    		}
    		__syncwarp();
    	}
    } else if (t < n) {
        for (int v = 1; v < n; v++) {
            X[t * W + v] = X[t * W + v] - X[t * W + (v - 1)] * A[t * W + v] / B[t * W + (v - 1)];
            B[t * W + v] = B[t * W + v] - A[t * W + v] * A[t * W + v] / B[t * W + (v - 1)];
        }
    }
}
