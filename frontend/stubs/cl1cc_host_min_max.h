/* cl1cc stand-in, used only for parsing: nvcc's crt/math_functions.hpp
 * gives host code the min and max overloads CUDA code calls from both
 * sides; clang's CUDA wrapper gives them to device code only, so a host call
 * of max(float, float) that nvcc accepts would not parse.  These mirror
 * nvcc's host overloads. */
#ifndef CL1CC_STUB_HOST_MIN_MAX_H
#define CL1CC_STUB_HOST_MIN_MAX_H
#if defined(__cplusplus) && defined(__CUDACC__)
#define CL1CC_HOST_MIN_MAX(R, A, B)                                       \
    static inline __host__ R min(const A a, const B b) { return a < b ? a : b; } \
    static inline __host__ R max(const A a, const B b) { return a > b ? a : b; }
CL1CC_HOST_MIN_MAX(int, int, int)
CL1CC_HOST_MIN_MAX(unsigned int, unsigned int, unsigned int)
CL1CC_HOST_MIN_MAX(unsigned int, int, unsigned int)
CL1CC_HOST_MIN_MAX(unsigned int, unsigned int, int)
CL1CC_HOST_MIN_MAX(long int, long int, long int)
CL1CC_HOST_MIN_MAX(unsigned long int, unsigned long int, unsigned long int)
CL1CC_HOST_MIN_MAX(unsigned long int, long int, unsigned long int)
CL1CC_HOST_MIN_MAX(unsigned long int, unsigned long int, long int)
CL1CC_HOST_MIN_MAX(long long int, long long int, long long int)
CL1CC_HOST_MIN_MAX(unsigned long long int, unsigned long long int, unsigned long long int)
CL1CC_HOST_MIN_MAX(unsigned long long int, long long int, unsigned long long int)
CL1CC_HOST_MIN_MAX(unsigned long long int, unsigned long long int, long long int)
CL1CC_HOST_MIN_MAX(float, float, float)
CL1CC_HOST_MIN_MAX(double, double, double)
CL1CC_HOST_MIN_MAX(double, float, double)
CL1CC_HOST_MIN_MAX(double, double, float)
#undef CL1CC_HOST_MIN_MAX
#endif
#endif
