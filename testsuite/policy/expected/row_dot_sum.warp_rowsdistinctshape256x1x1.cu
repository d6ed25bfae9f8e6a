__global__ void row_dot_sum(int rows, int n, const float *A, const float *x, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockDim.x == 256 && blockDim.y == 1 && blockDim.z == 1) {
    	const int cl1_lane = threadIdx.x % 32;
    	for (int cl1_r = 0; cl1_r < 32; cl1_r++) {
    		const int i = blockIdx.x * 256 + (threadIdx.x / 32) * 32 + cl1_r;
    		if (!(i >= rows)) {
    			float sum = 0.0f;
    			float cl1_acc0 = 0;
    			#pragma unroll 4
    			for (int j = (0) + cl1_lane; j < (n); j += 32)
            cl1_acc0 += A[i * n + j] * x[j];
    			for (int cl1_o = 16; cl1_o > 0; cl1_o /= 2) {
    				cl1_acc0 += __shfl_down_sync(0xffffffffu, cl1_acc0, cl1_o);
    			}
    			if (cl1_lane == 0) { sum = sum + cl1_acc0; out[i] = sum; }
    		}
    	}
    } else {
    if (i >= rows)
        return;
    float sum = 0.0f;
    for (int j = 0; j < n; j++)
        sum += A[i * n + j] * x[j];
    out[i] = sum;
}
}
