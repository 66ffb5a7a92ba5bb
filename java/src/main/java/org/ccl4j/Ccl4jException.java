package org.ccl4j;

/** A failure reported by the native library (device errors, out of memory, ...). */
public class Ccl4jException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The native status code (see {@code ccl4j.h}). */
    private final int status;

    public Ccl4jException(int status, String message) {
        super(message);
        this.status = status;
    }

    /** The native status code, {@code CCL4J_*} in {@code ccl4j.h}. */
    public int status() {
        return status;
    }
}
