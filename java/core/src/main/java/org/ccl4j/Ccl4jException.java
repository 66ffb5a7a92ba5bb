package org.ccl4j;

import java.util.Objects;

import org.ccl4j.internal.Failures;

/**
 * A failure of the native library that is neither bad input ({@link IllegalArgumentException}), an
 * unavailable backend ({@link BackendUnavailableException}) nor an unsupported combination
 * ({@link UnsupportedOperationException}); its {@link #status()} says which, its message what the
 * native library reported.
 */
public class Ccl4jException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What went wrong. */
    public enum Status {
        /** The backend cannot run here ({@link BackendUnavailableException}). */
        BACKEND_UNAVAILABLE,
        /** A host or device allocation failed. */
        OUT_OF_MEMORY,
        /** A CUDA call or kernel launch failed. */
        DEVICE_ERROR,
        /** An iterative algorithm reached its iteration limit before its fixpoint. */
        NOT_CONVERGED,
        /** A failure inside the native library that none of the above describes. */
        INTERNAL_ERROR
    }

    /** What went wrong. */
    private final Status status;

    /** The exceptions of this type, for the layers below the API, which cannot name it. */
    static final Failures FAILURES = (status, message) -> of(Status.valueOf(status), message);

    /**
     * An exception with {@code status} (not null) and the native library's {@code message}.
     *
     * @param status the kind of failure
     * @param message the native library's message
     */
    public Ccl4jException(Status status, String message) {
        super(message);
        this.status = Objects.requireNonNull(status, "status");
    }

    /**
     * The exception for {@code status}: a {@link BackendUnavailableException} for
     * {@link Status#BACKEND_UNAVAILABLE}, a {@code Ccl4jException} otherwise.
     *
     * @param status the kind of failure
     * @param message the native library's message
     * @return the exception, to throw
     */
    public static Ccl4jException of(Status status, String message) {
        return status == Status.BACKEND_UNAVAILABLE ? new BackendUnavailableException(message)
                : new Ccl4jException(status, message);
    }

    /**
     * What went wrong.
     *
     * @return the status
     */
    public Status status() {
        return status;
    }
}
