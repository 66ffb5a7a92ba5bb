package org.ccl4j.engine.jvm;

import org.ccl4j.internal.ffi.ccl4j_h;

/** Breaks a rule of ArchitectureTest: an engine other than the native one calls the bindings. */
public final class BindingsUserFixture {
    private BindingsUserFixture() {
    }

    static int success() {
        return ccl4j_h.CCL4J_SUCCESS();
    }
}
