// Functions compiled for the host and, by nvcc, for the device too.
#pragma once

#ifdef __CUDACC__
#define CCL4J_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define CCL4J_HOST_DEVICE inline
#endif
