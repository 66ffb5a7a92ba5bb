package org.ccl4j.bench.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.ccl4j.internal.ffi.BindingsMatchHeaderTest;
import org.junit.jupiter.api.Test;

/**
 * ccl4j-core's {@link BindingsMatchHeaderTest} where the bindings of ccl4j/bench.h, which this
 * module alone compiles, are on the class path: here the functions and typedefs of that header are
 * checked against {@link ccl4j_bench_h} as well as the public headers' against ccl4j-core's
 * bindings.
 */
class BenchBindingsMatchHeaderTest extends BindingsMatchHeaderTest {
    @Test
    void theBenchHeaderIsCheckedAgainstThisModulesBindings() {
        assertEquals(ccl4j_bench_h.class, benchBindings());
    }
}
