__global__ void col_sweep(int n, int rows, const float *c, float *y, float *z)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) {
    	for (int cl1_v0 = (2); cl1_v0 < (rows); cl1_v0 += 8) {
    		float cl1_w0[8];
    		float cl1_r1[8];
    		float cl1_r2[8];
    		float cl1_w3[8];
    		float cl1_r5[8];
    		float cl1_r6[8];
    		#pragma unroll
    		for (int cl1_s = 0; cl1_s < 8; cl1_s++) {
    			const int v = cl1_v0 + cl1_s;
    			if (v < (rows)) {
    				if (cl1_s + (-2) < 0) cl1_r1[cl1_s] = y[(v - 2) * n + t];
    				if (true) cl1_r2[cl1_s] = c[v * n + t];
    				if (true) cl1_r5[cl1_s] = c[(v - 1) * n + t];
    				if (cl1_s + (-1) < 0) cl1_r6[cl1_s] = z[(v - 1) * n + t];
    			}
    		}
    		#pragma unroll
    		for (int cl1_s = 0; cl1_s < 8; cl1_s++) {
    			const int v = cl1_v0 + cl1_s;
    			if (v < (rows))
    			 {
                y[v * n + t] = cl1_w0[cl1_s] = 0.5f * (cl1_s + (-2) >= 0 ? cl1_w0[cl1_s + (-2)] : cl1_r1[cl1_s]) + cl1_r2[cl1_s];
                z[v * n + t] = cl1_w3[cl1_s] = cl1_w0[cl1_s] * cl1_r5[cl1_s] - (cl1_s + (-1) >= 0 ? cl1_w3[cl1_s + (-1)] : cl1_r6[cl1_s]);
            }
    		}
    	}
    } else if (t < n) {
        for (int v = 2; v < rows; v++) {
            y[v * n + t] = 0.5f * y[(v - 2) * n + t] + c[v * n + t];
            z[v * n + t] = y[v * n + t] * c[(v - 1) * n + t] - z[(v - 1) * n + t];
        }
    }
}
