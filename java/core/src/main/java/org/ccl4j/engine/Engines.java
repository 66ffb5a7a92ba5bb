package org.ccl4j.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import org.ccl4j.engine.jvm.JvmEngine;
import org.ccl4j.engine.nativelib.Abi;
import org.ccl4j.engine.nativelib.LibraryFunctions;
import org.ccl4j.engine.nativelib.NativeEngine;
import org.ccl4j.engine.nativelib.NativeLibrary;
import org.ccl4j.engine.slab.SlabEngine;
import org.ccl4j.engine.spi.AlgorithmInfo;
import org.ccl4j.engine.spi.AlgorithmTable;
import org.ccl4j.engine.spi.Engine;
import org.ccl4j.engine.spi.GraphAssembly;
import org.ccl4j.engine.spi.LibraryInfo;
import org.ccl4j.engine.spi.Physics;
import org.ccl4j.internal.Failures;

/**
 * The one place that picks an engine for a backend: the native library's for CUDA, CPU_PARALLEL and
 * CPU_SERIAL, the JVM's for JAVA, and for AUTO the native library's best backend, or the JVM's,
 * with one warning per JVM, where the library cannot be loaded or started. A new engine (streamed,
 * several GPUs, a cluster) is chosen here and nowhere else.
 *
 * <p>There is no shared engine: work that no labeler owns (the book-keeping of labels whose labeler
 * is closed, building a graph from edges) runs on an engine of its own, made for the call
 * ({@link #host}) and closed by the caller; a native CPU context costs nothing to make.
 */
public final class Engines {
    private static final AtomicBoolean WARNED_OF_FALLBACK = new AtomicBoolean();

    private Engines() {
    }

    /**
     * An engine on {@code backend} (the API's {@code Backend} name) and CUDA {@code device}.
     *
     * @throws RuntimeException what {@code failures} make of BACKEND_UNAVAILABLE when a named native
     *                          backend cannot run here
     */
    public static Engine open(String backend, int device, Failures failures) {
        return open(backend, new int[] {device}, failures);
    }

    /**
     * An engine on {@code backend} and the CUDA {@code devices} (repeats allowed), or with null
     * every device there is (device 0 where there is none, which a CUDA context then refuses).
     *
     * @throws RuntimeException what {@code failures} make of BACKEND_UNAVAILABLE when a named native
     *                          backend cannot run here or a device does not exist
     */
    public static Engine open(String backend, int[] devices, Failures failures) {
        return new SlabEngine(engine(backend, devices, failures), failures);
    }

    private static Engine engine(String backend, int[] requested, Failures failures) {
        if (backend.equals("JAVA")) {
            return new JvmEngine(failures, algorithms());
        }
        if (!NativeLibrary.load()) {
            if (backend.equals("AUTO")) {
                warnOfFallback(NativeLibrary.loadError());
                return new JvmEngine(failures, algorithms());
            }
            throw failures.unavailable(NativeLibrary.loadError());
        }
        int[] devices = requested;
        if (requested == null || backend.equals("AUTO")) {
            // every device by default; and AUTO without a GPU is the CPU, whatever devices were asked for
            int count = library(failures).devices().size();
            if (requested == null || count == 0) {
                devices = count == 0 ? new int[] {0} : IntStream.range(0, count).toArray();
            }
        }
        try {
            return new NativeEngine(backend, devices, new JvmEngine(failures, algorithms()), algorithms(), failures);
        } catch (RuntimeException e) {
            if (!backend.equals("AUTO")) {
                throw e;
            }
            warnOfFallback(e.getMessage());
            return new JvmEngine(failures, algorithms());
        }
    }

    /** An engine for work no labeler owns: the native CPU_PARALLEL backend, or the JVM without the library. */
    public static Engine host(Failures failures) {
        return open(NativeLibrary.load() ? "CPU_PARALLEL" : "JAVA", 0, failures);
    }

    /** The JVM engine (it holds nothing: closing it does nothing but refuse later calls). */
    public static Engine jvm(Failures failures) {
        return open("JAVA", 0, failures);
    }

    /** The JVM's assembly of a graph from edges added one at a time. */
    public static GraphAssembly graphAssembly() {
        return JvmEngine.graphAssembly();
    }

    /**
     * The engine that does the book-keeping of results {@code owner} made: {@code owner} while it
     * is open (or, for labels on its GPU, whatever it is: they are nowhere else), otherwise an
     * engine made for the call ({@link #host}), closed with the lease.
     */
    public static Lease lease(Engine owner, boolean onDevice, Failures failures) {
        if (owner != null && (onDevice || !owner.isClosed())) {
            return new Lease(owner, false);
        }
        return new Lease(host(failures), true);
    }

    /** An engine for one call, closed at the end of it when it was made for the call. */
    public record Lease(Engine engine, boolean temporary) implements AutoCloseable {
        @Override
        public void close() {
            if (temporary) {
                engine.close();
            }
        }
    }

    /** Says once per JVM that AUTO runs on the JVM engine, and why. */
    private static void warnOfFallback(String reason) {
        if (WARNED_OF_FALLBACK.compareAndSet(false, true)) {
            System.getLogger("org.ccl4j").log(System.Logger.Level.WARNING,
                    "ccl4j labels on the JAVA backend: " + reason);
        }
    }

    /** The algorithm table: the native registry's entries where the library loads, and the JVM's. */
    public static AlgorithmTable algorithms() {
        return Table.ALGORITHMS;
    }

    /** The table, read once: whether the library loads does not change. */
    private static final class Table {
        static final AlgorithmTable ALGORITHMS = read();

        private static AlgorithmTable read() {
            List<AlgorithmInfo> entries = new ArrayList<>();
            if (NativeLibrary.load()) {
                entries.addAll(Abi.algorithms());
            }
            entries.addAll(JvmEngine.algorithms());
            return new AlgorithmTable(entries);
        }
    }

    /** What this installation can do. */
    public static LibraryInfo library(Failures failures) {
        return LibraryFunctions.read(failures);
    }

    /**
     * A lattice of {@code kind} (a {@code CCL4J_LATTICE_*} code), built by the native library.
     *
     * @throws RuntimeException BACKEND_UNAVAILABLE without the library
     */
    public static Physics.Lattice lattice(int kind, int length, boolean periodic, long seed, Failures failures) {
        requireLibrary(failures);
        return LibraryFunctions.lattice(kind, length, periodic, seed, failures);
    }

    /** Host memory of the native library, page-locked when a CUDA device is usable, freed with {@code arena}. */
    public static MemorySegment hostMemory(Arena arena, long bytes, Failures failures) {
        requireLibrary(failures);
        return LibraryFunctions.hostMemory(arena, bytes, failures);
    }

    /** Whether the native library is loaded (loading it if that was not tried yet). */
    public static boolean nativeLibrary() {
        return NativeLibrary.load();
    }

    private static void requireLibrary(Failures failures) {
        if (!NativeLibrary.load()) {
            throw failures.unavailable(NativeLibrary.loadError());
        }
    }
}
