package org.ccl4j.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Loads libccl4j.so once: from a directory of {@code java.library.path} when one holds it,
 * otherwise from inside the jar. The jar's copy is extracted once into a per-user cache
 * directory, under a name made of its SHA-256 hash: a JVM that finds the file there loads it
 * without writing anything, concurrent JVMs write to temporary files of their own and move them
 * into place atomically, and nothing is left in the temporary directory.
 *
 * <p>The system property {@code ccl4j.native=false} (or the environment variable
 * {@code CCL4J_NATIVE=false}) turns the native library off: the native backends are then
 * unavailable and {@code ComponentLabeler.create()} runs on the Java backend. The cache directory
 * is the system property {@code ccl4j.cache.dir}, else {@code $XDG_CACHE_HOME/ccl4j}, else
 * {@code ~/.cache/ccl4j}.
 *
 * <p>The FFM bindings look their symbols up among the libraries loaded by this class loader, so
 * this must run before any of them is used.
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
            if (turnedOff()) {
                loadError = "the ccl4j native library is turned off (system property ccl4j.native or environment"
                        + " variable CCL4J_NATIVE is false)";
                return false;
            }
            try {
                loadedFrom = locate();
                System.load(loadedFrom.toString());
            } catch (UnsatisfiedLinkError | IOException | UncheckedIOException | SecurityException e) {
                loadError = "cannot load the ccl4j native library" + (loadedFrom == null ? "" : " " + loadedFrom)
                        + ": " + e.getMessage();
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

    private static boolean turnedOff() {
        String setting = System.getProperty("ccl4j.native", System.getenv("CCL4J_NATIVE"));
        return setting != null && (setting.equalsIgnoreCase("false") || setting.equalsIgnoreCase("off"));
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
        byte[] library;
        try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new UnsatisfiedLinkError("no " + mapped + " for " + platform
                        + " in java.library.path or in the ccl4j jar (" + resource + ")");
            }
            library = in.readAllBytes();
        }
        String hash = hash(library);
        try {
            return extract(library, cacheDirectory().resolve(hash), mapped);
        } catch (IOException unwritableCache) {
            // e.g. a read-only home: one directory per user in the temporary directory, reused too
            Path shared = Path.of(System.getProperty("java.io.tmpdir"), NAME + "-" + System.getProperty("user.name"));
            return extract(library, shared.resolve(hash), mapped);
        }
    }

    /**
     * The library's file in {@code dir}, written there first unless a file of the same size is
     * there already (the directory's name is the content's hash, so such a file is this library).
     */
    private static Path extract(byte[] library, Path dir, String name) throws IOException {
        Path file = dir.resolve(name);
        if (Files.isRegularFile(file) && Files.size(file) == library.length) {
            return file;
        }
        Files.createDirectories(dir);
        Path partial = Files.createTempFile(dir, name, ".part");
        try {
            Files.write(partial, library);
            try {
                Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
                Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(partial);
        }
        return file;
    }

    private static Path cacheDirectory() {
        String configured = System.getProperty("ccl4j.cache.dir");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, NAME);
        }
        return Path.of(System.getProperty("user.home"), ".cache", NAME);
    }

    private static String hash(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content)).substring(0, 32);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
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
