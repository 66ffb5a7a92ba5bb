/*
 * ccl4j: lattices, bond percolation and Swendsen-Wang updates of the Ising model. Included by
 * ccl4j.h.
 */
#ifndef CCL4J_PHYSICS_H
#define CCL4J_PHYSICS_H

#include "common.h"
#include "graph.h"

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

#ifdef __cplusplus
}
#endif

#endif /* CCL4J_PHYSICS_H */
