__global__ void __launch_bounds__(256) norm(int n, const DATA_TYPE *__restrict__ a, DATA_TYPE *__restrict__ r, int k)
{
	int tid = blockIdx.x * blockDim.x + threadIdx.x;

	if (blockDim.x == 256 && blockDim.y == 1 && blockDim.z == 1) {
		if (blockIdx.x == 0) {
			DATA_TYPE nrm = 0.0;
			int i;
			decltype(nrm) cl1_part0 = 0;
			for (i = (0) + (int)threadIdx.x; i < (N); i += 256)
			{
				cl1_part0 += a[i * N + k] * a[i * N + k];
			}
			__shared__ decltype(nrm) cl1_sums0[8];
			for (int cl1_o = 16; cl1_o > 0; cl1_o /= 2) {
				cl1_part0 += __shfl_down_sync(0xffffffffu, cl1_part0, cl1_o);
			}
			if (threadIdx.x % 32 == 0) { cl1_sums0[threadIdx.x / 32] = cl1_part0; }
			__syncthreads();
			if (threadIdx.x == 0) {
				for (int cl1_w = 0; cl1_w < 8; cl1_w++) { nrm += cl1_sums0[cl1_w]; }
				r[k * N + k] = sqrt(nrm);
			}
		}
	} else if (tid == 0)
	{
		DATA_TYPE nrm = 0.0;
		int i;
		for (i = 0; i < N; i++)
		{
			nrm += a[i * N + k] * a[i * N + k];
		}
		r[k * N + k] = sqrt(nrm);
	}
}
