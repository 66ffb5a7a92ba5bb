package org.ccl4j.mesh;

import org.ccl4j.internal.CliNames;

/** Which cells of a mesh are labelled and which neighbours are connected. */
public enum MeshMode {
    /** Non-zero cells are labelled and connect to their non-zero neighbours; zero cells get label -1. */
    FOREGROUND("foreground"),
    /**
     * Every cell is labelled; neighbours connect when their values are equal (Hawick's decorated
     * meshes: domains of a spin or phase field).
     */
    SAME_VALUE("same-value");

    private final String cliName;

    MeshMode(String cliName) {
        this.cliName = cliName;
    }

    /** The name used on the command line. */
    public String cliName() {
        return cliName;
    }

    /** Parses a command-line name. */
    public static MeshMode fromCliName(String name) {
        return CliNames.parse("mesh mode", name, values(), MeshMode::cliName);
    }
}
