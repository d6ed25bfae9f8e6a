__global__ void two_sums(int n, float *x, float *y, float *s, float *t)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		{ float cl1_acc0 = s[i];
		{ float cl1_acc1 = t[i];
		for (int j = 0; j < n; j++)
			cl1_acc0 += x[i * n + j] * y[j], cl1_acc1 -= x[j * n + i]; t[i] = cl1_acc1; } s[i] = cl1_acc0; }
}
