package org.ccl4j;

import org.ccl4j.engine.spi.DeviceGraphRef;
import org.ccl4j.engine.spi.Engine;

/**
 * A graph resident in GPU memory, uploaded once by {@link ComponentLabeler#upload(CsrGraph)} and
 * labelled many times. Freed by {@link #close()} or when its labeler closes.
 */
public final class DeviceGraph implements AutoCloseable {
    private final Engine engine;
    private final DeviceGraphRef ref;

    DeviceGraph(Engine engine, DeviceGraphRef ref) {
        this.engine = engine;
        this.ref = ref;
    }

    /**
     * The number of vertices of the uploaded graph.
     *
     * @return the vertex count
     */
    public int vertexCount() {
        return ref.vertexCount();
    }

    /**
     * The number of arcs (directed: an undirected edge is two) of the uploaded graph.
     *
     * @return the arc count
     */
    public long arcCount() {
        return ref.arcCount();
    }

    /**
     * The host-to-device copy time of the upload, measured with CUDA events.
     *
     * @return the copy time, in milliseconds
     */
    public double uploadMs() {
        return ref.uploadMs();
    }

    Engine engine() {
        return engine;
    }

    DeviceGraphRef ref() {
        return ref;
    }

    @Override
    public void close() {
        engine.release(ref);
    }
}
