/**
 * ccl4j: connected-component labelling of graphs on NVIDIA GPUs and CPUs, through the Foreign
 * Function &amp; Memory API. Start with {@link org.ccl4j.ComponentLabeler}.
 */
module org.ccl4j {
    requires java.desktop;
    exports org.ccl4j;
    exports org.ccl4j.io;
    exports org.ccl4j.mesh;
}
