module example {
    requires org.ccl4j;
}
