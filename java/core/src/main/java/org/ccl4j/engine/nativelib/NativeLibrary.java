package org.ccl4j.engine.nativelib;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

import org.ccl4j.internal.ffi.ccl4j_h;

/**
 * Loads libccl4j.so once: from a directory of {@code java.library.path} when one holds a library
 * of this jar's version, otherwise from inside the jar. A library on {@code java.library.path}
 * of another version (or too old to say) is passed over with a warning. The jar's copy is
 * extracted once into a per-user cache directory, under a name made of its SHA-256 hash: a JVM
 * that finds the file there loads it without writing anything, concurrent JVMs write to temporary
 * files of their own and move them into place atomically, and nothing is left in the temporary
 * directory.
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

    private static final System.Logger LOG = System.getLogger("org.ccl4j");

    private static boolean attempted;
    private static String loadError;
    private static Path loadedFrom;
    private static String origin;

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
                LOG.log(System.Logger.Level.DEBUG, "ccl4j loaded {0} ({1})", loadedFrom, origin);
            } catch (UnsatisfiedLinkError | IOException | UncheckedIOException | SecurityException e) {
                loadError = "cannot load the ccl4j native library" + (loadedFrom == null ? "" : " " + loadedFrom)
                        + ": " + e.getMessage();
                loadedFrom = null;
                origin = null;
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

    /**
     * Where the loaded library came from ({@code java.library.path}, or the jar and the directory
     * it was extracted into), with the libraries of {@code java.library.path} that were passed
     * over and why; null when none is loaded.
     */
    public static synchronized String origin() {
        load();
        return origin;
    }

    /** The version this jar was built with, which a library from java.library.path must have. */
    public static String expectedVersion() {
        return ccl4j_h.CCL4J_VERSION_MAJOR() + "." + ccl4j_h.CCL4J_VERSION_MINOR() + "." + ccl4j_h.CCL4J_VERSION_PATCH();
    }

    private static boolean turnedOff() {
        String setting = System.getProperty("ccl4j.native", System.getenv("CCL4J_NATIVE"));
        return setting != null && (setting.equalsIgnoreCase("false") || setting.equalsIgnoreCase("off"));
    }

    private static Path locate() throws IOException {
        String mapped = System.mapLibraryName(NAME);
        List<String> passedOver = new ArrayList<>();
        for (String dir : System.getProperty("java.library.path", "").split(java.io.File.pathSeparator)) {
            Path candidate = dir.isEmpty() ? null : Path.of(dir, mapped).toAbsolutePath();
            if (candidate == null || !Files.isRegularFile(candidate)) {
                continue;
            }
            String version = versionOf(candidate);
            if (version.equals(expectedVersion())) {
                origin = "java.library.path";
                return candidate;
            }
            String why = candidate + " on java.library.path was passed over: "
                    + (version.startsWith("(") ? version : "version " + version) + ", this jar needs version "
                    + expectedVersion();
            LOG.log(System.Logger.Level.WARNING, "ccl4j: " + why + "; loading the library inside the jar instead");
            passedOver.add(why);
        }
        Path extracted = extractFromJar(mapped);
        if (!passedOver.isEmpty()) {
            origin += "; " + String.join("; ", passedOver);
        }
        return extracted;
    }

    /**
     * What {@code ccl4j_version()} of {@code library} returns, or in parentheses why it could not
     * be asked. The library is opened on its own and closed again; only {@code ccl4j_version}, whose
     * signature never changes, is called.
     */
    private static String versionOf(Path library) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment function = SymbolLookup.libraryLookup(library, arena).find("ccl4j_version").orElse(null);
            if (function == null) {
                return "(it has no ccl4j_version function: a library older than this jar's, or not ccl4j's)";
            }
            MethodHandle call = Linker.nativeLinker().downcallHandle(function, FunctionDescriptor.of(ValueLayout.ADDRESS));
            MemorySegment text = (MemorySegment) call.invokeExact();
            return text.reinterpret(64).getString(0);
        } catch (IllegalArgumentException | IllegalStateException e) {
            return "(it cannot be opened: " + e.getMessage() + ")";
        } catch (Throwable e) {
            return "(asking its version failed: " + e + ")";
        }
    }

    private static Path extractFromJar(String mapped) throws IOException {
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
        Path cache = cacheDirectory();
        try {
            origin = "extracted from the ccl4j-core jar into the per-user cache";
            return extract(library, cache.resolve(hash), mapped);
        } catch (IOException unwritableCache) {
            // e.g. a read-only home: one directory per user in the temporary directory, reused too
            Path shared = Path.of(System.getProperty("java.io.tmpdir"), NAME + "-" + System.getProperty("user.name"));
            origin = "extracted from the ccl4j-core jar into the temporary directory, the cache " + cache
                    + " being unwritable (" + unwritableCache + ")";
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
