__global__ void gemm_like(int ni, int nj, int nk, float alpha, float beta, float *a, float *b, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if (blockDim.x == 32 && blockDim.y == 8 && blockDim.z == 1 && gridDim.z == 1) {
    	if (blockIdx.x * 4 >= gridDim.x || blockIdx.y * 4 >= gridDim.y)
    		return;
    	__shared__ float cl1_tile0[32][33];
    	const decltype(j) cl1_j0 = (blockIdx.x * 4 + 0) * 32 + threadIdx.x;
    	const decltype(j) cl1_j1 = (blockIdx.x * 4 + 1) * 32 + threadIdx.x;
    	const decltype(j) cl1_j2 = (blockIdx.x * 4 + 2) * 32 + threadIdx.x;
    	const decltype(j) cl1_j3 = (blockIdx.x * 4 + 3) * 32 + threadIdx.x;
    	const decltype(i) cl1_i0 = (blockIdx.y * 4 + 0) * 8 + threadIdx.y;
    	const decltype(i) cl1_i1 = (blockIdx.y * 4 + 1) * 8 + threadIdx.y;
    	const decltype(i) cl1_i2 = (blockIdx.y * 4 + 2) * 8 + threadIdx.y;
    	const decltype(i) cl1_i3 = (blockIdx.y * 4 + 3) * 8 + threadIdx.y;
    	int k;
    	const bool cl1_in0_0 = blockIdx.y * 4 + 0 < gridDim.y && blockIdx.x * 4 + 0 < gridDim.x && ((cl1_i0 < ni) && (cl1_j0 < nj));
    	const bool cl1_in0_1 = blockIdx.y * 4 + 0 < gridDim.y && blockIdx.x * 4 + 1 < gridDim.x && ((cl1_i0 < ni) && (cl1_j1 < nj));
    	const bool cl1_in0_2 = blockIdx.y * 4 + 0 < gridDim.y && blockIdx.x * 4 + 2 < gridDim.x && ((cl1_i0 < ni) && (cl1_j2 < nj));
    	const bool cl1_in0_3 = blockIdx.y * 4 + 0 < gridDim.y && blockIdx.x * 4 + 3 < gridDim.x && ((cl1_i0 < ni) && (cl1_j3 < nj));
    	const bool cl1_in1_0 = blockIdx.y * 4 + 1 < gridDim.y && blockIdx.x * 4 + 0 < gridDim.x && ((cl1_i1 < ni) && (cl1_j0 < nj));
    	const bool cl1_in1_1 = blockIdx.y * 4 + 1 < gridDim.y && blockIdx.x * 4 + 1 < gridDim.x && ((cl1_i1 < ni) && (cl1_j1 < nj));
    	const bool cl1_in1_2 = blockIdx.y * 4 + 1 < gridDim.y && blockIdx.x * 4 + 2 < gridDim.x && ((cl1_i1 < ni) && (cl1_j2 < nj));
    	const bool cl1_in1_3 = blockIdx.y * 4 + 1 < gridDim.y && blockIdx.x * 4 + 3 < gridDim.x && ((cl1_i1 < ni) && (cl1_j3 < nj));
    	const bool cl1_in2_0 = blockIdx.y * 4 + 2 < gridDim.y && blockIdx.x * 4 + 0 < gridDim.x && ((cl1_i2 < ni) && (cl1_j0 < nj));
    	const bool cl1_in2_1 = blockIdx.y * 4 + 2 < gridDim.y && blockIdx.x * 4 + 1 < gridDim.x && ((cl1_i2 < ni) && (cl1_j1 < nj));
    	const bool cl1_in2_2 = blockIdx.y * 4 + 2 < gridDim.y && blockIdx.x * 4 + 2 < gridDim.x && ((cl1_i2 < ni) && (cl1_j2 < nj));
    	const bool cl1_in2_3 = blockIdx.y * 4 + 2 < gridDim.y && blockIdx.x * 4 + 3 < gridDim.x && ((cl1_i2 < ni) && (cl1_j3 < nj));
    	const bool cl1_in3_0 = blockIdx.y * 4 + 3 < gridDim.y && blockIdx.x * 4 + 0 < gridDim.x && ((cl1_i3 < ni) && (cl1_j0 < nj));
    	const bool cl1_in3_1 = blockIdx.y * 4 + 3 < gridDim.y && blockIdx.x * 4 + 1 < gridDim.x && ((cl1_i3 < ni) && (cl1_j1 < nj));
    	const bool cl1_in3_2 = blockIdx.y * 4 + 3 < gridDim.y && blockIdx.x * 4 + 2 < gridDim.x && ((cl1_i3 < ni) && (cl1_j2 < nj));
    	const bool cl1_in3_3 = blockIdx.y * 4 + 3 < gridDim.y && blockIdx.x * 4 + 3 < gridDim.x && ((cl1_i3 < ni) && (cl1_j3 < nj));
    	const bool cl1_all = cl1_in0_0 && cl1_in0_1 && cl1_in0_2 && cl1_in0_3 && cl1_in1_0 && cl1_in1_1 && cl1_in1_2 && cl1_in1_3 && cl1_in2_0 && cl1_in2_1 && cl1_in2_2 && cl1_in2_3 && cl1_in3_0 && cl1_in3_1 && cl1_in3_2 && cl1_in3_3;
    	if (cl1_in0_0) { c[cl1_i0 * nj + cl1_j0] *= beta; }
    	float cl1_acc0_0_0 = 0;
    	if (cl1_in0_0) cl1_acc0_0_0 = c[cl1_i0 * nj + cl1_j0];
    	if (cl1_in0_1) { c[cl1_i0 * nj + cl1_j1] *= beta; }
    	float cl1_acc0_0_1 = 0;
    	if (cl1_in0_1) cl1_acc0_0_1 = c[cl1_i0 * nj + cl1_j1];
    	if (cl1_in0_2) { c[cl1_i0 * nj + cl1_j2] *= beta; }
    	float cl1_acc0_0_2 = 0;
    	if (cl1_in0_2) cl1_acc0_0_2 = c[cl1_i0 * nj + cl1_j2];
    	if (cl1_in0_3) { c[cl1_i0 * nj + cl1_j3] *= beta; }
    	float cl1_acc0_0_3 = 0;
    	if (cl1_in0_3) cl1_acc0_0_3 = c[cl1_i0 * nj + cl1_j3];
    	if (cl1_in1_0) { c[cl1_i1 * nj + cl1_j0] *= beta; }
    	float cl1_acc0_1_0 = 0;
    	if (cl1_in1_0) cl1_acc0_1_0 = c[cl1_i1 * nj + cl1_j0];
    	if (cl1_in1_1) { c[cl1_i1 * nj + cl1_j1] *= beta; }
    	float cl1_acc0_1_1 = 0;
    	if (cl1_in1_1) cl1_acc0_1_1 = c[cl1_i1 * nj + cl1_j1];
    	if (cl1_in1_2) { c[cl1_i1 * nj + cl1_j2] *= beta; }
    	float cl1_acc0_1_2 = 0;
    	if (cl1_in1_2) cl1_acc0_1_2 = c[cl1_i1 * nj + cl1_j2];
    	if (cl1_in1_3) { c[cl1_i1 * nj + cl1_j3] *= beta; }
    	float cl1_acc0_1_3 = 0;
    	if (cl1_in1_3) cl1_acc0_1_3 = c[cl1_i1 * nj + cl1_j3];
    	if (cl1_in2_0) { c[cl1_i2 * nj + cl1_j0] *= beta; }
    	float cl1_acc0_2_0 = 0;
    	if (cl1_in2_0) cl1_acc0_2_0 = c[cl1_i2 * nj + cl1_j0];
    	if (cl1_in2_1) { c[cl1_i2 * nj + cl1_j1] *= beta; }
    	float cl1_acc0_2_1 = 0;
    	if (cl1_in2_1) cl1_acc0_2_1 = c[cl1_i2 * nj + cl1_j1];
    	if (cl1_in2_2) { c[cl1_i2 * nj + cl1_j2] *= beta; }
    	float cl1_acc0_2_2 = 0;
    	if (cl1_in2_2) cl1_acc0_2_2 = c[cl1_i2 * nj + cl1_j2];
    	if (cl1_in2_3) { c[cl1_i2 * nj + cl1_j3] *= beta; }
    	float cl1_acc0_2_3 = 0;
    	if (cl1_in2_3) cl1_acc0_2_3 = c[cl1_i2 * nj + cl1_j3];
    	if (cl1_in3_0) { c[cl1_i3 * nj + cl1_j0] *= beta; }
    	float cl1_acc0_3_0 = 0;
    	if (cl1_in3_0) cl1_acc0_3_0 = c[cl1_i3 * nj + cl1_j0];
    	if (cl1_in3_1) { c[cl1_i3 * nj + cl1_j1] *= beta; }
    	float cl1_acc0_3_1 = 0;
    	if (cl1_in3_1) cl1_acc0_3_1 = c[cl1_i3 * nj + cl1_j1];
    	if (cl1_in3_2) { c[cl1_i3 * nj + cl1_j2] *= beta; }
    	float cl1_acc0_3_2 = 0;
    	if (cl1_in3_2) cl1_acc0_3_2 = c[cl1_i3 * nj + cl1_j2];
    	if (cl1_in3_3) { c[cl1_i3 * nj + cl1_j3] *= beta; }
    	float cl1_acc0_3_3 = 0;
    	if (cl1_in3_3) cl1_acc0_3_3 = c[cl1_i3 * nj + cl1_j3];
    	const int cl1_tid = threadIdx.x + 32 * threadIdx.y;
    	for (int cl1_k0 = (0); cl1_k0 < (nk); cl1_k0 += 32) {
    		__syncthreads();
    		for (int cl1_t = cl1_tid; cl1_t < 1024; cl1_t += 256) {
    			const int cl1_row = blockIdx.y * 32 + cl1_t / 32;
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
                cl1_acc0_0_1 += alpha * cl1_tile0[threadIdx.y + 0][k - cl1_k0] * b[k * nj + cl1_j1];
            } 
            {
                cl1_acc0_0_2 += alpha * cl1_tile0[threadIdx.y + 0][k - cl1_k0] * b[k * nj + cl1_j2];
            } 
            {
                cl1_acc0_0_3 += alpha * cl1_tile0[threadIdx.y + 0][k - cl1_k0] * b[k * nj + cl1_j3];
            } 
            {
                cl1_acc0_1_0 += alpha * cl1_tile0[threadIdx.y + 8][k - cl1_k0] * b[k * nj + cl1_j0];
            } 
            {
                cl1_acc0_1_1 += alpha * cl1_tile0[threadIdx.y + 8][k - cl1_k0] * b[k * nj + cl1_j1];
            } 
            {
                cl1_acc0_1_2 += alpha * cl1_tile0[threadIdx.y + 8][k - cl1_k0] * b[k * nj + cl1_j2];
            } 
            {
                cl1_acc0_1_3 += alpha * cl1_tile0[threadIdx.y + 8][k - cl1_k0] * b[k * nj + cl1_j3];
            } 
            {
                cl1_acc0_2_0 += alpha * cl1_tile0[threadIdx.y + 16][k - cl1_k0] * b[k * nj + cl1_j0];
            } 
            {
                cl1_acc0_2_1 += alpha * cl1_tile0[threadIdx.y + 16][k - cl1_k0] * b[k * nj + cl1_j1];
            } 
            {
                cl1_acc0_2_2 += alpha * cl1_tile0[threadIdx.y + 16][k - cl1_k0] * b[k * nj + cl1_j2];
            } 
            {
                cl1_acc0_2_3 += alpha * cl1_tile0[threadIdx.y + 16][k - cl1_k0] * b[k * nj + cl1_j3];
            } 
            {
                cl1_acc0_3_0 += alpha * cl1_tile0[threadIdx.y + 24][k - cl1_k0] * b[k * nj + cl1_j0];
            } 
            {
                cl1_acc0_3_1 += alpha * cl1_tile0[threadIdx.y + 24][k - cl1_k0] * b[k * nj + cl1_j1];
            } 
            {
                cl1_acc0_3_2 += alpha * cl1_tile0[threadIdx.y + 24][k - cl1_k0] * b[k * nj + cl1_j2];
            } 
            {
                cl1_acc0_3_3 += alpha * cl1_tile0[threadIdx.y + 24][k - cl1_k0] * b[k * nj + cl1_j3];
            } }
    		} else {
    			for (k = cl1_k0; k < cl1_k0 + 32 && k < (nk); k++) { if (cl1_in0_0) 
            {
                cl1_acc0_0_0 += alpha * cl1_tile0[threadIdx.y + 0][k - cl1_k0] * b[k * nj + cl1_j0];
            } if (cl1_in0_1) 
            {
                cl1_acc0_0_1 += alpha * cl1_tile0[threadIdx.y + 0][k - cl1_k0] * b[k * nj + cl1_j1];
            } if (cl1_in0_2) 
            {
                cl1_acc0_0_2 += alpha * cl1_tile0[threadIdx.y + 0][k - cl1_k0] * b[k * nj + cl1_j2];
            } if (cl1_in0_3) 
            {
                cl1_acc0_0_3 += alpha * cl1_tile0[threadIdx.y + 0][k - cl1_k0] * b[k * nj + cl1_j3];
            } if (cl1_in1_0) 
            {
                cl1_acc0_1_0 += alpha * cl1_tile0[threadIdx.y + 8][k - cl1_k0] * b[k * nj + cl1_j0];
            } if (cl1_in1_1) 
            {
                cl1_acc0_1_1 += alpha * cl1_tile0[threadIdx.y + 8][k - cl1_k0] * b[k * nj + cl1_j1];
            } if (cl1_in1_2) 
            {
                cl1_acc0_1_2 += alpha * cl1_tile0[threadIdx.y + 8][k - cl1_k0] * b[k * nj + cl1_j2];
            } if (cl1_in1_3) 
            {
                cl1_acc0_1_3 += alpha * cl1_tile0[threadIdx.y + 8][k - cl1_k0] * b[k * nj + cl1_j3];
            } if (cl1_in2_0) 
            {
                cl1_acc0_2_0 += alpha * cl1_tile0[threadIdx.y + 16][k - cl1_k0] * b[k * nj + cl1_j0];
            } if (cl1_in2_1) 
            {
                cl1_acc0_2_1 += alpha * cl1_tile0[threadIdx.y + 16][k - cl1_k0] * b[k * nj + cl1_j1];
            } if (cl1_in2_2) 
            {
                cl1_acc0_2_2 += alpha * cl1_tile0[threadIdx.y + 16][k - cl1_k0] * b[k * nj + cl1_j2];
            } if (cl1_in2_3) 
            {
                cl1_acc0_2_3 += alpha * cl1_tile0[threadIdx.y + 16][k - cl1_k0] * b[k * nj + cl1_j3];
            } if (cl1_in3_0) 
            {
                cl1_acc0_3_0 += alpha * cl1_tile0[threadIdx.y + 24][k - cl1_k0] * b[k * nj + cl1_j0];
            } if (cl1_in3_1) 
            {
                cl1_acc0_3_1 += alpha * cl1_tile0[threadIdx.y + 24][k - cl1_k0] * b[k * nj + cl1_j1];
            } if (cl1_in3_2) 
            {
                cl1_acc0_3_2 += alpha * cl1_tile0[threadIdx.y + 24][k - cl1_k0] * b[k * nj + cl1_j2];
            } if (cl1_in3_3) 
            {
                cl1_acc0_3_3 += alpha * cl1_tile0[threadIdx.y + 24][k - cl1_k0] * b[k * nj + cl1_j3];
            } }
    		}
    	}
    	if (cl1_in0_0) { c[cl1_i0 * nj + cl1_j0] = cl1_acc0_0_0; }
    	if (cl1_in0_1) { c[cl1_i0 * nj + cl1_j1] = cl1_acc0_0_1; }
    	if (cl1_in0_2) { c[cl1_i0 * nj + cl1_j2] = cl1_acc0_0_2; }
    	if (cl1_in0_3) { c[cl1_i0 * nj + cl1_j3] = cl1_acc0_0_3; }
    	if (cl1_in1_0) { c[cl1_i1 * nj + cl1_j0] = cl1_acc0_1_0; }
    	if (cl1_in1_1) { c[cl1_i1 * nj + cl1_j1] = cl1_acc0_1_1; }
    	if (cl1_in1_2) { c[cl1_i1 * nj + cl1_j2] = cl1_acc0_1_2; }
    	if (cl1_in1_3) { c[cl1_i1 * nj + cl1_j3] = cl1_acc0_1_3; }
    	if (cl1_in2_0) { c[cl1_i2 * nj + cl1_j0] = cl1_acc0_2_0; }
    	if (cl1_in2_1) { c[cl1_i2 * nj + cl1_j1] = cl1_acc0_2_1; }
    	if (cl1_in2_2) { c[cl1_i2 * nj + cl1_j2] = cl1_acc0_2_2; }
    	if (cl1_in2_3) { c[cl1_i2 * nj + cl1_j3] = cl1_acc0_2_3; }
    	if (cl1_in3_0) { c[cl1_i3 * nj + cl1_j0] = cl1_acc0_3_0; }
    	if (cl1_in3_1) { c[cl1_i3 * nj + cl1_j1] = cl1_acc0_3_1; }
    	if (cl1_in3_2) { c[cl1_i3 * nj + cl1_j2] = cl1_acc0_3_2; }
    	if (cl1_in3_3) { c[cl1_i3 * nj + cl1_j3] = cl1_acc0_3_3; }
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
