__global__ void two_sums(int n, const double *x, const double *y, double *out)
{
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    if (blockDim.x == 128 && blockDim.y == 1 && blockDim.z == 1) {
    	if (blockIdx.x == 0) {
    		double sx = 1.0;
    		double sxy = 0;
    		decltype(sx) cl1_part0 = 0;
    		decltype(sxy) cl1_part1 = 0;
    		for (int i = (2) + (int)threadIdx.x; i < (n - 1); i += 128) {
                cl1_part0 += x[i];
                cl1_part1 += x[i] * fabs(y[i]);
            }
    		__shared__ decltype(sx) cl1_sums0[4];
    		__shared__ decltype(sxy) cl1_sums1[4];
    		for (int cl1_o = 16; cl1_o > 0; cl1_o /= 2) {
    			cl1_part0 += __shfl_down_sync(0xffffffffu, cl1_part0, cl1_o);
    			cl1_part1 += __shfl_down_sync(0xffffffffu, cl1_part1, cl1_o);
    		}
    		if (threadIdx.x % 32 == 0) { cl1_sums0[threadIdx.x / 32] = cl1_part0; cl1_sums1[threadIdx.x / 32] = cl1_part1; }
    		__syncthreads();
    		if (threadIdx.x == 0) {
    			for (int cl1_w = 0; cl1_w < 4; cl1_w++) { sx += cl1_sums0[cl1_w]; sxy += cl1_sums1[cl1_w]; }
    			if (sxy > 0) {
    			    out[0] = sx / sxy;
    			} else {
    			    out[0] = sx;
    			}
    		}
    	}
    } else if (0 == t) {
        double sx = 1.0;
        double sxy = 0;
        for (int i = 2; i < n - 1; ++i) {
            sx += x[i];
            sxy += x[i] * fabs(y[i]);
        }
        if (sxy > 0) {
            out[0] = sx / sxy;
        } else {
            out[0] = sx;
        }
    }
}
