/*
 * ccl4j: what every part of the C ABI shares: versions, status codes and enumerations, timings,
 * capabilities, contexts and host memory. Included by ccl4j.h, which states the conventions.
 */
#ifndef CCL4J_COMMON_H
#define CCL4J_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define CCL4J_API __attribute__((visibility("default")))
#else
#define CCL4J_API
#endif

/* ---- versions, status codes and enumerations --------------------------------------------- */

#define CCL4J_VERSION_MAJOR 0
#define CCL4J_VERSION_MINOR 1
#define CCL4J_VERSION_PATCH 0

typedef int32_t ccl4j_status;
#define CCL4J_SUCCESS 0
#define CCL4J_INVALID_ARGUMENT 1    /* a null pointer, a negative size, an unknown enum value */
#define CCL4J_INVALID_INPUT 2       /* the graph itself is malformed (found by the input checks) */
#define CCL4J_BACKEND_UNAVAILABLE 3 /* e.g. CUDA asked for, but no device or driver */
#define CCL4J_OUT_OF_MEMORY 4       /* host or device allocation failed */
#define CCL4J_DEVICE_ERROR 5        /* a CUDA call or launch failed */
#define CCL4J_NOT_CONVERGED 6       /* an iterative algorithm exceeded its iteration limit */
#define CCL4J_UNSUPPORTED 7         /* this algorithm does not run on this backend */
#define CCL4J_INTERNAL_ERROR 8

typedef int32_t ccl4j_backend;
#define CCL4J_BACKEND_AUTO 0         /* CUDA when a device is present, else CPU_PARALLEL */
#define CCL4J_BACKEND_CUDA 1
#define CCL4J_BACKEND_CPU_PARALLEL 2 /* all cores, on the library's own threads */
#define CCL4J_BACKEND_CPU_SERIAL 3

typedef int32_t ccl4j_algorithm;
/* Graph algorithms (ccl4j_label_graph). AUTO picks AFFOREST on the CPU backends; on CUDA, AFFOREST
 * for a graph of more than three arcs per vertex on average and ECL_CC for a sparser one. */
#define CCL4J_ALGORITHM_AUTO 0
#define CCL4J_ALGORITHM_ECL_CC 1        /* Jaiganesh & Burtscher 2018 */
#define CCL4J_ALGORITHM_CPU_REFERENCE 2 /* Hawick, Leist & Playne 2010, Algorithm 1 (serial) */
#define CCL4J_ALGORITHM_HAWICK_EDGE 3   /* Hawick et al. kernel 1: edge-parallel, atomicMin, to a fixpoint */
#define CCL4J_ALGORITHM_HAWICK_VERTEX 4 /* Hawick et al. kernel 2: vertex-parallel with two frontier arrays */
#define CCL4J_ALGORITHM_HAWICK_BFS 5    /* Hawick et al. kernel 3: one breadth-first search per component */
#define CCL4J_ALGORITHM_KOMURA 6        /* Komura 2016: generalized label reduction on neighbour lists */
#define CCL4J_ALGORITHM_AFFOREST 7      /* Sutton, Ben-Nun & Barak 2018: neighbour sampling, giant component skipped */
#define CCL4J_ALGORITHM_STREAMED 8      /* Afforest with the arcs streamed through the GPU in blocks, each at most
                                           once: host graphs larger than the device (CUDA) */
/* Mesh algorithms (ccl4j_label_mesh). AUTO picks MESH_UNION_FIND on CUDA and MESH_CPU_PARALLEL on the CPU. */
#define CCL4J_ALGORITHM_MESH_NEIGHBOR 16     /* Hawick et al. 2010 kernel A: neighbour propagation (CUDA) */
#define CCL4J_ALGORITHM_MESH_LOCAL 17         /* kernel B: shared-memory local propagation in tiles (CUDA) */
#define CCL4J_ALGORITHM_MESH_DIRECTIONAL 18   /* kernel C: directional propagation along rows (CUDA) */
#define CCL4J_ALGORITHM_MESH_EQUIVALENCE 19   /* kernel D: label equivalence, iterated (CUDA) */
#define CCL4J_ALGORITHM_MESH_KOMURA 20        /* Komura 2015/2016 lattice algorithm, no fixpoint loop (CUDA) */
#define CCL4J_ALGORITHM_MESH_UNION_FIND 21    /* block-based union-find, Playne & Hawick 2018 (CUDA) */
#define CCL4J_ALGORITHM_MESH_CPU_RASTER 22    /* Hawick et al. CPU I: alternating raster scans (CPU) */
#define CCL4J_ALGORITHM_MESH_CPU_EQUIVALENCE 23 /* Hawick et al. CPU II: serial label equivalence (CPU) */
#define CCL4J_ALGORITHM_MESH_CPU_PARALLEL 24  /* parallel union-find over slabs, merged along their seams (CPU) */

/* ---- timings ------------------------------------------------------------------------------ */

#define CCL4J_PHASE_NAME_SIZE 24
#define CCL4J_MAX_PHASES 32 /* the several-device path logs two per device */

typedef struct ccl4j_phase_time {
    char name[CCL4J_PHASE_NAME_SIZE]; /* NUL-terminated, e.g. "init", "compute1", "finalize" */
    double ms;
} ccl4j_phase_time;

/* Filled by every labelling call. total_ms is the whole call as seen by the host; the phases
 * are what the backend measured (CUDA events on the GPU, a steady clock on the CPU). */
typedef struct ccl4j_timings {
    double total_ms;
    int32_t phase_count;
    int32_t iterations;     /* fixpoint iterations or kernel launches of the iterative part */
    ccl4j_backend backend;  /* the backend that ran (AUTO resolved) */
    ccl4j_algorithm algorithm; /* the algorithm that ran (AUTO resolved) */
    ccl4j_phase_time phases[CCL4J_MAX_PHASES];
} ccl4j_timings;

