/*
 * ccl4j: lattices, bond percolation, Swendsen-Wang updates of the Ising model and Cahn-Hilliard
 * phase separation. Included by ccl4j.h.
 */
#ifndef CCL4J_PHYSICS_H
#define CCL4J_PHYSICS_H

#include "common.h"
#include "graph.h"
#include "mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- lattices, bond percolation and Swendsen-Wang ---------------------------------------- */

/* Nearest-neighbour lattices as CSR graphs whose arcs carry the index of their bond (an
 * undirected edge, stored as two arcs), numbered densely from 0. length is the sites per side
 * (L x L, L x L x L, or L^3 cells of two sites for bcc), or the number of shells around the centre
 * for the Bethe lattice (3 * 2^length - 2 sites). The honeycomb lattice is a brick wall: every
 * site has its +x bond, and the sites with x + y even their +y bond. */
typedef int32_t ccl4j_lattice_kind;
#define CCL4J_LATTICE_SQUARE 1
#define CCL4J_LATTICE_TRIANGULAR 2   /* square plus the diagonal (x, y)-(x + 1, y + 1) */
#define CCL4J_LATTICE_HONEYCOMB 3
#define CCL4J_LATTICE_SIMPLE_CUBIC 4
#define CCL4J_LATTICE_BCC 5          /* site 2 * cell is the corner, 2 * cell + 1 the body centre */
#define CCL4J_LATTICE_BETHE 6        /* z = 3, sites numbered from the centre outwards */
#define CCL4J_LATTICE_BETHE_RANDOM 7 /* z = 3, sites numbered by a random permutation of the seed */

typedef struct ccl4j_lattice_s* ccl4j_lattice;

typedef struct ccl4j_lattice_info {
    ccl4j_lattice_kind kind;
    int32_t length;
    int32_t periodic;
    int32_t vertex_count;
    int64_t arc_count;
    int64_t bond_count;
    /* Sites of the two opposite open boundaries a spanning cluster joins: the first and the last
     * row (2D) or plane along z (3D); the centre and the surface shell (Bethe); 0 when periodic. */
    int32_t side0_count;
    int32_t side1_count;
} ccl4j_lattice_info;

/* Builds a lattice on the host (periodic: 0 open, 1 periodic; seed only numbers BETHE_RANDOM). */
CCL4J_API ccl4j_status ccl4j_lattice_create(ccl4j_lattice_kind kind, int32_t length, int32_t periodic,
                                            uint64_t seed, ccl4j_lattice* out);
CCL4J_API void ccl4j_lattice_destroy(ccl4j_lattice lattice);
CCL4J_API ccl4j_status ccl4j_lattice_get_info(ccl4j_lattice lattice, ccl4j_lattice_info* out);
/* Copies the arrays out; any pointer may be NULL. offsets: vertex_count + 1 entries; neighbors and
 * arc_bonds: arc_count; side0, side1: side0_count, side1_count. */
CCL4J_API ccl4j_status ccl4j_lattice_copy(ccl4j_lattice lattice, int32_t* offsets, int32_t* neighbors,
                                          int32_t* arc_bonds, int32_t* side0, int32_t* side1);

/* Bond b of realisation r is open when the first word of Philox-4x32-10 with key (seed low, seed
 * high) and counter (b, 0, r low, r high) is below floor(p * 2^32) (always for p = 1). Draws
 * open[b] for bond_count bonds on the context's backend: every backend gives the same bits. */
CCL4J_API ccl4j_status ccl4j_draw_bonds(ccl4j_context context, int64_t bond_count, uint64_t seed,
                                        uint64_t realisation, double p, uint8_t* open);

/* Bond percolation on one lattice: its arrays (and, on CUDA, the device buffers) are set up once
 * and reused by every realisation. A closed bond's arcs become self-loops of the masked graph,
 * which any labelling algorithm then labels; options NULL or AUTO means Komura's algorithm.
 * The context must outlive the handle; the options are copied and the lattice may be destroyed. */
typedef struct ccl4j_percolation_s* ccl4j_percolation;

typedef struct ccl4j_percolation_result {
    int64_t realisations;
    int64_t spanning;  /* realisations with a cluster touching both sides */
    double total_ms;   /* host clock, whole call */
    double label_ms;   /* labelling alone (the backend's phase times), summed */
} ccl4j_percolation_result;

CCL4J_API ccl4j_status ccl4j_percolation_create(ccl4j_context context, ccl4j_lattice lattice,
                                                const ccl4j_label_options* options, ccl4j_percolation* out);
