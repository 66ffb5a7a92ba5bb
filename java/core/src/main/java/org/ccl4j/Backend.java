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
    /** Pure Java, no native code: the union-find that is also the test oracle. */
    JAVA;
}
