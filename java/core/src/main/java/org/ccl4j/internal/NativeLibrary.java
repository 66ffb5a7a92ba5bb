package org.ccl4j.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads libccl4j.so once: from a directory of {@code java.library.path} when one holds it,
 * otherwise from inside the jar (extracted to a temporary file). The FFM bindings look their
 * symbols up among the libraries loaded by this class loader, so this must run before any of them
 * is used.
 */
public final class NativeLibrary {
    private static final String NAME = "ccl4j";
    private static final String RESOURCE_DIR = "/org/ccl4j/native/";

    private static boolean attempted;
    private static String loadError;
    private static Path loadedFrom;

    private NativeLibrary() {
    }

    /** Loads the library if that has not been tried yet; true when it is loaded. */
    public static synchronized boolean load() {
        if (!attempted) {
            attempted = true;
            try {
                loadedFrom = locate();
                System.load(loadedFrom.toString());
            } catch (UnsatisfiedLinkError | IOException | UncheckedIOException | SecurityException e) {
                loadError = "cannot load the ccl4j native library: " + e.getMessage();
                loadedFrom = null;
            }
        }
        return loadError == null;
    }

    /** Why loading failed, or null. */
    public static synchronized String loadError() {
        load();
        return loadError;
    }

    /** The file the library was loaded from, or null. */
    public static synchronized Path loadedFrom() {
        load();
        return loadedFrom;
    }

    private static Path locate() throws IOException {
        String mapped = System.mapLibraryName(NAME);
        String paths = System.getProperty("java.library.path", "");
        for (String dir : paths.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, mapped);
                if (Files.isRegularFile(candidate)) {
                    return candidate.toAbsolutePath();
                }
            }
        }
        String platform = platform();
        String resource = RESOURCE_DIR + platform + "/" + mapped;
        try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new UnsatisfiedLinkError("no " + mapped + " for " + platform
                        + " in java.library.path or in the ccl4j jar (" + resource + ")");
            }
            Path dir = Files.createTempDirectory("ccl4j-");
            Path file = dir.resolve(mapped);
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            file.toFile().deleteOnExit();
            dir.toFile().deleteOnExit();
            return file;
        }
    }

    private static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String osName = os.contains("linux") ? "linux" : os.replaceAll("\\s+", "");
        String archName = arch.equals("amd64") || arch.equals("x86_64") ? "x86-64" : arch;
        return osName + "-" + archName.replace("x86-64", "x86_64");
    }
}
