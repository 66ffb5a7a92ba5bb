// What the build of core-only left behind, checked after it (maven-invoker: basedir, localRepositoryPath).
import java.util.zip.ZipFile

def problems = []
def check = { boolean ok, String what -> if (!ok) problems << what }
def log = new File(basedir, 'build.log').text
def times = { String text -> log.count(text) }

// The snippets ran on the module path (enable-native-access=org.ccl4j) and on the class path
// (ALL-UNNAMED) without any warning of the JDK: an unknown module, a restricted method.
def jdkWarnings = log.readLines().findAll { it.startsWith('WARNING:') || it.contains('Unknown module') }
check(jdkWarnings.isEmpty(), "JDK warnings in the runs:\n  " + jdkWarnings.join('\n  '))
check(times('64 components, the largest has 4096 cells; cell (3,0) is in component 0') == 2, 'LabelMesh: not twice the expected output')
check(times('1 component, labelled 51300: ') == 2, 'LabelRegion: not twice the expected output')
check(times('4 components; LabelSummary[count=10, labelled=10, components=4, largestSize=4, largestLabel=0, smallestSize=1];'
        + ' [Component[label=0, size=4], Component[label=4, size=3]]; Histogram[LOG2: 1=1, 2=2, 4=1];'
        + ' vertex 9 of the compact labels: 3; 4 member lists; 2 components of 3 or more; the largest has 4 vertices') == 2,
        'Bookkeeping: not twice the expected output')
check((log =~ /(?m)^0 4\n4 3\n7 2\n9 1$/).size() == 2, 'Bookkeeping: not twice the components 0 4, 4 3, 7 2, 9 1')
check((log =~ /(?m)^1: 3 cells, box \(0,0\)-\(1,1\), centroid \(0\.6666666666666666, 0\.3333333333333333\), mean 9\.0, touches x-y-\n2: 2 cells, box \(4,0\)-\(5,1\), centroid \(4\.5, 0\.5\), mean 7\.0, touches x\+y-\n3: 3 cells, box \(0,3\)-\(2,3\), centroid \(1\.0, 3\.0\), mean 5\.0, touches x-y\+\n4: 1 cells, box \(5,3\)-\(5,3\), centroid \(5\.0, 3\.0\), mean 3\.0, touches x\+y\+\nlabel of cell \(4,1\): 2$/).size() == 2,
        'Regions: not twice the four regions and the label of cell (4,1)')
check(times('[0, 0, 0, 3, 3, 5, 3, 7], 4 components, 8 arcs') == 2, 'LabelEdges: not twice the expected output')
check((log =~ /(?m)^0-2: 2 cell pairs, area 3\.0\n0-4: 3 cell pairs, area 5\.0\n2-4: 2 cell pairs, area 3\.0$/).size() == 2,
        'Touching: not twice the three contacts')
check((log =~ /(?m)^R = 0\.\d{3} \+- 0\.\d{3}, \d+\.\d{3} ms per realisation$/).size() == 2, 'Percolation: not twice R = ...')
check((log =~ /(?m)^<\|m\|> = 0\.\d{3} at T = 2\.269$/).size() == 2, 'Percolation: not twice <|m|> = ...')

// Without the flag the JDK does warn (so the check above would see a warning), and names the module.
def without = new File(basedir, 'target/without-native-access.txt').text
check(without.contains('WARNING: A restricted method') && without.contains('--enable-native-access=org.ccl4j'),
        "no native-access warning without the flag:\n" + without)

// jar --describe-module --file ccl4j-core-*.jar: module org.ccl4j, its two packages exported, java.base alone.
def describe = new File(basedir, 'target/describe-module.txt').readLines()*.trim().findAll { it }
check(describe && describe[0].startsWith('org.ccl4j@'), "describe-module does not name org.ccl4j: ${describe}")
check(describe.findAll { it.startsWith('exports ') } == ['exports org.ccl4j', 'exports org.ccl4j.physics'],
        "exports of org.ccl4j: ${describe}")
check(describe.findAll { it.startsWith('requires ') } == ['requires java.base mandated'], "requires of org.ccl4j: ${describe}")

// mvn dependency:tree: ccl4j-core and nothing else.
def tree = new File(basedir, 'target/dependency-tree.txt').readLines().findAll { it.trim() }
check(tree.size() == 2 && tree[1] ==~ /\\- org\.ccl4j:ccl4j-core:jar:[^:]+:compile/, "dependency tree:\n" + tree.join('\n'))

// The core jar a user resolves: the native library and the module descriptor, no CLI, plotting or benchmark class.
def jars = new File(localRepositoryPath, 'org/ccl4j/ccl4j-core').listFiles().findAll { it.isDirectory() }
        .collectMany { it.listFiles().findAll { f -> f.name ==~ /ccl4j-core-[^-]+(-SNAPSHOT)?\.jar/ } }
check(jars.size() == 1, "one core jar in the staging repository: ${jars}")
if (jars.size() == 1) {
    def entries = new ZipFile(jars[0]).withCloseable { z -> z.entries().collect { it.name } }
    ['module-info.class', 'org/ccl4j/ComponentLabeler.class', 'org/ccl4j/native/linux-x86_64/libccl4j.so'].each {
        check(entries.contains(it), "${jars[0].name} lacks ${it}")
    }
    def foreign = entries.findAll { e ->
        ['org/ccl4j/cli/', 'org/ccl4j/bench/', 'org/ccl4j/io/', 'org/knowm/', 'org/openjdk/jmh/', 'picocli/', 'org/jgrapht/']
                .any { e.startsWith(it) }
    }
    check(foreign.isEmpty(), "${jars[0].name} holds classes of other modules: ${foreign.take(10)}")
    println "core-only: ${jars[0].name}, ${entries.size()} entries: none of the CLI, plots, benchmarks or I/O"
}

if (problems) {
    throw new AssertionError('core-only consumer:\n- ' + problems.join('\n- '))
}
println 'core-only: the snippets ran on the module path and the class path without warnings; module, tree and jar as expected'
