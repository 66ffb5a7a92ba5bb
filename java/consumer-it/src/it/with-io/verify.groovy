// What the build of with-io left behind, checked after it (maven-invoker: basedir).
def problems = []
def check = { boolean ok, String what -> if (!ok) problems << what }
def log = new File(basedir, 'build.log').text
def times = { String text -> log.count(text) }

// The snippets ran on the module path (enable-native-access=org.ccl4j) and on the class path
// (ALL-UNNAMED) without any warning of the JDK: an unknown module, a restricted method.
def jdkWarnings = log.readLines().findAll { it.startsWith('WARNING:') || it.contains('Unknown module') }
check(jdkWarnings.isEmpty(), "JDK warnings in the runs:\n  " + jdkWarnings.join('\n  '))
check(times('4 components, the largest has 4 vertices\nvertex 7 is in the component of vertex 7\n') == 2,
        'LabelGraph: not twice the expected output for graph.mtx')
check((log =~ /(?m)^4 components, labelled by (STREAMED|AFFOREST|UNION_FIND)$/).size() == 2,
        'LabelWithinBudget: not twice the expected output for graph.mtx')
check((log =~ /(?m)^2 spiral arms, 1 in the mask; \d+ domains in the alloy$/).size() == 2, 'MeshFiles: not twice the expected output')
['spiral.pgm', 'alloy.raw', 'labels-z0.png', 'labels-z7.png'].each {
    check(new File(basedir, it).length() > 0, "MeshFiles did not write ${it}")
}

// mvn dependency:tree: ccl4j-io and, through it, ccl4j-core; nothing else.
def tree = new File(basedir, 'target/dependency-tree.txt').readLines().findAll { it.trim() }
check(tree.size() == 3 && tree[1] ==~ /\\- org\.ccl4j:ccl4j-io:jar:[^:]+:compile/
        && tree[2] ==~ /\s+\\- org\.ccl4j:ccl4j-core:jar:[^:]+:compile/, "dependency tree:\n" + tree.join('\n'))

if (problems) {
    throw new AssertionError('with-io consumer:\n- ' + problems.join('\n- '))
}
println 'with-io: the snippets ran on the module path and the class path without warnings'
