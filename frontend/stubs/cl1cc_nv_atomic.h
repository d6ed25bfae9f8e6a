/* cl1cc stand-in, used only for parsing: nvcc's atomic built-ins
 * (__nv_atomic_load_n, __nv_atomic_fetch_add, ...) are known to nvcc itself,
 * and their memory-order and scope constants come from a part of
 * crt/device_functions.h that clang's CUDA wrapper does not include.
 * Declarations are all a parse needs. */
#ifndef CL1CC_STUB_NV_ATOMIC_H
#define CL1CC_STUB_NV_ATOMIC_H
#if defined(__cplusplus) && defined(__CUDACC__)
enum {
    __NV_ATOMIC_RELAXED,
    __NV_ATOMIC_CONSUME,
    __NV_ATOMIC_ACQUIRE,
    __NV_ATOMIC_RELEASE,
    __NV_ATOMIC_ACQ_REL,
    __NV_ATOMIC_SEQ_CST
};
enum {
    __NV_THREAD_SCOPE_THREAD,
    __NV_THREAD_SCOPE_BLOCK,
    __NV_THREAD_SCOPE_CLUSTER,
    __NV_THREAD_SCOPE_DEVICE,
    __NV_THREAD_SCOPE_SYSTEM
};
#define CL1CC_NV_SCOPE int scope = __NV_THREAD_SCOPE_SYSTEM
template <class T> __device__ T __nv_atomic_load_n(const T *, int, CL1CC_NV_SCOPE);
template <class T> __device__ void __nv_atomic_load(const T *, T *, int, CL1CC_NV_SCOPE);
template <class T, class U> __device__ void __nv_atomic_store_n(T *, U, int, CL1CC_NV_SCOPE);
template <class T> __device__ void __nv_atomic_store(T *, T *, int, CL1CC_NV_SCOPE);
template <class T, class U> __device__ T __nv_atomic_exchange_n(T *, U, int, CL1CC_NV_SCOPE);
template <class T> __device__ void __nv_atomic_exchange(T *, T *, T *, int, CL1CC_NV_SCOPE);
template <class T, class U>
__device__ bool __nv_atomic_compare_exchange_n(T *, T *, U, bool, int, int, CL1CC_NV_SCOPE);
template <class T>
__device__ bool __nv_atomic_compare_exchange(T *, T *, T *, bool, int, int, CL1CC_NV_SCOPE);
#define CL1CC_NV_ATOMIC_OP(OP)                                                          \
    template <class T, class U> __device__ T __nv_atomic_fetch_##OP(T *, U, int, CL1CC_NV_SCOPE); \
    template <class T, class U> __device__ void __nv_atomic_##OP(T *, U, int, CL1CC_NV_SCOPE);
CL1CC_NV_ATOMIC_OP(add)
CL1CC_NV_ATOMIC_OP(sub)
CL1CC_NV_ATOMIC_OP(and)
CL1CC_NV_ATOMIC_OP(or)
CL1CC_NV_ATOMIC_OP(xor)
CL1CC_NV_ATOMIC_OP(min)
CL1CC_NV_ATOMIC_OP(max)
#undef CL1CC_NV_ATOMIC_OP
__device__ void __nv_atomic_thread_fence(int, CL1CC_NV_SCOPE);
#undef CL1CC_NV_SCOPE
#endif
#endif
