package org.ccl4j.engine.nativelib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.ccl4j.Algorithm;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.internal.ffi.ccl4j_algorithm_info;
import org.ccl4j.internal.ffi.ccl4j_h;

/**
 * The native registry and the API's algorithm constants name the same algorithms: every registry
 * entry has its constant (so an algorithm added to the registry without one fails here), and every
 * native constant's id comes back to it through the registry.
 */
class AlgorithmRegistryTest {
    @BeforeAll
    static void loadLibrary() {
        assertTrue(NativeLibrary.load(), () -> "the native library did not load: " + NativeLibrary.loadError());
    }

    @Test
    void everyRegistryEntryHasItsApiConstant() {
        Set<Integer> ids = new HashSet<>();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = ccl4j_algorithm_info.allocate(arena);
            int count = ccl4j_h.ccl4j_algorithm_count();
            assertTrue(count > 0, "the registry is empty");
            for (int i = 0; i < count; i++) {
                assertEquals(ccl4j_h.CCL4J_SUCCESS(), ccl4j_h.ccl4j_get_algorithm_info(i, info));
                int id = ccl4j_algorithm_info.id(info);
                String name = ccl4j_algorithm_info.name(info).getString(0);
                assertTrue(ids.add(id), "id " + id + " listed twice");
                // a GPU-only algorithm runs nowhere in a build without CUDA
                boolean cudaBuild = org.ccl4j.ComponentLabeler.capabilities().cudaCompiled();
                assertTrue(ccl4j_algorithm_info.backends(info) != 0 || !cudaBuild, name + " runs on no backend");
                if (ccl4j_algorithm_info.kind(info) == ccl4j_h.CCL4J_ALGORITHM_KIND_GRAPH()) {
                    Algorithm constant = Algorithm.valueOf(name);
                    assertEquals(id, Abi.algorithmCode(constant.name()));
                    assertEquals(name, Abi.algorithmName(id));
                } else {
                    assertTrue(name.startsWith("MESH_"), name);
                    MeshAlgorithm constant = MeshAlgorithm.valueOf(name.substring("MESH_".length()));
                    assertEquals(id, Abi.meshAlgorithmCode(constant.name()));
                    assertEquals(constant.name(), Abi.meshAlgorithmName(id));
                }
            }
            assertEquals(ccl4j_h.CCL4J_INVALID_ARGUMENT(), ccl4j_h.ccl4j_get_algorithm_info(count, info));
            assertEquals(ccl4j_h.CCL4J_INVALID_ARGUMENT(), ccl4j_h.ccl4j_get_algorithm_info(-1, info));
        }
    }

    @Test
    void everyNativeApiConstantIsInTheRegistry() {
        for (Algorithm a : Algorithm.values()) {
            int code = Abi.algorithmCode(a.name());
            switch (a) {
                case AUTO -> assertEquals(ccl4j_h.CCL4J_ALGORITHM_AUTO(), code);
                case UNION_FIND -> assertEquals(-1, code);
                default -> assertEquals(a.name(), Abi.algorithmName(code));
            }
        }
        for (MeshAlgorithm a : MeshAlgorithm.values()) {
            int code = Abi.meshAlgorithmCode(a.name());
            switch (a) {
                case AUTO -> assertEquals(ccl4j_h.CCL4J_ALGORITHM_AUTO(), code);
                case JAVA -> assertEquals(-1, code);
                default -> assertEquals(a.name(), Abi.meshAlgorithmName(code));
            }
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Abi.algorithmCode("NONE"));
        assertEquals("the native library has no graph algorithm NONE", e.getMessage());
        assertThrows(IllegalStateException.class, () -> Abi.meshAlgorithmName(ccl4j_h.CCL4J_ALGORITHM_ECL_CC()));
    }
}
