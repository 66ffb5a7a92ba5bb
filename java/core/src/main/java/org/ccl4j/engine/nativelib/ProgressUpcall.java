package org.ccl4j.engine.nativelib;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.ccl4j.engine.spi.Progress;
import org.ccl4j.internal.ffi.ccl4j_progress_fn;

/**
 * An engine's {@link Progress} as the {@code ccl4j_progress_fn} of one {@code ccl4j_label_graph}
 * call. An exception that left an upcall would end the JVM, so what the listener throws is kept
 * instead (the listener then hears no more) and thrown by {@link #afterCall} once the library has
 * returned, the labels written.
 */
final class ProgressUpcall implements ccl4j_progress_fn.Function {
    private final Progress progress;
    // written on the library's threads, read on the caller's once the call has returned
    private volatile Throwable thrown;

    ProgressUpcall(Progress progress) {
        this.progress = progress;
    }

    /**
     * The stub to put in {@code ccl4j_label_options.progress}, in {@code arena}: a shared one (the
     * library calls it from threads of its own) that stays open until the call has returned.
     */
    MemorySegment stub(Arena arena) {
        return ccl4j_progress_fn.allocate(this, arena);
    }

    @Override
    public void apply(MemorySegment user, MemorySegment stage, long done, long total) {
        if (thrown != null) {
            return;
        }
        try {
            // a string literal of the library's, NUL-terminated
            progress.report(stage.reinterpret(Long.MAX_VALUE).getString(0), done, total);
        } catch (Throwable e) {
            thrown = e;
        }
    }

    /**
     * Runs {@code check}, which throws the call's failure, then throws what the listener threw
     * first, as it was thrown; with a failure, that goes with it as suppressed.
     */
    void afterCall(Runnable check) {
        Throwable listener = thrown;
        try {
            check.run();
        } catch (RuntimeException failure) {
            if (listener != null) {
                failure.addSuppressed(listener);
            }
            throw failure;
        }
        if (listener != null) {
            ProgressUpcall.<RuntimeException>rethrow(listener);
        }
    }

    // Throws t unchanged: a checked exception the listener threw undeclared stays what it was.
    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void rethrow(Throwable t) throws T {
        throw (T) t;
    }
}
