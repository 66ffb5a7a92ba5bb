module example {
    requires org.ccl4j;       // ccl4j-core
    requires org.ccl4j.io;    // ccl4j-io: graph files, images and volumes
}
