package org.ccl4j;

import java.lang.foreign.MemorySegment;

/**
 * A graph resident in GPU memory, uploaded once by {@link ComponentLabeler#upload(CsrGraph)} and
 * labelled many times. Freed by {@link #close()} or when its labeler closes.
 */
public final class DeviceGraph implements AutoCloseable {
    private final ComponentLabeler owner;
    private final MemorySegment handle;
    private final int vertexCount;
    private final long arcCount;
    private final double uploadMs;

    DeviceGraph(ComponentLabeler owner, MemorySegment handle, int vertexCount, long arcCount, double uploadMs) {
        this.owner = owner;
        this.handle = handle;
        this.vertexCount = vertexCount;
        this.arcCount = arcCount;
        this.uploadMs = uploadMs;
    }

    /** The number of vertices of the uploaded graph. */
    public int vertexCount() {
        return vertexCount;
    }

    /** The number of arcs (directed: an undirected edge is two) of the uploaded graph. */
    public long arcCount() {
        return arcCount;
    }

    /** The host-to-device copy time of the upload, measured with CUDA events. */
    public double uploadMs() {
        return uploadMs;
    }

    ComponentLabeler owner() {
        return owner;
    }

    MemorySegment handle() {
        return handle;
    }

    @Override
    public void close() {
        owner.release(this);
    }
}
