package org.ccl4j.spark;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.TaskContext;
import org.apache.spark.resource.ResourceInformation;
import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.Devices;
import org.ccl4j.EdgeList;
import org.ccl4j.LabelOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * One batch of edges (a partition's, or the driver's last one) labelled by ccl4j: the endpoints are
 * compacted to local ids {@code 0..n-1} in ascending order of their global ids, so that ccl4j's
 * canonical label (the smallest local id of a component) is also the smallest global id there.
 * What comes out is one star per local component: {@code (vertex, root)} for every vertex but the root.
 */
final class LocalStars {
    /** Two long arrays of 2m ids must fit a Java array. */
    static final int MAX_EDGES = (Integer.MAX_VALUE - 16) / 2;

    private static final Logger LOG = LoggerFactory.getLogger(SparkComponentLabeler.class);

    private static ComponentLabeler shared;

    private LocalStars() {
    }

    /**
     * The JVM's one labeler, made on first use: on the GPUs Spark gave the task (resource
     * {@code gpu}, {@code spark.executor.resource.gpu.amount}), else on every GPU of the machine,
     * else the CPU, else the JVM. One per JVM because a CUDA context is costly to make; its engine
     * serialises the tasks' calls. Logged once, at INFO.
     */
    static synchronized ComponentLabeler labeler() {
        if (shared == null) {
            Devices gpus = assignedGpus();
            shared = gpus == null ? ComponentLabeler.create() : ComponentLabeler.create(Backend.AUTO, gpus);
            LOG.info("ccl4j labels this JVM's batches on {}{}", shared.backend(),
                    shared.devices().isEmpty() ? "" : " (CUDA devices " + shared.devices()
                            + (gpus == null ? ", every one of the machine)" : ", assigned by Spark)"));
        }
        return shared;
    }

    /** The addresses of the running task's {@code gpu} resource, or null outside a task or without one. */
    private static Devices assignedGpus() {
        TaskContext task = TaskContext.get();
        ResourceInformation gpu = task == null ? null : task.resourcesJMap().get("gpu");
        if (gpu == null || gpu.addresses().length == 0) {
            return null;
        }
        return Devices.of(Arrays.stream(gpu.addresses()).mapToInt(a -> Integer.parseInt(a.strip())).toArray());
    }

    /**
     * The stars of the edges read from {@code edges}; self loops join nothing and are dropped. A
     * batch with an edge is counted in {@code tally} under the engine that labelled it.
     */
    static Iterator<Tuple2<Long, Long>> stars(Iterator<Tuple2<Long, Long>> edges, EngineTally tally) {
        LongList from = new LongList();
        LongList to = new LongList();
        while (edges.hasNext()) {
            Tuple2<Long, Long> e = edges.next();
            long a = e._1();
            long b = e._2();
            if (a != b) {
                if (from.size() == MAX_EDGES) {
                    throw new IllegalStateException("more than " + MAX_EDGES
                            + " edges in one partition: label with more partitions");
                }
                from.add(a);
                to.add(b);
            }
        }
        return stars(from.toArray(), to.toArray(), tally).iterator();
    }

    /** The stars of the edges {@code from[i]}–{@code to[i]}, none of them a self loop, counted in {@code tally}. */
    static List<Tuple2<Long, Long>> stars(long[] from, long[] to, EngineTally tally) {
        int m = from.length;
        if (m == 0) {
            return List.of();
        }
        long[] ids = new long[2 * m];
        System.arraycopy(from, 0, ids, 0, m);
        System.arraycopy(to, 0, ids, m, m);
        Arrays.sort(ids);
        int n = 0;
        for (int i = 0; i < ids.length; i++) {
            if (i == 0 || ids[i] != ids[i - 1]) {
                ids[n++] = ids[i];
            }
        }
        int[] sources = new int[m];
        int[] targets = new int[m];
        for (int i = 0; i < m; i++) {
            sources[i] = Arrays.binarySearch(ids, 0, n, from[i]);
            targets[i] = Arrays.binarySearch(ids, 0, n, to[i]);
        }
        int[] labels;
        try (Arena arena = Arena.ofConfined()) {
            EdgeList edges = EdgeList.fromArrays(arena, n, sources, targets);
            labels = labeler().label(edges, LabelOptions.defaults(), arena).toArray();
        }
        tally.add(labeler().backend().name());
        List<Tuple2<Long, Long>> out = new ArrayList<>(n);
        for (int v = 0; v < n; v++) {
            if (labels[v] != v) {
                out.add(new Tuple2<>(ids[v], ids[labels[v]]));
            }
        }
        return out;
    }

    /** A growable array of longs, to hold a partition's ids without boxing them. */
    static final class LongList {
        private long[] values = new long[16];
        private int size;

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, (int) Math.min((long) size * 2, Integer.MAX_VALUE - 8));
            }
            values[size++] = v;
        }

        int size() {
            return size;
        }

        long[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
