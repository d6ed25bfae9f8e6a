__global__ void crlf_sum(int n, const float *x, float *s)
{
	int i = threadIdx.x;
	{ float cl1_acc0 = s[i];
	#pragma unroll 4
	for (int j = 0; j < n; j++)
		cl1_acc0 += x[i * n + j]; s[i] = cl1_acc0; }
}
