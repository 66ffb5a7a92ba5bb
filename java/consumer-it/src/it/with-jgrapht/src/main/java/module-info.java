module example {
    requires org.ccl4j.jgrapht;  // and, through it, org.ccl4j and org.jgrapht.core
}
