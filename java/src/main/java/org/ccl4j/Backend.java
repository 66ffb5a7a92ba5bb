package org.ccl4j;

import org.ccl4j.internal.CliNames;

/** Where labelling runs. */
public enum Backend {
    /** CUDA when a device is present, otherwise {@link #CPU_PARALLEL}. */
    AUTO("auto", 0),
    /** An NVIDIA GPU, through the native library. */
    CUDA("cuda", 1),
    /** All CPU cores (OpenMP), through the native library. */
    CPU_PARALLEL("cpu", 2),
    /** One CPU thread, through the native library. */
    CPU_SERIAL("cpu-serial", 3),
    /** Pure Java, no native code: the union-find that is also the test oracle. */
    JAVA("java", -1);

    private final String cliName;
    private final int nativeCode;

    Backend(String cliName, int nativeCode) {
        this.cliName = cliName;
        this.nativeCode = nativeCode;
    }

    /** The name used on the command line ({@code auto}, {@code cuda}, {@code cpu}, ...). */
    public String cliName() {
        return cliName;
    }

    int nativeCode() {
        return nativeCode;
    }

    static Backend fromNativeCode(int code) {
        for (Backend b : values()) {
            if (b.nativeCode == code) {
                return b;
            }
        }
        throw new IllegalStateException("native library reported unknown backend " + code);
    }

    /** Parses a command-line name. */
    public static Backend fromCliName(String name) {
        return CliNames.parse("backend", name, values(), Backend::cliName);
    }
}
