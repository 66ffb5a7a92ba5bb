package org.ccl4j.testing;

import java.util.ArrayList;
import java.util.List;

import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;

/**
 * The forked programs of the reliability tests: the backends a scenario runs on, and the record of
 * misuses that were not refused as they should be.
 */
public final class Misuses {
    private static final List<String> FAILURES = new ArrayList<>();

    private Misuses() {
    }

    /** JAVA, and the native backends this JVM has (CUDA with a device). */
    public static List<Backend> backends() {
        List<Backend> backends = new ArrayList<>(List.of(Backend.JAVA));
        for (Backend b : List.of(Backend.CPU_SERIAL, Backend.CPU_PARALLEL, Backend.CUDA)) {
            if (ComponentLabeler.capabilities().backends().contains(b)) {
                backends.add(b);
            }
        }
        return backends;
    }

    /** Runs {@code misuse}, which must throw {@code expected}; records a failure otherwise. */
    public static void expect(Class<? extends RuntimeException> expected, String what, Runnable misuse) {
        try {
            misuse.run();
            FAILURES.add(what + ": no exception");
        } catch (RuntimeException e) {
            if (expected.isInstance(e)) {
                System.out.println("refused " + what + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
            } else {
                FAILURES.add(what + ": " + e + " instead of " + expected.getSimpleName());
            }
        }
    }

    /** Records a failure unless {@code holds}. */
    public static void check(boolean holds, String what) {
        if (!holds) {
            FAILURES.add(what);
        }
    }

    /** Prints the failures and exits: 0 without any, 1 with. */
    public static void exit() {
        FAILURES.forEach(f -> System.out.println("FAILED: " + f));
        System.exit(FAILURES.isEmpty() ? 0 : 1);
    }
}
