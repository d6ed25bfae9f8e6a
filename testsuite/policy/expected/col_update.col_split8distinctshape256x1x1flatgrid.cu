/* cl1cc-launch: grid.y x32 */
__global__ void col_update(int n, int ld, float *a, const float *q, float *r, int k)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockDim.x == 256 && blockDim.y == 1 && blockDim.z == 1) {
    	__shared__ float cl1_part0[32][8];
    	const long long cl1_lin = gridDim.y == 32 ? (long long)blockIdx.y * gridDim.x + blockIdx.x : -1;
    	const int cl1_bx = cl1_lin >= 0 ? (int)(cl1_lin / 32) : (int)blockIdx.x;
    	const int cl1_by = cl1_lin >= 0 ? (int)(cl1_lin % 32) : (int)blockIdx.y;
    	const int cl1_t = threadIdx.x + 256 * (threadIdx.y + 1 * threadIdx.z);
    	const int cl1_c = cl1_t % 8, cl1_r = cl1_t / 8;
    	if (gridDim.y == 32) {
    		const int cl1_s = (int)cl1_by;
    		const int j = cl1_bx * 256 + cl1_s * 8 + cl1_c;
    		const bool cl1_in = ((j > k) && (j < M));
    		int i;
    		float cl1_acc0 = 0;
    		if (cl1_in) {
    			#pragma unroll 8
    			for (i = (0) + cl1_r; i < (n); i += 32)
                cl1_acc0 += q[i * ld + k] * a[i * ld + j];
    		}
    		cl1_part0[cl1_r][cl1_c] = cl1_acc0;
    		__syncthreads();
    		if (cl1_in && cl1_r == 0) {
    			for (int cl1_w = 1; cl1_w < 32; cl1_w++) { cl1_acc0 += cl1_part0[cl1_w][cl1_c]; }
    			r[k * M + j] = (0.0f) + cl1_acc0;
    			r[k * M + j] *= 0.5f;
    		}
    		__syncthreads();
    		if (cl1_in) {
    			const bool cl1_par = (ld) != 0;
    			if (cl1_par || cl1_r == 0)
    				for (i = (0) + (cl1_par ? cl1_r : 0); i < (n); i += (cl1_par ? 32 : 1)) {
                a[i * ld + j] -= q[i * ld + k] * r[k * M + j];
                a[i * ld + j] = a[i * ld + j] * 0.5f + i;
            }
    		}
    		__syncthreads();
    		if (cl1_in && cl1_r == 0) {
    			r[k * M + j] += 1.0f;
    		}
    	} else for (int cl1_s = (int)cl1_by; cl1_s < 32; cl1_s += (int)gridDim.y) {
    		const int j = cl1_bx * 256 + cl1_s * 8 + cl1_c;
    		const bool cl1_in = ((j > k) && (j < M));
    		int i;
    		float cl1_acc0 = 0;
    		if (cl1_in) {
    			#pragma unroll 8
    			for (i = (0) + cl1_r; i < (n); i += 32)
                cl1_acc0 += q[i * ld + k] * a[i * ld + j];
    		}
    		cl1_part0[cl1_r][cl1_c] = cl1_acc0;
    		__syncthreads();
    		if (cl1_in && cl1_r == 0) {
    			for (int cl1_w = 1; cl1_w < 32; cl1_w++) { cl1_acc0 += cl1_part0[cl1_w][cl1_c]; }
    			r[k * M + j] = (0.0f) + cl1_acc0;
    			r[k * M + j] *= 0.5f;
    		}
    		__syncthreads();
    		if (cl1_in) {
    			const bool cl1_par = (ld) != 0;
    			if (cl1_par || cl1_r == 0)
    				for (i = (0) + (cl1_par ? cl1_r : 0); i < (n); i += (cl1_par ? 32 : 1)) {
                a[i * ld + j] -= q[i * ld + k] * r[k * M + j];
                a[i * ld + j] = a[i * ld + j] * 0.5f + i;
            }
    		}
    		__syncthreads();
    		if (cl1_in && cl1_r == 0) {
    			r[k * M + j] += 1.0f;
    		}
    		__syncthreads();
    	}
    } else if (blockIdx.y == 0) if ((j > k) && (j < M)) {
        r[k * M + j] = 0.0f;
        int i;
        for (i = 0; i < n; i++)
            r[k * M + j] += q[i * ld + k] * a[i * ld + j];
        r[k * M + j] *= 0.5f;
        for (i = 0; i < n; i++) {
            a[i * ld + j] -= q[i * ld + k] * r[k * M + j];
            a[i * ld + j] = a[i * ld + j] * 0.5f + i;
        }
        r[k * M + j] += 1.0f;
    }
}
