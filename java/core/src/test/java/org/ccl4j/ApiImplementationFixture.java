package org.ccl4j;

/** Breaks a rule of ArchitectureTest: an implementation class, not an API type, in org.ccl4j. */
final class ApiImplementationFixture {
    private ApiImplementationFixture() {
    }
}
