__global__ void row_sweep(int n, float *A, float *B, float *X)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) {
    	for (int cl1_v0 = (1); cl1_v0 < (n); cl1_v0 += 8) {
    		float cl1_w0[8];
    		float cl1_r1[8];
    		float cl1_r2[8];
    		float cl1_r3[8];
    		float cl1_r4[8];
    		float cl1_w5[8];
    		float cl1_r6[8];
    		float cl1_r7[8];
    		float cl1_r8[8];
    		float cl1_r9[8];
    		#pragma unroll
    		for (int cl1_s = 0; cl1_s < 8; cl1_s++) {
    			const int v = cl1_v0 + cl1_s;
    			if (v < (n)) {
    				if (true) cl1_r1[cl1_s] = X[t * W + v];
    				if (cl1_s + (-1) < 0) cl1_r2[cl1_s] = X[t * W + (v - 1)];
    				if (true) cl1_r3[cl1_s] = A[t * W + v];
    				if (cl1_s + (-1) < 0) cl1_r4[cl1_s] = B[t * W + (v - 1)];
    				if (true) cl1_r6[cl1_s] = B[t * W + v];
    				if (true) cl1_r7[cl1_s] = A[t * W + v];
    				if (true) cl1_r8[cl1_s] = A[t * W + v];
    				if (cl1_s + (-1) < 0) cl1_r9[cl1_s] = B[t * W + (v - 1)];
    			}
    		}
    		#pragma unroll
    		for (int cl1_s = 0; cl1_s < 8; cl1_s++) {
    			const int v = cl1_v0 + cl1_s;
    			if (v < (n))
    			 {
                X[t * W + v] = cl1_w0[cl1_s] = cl1_r1[cl1_s] - (cl1_s + (-1) >= 0 ? cl1_w0[cl1_s + (-1)] : cl1_r2[cl1_s]) * cl1_r3[cl1_s] / (cl1_s + (-1) >= 0 ? cl1_w5[cl1_s + (-1)] : cl1_r4[cl1_s]);
                B[t * W + v] = cl1_w5[cl1_s] = cl1_r6[cl1_s] - cl1_r7[cl1_s] * cl1_r8[cl1_s] / (cl1_s + (-1) >= 0 ? cl1_w5[cl1_s + (-1)] : cl1_r9[cl1_s]);
            }
    		}
    	}
    } else if (t < n) {
        for (int v = 1; v < n; v++) {
            X[t * W + v] = X[t * W + v] - X[t * W + (v - 1)] * A[t * W + v] / B[t * W + (v - 1)];
            B[t * W + v] = B[t * W + v] - A[t * W + v] * A[t * W + v] / B[t * W + (v - 1)];
        }
    }
}