/* ---- capabilities ------------------------------------------------------------------------- */

#define CCL4J_NAME_SIZE 256

typedef struct ccl4j_capabilities {
    char version[32];           /* "major.minor.patch" */
    uint32_t backends;          /* bit (1 << backend) set for each backend usable now */
    int32_t cuda_compiled;      /* 1 when the library was built with CUDA */
    char cuda_archs[64];        /* compiled device architectures, e.g. "sm_80 sm_90 compute_90" */
    int32_t cuda_runtime_version; /* e.g. 13000; 0 without CUDA */
    int32_t cuda_driver_version;  /* 0 when no driver is installed */
    int32_t device_count;
    int32_t cpu_threads;        /* threads CPU_PARALLEL uses by default */
} ccl4j_capabilities;

typedef struct ccl4j_device_info {
    int32_t index;
    int32_t compute_major;
    int32_t compute_minor;
    int32_t multiprocessors;
    int64_t total_memory;       /* bytes */
    char name[CCL4J_NAME_SIZE];
} ccl4j_device_info;

/* The library's version, "major.minor.patch" (static storage). Its signature never changes, so
 * that a caller can ask any libccl4j.so for its version before relying on anything else: the Java
 * side uses a libccl4j.so from java.library.path only when this matches its own. */
CCL4J_API const char* ccl4j_version(void);

CCL4J_API ccl4j_status ccl4j_get_capabilities(ccl4j_capabilities* out);
CCL4J_API ccl4j_status ccl4j_get_device_info(int32_t device, ccl4j_device_info* out);

/* ---- algorithms --------------------------------------------------------------------------- */

#define CCL4J_ALGORITHM_KIND_GRAPH 0 /* labels a CSR graph (ccl4j_label) */
#define CCL4J_ALGORITHM_KIND_MESH 1  /* labels a mesh (ccl4j_label_mesh) */
#define CCL4J_ALGORITHM_NAME_SIZE 32

/* One entry of the library's algorithm registry. */
typedef struct ccl4j_algorithm_info {
    ccl4j_algorithm id;
    int32_t kind;      /* CCL4J_ALGORITHM_KIND_* */
    uint32_t backends; /* bit (1 << backend) set for each backend it runs on in this build */
    char name[CCL4J_ALGORITHM_NAME_SIZE]; /* the id's name without CCL4J_ALGORITHM_, e.g. "ECL_CC", "MESH_KOMURA" */
    uint32_t wide_backends; /* mesh algorithms: bit (1 << backend) for each backend it writes int64 labels on
                               (ccl4j_label_mesh64) in this build; 0 for graph algorithms */
} ccl4j_algorithm_info;

/* The number of algorithms of this library; ccl4j_get_algorithm_info fills in the index-th of
 * them (0 <= index < count), graph algorithms first, each kind in increasing id. */
CCL4J_API int32_t ccl4j_algorithm_count(void);
CCL4J_API ccl4j_status ccl4j_get_algorithm_info(int32_t index, ccl4j_algorithm_info* out);

/* ---- contexts ----------------------------------------------------------------------------- */

typedef struct ccl4j_context_s* ccl4j_context;

/* Creates a context for a backend (AUTO is resolved here) and, for CUDA, a device index. */
CCL4J_API ccl4j_status ccl4j_context_create(ccl4j_backend backend, int32_t device, ccl4j_context* out);
/* A CUDA context over several devices: `count` (1 to 64) device indices, which may repeat (each
 * repeat is a partition of that device of its own, so that one GPU runs the several-device
 * path). Host graphs labelled with STREAMED, or with AUTO when they are large or do not fit one
 * device, are shared out among all of them (their arcs streamed to each, the forests merged over
 * peer copies into the first), but for a graph in page-locked memory that the first device reads
 * in place, which it labels alone (faster: the host's gathering limits the shared-out path);
 * every other call runs on the first device. Devices that can reach
 * one another's memory directly (NVLink, PCIe peer to peer) are given access; the others' copies
 * go through host memory. CCL4J_BACKEND_UNAVAILABLE naming a device that does not exist. */
CCL4J_API ccl4j_status ccl4j_context_create_devices(const int32_t* devices, int32_t count, ccl4j_context* out);
CCL4J_API void ccl4j_context_destroy(ccl4j_context context);
/* The context's CUDA devices in order into devices[0, capacity), their number into *count
 * (0 on the CPU backends). */
CCL4J_API ccl4j_status ccl4j_context_get_devices(ccl4j_context context, int32_t* devices, int32_t capacity,
                                                 int32_t* count);
/* The backend this context runs on. */
CCL4J_API ccl4j_backend ccl4j_context_backend(ccl4j_context context);
/* The message of the last failure on this context, or "" when none; with NULL, the calling
 * thread's last failure of a function without a context. Valid until the next call. */
CCL4J_API const char* ccl4j_context_error_message(ccl4j_context context);

/* ---- host memory for zero-copy transfers --------------------------------------------------- */

/* Allocates `bytes` of host memory, 64-byte aligned: page-locked (pinned) when the CUDA backend is
 * usable, so that transfers to the device are DMA without staging; ordinary memory otherwise.
 * *pinned tells which (may be NULL). Free with ccl4j_host_free. */
CCL4J_API ccl4j_status ccl4j_host_alloc(int64_t bytes, void** out, int32_t* pinned);
CCL4J_API void ccl4j_host_free(void* memory);

#ifdef __cplusplus
}
#endif

#endif /* CCL4J_COMMON_H */
