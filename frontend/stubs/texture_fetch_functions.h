/* cl1cc stand-in: CUDA 13 removed this header (texture references), which
 * clang's CUDA wrapper still includes.  Used only for parsing.
 *
 * nvcc's crt/device_functions.h also declares the surface-object functions
 * (surf2Dread and friends), which clang's wrapper does not, and whose CUDA
 * definitions go through texture intrinsics clang lacks.  Declarations are
 * all a parse needs, so they come in here. */
#ifndef CL1CC_STUB_TEXTURE_FETCH_FUNCTIONS_H
#define CL1CC_STUB_TEXTURE_FETCH_FUNCTIONS_H
#include "cl1cc_host_min_max.h"
#include "cl1cc_nv_atomic.h"
#include "cl1cc_cache_hints.h"
#if defined(__cplusplus) && defined(__CUDACC__)
#define CL1CC_SURFACE_FUNCTIONS(NAME, ...)                                          \
    template <class T>                                                               \
    __device__ void NAME##read(T *, cudaSurfaceObject_t, __VA_ARGS__,               \
                               cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);      \
    template <class T>                                                               \
    __device__ T NAME##read(cudaSurfaceObject_t, __VA_ARGS__,                       \
                            cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);         \
    template <class T>                                                               \
    __device__ void NAME##write(T, cudaSurfaceObject_t, __VA_ARGS__,                \
                                cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
CL1CC_SURFACE_FUNCTIONS(surf1D, int x)
CL1CC_SURFACE_FUNCTIONS(surf2D, int x, int y)
CL1CC_SURFACE_FUNCTIONS(surf3D, int x, int y, int z)
CL1CC_SURFACE_FUNCTIONS(surf1DLayered, int x, int layer)
CL1CC_SURFACE_FUNCTIONS(surf2DLayered, int x, int y, int layer)
CL1CC_SURFACE_FUNCTIONS(surfCubemap, int x, int y, int face)
CL1CC_SURFACE_FUNCTIONS(surfCubemapLayered, int x, int y, int layer_face)
#undef CL1CC_SURFACE_FUNCTIONS
#endif
#endif
