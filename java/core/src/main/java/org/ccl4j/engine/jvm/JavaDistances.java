package org.ccl4j.engine.jvm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.ccl4j.engine.spi.DistanceMethod;
import org.ccl4j.engine.spi.DistanceRows;
import org.ccl4j.engine.spi.GraphData;

/**
 * Distances within components in the JVM: a queue search from every source, the sources
 * in parallel (each worker thread keeps its own distance row and queue), or Floyd-Warshall. A
 * search also gives its source's component: the smallest vertex it reaches is the canonical
 * label, so no labelling is needed. The graph is checked, then copied to the heap on the calling
 * thread: the worker threads could not read a confined arena's segments, and the searches read
 * every arc n times.
 */
final class JavaDistances {
    private static final int INFINITE = Integer.MAX_VALUE / 2;
    /** The most elements a Java array holds on every JVM. */
    private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

    private JavaDistances() {
    }

    /** The graph's arrays on the heap. */
    private record Csr(int n, long[] offsets, int[] neighbors) {
        static Csr of(GraphData g) {
            InputCheck.structure(g);
            InputCheck.symmetry(g);
            if (g.arcCount() > MAX_ARRAY) {
                throw new IllegalArgumentException("the JAVA backend's distances take at most " + MAX_ARRAY
                        + " arcs (a Java array); this graph has " + g.arcCount() + ": use a native backend");
            }
            int n = g.vertexCount();
            long[] offsets = new long[n + 1];
            for (int v = 0; v <= n; v++) {
                offsets[v] = g.offset(v);
            }
            int[] neighbors = new int[(int) g.arcCount()];
            MemorySegment.copy(g.neighbors(), ValueLayout.JAVA_INT, 0, neighbors, 0, neighbors.length);
            return new Csr(n, offsets, neighbors);
        }
    }

    /** What one search leaves: a distance per vertex (-1 unreached) and the vertices in visiting order. */
    private static final class Search {
        final int[] distance;
        final int[] queue;

        Search(int n) {
            distance = new int[n];
            queue = new int[n];
            Arrays.fill(distance, -1);
        }

        /** Searches from s; returns how many vertices it reached (queue[0 .. count)). */
        int run(Csr g, int s) {
            distance[s] = 0;
            queue[0] = s;
            int tail = 1;
            for (int head = 0; head < tail; head++) {
                int u = queue[head];
                int next = distance[u] + 1;
                for (int a = (int) g.offsets[u], end = (int) g.offsets[u + 1]; a < end; a++) {
                    int v = g.neighbors[a];
                    if (distance[v] < 0) {
                        distance[v] = next;
                        queue[tail++] = v;
                    }
                }
            }
            return tail;
        }

        void reset(int count) {
            for (int i = 0; i < count; i++) {
                distance[queue[i]] = -1;
            }
        }
    }

    /** Distances within every component; a Floyd-Warshall graph's size is checked by the caller. */
    static DistanceRows rows(GraphData graph, DistanceMethod algorithm) {
        Map<String, Double> phases = new LinkedHashMap<>();
        long start = System.nanoTime();
        Csr g = Csr.of(graph);
        long pass = lap(phases, "check", start);
        int n = g.n();
        long[] sums = new long[n];
        int[] eccentricity = new int[n];
        int[] label = new int[n];
        boolean floyd = algorithm == DistanceMethod.FLOYD_WARSHALL;
        if (floyd) {
            int[] d = floydWarshall(g);
            IntStream.range(0, n).parallel().forEach(s -> {
                long sum = 0;
                int top = 0;
                int smallest = s;
                for (int v = 0; v < n; v++) {
                    int x = d[s * n + v];
                    if (x >= 0) {
                        sum += x;
                        top = Math.max(top, x);
                        smallest = Math.min(smallest, v);
                    }
                }
                sums[s] = sum;
                eccentricity[s] = top;
                label[s] = smallest;
            });
        } else {
            ThreadLocal<Search> searches = ThreadLocal.withInitial(() -> new Search(n));
            IntStream.range(0, n).parallel().forEach(s -> {
                Search w = searches.get();
                int count = w.run(g, s);
                long sum = 0;
                int smallest = s;
                for (int i = 0; i < count; i++) {
                    int v = w.queue[i];
                    sum += w.distance[v];
                    smallest = Math.min(smallest, v);
                }
                sums[s] = sum;
                eccentricity[s] = w.distance[w.queue[count - 1]];  // the last vertex reached is the farthest
                label[s] = smallest;
                w.reset(count);
            });
        }
        pass = lap(phases, floyd ? "floyd-warshall" : "bfs", pass);
        int[] row = new int[n];
        List<long[]> acc = new ArrayList<>();  // per row: first, vertices, path sum, diameter
        for (int v = 0; v < n; v++) {
            if (label[v] == v) {
                row[v] = acc.size();
                acc.add(new long[] {v, 0, 0, 0});
            } else {
                row[v] = row[label[v]];
            }
            long[] r = acc.get(row[v]);
            r[1]++;
            r[2] += sums[v];
            r[3] = Math.max(r[3], eccentricity[v]);
        }
        List<DistanceRows.Row> components = new ArrayList<>(acc.size());
        for (long[] r : acc) {
            components.add(new DistanceRows.Row((int) r[0], r[1], r[2], (int) r[3], DistanceRows.Row.mean(r[2], r[1])));
        }
        lap(phases, "reduce", pass);
        return new DistanceRows(components, "JAVA", floyd ? algorithm : DistanceMethod.BFS,
                (System.nanoTime() - start) / 1e6, phases);
    }

    /** All distances, row-major; the graph's size is checked by the caller. */
    static int[] matrix(GraphData graph, DistanceMethod algorithm) {
        int n = graph.vertexCount();
        Csr g = Csr.of(graph);
        if (algorithm == DistanceMethod.FLOYD_WARSHALL) {
            return floydWarshall(g);
        }
        int[] d = new int[n * n];
        ThreadLocal<Search> searches = ThreadLocal.withInitial(() -> new Search(n));
        IntStream.range(0, n).parallel().forEach(s -> {
            Search w = searches.get();
            int count = w.run(g, s);
            System.arraycopy(w.distance, 0, d, s * n, n);
            w.reset(count);
        });
        return d;
    }

    /** Floyd-Warshall: for every k, the rows in parallel relax d(i, j) through k; -1 where unreachable. */
    private static int[] floydWarshall(Csr g) {
        int n = g.n();
        int[] d = new int[n * n];
        Arrays.fill(d, INFINITE);
        for (int i = 0; i < n; i++) {
            for (int a = (int) g.offsets[i], end = (int) g.offsets[i + 1]; a < end; a++) {
                d[i * n + g.neighbors[a]] = 1;
            }
            d[i * n + i] = 0;  // after the arcs: a self loop is no step
        }
        for (int k = 0; k < n; k++) {
            int kk = k;
            IntStream.range(0, n).parallel().forEach(i -> {
                int toK = d[i * n + kk];
                if (i == kk || toK == INFINITE) {
                    return;
                }
                for (int j = 0, row = i * n, through = kk * n; j < n; j++) {
                    d[row + j] = Math.min(d[row + j], toK + d[through + j]);
                }
            });
        }
        for (int i = 0; i < d.length; i++) {
            if (d[i] == INFINITE) {
                d[i] = -1;
            }
        }
        return d;
    }

    private static long lap(Map<String, Double> phases, String name, long since) {
        long now = System.nanoTime();
        phases.put(name, (now - since) / 1e6);
        return now;
    }
}
