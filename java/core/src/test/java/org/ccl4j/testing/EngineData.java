package org.ccl4j.testing;

import org.ccl4j.CsrGraph;
import org.ccl4j.EdgeList;
import org.ccl4j.Grid;
import org.ccl4j.MeshMode;
import org.ccl4j.MeshOptions;
import org.ccl4j.engine.spi.EdgeData;
import org.ccl4j.engine.spi.GraphData;
import org.ccl4j.engine.spi.GridData;
import org.ccl4j.engine.spi.IntensityData;
import org.ccl4j.engine.spi.MeshSettings;
import org.ccl4j.engine.spi.Progress;

/** The engines' data of the API's inputs, made from their public views, for tests of an engine's parts. */
public final class EngineData {
    private EngineData() {
    }

    public static GraphData graph(CsrGraph g) {
        return new GraphData(g.vertexCount(), g.arcCount(), g.offsetBytes(), g.offsets(), g.neighbors());
    }

    public static EdgeData edges(EdgeList e) {
        return new EdgeData(e.vertexCount(), e.edgeCount(), e.isInterleaved() ? 2 : 1, e.sources(), e.targets());
    }

    public static GridData grid(Grid g) {
        return new GridData(g.width(), g.height(), g.depth(), IntensityData.ValueType.valueOf(g.type().name()),
                g.rowStride(), g.layerStride(), g.cells());
    }

    public static MeshSettings settings(MeshOptions o, Grid g) {
        return new MeshSettings(o.algorithm().name(), o.connectivityFor(g), o.periodicX(), o.periodicY(), o.periodicZ(),
                o.mode() == MeshMode.SAME_VALUE, o.delta(), o.cpuThreads(), o.blockSize(), o.tileSize(), o.maxIterations(),
                o.memoryBudget(), Progress.NONE);
    }
}
