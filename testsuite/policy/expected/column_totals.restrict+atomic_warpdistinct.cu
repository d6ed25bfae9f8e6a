__global__ void column_totals(const double *__restrict__ a, double *__restrict__ cols, unsigned long long *__restrict__ rows_seen,
                              int nrows, int ncols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < nrows) {
        for (int c = 0; c < ncols; c++)
            {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
                double *cl1cc_at = (&cols[c]);
                double cl1cc_v = (double)(a[r * ncols + c]);
                unsigned cl1cc_peers = __match_any_sync(__activemask(), (unsigned long long)cl1cc_at);
                unsigned cl1cc_lane;
                asm volatile("mov.u32 %0, %%laneid;" : "=r"(cl1cc_lane));
                if (cl1cc_peers == 0xffffffffu) { /* the whole warp adds to one address */
                    for (int cl1cc_o = 16; cl1cc_o > 0; cl1cc_o /= 2)
                        cl1cc_v += __shfl_down_sync(0xffffffffu, cl1cc_v, cl1cc_o);
                    if (cl1cc_lane == 0)
                        atomicAdd(cl1cc_at, cl1cc_v);
                } else { /* the lowest lane of each group adds the group's values */
                    unsigned cl1cc_leader = __ffs(cl1cc_peers) - 1;
                    for (unsigned cl1cc_m = cl1cc_peers & (cl1cc_peers - 1); cl1cc_m; cl1cc_m &= cl1cc_m - 1) {
                        double cl1cc_x = __shfl_sync(cl1cc_peers, cl1cc_v, __ffs(cl1cc_m) - 1);
                        if (cl1cc_lane == cl1cc_leader)
                            cl1cc_v += cl1cc_x;
                    }
                    if (cl1cc_lane == cl1cc_leader)
                        atomicAdd(cl1cc_at, cl1cc_v);
                }
#else
                atomicAdd(&cols[c], a[r * ncols + c]);
#endif
            }
        {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
            unsigned long long *cl1cc_at = (rows_seen + 0);
            unsigned long long cl1cc_v = (unsigned long long)(1ull);
            unsigned cl1cc_peers = __match_any_sync(__activemask(), (unsigned long long)cl1cc_at);
            unsigned cl1cc_lane;
            asm volatile("mov.u32 %0, %%laneid;" : "=r"(cl1cc_lane));
            if (cl1cc_peers == 0xffffffffu) { /* the whole warp adds to one address */
                for (int cl1cc_o = 16; cl1cc_o > 0; cl1cc_o /= 2)
                    cl1cc_v += __shfl_down_sync(0xffffffffu, cl1cc_v, cl1cc_o);
                if (cl1cc_lane == 0)
                    atomicAdd(cl1cc_at, cl1cc_v);
            } else { /* the lowest lane of each group adds the group's values */
                unsigned cl1cc_leader = __ffs(cl1cc_peers) - 1;
                for (unsigned cl1cc_m = cl1cc_peers & (cl1cc_peers - 1); cl1cc_m; cl1cc_m &= cl1cc_m - 1) {
                    unsigned long long cl1cc_x = __shfl_sync(cl1cc_peers, cl1cc_v, __ffs(cl1cc_m) - 1);
                    if (cl1cc_lane == cl1cc_leader)
                        cl1cc_v += cl1cc_x;
                }
                if (cl1cc_lane == cl1cc_leader)
                    atomicAdd(cl1cc_at, cl1cc_v);
            }
#else
            atomicAdd(rows_seen + 0, 1ull);
#endif
        }
    }
}
