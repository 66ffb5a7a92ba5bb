package org.ccl4j.engine.jvm;

import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;

/**
 * Breaks rules of ArchitectureTest: an engine depends on the facade, and so the packages form a
 * cycle (org.ccl4j to the factory to this engine and back).
 */
public final class FacadeUserFixture {
    private FacadeUserFixture() {
    }

    static ComponentLabeler labeler() {
        return ComponentLabeler.create(Backend.JAVA);
    }
}
