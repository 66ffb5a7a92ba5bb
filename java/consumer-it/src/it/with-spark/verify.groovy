// What the build of with-spark left behind, checked after it (maven-invoker: basedir).
def problems = []
def check = { boolean ok, String what -> if (!ok) problems << what }
def log = new File(basedir, 'build.log').text

// The README's example ran in local mode and printed every vertex with its component's smallest id,
// in order (Spark's own log lines may come between them: they share the build log).
def printed = log.readLines().findAll { it ==~ /\d+ -> \d+/ }
check(printed == ['1 -> 1', '2 -> 1', '3 -> 1', '5 -> 5', '10 -> 10', '11 -> 10'],
        "SparkComponents: not the expected output: $printed")
// No JDK warning (an unopened package, sun.misc.Unsafe's memory access, a restricted method).
def jdkWarnings = log.readLines().findAll { it.startsWith('WARNING:') }
check(jdkWarnings.isEmpty(), "JDK warnings in the run:\n  " + jdkWarnings.join('\n  '))

// mvn dependency:tree (ccl4j's artifacts only): ccl4j-spark and, through it, ccl4j-core; Spark is the
// application's own dependency, not ccl4j-spark's (provided there).
def tree = new File(basedir, 'target/dependency-tree.txt').readLines().findAll { it.trim() }
check(tree.size() == 3 && tree[1] ==~ /[+\\]- org\.ccl4j:ccl4j-spark:jar:[^:]+:compile/
        && tree[2] ==~ /[|\s]+\\- org\.ccl4j:ccl4j-core:jar:[^:]+:compile/, "dependency tree:\n" + tree.join('\n'))

if (problems) {
    throw new AssertionError('with-spark consumer:\n- ' + problems.join('\n- '))
}
println 'with-spark: the README example ran in local mode without warnings'
