__global__ void scale_clamp(float *out, float *in, float factor, int n)
{
}
