package org.ccl4j.testing;

import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.Devices;
import java.util.List;
import java.util.Map;

/**
 * The labelers of the property tests that run on every backend: one each on JAVA, CPU_SERIAL and
 * CPU_PARALLEL, and on CUDA when a device is present (else a notice says what is skipped), by
 * default on every device, as a user's CUDA labeler is.
 */
public final class BackendLabelers {
    private BackendLabelers() {
    }

    /**
     * Puts a labeler per backend into {@code labelers}; without a CUDA device prints
     * "NOTICE: no CUDA device present - " and {@code skipped}, which names what the caller skips.
     */
    public static void open(Map<Backend, ComponentLabeler> labelers, String skipped) {
        open(labelers, skipped, Devices.all());
    }

    /** As {@link #open(Map, String)}, the CUDA labeler on {@code devices} (the default: all of them). */
    public static void open(Map<Backend, ComponentLabeler> labelers, String skipped, Devices devices) {
        for (Backend b : List.of(Backend.JAVA, Backend.CPU_SERIAL, Backend.CPU_PARALLEL)) {
            labelers.put(b, ComponentLabeler.create(b));
        }
        if (ComponentLabeler.capabilities().backends().contains(Backend.CUDA)) {
            labelers.put(Backend.CUDA, ComponentLabeler.create(Backend.CUDA, devices));
        } else {
            System.out.println("NOTICE: no CUDA device present - " + skipped);
        }
    }

    /** Closes every labeler {@link #open} put in, and empties the map. */
    public static void close(Map<Backend, ComponentLabeler> labelers) {
        labelers.values().forEach(ComponentLabeler::close);
        labelers.clear();
    }
}
