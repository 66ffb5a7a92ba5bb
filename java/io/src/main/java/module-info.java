/**
 * ccl4j I/O: graph files (edge lists, Matrix Market, DIMACS, METIS, SNAP, ECL's binary CSR) in
 * {@link org.ccl4j.io}, images and volumes (PGM, PNG, raw) and label pictures in
 * {@link org.ccl4j.io.grid}.
 */
module org.ccl4j.io {
    requires transitive org.ccl4j;
    requires java.desktop;

    exports org.ccl4j.io;
    exports org.ccl4j.io.grid;
}