CCL4J_API void ccl4j_percolation_destroy(ccl4j_percolation percolation);
/* Runs realisations first_realisation ... first_realisation + count - 1 at probability p.
 * spanning (count entries) and labels (vertex_count entries, those of the last realisation) may
 * be NULL. */
CCL4J_API ccl4j_status ccl4j_percolation_run(ccl4j_percolation percolation, double p, uint64_t seed,
                                             uint64_t first_realisation, int32_t count, uint8_t* spanning,
                                             int32_t* labels, ccl4j_percolation_result* out);

/* Swendsen-Wang cluster updates of the Ising model (J = 1) on any lattice, spins starting all up.
 * A sweep activates each bond between equal spins with probability 1 - exp(-2 / T) (Philox
 * counter (b, 1, sweep)), labels the clusters, and flips the cluster labelled l when the top bit of
 * Philox counter (l, 2, sweep) is set. Sweeps are numbered across calls. */
typedef struct ccl4j_ising_s* ccl4j_ising;

CCL4J_API ccl4j_status ccl4j_ising_create(ccl4j_context context, ccl4j_lattice lattice,
                                          const ccl4j_label_options* options, uint64_t seed, ccl4j_ising* out);
CCL4J_API void ccl4j_ising_destroy(ccl4j_ising ising);
/* Runs `sweeps` sweeps at temperature T; after each, magnetisation[i] = sum of spins / N and
 * energy[i] = -(sum over bonds of s s') / N (either may be NULL). total_ms may be NULL. */
CCL4J_API ccl4j_status ccl4j_ising_sweep(ccl4j_ising ising, double temperature, int32_t sweeps,
                                         double* magnetisation, double* energy, double* total_ms);

/* ---- Cahn-Hilliard phase separation ------------------------------------------------------- */

/* The Cahn-Hilliard equation of a binary alloy as Leist, Playne & Hawick 2009 (section 3)
 * integrate it: dc/dt = m lap(-c + c^3 - K lap(c)) on a 2D (depth 1) or 3D field of float
 * concentrations c in about [-1, 1] (the equilibrium phases are c = -1 and c = +1), finite
 * differences of spacing h (5-point or 7-point Laplacian, applied twice: the 13- or 25-cell stencil
 * of the paper), second-order Runge-Kutta steps of dt: c' = c + dt/2 f(c), then c <- c + dt f(c').
 * Floats, as in the paper: the field is O(1) and the dynamics amplify the noise of the start, not
 * the last bits; half the memory traffic of doubles; and every backend and kernel evaluates the same
 * float operations in the same order without fused multiply-adds, so the CPU and the GPU compute
 * the same bits, step after step. The sum of c is conserved (to float rounding) with either
 * boundary. The handle keeps the field, and on CUDA every buffer, on the context's backend. */
typedef struct ccl4j_cahn_hilliard_s* ccl4j_cahn_hilliard;

/* ccl4j_cahn_hilliard_params.boundary, for every axis alike. */
#define CCL4J_CH_PERIODIC 0 /* wrap-around */
#define CCL4J_CH_NO_FLUX 1  /* closed walls: zero normal gradient of c and of mu (mirrored ghost cells), so no
                               material crosses a wall and the mean concentration is conserved; a fixed wall
                               value would feed or drain material and favour one phase at the walls */

/* ccl4j_cahn_hilliard_params.kernel: the GPU's memory variant (the CPU backends ignore it). */
#define CCL4J_CH_KERNEL_AUTO 0   /* GLOBAL: the faster of the two on an H100 (1024^2: 0.032 against 0.047 ms
                                    per step; 128^3: 0.10 against 0.17), whose L1 cache does the tiling */
#define CCL4J_CH_KERNEL_GLOBAL 1 /* the paper's kernel A: each thread reads its 13 (25) cells through the
                                    read-only data cache (the modern texture path of kernel C) and
                                    evaluates mu at its 5 (7) face points itself */
#define CCL4J_CH_KERNEL_SHARED 2 /* kernel B: a block loads its tile with a two-cell halo into shared
                                    memory, evaluates mu once per tile cell, then the rates */

/* The field's shape and the equation's parameters. A zero double means its default. */
typedef struct ccl4j_cahn_hilliard_params {
    int32_t width;       /* >= 1 */
    int32_t height;      /* >= 1 */
    int32_t depth;       /* >= 1; 1 is a 2D field. At most INT32_MAX cells in all */
    int32_t boundary;    /* CCL4J_CH_PERIODIC or CCL4J_CH_NO_FLUX */
    int32_t kernel;      /* CCL4J_CH_KERNEL_* */
    int32_t cpu_threads; /* CPU_PARALLEL: thread count; 0 = all available */
    double dt;           /* time step; 0 = 0.01 (2D and 3D with the other defaults: within the limit below) */
    double mobility;     /* m > 0; 0 = 1 */
    double gradient;     /* K > 0, the gradient energy coefficient; 0 = 1 (interfaces a few cells wide) */
    double spacing;      /* h > 0; 0 = 1 */
} ccl4j_cahn_hilliard_params;

