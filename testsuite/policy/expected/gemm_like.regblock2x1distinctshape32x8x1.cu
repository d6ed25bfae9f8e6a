__global__ void gemm_like(int ni, int nj, int nk, float alpha, float beta, float *a, float *b, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if (blockDim.x == 32 && blockDim.y == 8 && blockDim.z == 1 && gridDim.z == 1) {
    	if (blockIdx.x * 1 >= gridDim.x || blockIdx.y * 2 >= gridDim.y)
    		return;
    	__shared__ float cl1_tile0[16][33];
    	const decltype(j) cl1_j0 = (blockIdx.x * 1 + 0) * 32 + threadIdx.x;
    	const decltype(i) cl1_i0 = (blockIdx.y * 2 + 0) * 8 + threadIdx.y;
    	const decltype(i) cl1_i1 = (blockIdx.y * 2 + 1) * 8 + threadIdx.y;
    	int k;
    	const bool cl1_in0_0 = blockIdx.y * 2 + 0 < gridDim.y && blockIdx.x * 1 + 0 < gridDim.x && ((cl1_i0 < ni) && (cl1_j0 < nj));
    	const bool cl1_in1_0 = blockIdx.y * 2 + 1 < gridDim.y && blockIdx.x * 1 + 0 < gridDim.x && ((cl1_i1 < ni) && (cl1_j0 < nj));
    	const bool cl1_all = cl1_in0_0 && cl1_in1_0;
    	if (cl1_in0_0) { c[cl1_i0 * nj + cl1_j0] *= beta; }
    	float cl1_acc0_0_0 = 0;
    	if (cl1_in0_0) cl1_acc0_0_0 = c[cl1_i0 * nj + cl1_j0];
    	if (cl1_in1_0) { c[cl1_i1 * nj + cl1_j0] *= beta; }
    	float cl1_acc0_1_0 = 0;
    	if (cl1_in1_0) cl1_acc0_1_0 = c[cl1_i1 * nj + cl1_j0];
    	const int cl1_tid = threadIdx.x + 32 * threadIdx.y;
    	for (int cl1_k0 = (0); cl1_k0 < (nk); cl1_k0 += 32) {
    		__syncthreads();
    		for (int cl1_t = cl1_tid; cl1_t < 512; cl1_t += 256) {
    			const int cl1_row = blockIdx.y * 16 + cl1_t / 32;
    			const int cl1_kx = cl1_k0 + cl1_t % 32;
    			cl1_tile0[cl1_t / 32][cl1_t % 32] = (cl1_kx < (nk) && 1 && ((cl1_row < ni))) ? a[(cl1_row) * (nk) + cl1_kx] : (float)0;
    		}
    		__syncthreads();
    		if (cl1_all && cl1_k0 + 32 <= (nk)) {
    			#pragma unroll
    			for (k = cl1_k0; k < cl1_k0 + 32; k++) { 
            {
                cl1_acc0_0_0 += alpha * cl1_tile0[threadIdx.y + 0][k - cl1_k0] * b[k * nj + cl1_j0];
            } 
            {
                cl1_acc0_1_0 += alpha * cl1_tile0[threadIdx.y + 8][k - cl1_k0] * b[k * nj + cl1_j0];
            } }
    		} else {
    			for (k = cl1_k0; k < cl1_k0 + 32 && k < (nk); k++) { if (cl1_in0_0) 
            {
                cl1_acc0_0_0 += alpha * cl1_tile0[threadIdx.y + 0][k - cl1_k0] * b[k * nj + cl1_j0];
            } if (cl1_in1_0) 
            {
                cl1_acc0_1_0 += alpha * cl1_tile0[threadIdx.y + 8][k - cl1_k0] * b[k * nj + cl1_j0];
            } }
    		}
    	}
    	if (cl1_in0_0) { c[cl1_i0 * nj + cl1_j0] = cl1_acc0_0_0; }
    	if (cl1_in1_0) { c[cl1_i1 * nj + cl1_j0] = cl1_acc0_1_0; }
    } else if ((i < ni) && (j < nj))
    {
        c[i * nj + j] *= beta;
        int k;
        for (k = 0; k < nk; k++)
        {
            c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
        }
    }
}
