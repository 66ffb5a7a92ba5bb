// What the build of with-jgrapht left behind, checked after it (maven-invoker: basedir).
def problems = []
def check = { boolean ok, String what -> if (!ok) problems << what }
def log = new File(basedir, 'build.log').text

// The snippet ran on the module path (enable-native-access=org.ccl4j; the module requires only
// org.ccl4j.jgrapht) and on the class path (ALL-UNNAMED) without any warning of the JDK.
def jdkWarnings = log.readLines().findAll { it.startsWith('WARNING:') || it.contains('Unknown module') }
check(jdkWarnings.isEmpty(), "JDK warnings in the runs:\n  " + jdkWarnings.join('\n  '))
check(log.count('[[a, b, c], [d, e]], connected: false, a to c: true\n') == 2,
        'JGraphTComponents: not twice the expected output')

// mvn dependency:tree: ccl4j-jgrapht and, through it, ccl4j-core and jgrapht-core (with JGraphT's own
// dependencies); nothing else of ccl4j.
def tree = new File(basedir, 'target/dependency-tree.txt').readLines().findAll { it.trim() }
check(tree.size() >= 4 && tree[1] ==~ /\\- org\.ccl4j:ccl4j-jgrapht:jar:[^:]+:compile/
        && tree.any { it ==~ /\s+[+\\]- org\.ccl4j:ccl4j-core:jar:[^:]+:compile/ }
        && tree.any { it ==~ /\s+[+\\]- org\.jgrapht:jgrapht-core:jar:[^:]+:compile/ }
        && tree.findAll { it.contains('org.ccl4j:') }.size() == 2, "dependency tree:\n" + tree.join('\n'))

if (problems) {
    throw new AssertionError('with-jgrapht consumer:\n- ' + problems.join('\n- '))
}
println 'with-jgrapht: the snippet ran on the module path and the class path without warnings'
