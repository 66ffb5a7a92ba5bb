// What a deploy would publish of ccl4j, as maven-invoker staged it (basedir, localRepositoryPath): the
// poms with Maven Central's required elements, and for ccl4j-core, ccl4j-io, ccl4j-jgrapht and ccl4j-cli the jar, the
// -sources jar and the -javadoc jar, each with LICENSE and NOTICE in META-INF.
import java.util.zip.ZipFile
import javax.xml.parsers.DocumentBuilderFactory

def problems = []
def check = { ok, String what -> if (!ok) problems << what }  // Groovy truth: a non-empty text passes
// poms read with the JDK's DOM (the invoker's Groovy has no groovy-xml): the elements of a path such
// as 'licenses/license', and the trimmed text of the first
def parse = { File f -> DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(f).documentElement }
def elements
elements = { element, String path ->
    def (name, rest) = path.contains('/') ? path.split('/', 2) : [path, null]
    def nodes = element.childNodes
    def found = (0..<nodes.length).collect { nodes.item(it) }.findAll { it.nodeType == 1 && it.nodeName == name }
    rest == null ? found : found.collectMany { elements(it, rest) }
}
def text = { element, String path -> elements(element, path).with { it ? it[0].textContent.trim() : '' } }
def version = text(parse(new File(basedir, 'pom.xml')), 'properties/ccl4j.version')
def file = { String artifactId, String suffix ->
    new File(localRepositoryPath, "org/ccl4j/${artifactId}/${version}/${artifactId}-${version}${suffix}")
}
def entries = { File jar -> new ZipFile(jar).withCloseable { z -> z.entries().collect { it.name } } }
def entryText = { File jar, String name ->
    new ZipFile(jar).withCloseable { z -> def e = z.getEntry(name); e == null ? null : z.getInputStream(e).getText('UTF-8') }
}

// ccl4j-parent: url, licenses, developers and scm, which the modules inherit as they are (no
// artifactId appended to the urls).
def parentPom = file('ccl4j-parent', '.pom')
check(parentPom.isFile(), "no ${parentPom}")
if (parentPom.isFile()) {
    def parent = parse(parentPom)
    check(text(parent, 'name') && text(parent, 'description'), 'ccl4j-parent: no name or description')
    check(text(parent, 'url') == 'https://github.com/ccl4j/ccl4j', "ccl4j-parent: url '${text(parent, 'url')}'")
    check(parent.getAttribute('child.project.url.inherit.append.path') == 'false', 'ccl4j-parent: the modules would get url/ARTIFACT')
    def licenses = elements(parent, 'licenses/license')
    check(licenses.size() == 1 && text(licenses[0], 'name') == 'Apache-2.0' && text(licenses[0], 'url'),
            "ccl4j-parent: licenses ${licenses.collect { text(it, 'name') }}")
    def developers = elements(parent, 'developers/developer')
    check(developers.size() >= 1 && text(developers[0], 'name'), 'ccl4j-parent: no developer')
    def scm = elements(parent, 'scm')
    check(scm.size() == 1, 'ccl4j-parent: no scm')
    ['connection', 'developerConnection', 'url'].each {
        check(text(parent, "scm/${it}"), "ccl4j-parent: no scm/${it}")
        check(scm && scm[0].getAttribute("child.scm.${it}.inherit.append.path") == 'false', "ccl4j-parent: scm/${it} would get /ARTIFACT")
    }
    check(text(parent, 'issueManagement/url'), 'ccl4j-parent: no issueManagement')
}

