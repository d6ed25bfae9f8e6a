__global__ void rank_k(int ni, int nj, float alpha, float beta, float *a, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if (blockDim.x == 32 && blockDim.y == 8 && blockDim.z == 1) {
    	__shared__ float cl1_tile0[8][33];
    	__shared__ float cl1_tile1[32][33];
    	const bool cl1_in = ((i < ni) && (j < ni));
    	int k;
    	if (cl1_in) { c[i * ni + j] *= beta; }
    	float cl1_acc0 = 0;
    	if (cl1_in) cl1_acc0 = c[i * ni + j];
    	const int cl1_tid = threadIdx.x + 32 * (threadIdx.y + 8 * threadIdx.z);
    	for (int cl1_k0 = (0); cl1_k0 < (nj); cl1_k0 += 32) {
    		__syncthreads();
    		for (int cl1_t = cl1_tid; cl1_t < 256; cl1_t += 256) {
    			const int cl1_row = blockIdx.y * 8 + cl1_t / 32;
    			const int cl1_kx = cl1_k0 + cl1_t % 32;
    			cl1_tile0[cl1_t / 32][cl1_t % 32] = (cl1_kx < (nj) && 1 && ((cl1_row < ni))) ? a[(cl1_row) * (nj) + cl1_kx] : (float)0;
    		}
    		for (int cl1_t = cl1_tid; cl1_t < 1024; cl1_t += 256) {
    			const int cl1_row = blockIdx.x * 32 + cl1_t / 32;
    			const int cl1_kx = cl1_k0 + cl1_t % 32;
    			cl1_tile1[cl1_t / 32][cl1_t % 32] = (cl1_kx < (nj) && 1 && ((cl1_row < ni))) ? a[(cl1_row) * (nj) + cl1_kx] : (float)0;
    		}
    		__syncthreads();
    		if (cl1_in) {
    			if (cl1_k0 + 32 <= (nj)) {
    				#pragma unroll
    				for (k = cl1_k0; k < cl1_k0 + 32; k++)
            {
                cl1_acc0 += alpha * cl1_tile0[threadIdx.y][k - cl1_k0] * cl1_tile1[threadIdx.x][k - cl1_k0];
            }
    			} else {
    				for (k = cl1_k0; k < (nj); k++)
            {
                cl1_acc0 += alpha * cl1_tile0[threadIdx.y][k - cl1_k0] * cl1_tile1[threadIdx.x][k - cl1_k0];
            }
    			}
    		}
    	}
    	if (cl1_in) { c[i * ni + j] = cl1_acc0; }
    } else if ((i < ni) && (j < ni))
    {
        c[i * ni + j] *= beta;
        int k;
        for (k = 0; k < nj; k++)
        {
            c[i * ni + j] += alpha * a[i * nj + k] * a[j * nj + k];
        }
    }
}
