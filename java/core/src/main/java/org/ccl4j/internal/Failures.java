package org.ccl4j.internal;

/**
 * The API's exceptions for failures that are neither bad arguments nor unsupported requests,
 * made from a status name of the API's {@code Ccl4jException.Status} and a message. The API hands
 * this to the layers below it, which cannot name its types.
 */
@FunctionalInterface
public interface Failures {
    RuntimeException of(String status, String message);

    /** An {@code OUT_OF_MEMORY} failure. */
    default RuntimeException outOfMemory(String message) {
        return of("OUT_OF_MEMORY", message);
    }

    /** A {@code BACKEND_UNAVAILABLE} failure. */
    default RuntimeException unavailable(String message) {
        return of("BACKEND_UNAVAILABLE", message);
    }
}
