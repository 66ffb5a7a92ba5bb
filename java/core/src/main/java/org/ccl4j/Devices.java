package org.ccl4j;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The CUDA devices a labeler uses: every device of the machine ({@link #all()}, the default) or a
 * list of device indices ({@link #of(int...)}). A graph labelled with {@link Algorithm#STREAMED} by
 * name is shared out among them (its arcs streamed to each, the forests merged on the first), but
 * for a graph in page-locked memory ({@link PinnedMemory}) that the first device reads in place,
 * which it labels alone; every other call runs on the first device, {@link Algorithm#AUTO}
 * included: on a host with four GPUs, one device gathering a graph was as fast as several
 * (BENCHMARKS.md, "Several GPUs"). An index may repeat:
 * each repeat is a partition of that device of its own, which runs the several-device path on one
 * GPU. The CPU and JAVA backends ignore the devices.
 *
 * <pre>{@code
 * try (ComponentLabeler labeler = ComponentLabeler.create(Backend.CUDA, Devices.of(0, 2))) {
 *     Labels labels = labeler.label(graph, LabelOptions.defaults().withAlgorithm(Algorithm.STREAMED));
 * }
 * }</pre>
 */
public final class Devices {
    private static final Devices ALL = new Devices(null);
    private final int[] indices;

    private Devices(int[] indices) {
        this.indices = indices;
    }

    /**
     * Every CUDA device of the machine, in index order.
     *
     * @return every device
     */
    public static Devices all() {
        return ALL;
    }

    /**
     * These CUDA devices, in this order (the first runs what is not shared out).
     *
     * @param indices device indices, at least one and at most 64, none negative; repeats allowed
     * @return the devices
     * @throws IllegalArgumentException for no index, more than 64, or a negative one
     */
    public static Devices of(int... indices) {
        Objects.requireNonNull(indices, "indices");
        if (indices.length == 0 || indices.length > 64) {
            throw new IllegalArgumentException("between 1 and 64 device indices, got " + indices.length);
        }
        for (int i : indices) {
            if (i < 0) {
                throw new IllegalArgumentException("device index must not be negative, got " + i);
            }
        }
        return new Devices(indices.clone());
    }

    /**
     * Devices as a command line writes them: {@code all}, or indices separated by commas ({@code 0,2}).
     *
     * @param text {@code all} or a comma-separated list of device indices
     * @return the devices
     * @throws IllegalArgumentException naming the part that is not a device index
     */
    public static Devices parse(String text) {
        Objects.requireNonNull(text, "text");
        if (text.strip().equalsIgnoreCase("all")) {
            return ALL;
        }
        String[] parts = text.split(",", -1);
        int[] indices = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                indices[i] = Integer.parseInt(parts[i].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + parts[i].strip() + "' is not a device index (devices are 'all' or"
                        + " indices separated by commas, e.g. 0,2)");
            }
        }
        return of(indices);
    }

    /**
     * Whether these are every device of the machine.
     *
     * @return true for {@link #all()}
     */
    public boolean isAll() {
        return indices == null;
    }

    /**
     * The device indices in order; empty for {@link #all()}, which the labeler resolves when it opens.
     *
     * @return the indices
     */
    public List<Integer> indices() {
        return indices == null ? List.of() : Arrays.stream(indices).boxed().toList();
    }

    int[] toArray() {
        return indices == null ? null : indices.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Devices d && Arrays.equals(indices, d.indices);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(indices);
    }

    @Override
    public String toString() {
        return indices == null ? "all" : String.join(",", Arrays.stream(indices).mapToObj(Integer::toString).toList());
    }
}
