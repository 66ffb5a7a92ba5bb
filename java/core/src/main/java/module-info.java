/**
 * ccl4j: connected-component labelling of graphs and meshes on NVIDIA GPUs and CPUs, through the
 * Foreign Function &amp; Memory API. Start with {@link org.ccl4j.ComponentLabeler}.
 *
 * <p>The native library is inside this module; it needs native access, granted with
 * {@code --enable-native-access=org.ccl4j} (or {@code ALL-UNNAMED} on the class path).
 */
module org.ccl4j {
    exports org.ccl4j;
    exports org.ccl4j.physics;
}
