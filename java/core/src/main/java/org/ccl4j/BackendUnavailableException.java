package org.ccl4j;

/** The requested backend cannot run here: no CUDA device or driver, or no native library for this platform. */
public class BackendUnavailableException extends Ccl4jException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with status {@link Status#BACKEND_UNAVAILABLE} and {@code message}, which says why.
     *
     * @param message why the backend is unavailable
     */
    public BackendUnavailableException(String message) {
        super(Status.BACKEND_UNAVAILABLE, message);
    }
}
