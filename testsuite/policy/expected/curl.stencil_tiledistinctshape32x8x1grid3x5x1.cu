__global__ void curl(int nx, int ny, float *ex, float *ey, float *hz)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    /* cl1cc: each thread's own element of ex and ey in shared memory (when its guard holds: it reads it then); a neighbour's comes from there when it is in the block and was loaded */
    __shared__ float cl1cc_tile_ex[8][32];
    __shared__ float cl1cc_tile_ey[8][32];
    __shared__ bool cl1cc_held[8][32];
    const bool cl1cc_tiled = blockDim.x == 32u && blockDim.y == 8u && blockDim.z == 1u;
    const bool cl1cc_in = (i < nx - 1 && j < ny - 1);
    if (cl1cc_tiled) {
        cl1cc_held[threadIdx.y][threadIdx.x] = cl1cc_in;
        if (cl1cc_in) {
            cl1cc_tile_ex[threadIdx.y][threadIdx.x] = ex[i * ny + j];
            cl1cc_tile_ey[threadIdx.y][threadIdx.x] = ey[i * ny + j];
        }
    }
    __syncthreads();
    if (cl1cc_in)
    {
        hz[i * ny + j] = hz[i * ny + j] - 0.7f * ((cl1cc_tiled && (unsigned)((int)threadIdx.x + (1)) < 32u && cl1cc_held[threadIdx.y][(int)threadIdx.x + (1)] ? cl1cc_tile_ex[threadIdx.y][(int)threadIdx.x + (1)] : ex[i * ny + (j + 1)]) - (cl1cc_tiled ? cl1cc_tile_ex[threadIdx.y][threadIdx.x] : ex[i * ny + j]) +
                                                  (cl1cc_tiled && (unsigned)((int)threadIdx.y + (1)) < 8u && cl1cc_held[(int)threadIdx.y + (1)][threadIdx.x] ? cl1cc_tile_ey[(int)threadIdx.y + (1)][threadIdx.x] : ey[(i + 1) * ny + j]) - (cl1cc_tiled ? cl1cc_tile_ey[threadIdx.y][threadIdx.x] : ey[i * ny + j]));
    }
}
