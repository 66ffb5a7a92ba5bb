package org.ccl4j.engine.spi;

import java.util.Set;

/**
 * One labelling algorithm: its name (the API's constant: {@code Algorithm} for graphs,
 * {@code MeshAlgorithm} for meshes, without the registry's {@code MESH_} prefix), its kind, the
 * backends it runs on and those on which it writes int64 mesh labels (by the API's
 * {@code Backend} names), and whether it runs in the JVM rather than in the native library.
 */
public record AlgorithmInfo(String name, Kind kind, Set<String> backends, Set<String> wideBackends, boolean jvm) {
    public enum Kind { GRAPH, MESH }

    public AlgorithmInfo {
        backends = Set.copyOf(backends);
        wideBackends = Set.copyOf(wideBackends);
    }
}
