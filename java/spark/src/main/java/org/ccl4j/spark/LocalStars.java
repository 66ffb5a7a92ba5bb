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
 * One batch of edges (a partition's, a merge's, or the driver's last one) labelled by ccl4j: the
 * endpoints are numbered {@code 0..n-1} locally, labelled, and each component's smallest global id
 * becomes its root. What comes out is one star per local component: {@code (vertex, root)} for
 * every vertex but the root.
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
     * The stars of the edges read from {@code edges}, and {@code (v, v)} for each vertex that has only
     * self loops among them (an input pair {@code (v, v)} is such a loop, so that these survive a
     * merge). A batch with an edge is counted in {@code tally} under the engine that labelled it.
     */
    static Iterator<Tuple2<Long, Long>> stars(Iterator<Tuple2<Long, Long>> edges, EngineTally tally) {
        LongList from = new LongList();
        LongList to = new LongList();
        LongList loops = new LongList();
        while (edges.hasNext()) {
            Tuple2<Long, Long> e = edges.next();
            long a = e._1();
            long b = e._2();
            if (a == b) {
                loops.add(a);
            } else {
                if (from.size() == MAX_EDGES) {
                    throw new IllegalStateException("more than " + MAX_EDGES
                            + " edges in one partition: label with more partitions");
                }
                from.add(a);
                to.add(b);
            }
        }
        LocalIds local = new LocalIds();
        List<Tuple2<Long, Long>> out = stars(from.toArray(), to.toArray(), local, tally);
        long[] alone = loops.toArray();
        Arrays.sort(alone);
        for (int i = 0; i < alone.length; i++) {
            if ((i == 0 || alone[i] != alone[i - 1]) && !local.contains(alone[i])) {
                out.add(new Tuple2<>(alone[i], alone[i]));
            }
        }
        return out.iterator();
    }

    /**
     * The stars of the edges {@code from[i]}–{@code to[i]}, none of them a self loop, counted in
     * {@code tally}. The ids are numbered {@code 0..n-1} in order of first appearance (a hash map: no
     * sort), labelled, and each component's smallest id found in one pass over its vertices.
     */
    static List<Tuple2<Long, Long>> stars(long[] from, long[] to, EngineTally tally) {
        return stars(from, to, new LocalIds(), tally);
    }

    /** As {@link #stars(long[], long[], EngineTally)}, numbering the ids in {@code local}. */
    private static List<Tuple2<Long, Long>> stars(long[] from, long[] to, LocalIds local, EngineTally tally) {
        int m = from.length;
        if (m == 0) {
            return new ArrayList<>();
        }
        int[] sources = new int[m];
        int[] targets = new int[m];
        for (int i = 0; i < m; i++) {
            sources[i] = local.numberOf(from[i]);
            targets[i] = local.numberOf(to[i]);
        }
        int n = local.size();
        int[] labels;
        try (Arena arena = Arena.ofConfined()) {
            EdgeList edges = EdgeList.fromArrays(arena, n, sources, targets);
            labels = labeler().label(edges, LabelOptions.defaults(), arena).toArray();
        }
        tally.add(labeler().backend().name());
        long[] ids = local.ids();
        // the smallest global id of each component, indexed by its label (a vertex of it)
        long[] smallest = new long[n];
        Arrays.fill(smallest, Long.MAX_VALUE);
        for (int v = 0; v < n; v++) {
            smallest[labels[v]] = Math.min(smallest[labels[v]], ids[v]);
        }
        List<Tuple2<Long, Long>> out = new ArrayList<>(n);
        for (int v = 0; v < n; v++) {
            long root = smallest[labels[v]];
            if (ids[v] != root) {
                out.add(new Tuple2<>(ids[v], root));
            }
        }
        return out;
    }

    /**
     * Local numbers of global ids in order of first appearance: an open-addressing hash map with
     * linear probing, its table a power of two kept at least twice the ids numbered (about 24 to 48
     * bytes an id, with the ids by number).
     */
    static final class LocalIds {
        private long[] keys = new long[1 << 10];
        private int[] numbers = new int[1 << 10];  // number + 1; 0: an empty slot
        private final LongList ids = new LongList();

        /** The number of {@code id}, the next one when it is new. */
        int numberOf(long id) {
            int mask = keys.length - 1;
            int slot = (int) mix(id) & mask;
            while (numbers[slot] != 0) {
                if (keys[slot] == id) {
                    return numbers[slot] - 1;
                }
                slot = (slot + 1) & mask;
            }
            int number = ids.size();
            keys[slot] = id;
            numbers[slot] = number + 1;
            ids.add(id);
            if (2L * ids.size() > keys.length) {
                grow();
            }
            return number;
        }

        int size() {
            return ids.size();
        }

        /** Whether {@code id} has a number. */
        boolean contains(long id) {
            int mask = keys.length - 1;
            for (int slot = (int) mix(id) & mask; numbers[slot] != 0; slot = (slot + 1) & mask) {
                if (keys[slot] == id) {
                    return true;
                }
            }
            return false;
        }

        /** The ids by number. */
        long[] ids() {
            return ids.toArray();
        }

        private void grow() {
            if (keys.length >= 1 << 30) {
                throw new IllegalStateException("more than 2^29 distinct ids in one batch: label with more partitions");
            }
            long[] oldKeys = keys;
            int[] oldNumbers = numbers;
            keys = new long[2 * oldKeys.length];
            numbers = new int[2 * oldKeys.length];
            int mask = keys.length - 1;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldNumbers[i] != 0) {
                    int slot = (int) mix(oldKeys[i]) & mask;
                    while (numbers[slot] != 0) {
                        slot = (slot + 1) & mask;
                    }
                    keys[slot] = oldKeys[i];
                    numbers[slot] = oldNumbers[i];
                }
            }
        }

        /** A 64-bit finaliser (splitmix64's), so that ids in strides or blocks spread over the table. */
        private static long mix(long x) {
            x = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
            x = (x ^ (x >>> 27)) * 0x94d049bb133111ebL;
            return x ^ (x >>> 31);
        }
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
