package org.ccl4j;

import org.ccl4j.engine.jvm.JvmEngine;

/** Breaks a rule of ArchitectureTest: an API type depends on an engine implementation. */
public final class ApiUsingAnEngineFixture {
    private ApiUsingAnEngineFixture() {
    }

    static Object assembly() {
        return JvmEngine.graphAssembly();
    }
}