/* Creates a field of concentration 0 (call ccl4j_cahn_hilliard_init) on the context's backend;
 * the context must outlive it. Refuses (CCL4J_INVALID_ARGUMENT, naming the limit) a dt beyond the
 * stability limit of explicit RK2 for the stiff K lap^2 term, dt * m lambda (2 + K lambda) <= 2 with
 * lambda = 4 d / h^2 the largest eigenvalue of -lap in d dimensions (with c within [-1, 1]). */
CCL4J_API ccl4j_status ccl4j_cahn_hilliard_create(ccl4j_context context, const ccl4j_cahn_hilliard_params* params,
                                                  ccl4j_cahn_hilliard* out);
CCL4J_API void ccl4j_cahn_hilliard_destroy(ccl4j_cahn_hilliard field);

typedef struct ccl4j_cahn_hilliard_info {
    ccl4j_cahn_hilliard_params params; /* as resolved: defaults filled in, kernel AUTO resolved on CUDA */
    int64_t steps;                     /* steps since the last init or set_field */
    double time;                       /* steps * dt */
} ccl4j_cahn_hilliard_info;

CCL4J_API ccl4j_status ccl4j_cahn_hilliard_get_info(ccl4j_cahn_hilliard field, ccl4j_cahn_hilliard_info* out);

/* The quench: c = concentration + noise * (2 u - 1) with u in [0, 1) from the 24 high bits of
 * the first word of Philox-4x32-10 with key (seed low, seed high) and counter (cell, 4, 0, 0),
 * computed on the backend (the same bits everywhere). Resets the step count. */
CCL4J_API ccl4j_status ccl4j_cahn_hilliard_init(ccl4j_cahn_hilliard field, double concentration, double noise,
                                                uint64_t seed);
/* Sets the field to `values` (host, cell count floats, finite). Resets the step count. */
CCL4J_API ccl4j_status ccl4j_cahn_hilliard_set_field(ccl4j_cahn_hilliard field, const float* values);
/* Runs `steps` RK2 steps. total_ms (may be NULL): their time (CUDA events on the GPU). A field
 * that is no longer finite afterwards (it diverged: it started far outside [-1, 1]) fails with
 * CCL4J_NOT_CONVERGED naming the first such cell; the steps still count and the field stays as it
 * is until init or set_field. */
CCL4J_API ccl4j_status ccl4j_cahn_hilliard_step(ccl4j_cahn_hilliard field, int64_t steps, double* total_ms);
/* Copies the field out (host, cell count floats). */
CCL4J_API ccl4j_status ccl4j_cahn_hilliard_copy_field(ccl4j_cahn_hilliard field, float* values);
/* cells[i] = 1 where c > threshold, else 0 (host, cell count bytes), computed on the backend. */
CCL4J_API ccl4j_status ccl4j_cahn_hilliard_threshold(ccl4j_cahn_hilliard field, double threshold, uint8_t* cells);

/* The domains of one labelling. */
typedef struct ccl4j_cahn_hilliard_domains {
    int64_t domains;    /* clusters of cells with c > threshold */
    int64_t foreground; /* cells with c > threshold */
    int64_t largest;    /* cells of the largest domain; 0 when there is none */
    double mean_size;   /* foreground / domains; 0 when there is none */
} ccl4j_cahn_hilliard_domains;

/* Thresholds the field (c > threshold) into a uint8 mesh where it lies and labels its clusters
 * there: on CUDA the cells are written by a kernel into the mesh labelling's own device buffer,
 * labelled and counted on the device, and nothing but the four counts crosses to the host unless
 * labels asks for the labels. options as for ccl4j_label_mesh; NULL means AUTO, face neighbours,
 * foreground mode and periodic labelling exactly when the field is periodic. labels (may be
 * NULL): cell count int32 labels as ccl4j_label_mesh writes them. timings (may be NULL): the
 * phases "threshold", the labelling's, "domains" (and "d2h" for labels on CUDA). */
CCL4J_API ccl4j_status ccl4j_cahn_hilliard_label(ccl4j_cahn_hilliard field, double threshold,
                                                 const ccl4j_mesh_options* options, int32_t* labels,
                                                 ccl4j_cahn_hilliard_domains* out, ccl4j_timings* timings);

#ifdef __cplusplus
}
#endif

#endif /* CCL4J_PHYSICS_H */
