package org.ccl4j.engine.spi;

/** A graph an engine holds in its GPU's memory, labelled many times; freed by {@link Engine#release}. */
public interface DeviceGraphRef {
    int vertexCount();

    long arcCount();

    /** The host-to-device copy time of the upload. */
    double uploadMs();
}
