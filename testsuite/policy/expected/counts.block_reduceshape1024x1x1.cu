__global__ void counts(int n, const int *flags, int *total)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockDim.x == 1024 && blockDim.y == 1 && blockDim.z == 1) {
    	if (blockIdx.x == 0) {
    		int c = 0;
    		decltype(c) cl1_part0 = 0;
    		for (int i = (0) + (int)threadIdx.x; i < (n); i += 1024)
                cl1_part0 += flags[i] > 0;
    		__shared__ decltype(c) cl1_sums0[32];
    		for (int cl1_o = 16; cl1_o > 0; cl1_o /= 2) {
    			cl1_part0 += __shfl_down_sync(0xffffffffu, cl1_part0, cl1_o);
    		}
    		if (threadIdx.x % 32 == 0) { cl1_sums0[threadIdx.x / 32] = cl1_part0; }
    		__syncthreads();
    		if (threadIdx.x == 0) {
    			for (int cl1_w = 0; cl1_w < 32; cl1_w++) { c += cl1_sums0[cl1_w]; }
    			*total = c;
    		}
    	}
    } else if (tid == 0) {
        int c = 0;
        for (int i = 0; i < n; i++)
            c += flags[i] > 0;
        *total = c;
    }
}