// What each published module's -sources and -javadoc jar must hold (beside META-INF/LICENSE and NOTICE).
def published = [
    'ccl4j-core': [sources: ['module-info.java', 'org/ccl4j/ComponentLabeler.java', 'org/ccl4j/physics/Lattice.java',
                             'org/ccl4j/internal/ffi/ccl4j_h.java'],
                   javadoc: ['index.html', 'org.ccl4j/module-summary.html', 'org.ccl4j/org/ccl4j/ComponentLabeler.html',
                             'org.ccl4j/org/ccl4j/physics/package-summary.html']],
    'ccl4j-io'  : [sources: ['module-info.java', 'org/ccl4j/io/GraphReader.java', 'org/ccl4j/io/grid/GridReader.java'],
                   javadoc: ['index.html', 'org.ccl4j.io/module-summary.html', 'org.ccl4j.io/org/ccl4j/io/package-summary.html',
                             'org.ccl4j.io/org/ccl4j/io/grid/package-summary.html']],
    'ccl4j-jgrapht': [sources: ['module-info.java', 'org/ccl4j/jgrapht/Ccl4jConnectivityInspector.java'],
                      javadoc: ['index.html', 'org.ccl4j.jgrapht/module-summary.html',
                                'org.ccl4j.jgrapht/org/ccl4j/jgrapht/Ccl4jConnectivityInspector.html']],
    'ccl4j-cli' : [sources: ['org/ccl4j/cli/Main.java'],
                   javadoc: ['index.html']],
]
published.each { artifactId, expected ->
    def pom = file(artifactId, '.pom')
    check(pom.isFile(), "no ${pom}")
    if (pom.isFile()) {
        def model = parse(pom)
        check(text(model, 'name') && text(model, 'description'), "${artifactId}: no name or description of its own")
        check(text(model, 'parent/artifactId') == 'ccl4j-parent', "${artifactId}: not a child of ccl4j-parent")
    }
    ['.jar', '-sources.jar', '-javadoc.jar'].each { suffix ->
        def jar = file(artifactId, suffix)
        check(jar.isFile(), "no ${jar.name} staged")
        if (!jar.isFile()) {
            return
        }
        def license = entryText(jar, 'META-INF/LICENSE')
        check(license != null && license.contains('Apache License') && license.contains('Version 2.0, January 2004')
                && license.contains('END OF TERMS AND CONDITIONS'), "${jar.name}: META-INF/LICENSE is not the Apache License 2.0")
        def notice = entryText(jar, 'META-INF/NOTICE')
        check(notice != null && notice.startsWith('ccl4j\n') && notice.contains('Third-party components'),
                "${jar.name}: no META-INF/NOTICE of ccl4j")
        def names = entries(jar)
        def wanted = suffix == '-sources.jar' ? expected.sources : suffix == '-javadoc.jar' ? expected.javadoc : []
        wanted.each { check(names.contains(it), "${jar.name} lacks ${it}") }
        if (suffix == '-sources.jar') {
            check(names.every { !it.endsWith('.so') && !it.endsWith('.class') }, "${jar.name} holds binaries")
        }
        if (suffix == '-javadoc.jar') {
            def internal = names.findAll { it.contains('/internal/') }
            check(internal.isEmpty(), "${jar.name} documents internal packages: ${internal.take(5)}")
        }
    }
}

// The CLI's runnable jar: ccl4j's LICENSE, and its NOTICE followed by the NOTICE files of the bundled
// dependencies that have one (Jackson's).
def all = file('ccl4j-cli', '-all.jar')
check(all.isFile(), "no ${all.name} staged")
if (all.isFile()) {
    def license = entryText(all, 'META-INF/LICENSE')
    check(license != null && license.contains('Apache License'), "${all.name}: no META-INF/LICENSE")
    def notice = entryText(all, 'META-INF/NOTICE')
    check(notice != null && notice.startsWith('ccl4j\n') && notice.count('Third-party components') == 1 && notice.contains('Jackson'),
            "${all.name}: META-INF/NOTICE is not ccl4j's followed by the bundled ones:\n${notice}")
}

if (problems) {
    throw new AssertionError('published artifacts:\n- ' + problems.join('\n- '))
}
println "published-artifacts: ccl4j-parent, ccl4j-core, ccl4j-io, ccl4j-jgrapht and ccl4j-cli ${version}: poms, jars, -sources and -javadoc jars as required"
