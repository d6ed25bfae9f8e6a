/* cl1cc-launch: grid.y x2 */
__global__ void two_cols(int n, const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ s, int *__restrict__ count, float *__restrict__ t)
{
    int j = threadIdx.x + blockIdx.x * blockDim.x;
    if (blockDim.x == 64 && blockDim.y == 1 && blockDim.z == 1) {
    	__shared__ float cl1_part0[2][32];
    	__shared__ float cl1_part1[2][32];
    	const long long cl1_lin = gridDim.y == 2 ? (long long)blockIdx.y * gridDim.x + blockIdx.x : -1;
    	const int cl1_bx = cl1_lin >= 0 ? (int)(cl1_lin / 2) : (int)blockIdx.x;
    	const int cl1_by = cl1_lin >= 0 ? (int)(cl1_lin % 2) : (int)blockIdx.y;
    	const int cl1_t = threadIdx.x + 64 * (threadIdx.y + 1 * threadIdx.z);
    	const int cl1_c = cl1_t % 32, cl1_r = cl1_t / 32;
    	if (gridDim.y == 2) {
    		const int cl1_s = (int)cl1_by;
    		const int j = cl1_bx * 64 + cl1_s * 32 + cl1_c;
    		const bool cl1_in = (j < M && j >= 3);
    		float cl1_acc0 = 0;
    		float cl1_acc1 = 0;
    		if (cl1_in) {
    			#pragma unroll 8
    			for (int i = (1) + cl1_r; i < (n); i += 2) {
                cl1_acc0 += A[i * M + j];
                cl1_acc1 += B[i * M + j] * A[(i - 1) * M + j];
            }
    		}
    		cl1_part0[cl1_r][cl1_c] = cl1_acc0;
    		cl1_part1[cl1_r][cl1_c] = cl1_acc1;
    		__syncthreads();
    		if (cl1_in && cl1_r == 0) {
    			for (int cl1_w = 1; cl1_w < 2; cl1_w++) { cl1_acc0 += cl1_part0[cl1_w][cl1_c]; cl1_acc1 += cl1_part1[cl1_w][cl1_c]; }
    			s[j] = s[j] + cl1_acc0;
    			t[j] = t[j] + cl1_acc1;
    			count[j] += 1;
    		}
    	} else for (int cl1_s = (int)cl1_by; cl1_s < 2; cl1_s += (int)gridDim.y) {
    		const int j = cl1_bx * 64 + cl1_s * 32 + cl1_c;
    		const bool cl1_in = (j < M && j >= 3);
    		float cl1_acc0 = 0;
    		float cl1_acc1 = 0;
    		if (cl1_in) {
    			#pragma unroll 8
    			for (int i = (1) + cl1_r; i < (n); i += 2) {
                cl1_acc0 += A[i * M + j];
                cl1_acc1 += B[i * M + j] * A[(i - 1) * M + j];
            }
    		}
    		cl1_part0[cl1_r][cl1_c] = cl1_acc0;
    		cl1_part1[cl1_r][cl1_c] = cl1_acc1;
    		__syncthreads();
    		if (cl1_in && cl1_r == 0) {
    			for (int cl1_w = 1; cl1_w < 2; cl1_w++) { cl1_acc0 += cl1_part0[cl1_w][cl1_c]; cl1_acc1 += cl1_part1[cl1_w][cl1_c]; }
    			s[j] = s[j] + cl1_acc0;
    			t[j] = t[j] + cl1_acc1;
    			count[j] += 1;
    		}
    		__syncthreads();
    	}
    } else if (blockIdx.y == 0) if (j < M && j >= 3) {
        for (int i = 1; i < n; i++) {
            s[j] += A[i * M + j];
            t[j] += B[i * M + j] * A[(i - 1) * M + j];
        }
        count[j] += 1;
    }
}
