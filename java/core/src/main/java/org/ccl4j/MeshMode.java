package org.ccl4j;

/** Which cells of a mesh are labelled and which neighbours are connected. */
public enum MeshMode {
    /** Non-zero cells are labelled and connect to their non-zero neighbours; zero cells get label -1. */
    FOREGROUND,
    /**
     * Every cell is labelled; neighbours connect when their values are equal (Hawick's decorated
     * meshes: domains of a spin or phase field).
     */
    SAME_VALUE;
}
