/**
 * Physics on lattices and fields, labelled by ccl4j's engines: bond percolation, Swendsen–Wang
 * cluster updates of the Ising model, and the domains of Cahn–Hilliard coarsening.
 *
 * <ul>
 * <li>{@link org.ccl4j.physics.Lattice}: square, triangular, honeycomb, simple cubic, bcc and
 *     Bethe lattices ({@link org.ccl4j.physics.LatticeKind}), open or periodic, built natively as
 *     CSR graphs whose arcs carry the index of their bond.</li>
 * <li>{@link org.ccl4j.physics.BondPercolation}: every bond open with probability p, drawn from
 *     Philox-4x32-10 so that every backend draws the same bonds; each realisation is labelled and
 *     tested for a cluster that touches both open sides (on CUDA, on the device).</li>
 * <li>{@link org.ccl4j.physics.SwendsenWang}: cluster updates of the Ising model on a lattice,
 *     with the magnetisation and energy per sweep.</li>
 * <li>{@link org.ccl4j.physics.CahnHilliard}: the Cahn–Hilliard equation of a binary alloy on a 2D
 *     or 3D field of floats, integrated where the field lives, whose domains are labelled there.</li>
 * </ul>
 * The simulations run on the native backends ({@code CUDA}, {@code CPU_PARALLEL},
 * {@code CPU_SERIAL}), not on {@code JAVA}; every object here holds native memory: close it.
 *
 * <pre>{@code
 * try (Lattice lattice = Lattice.withSites(LatticeKind.HONEYCOMB, 1 << 16, false, 0);
 *      BondPercolation run = BondPercolation.create(lattice, Backend.AUTO, Algorithm.KOMURA)) {
 *     BondPercolation.Result r = run.run(0.6527, 1, 0, 100);     // p, seed, first realisation, count
 *     System.out.println(r.probability() + " +- " + r.error());  // the spanning probability R(p)
 * }
 * try (CahnHilliard field = CahnHilliard.create(256, 256, 1, CahnHilliard.Parameters.defaults(), Backend.AUTO)) {
 *     field.init(-0.4, 0.05, 1);                                  // the quench: c0, noise, seed
 *     field.step(1000);
 *     System.out.println(field.label(0).count() + " domains at t = " + field.time());
 * }
 * }</pre>
 */
package org.ccl4j.physics;
