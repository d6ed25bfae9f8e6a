__global__ void blur(int h, int w, const float *a, float *b)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    float c0 = 0.25f, c1 = -0.5f;
    /* cl1cc: each thread's own element of a in shared memory (when its guard holds: it reads it then); a neighbour's comes from there when it is in the block and was loaded */
    __shared__ float cl1cc_tile_a[8][32];
    __shared__ bool cl1cc_held[8][32];
    const bool cl1cc_tiled = blockDim.x == 32u && blockDim.y == 8u && blockDim.z == 1u;
    const bool cl1cc_in = (i > 0 && i < h - 1 && j > 0 && j < w - 1);
    if (cl1cc_tiled) {
        cl1cc_held[threadIdx.y][threadIdx.x] = cl1cc_in;
        if (cl1cc_in) {
            cl1cc_tile_a[threadIdx.y][threadIdx.x] = a[i * w + j];
        }
    }
    __syncthreads();
    if (cl1cc_in) {
        b[i * w + j] = c0 * (cl1cc_tiled && (unsigned)((int)threadIdx.y + (-1)) < 8u && (unsigned)((int)threadIdx.x + (-1)) < 32u && cl1cc_held[(int)threadIdx.y + (-1)][(int)threadIdx.x + (-1)] ? cl1cc_tile_a[(int)threadIdx.y + (-1)][(int)threadIdx.x + (-1)] : a[(i - 1) * w + (j - 1)]) + c1 * (cl1cc_tiled && (unsigned)((int)threadIdx.y + (-1)) < 8u && cl1cc_held[(int)threadIdx.y + (-1)][threadIdx.x] ? cl1cc_tile_a[(int)threadIdx.y + (-1)][threadIdx.x] : a[(i - 1) * w + j]) + c0 * (cl1cc_tiled && (unsigned)((int)threadIdx.y + (-1)) < 8u && (unsigned)((int)threadIdx.x + (1)) < 32u && cl1cc_held[(int)threadIdx.y + (-1)][(int)threadIdx.x + (1)] ? cl1cc_tile_a[(int)threadIdx.y + (-1)][(int)threadIdx.x + (1)] : a[(i - 1) * w + (j + 1)]) +
                       c1 * (cl1cc_tiled && (unsigned)((int)threadIdx.x + (-1)) < 32u && cl1cc_held[threadIdx.y][(int)threadIdx.x + (-1)] ? cl1cc_tile_a[threadIdx.y][(int)threadIdx.x + (-1)] : a[i * w + (j - 1)]) + (cl1cc_tiled ? cl1cc_tile_a[threadIdx.y][threadIdx.x] : a[i * w + j]) + c1 * (cl1cc_tiled && (unsigned)((int)threadIdx.x + (1)) < 32u && cl1cc_held[threadIdx.y][(int)threadIdx.x + (1)] ? cl1cc_tile_a[threadIdx.y][(int)threadIdx.x + (1)] : a[i * w + (j + 1)]) +
                       c0 * (cl1cc_tiled && (unsigned)((int)threadIdx.y + (1)) < 8u && (unsigned)((int)threadIdx.x + (-1)) < 32u && cl1cc_held[(int)threadIdx.y + (1)][(int)threadIdx.x + (-1)] ? cl1cc_tile_a[(int)threadIdx.y + (1)][(int)threadIdx.x + (-1)] : a[(i + 1) * w + (j - 1)]) + c1 * (cl1cc_tiled && (unsigned)((int)threadIdx.y + (1)) < 8u && cl1cc_held[(int)threadIdx.y + (1)][threadIdx.x] ? cl1cc_tile_a[(int)threadIdx.y + (1)][threadIdx.x] : a[(i + 1) * w + j]) + c0 * (cl1cc_tiled && (unsigned)((int)threadIdx.y + (1)) < 8u && (unsigned)((int)threadIdx.x + (1)) < 32u && cl1cc_held[(int)threadIdx.y + (1)][(int)threadIdx.x + (1)] ? cl1cc_tile_a[(int)threadIdx.y + (1)][(int)threadIdx.x + (1)] : a[(i + 1) * w + (j + 1)]);
    }
}
