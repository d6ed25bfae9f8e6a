__global__ void gemm_early(int ni, int nj, int nk, float alpha, float beta, float *a, float *b, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (blockDim.x == 32 && blockDim.y == 8 && blockDim.z == 1 && gridDim.z == 1) {
    	if (blockIdx.x * 2 >= gridDim.x || blockIdx.y * 4 >= gridDim.y)
    		return;
    	__shared__ float cl1_tile0[32][33];
    	const decltype(j) cl1_j0 = (blockIdx.x * 2 + 0) * 32 + threadIdx.x;
    	const decltype(j) cl1_j1 = (blockIdx.x * 2 + 1) * 32 + threadIdx.x;
    	const decltype(i) cl1_i0 = (blockIdx.y * 4 + 0) * 8 + threadIdx.y;
    	const decltype(i) cl1_i1 = (blockIdx.y * 4 + 1) * 8 + threadIdx.y;
    	const decltype(i) cl1_i2 = (blockIdx.y * 4 + 2) * 8 + threadIdx.y;
    	const decltype(i) cl1_i3 = (blockIdx.y * 4 + 3) * 8 + threadIdx.y;
    	const bool cl1_in0_0 = blockIdx.y * 4 + 0 < gridDim.y && blockIdx.x * 2 + 0 < gridDim.x && (!(cl1_i0 >= ni) && !(cl1_j0 >= nj));
    	const bool cl1_in0_1 = blockIdx.y * 4 + 0 < gridDim.y && blockIdx.x * 2 + 1 < gridDim.x && (!(cl1_i0 >= ni) && !(cl1_j1 >= nj));
    	const bool cl1_in1_0 = blockIdx.y * 4 + 1 < gridDim.y && blockIdx.x * 2 + 0 < gridDim.x && (!(cl1_i1 >= ni) && !(cl1_j0 >= nj));
    	const bool cl1_in1_1 = blockIdx.y * 4 + 1 < gridDim.y && blockIdx.x * 2 + 1 < gridDim.x && (!(cl1_i1 >= ni) && !(cl1_j1 >= nj));
    	const bool cl1_in2_0 = blockIdx.y * 4 + 2 < gridDim.y && blockIdx.x * 2 + 0 < gridDim.x && (!(cl1_i2 >= ni) && !(cl1_j0 >= nj));
    	const bool cl1_in2_1 = blockIdx.y * 4 + 2 < gridDim.y && blockIdx.x * 2 + 1 < gridDim.x && (!(cl1_i2 >= ni) && !(cl1_j1 >= nj));
    	const bool cl1_in3_0 = blockIdx.y * 4 + 3 < gridDim.y && blockIdx.x * 2 + 0 < gridDim.x && (!(cl1_i3 >= ni) && !(cl1_j0 >= nj));
    	const bool cl1_in3_1 = blockIdx.y * 4 + 3 < gridDim.y && blockIdx.x * 2 + 1 < gridDim.x && (!(cl1_i3 >= ni) && !(cl1_j1 >= nj));
    	const bool cl1_all = cl1_in0_0 && cl1_in0_1 && cl1_in1_0 && cl1_in1_1 && cl1_in2_0 && cl1_in2_1 && cl1_in3_0 && cl1_in3_1;
    	if (cl1_in0_0) { c[cl1_i0 * nj + cl1_j0] *= beta; }
    	float cl1_acc0_0_0 = 0;
    	if (cl1_in0_0) cl1_acc0_0_0 = c[cl1_i0 * nj + cl1_j0];
    	if (cl1_in0_1) { c[cl1_i0 * nj + cl1_j1] *= beta; }
    	float cl1_acc0_0_1 = 0;
    	if (cl1_in0_1) cl1_acc0_0_1 = c[cl1_i0 * nj + cl1_j1];
    	if (cl1_in1_0) { c[cl1_i1 * nj + cl1_j0] *= beta; }
    	float cl1_acc0_1_0 = 0;
    	if (cl1_in1_0) cl1_acc0_1_0 = c[cl1_i1 * nj + cl1_j0];
    	if (cl1_in1_1) { c[cl1_i1 * nj + cl1_j1] *= beta; }
    	float cl1_acc0_1_1 = 0;
    	if (cl1_in1_1) cl1_acc0_1_1 = c[cl1_i1 * nj + cl1_j1];
    	if (cl1_in2_0) { c[cl1_i2 * nj + cl1_j0] *= beta; }
    	float cl1_acc0_2_0 = 0;
    	if (cl1_in2_0) cl1_acc0_2_0 = c[cl1_i2 * nj + cl1_j0];
    	if (cl1_in2_1) { c[cl1_i2 * nj + cl1_j1] *= beta; }
    	float cl1_acc0_2_1 = 0;
    	if (cl1_in2_1) cl1_acc0_2_1 = c[cl1_i2 * nj + cl1_j1];
    	if (cl1_in3_0) { c[cl1_i3 * nj + cl1_j0] *= beta; }
    	float cl1_acc0_3_0 = 0;
    	if (cl1_in3_0) cl1_acc0_3_0 = c[cl1_i3 * nj + cl1_j0];
    	if (cl1_in3_1) { c[cl1_i3 * nj + cl1_j1] *= beta; }
    	float cl1_acc0_3_1 = 0;
    	if (cl1_in3_1) cl1_acc0_3_1 = c[cl1_i3 * nj + cl1_j1];
    	const int cl1_tid = threadIdx.x + 32 * threadIdx.y;
    	for (int cl1_k0 = (0); cl1_k0 < (nk); cl1_k0 += 32) {
    		__syncthreads();
    		for (int cl1_t = cl1_tid; cl1_t < 1024; cl1_t += 256) {
    			const int cl1_row = blockIdx.y * 32 + cl1_t / 32;
    			const int cl1_kx = cl1_k0 + cl1_t % 32;
    			cl1_tile0[cl1_t / 32][cl1_t % 32] = (cl1_kx < (nk) && 1 && (!(cl1_row >= ni))) ? a[(cl1_row) * (nk) + cl1_kx] : (float)0;
    		}
    		__syncthreads();
    		if (cl1_all && cl1_k0 + 32 <= (nk)) {
    			#pragma unroll
    			for (int k = cl1_k0; k < cl1_k0 + 32; k++) { 
            cl1_acc0_0_0 += alpha * cl1_tile0[threadIdx.y + 0][k - cl1_k0] * b[k * nj + cl1_j0]; 
            cl1_acc0_0_1 += alpha * cl1_tile0[threadIdx.y + 0][k - cl1_k0] * b[k * nj + cl1_j1]; 
            cl1_acc0_1_0 += alpha * cl1_tile0[threadIdx.y + 8][k - cl1_k0] * b[k * nj + cl1_j0]; 
            cl1_acc0_1_1 += alpha * cl1_tile0[threadIdx.y + 8][k - cl1_k0] * b[k * nj + cl1_j1]; 
            cl1_acc0_2_0 += alpha * cl1_tile0[threadIdx.y + 16][k - cl1_k0] * b[k * nj + cl1_j0]; 
            cl1_acc0_2_1 += alpha * cl1_tile0[threadIdx.y + 16][k - cl1_k0] * b[k * nj + cl1_j1]; 
            cl1_acc0_3_0 += alpha * cl1_tile0[threadIdx.y + 24][k - cl1_k0] * b[k * nj + cl1_j0]; 
            cl1_acc0_3_1 += alpha * cl1_tile0[threadIdx.y + 24][k - cl1_k0] * b[k * nj + cl1_j1]; }
    		} else {
    			for (int k = cl1_k0; k < cl1_k0 + 32 && k < (nk); k++) { if (cl1_in0_0) 
            cl1_acc0_0_0 += alpha * cl1_tile0[threadIdx.y + 0][k - cl1_k0] * b[k * nj + cl1_j0]; if (cl1_in0_1) 
            cl1_acc0_0_1 += alpha * cl1_tile0[threadIdx.y + 0][k - cl1_k0] * b[k * nj + cl1_j1]; if (cl1_in1_0) 
            cl1_acc0_1_0 += alpha * cl1_tile0[threadIdx.y + 8][k - cl1_k0] * b[k * nj + cl1_j0]; if (cl1_in1_1) 
            cl1_acc0_1_1 += alpha * cl1_tile0[threadIdx.y + 8][k - cl1_k0] * b[k * nj + cl1_j1]; if (cl1_in2_0) 
            cl1_acc0_2_0 += alpha * cl1_tile0[threadIdx.y + 16][k - cl1_k0] * b[k * nj + cl1_j0]; if (cl1_in2_1) 
            cl1_acc0_2_1 += alpha * cl1_tile0[threadIdx.y + 16][k - cl1_k0] * b[k * nj + cl1_j1]; if (cl1_in3_0) 
            cl1_acc0_3_0 += alpha * cl1_tile0[threadIdx.y + 24][k - cl1_k0] * b[k * nj + cl1_j0]; if (cl1_in3_1) 
            cl1_acc0_3_1 += alpha * cl1_tile0[threadIdx.y + 24][k - cl1_k0] * b[k * nj + cl1_j1]; }
    		}
    	}
    	if (cl1_in0_0) { c[cl1_i0 * nj + cl1_j0] = cl1_acc0_0_0; }
    	if (cl1_in0_1) { c[cl1_i0 * nj + cl1_j1] = cl1_acc0_0_1; }
    	if (cl1_in1_0) { c[cl1_i1 * nj + cl1_j0] = cl1_acc0_1_0; }
    	if (cl1_in1_1) { c[cl1_i1 * nj + cl1_j1] = cl1_acc0_1_1; }
    	if (cl1_in2_0) { c[cl1_i2 * nj + cl1_j0] = cl1_acc0_2_0; }
    	if (cl1_in2_1) { c[cl1_i2 * nj + cl1_j1] = cl1_acc0_2_1; }
    	if (cl1_in3_0) { c[cl1_i3 * nj + cl1_j0] = cl1_acc0_3_0; }
    	if (cl1_in3_1) { c[cl1_i3 * nj + cl1_j1] = cl1_acc0_3_1; }
    } else {
    if (i >= ni || j >= nj)
        return;
    c[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++)
        c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
}
}
