__global__ void jacobi(double *dst, const double *src)
{
    int i = threadIdx.y + blockIdx.y * blockDim.y;
    int j = blockDim.x * blockIdx.x + threadIdx.x;
    /* cl1cc: each thread's own element of src in shared memory (when its guard holds: it reads it then); a neighbour's comes from there when it is in the block and was loaded */
    __shared__ double cl1cc_tile_src[16][16];
    __shared__ bool cl1cc_held[16][16];
    const bool cl1cc_tiled = blockDim.x == 16u && blockDim.y == 16u && blockDim.z == 1u;
    const bool cl1cc_in = ((i >= 1) && (i < NROW - 1) && (j >= 1) && (j < NCOL - 1));
    if (cl1cc_tiled) {
        cl1cc_held[threadIdx.y][threadIdx.x] = cl1cc_in;
        if (cl1cc_in) {
            cl1cc_tile_src[threadIdx.y][threadIdx.x] = src[i * NCOL + j];
        }
    }
    __syncthreads();
    if (cl1cc_in)
        dst[i * NCOL + j] = 0.2 * ((cl1cc_tiled ? cl1cc_tile_src[threadIdx.y][threadIdx.x] : src[i * NCOL + j]) + (cl1cc_tiled && (unsigned)((int)threadIdx.x + (-1)) < 16u && cl1cc_held[threadIdx.y][(int)threadIdx.x + (-1)] ? cl1cc_tile_src[threadIdx.y][(int)threadIdx.x + (-1)] : src[i * NCOL + (j - 1)]) + (cl1cc_tiled && (unsigned)((int)threadIdx.x + (1)) < 16u && cl1cc_held[threadIdx.y][(int)threadIdx.x + (1)] ? cl1cc_tile_src[threadIdx.y][(int)threadIdx.x + (1)] : src[i * NCOL + (1 + j)]) +
                                   (cl1cc_tiled && (unsigned)((int)threadIdx.y + (1)) < 16u && cl1cc_held[(int)threadIdx.y + (1)][threadIdx.x] ? cl1cc_tile_src[(int)threadIdx.y + (1)][threadIdx.x] : src[(1 + i) * NCOL + j]) + (cl1cc_tiled && (unsigned)((int)threadIdx.y + (-1)) < 16u && cl1cc_held[(int)threadIdx.y + (-1)][threadIdx.x] ? cl1cc_tile_src[(int)threadIdx.y + (-1)][threadIdx.x] : src[NCOL * (i - 1) + j]) + (cl1cc_tiled && (unsigned)((int)threadIdx.x + (2)) < 16u && cl1cc_held[threadIdx.y][(int)threadIdx.x + (2)] ? cl1cc_tile_src[threadIdx.y][(int)threadIdx.x + (2)] : src[j + i * NCOL + 2]));
}
