__global__ void shared_sum(const float *x, float *sum)
{
    __shared__ float s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    atomicAdd(&s, x[threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
        float *cl1cc_at = (sum);
        float cl1cc_v = (float)(s);
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
                float cl1cc_x = __shfl_sync(cl1cc_peers, cl1cc_v, __ffs(cl1cc_m) - 1);
                if (cl1cc_lane == cl1cc_leader)
                    cl1cc_v += cl1cc_x;
            }
            if (cl1cc_lane == cl1cc_leader)
                atomicAdd(cl1cc_at, cl1cc_v);
        }
#else
        atomicAdd(sum, s);
#endif
    }
}
