/* cl1cc stand-in, used only for parsing: nvcc's sm_32_intrinsics.h gives
 * device code the cache-hinted loads and stores (__ldcs, __stcs, __ldcg,
 * ...); clang's CUDA wrapper leaves that header out and defines none of
 * them.  Declarations are all a parse needs. */
#ifndef CL1CC_STUB_CACHE_HINTS_H
#define CL1CC_STUB_CACHE_HINTS_H
#if defined(__cplusplus) && defined(__CUDACC__)
#define CL1CC_CACHE_HINTS(T)                                                   \
    __device__ T __ldcg(const T *); __device__ T __ldca(const T *);            \
    __device__ T __ldcs(const T *); __device__ T __ldlu(const T *);            \
    __device__ T __ldcv(const T *); __device__ void __stwb(T *, T);            \
    __device__ void __stcg(T *, T); __device__ void __stcs(T *, T);            \
    __device__ void __stwt(T *, T);
CL1CC_CACHE_HINTS(long)
CL1CC_CACHE_HINTS(unsigned long)
CL1CC_CACHE_HINTS(char)
CL1CC_CACHE_HINTS(signed char)
CL1CC_CACHE_HINTS(short)
CL1CC_CACHE_HINTS(int)
CL1CC_CACHE_HINTS(long long)
CL1CC_CACHE_HINTS(char2)
CL1CC_CACHE_HINTS(char4)
CL1CC_CACHE_HINTS(short2)
CL1CC_CACHE_HINTS(short4)
CL1CC_CACHE_HINTS(int2)
CL1CC_CACHE_HINTS(int4)
CL1CC_CACHE_HINTS(longlong2)
CL1CC_CACHE_HINTS(unsigned char)
CL1CC_CACHE_HINTS(unsigned short)
CL1CC_CACHE_HINTS(unsigned int)
CL1CC_CACHE_HINTS(unsigned long long)
CL1CC_CACHE_HINTS(uchar2)
CL1CC_CACHE_HINTS(uchar4)
CL1CC_CACHE_HINTS(ushort2)
CL1CC_CACHE_HINTS(ushort4)
CL1CC_CACHE_HINTS(uint2)
CL1CC_CACHE_HINTS(uint4)
CL1CC_CACHE_HINTS(ulonglong2)
CL1CC_CACHE_HINTS(float)
CL1CC_CACHE_HINTS(double)
CL1CC_CACHE_HINTS(float2)
CL1CC_CACHE_HINTS(float4)
CL1CC_CACHE_HINTS(double2)
#undef CL1CC_CACHE_HINTS
#endif
#endif
