package org.ccl4j;

import org.ccl4j.engine.spi.MemoryFigures;
import org.ccl4j.internal.HostMemory;

/**
 * The memory that labelling a grid needs besides its cells, and what there is: what
 * {@link ComponentLabeler#memoryNeeds(Grid, MeshOptions)} reports, and what the labelling overloads
 * that allocate the labels check before they allocate anything.
 *
 * @param labelBytes      4 (int32 labels) or 8 (int64)
 * @param labelsBytes     the labels: cell count times {@code labelBytes}, host memory
 * @param hostBytes       host memory the call allocates itself: on the native CPU backends the packed
 *                        copy of a strided grid; on the JAVA backend a copy of cells that another
 *                        thread could free during the call; 0 otherwise
 * @param deviceBytes     device memory the call needs on CUDA (cells, labels, working arrays); 0 elsewhere
 * @param hostAvailable   host memory available to new allocations now (Linux's MemAvailable), -1 where unknown
 * @param deviceAvailable device memory the call can use now on CUDA; 0 elsewhere
 */
public record MemoryNeeds(int labelBytes, long labelsBytes, long hostBytes, long deviceBytes, long hostAvailable,
                          long deviceAvailable) {
    /** The figures the engines report. */
    static MemoryNeeds of(MemoryFigures f) {
        return new MemoryNeeds(f.labelBytes(), f.labelsBytes(), f.hostBytes(), f.deviceBytes(), f.hostAvailable(),
                f.deviceAvailable());
    }

    /**
     * Throws when the labels and the call's own host memory exceed the host memory available, or
     * the device memory exceeds the device's: before anything is allocated, naming the figures,
     * e.g. "labelling a 2048x2048x2048 grid with int64 labels needs 68.7 GB for the labels; the
     * host has 60.1 GB available". Unknown availability (-1) is not checked.
     *
     * @param what the grid, as "a 2048x2048x2048 grid"
     * @throws Ccl4jException with status {@link Ccl4jException.Status#OUT_OF_MEMORY}
     */
    public void require(String what) {
        String doing = "labelling " + what + " with " + (labelBytes == Long.BYTES ? "int64" : "int32") + " labels";
        if (deviceBytes > 0 && deviceBytes > deviceAvailable) {
            throw new Ccl4jException(Ccl4jException.Status.OUT_OF_MEMORY, doing + " needs "
                    + HostMemory.format(deviceBytes) + " of device memory; the device has "
                    + HostMemory.format(deviceAvailable) + " available");
        }
        HostMemory.require(doing, labelsBytes + hostBytes, hostBytes == 0 ? " for the labels" : " ("
                + HostMemory.format(labelsBytes) + " for the labels, " + HostMemory.format(hostBytes)
                + " of working memory)", hostAvailable, Ccl4jException.FAILURES);
    }

    /**
     * The figures in words, the device's on CUDA only: "labels 68.7 GB (int64), host working memory
     * 0 bytes, device 77.3 GB; available: host 120.1 GB, device 142.4 GB".
     */
    @Override
    public String toString() {
        boolean device = deviceBytes > 0 || deviceAvailable > 0;
        return "labels " + HostMemory.format(labelsBytes) + " (" + (labelBytes == Long.BYTES ? "int64" : "int32")
                + "), host working memory " + HostMemory.format(hostBytes)
                + (device ? ", device " + HostMemory.format(deviceBytes) : "")
                + "; available: host " + (hostAvailable < 0 ? "unknown" : HostMemory.format(hostAvailable))
                + (device ? ", device " + HostMemory.format(deviceAvailable) : "");
    }
}
