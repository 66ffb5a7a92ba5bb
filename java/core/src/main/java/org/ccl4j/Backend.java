package org.ccl4j;

/** Where labelling runs. */
public enum Backend {
    /** CUDA when a device is present, otherwise {@link #CPU_PARALLEL}. */
    AUTO,
    /** An NVIDIA GPU, through the native library. */
    CUDA,
    /** All CPU cores, on the native library's own threads. */
    CPU_PARALLEL,
    /** One CPU thread, through the native library. */
    CPU_SERIAL,
    /**
     * Pure Java, no native code: a lock-free union-find on ForkJoin threads
     * ({@link LabelOptions#cpuThreads()}, {@link MeshOptions#cpuThreads()}; all cores by default) for
     * graphs ({@link Algorithm#UNION_FIND}, ECL-CC's) and meshes ({@link MeshAlgorithm#JAVA}), with
     * the labels segment as its parent array, and for edge lists ({@link EdgeList}, with an
     * {@code int[]} of parents), and the book-keeping in Java. It reads the inputs
     * and labels in place when they belong to a confined arena of the calling thread (inputs also
     * from the global arena), and copies them otherwise, since another thread could free a shared
     * arena's memory under it. Where native access is denied to the module, it runs on one thread.
     */
    JAVA;
}
