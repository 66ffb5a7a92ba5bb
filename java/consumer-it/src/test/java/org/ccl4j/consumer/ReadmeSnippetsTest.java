package org.ccl4j.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The README's Java snippets are the sources of the consumer projects in src/it, verbatim: each
 * {@code ```java} block that declares a class is the file of that name (one, in one project), each
 * that declares a module is one project's module-info.java; and every class of the projects is in
 * the README. The invoker runs of those projects then compile and run exactly what the README shows
 * (the Spark example in local mode, in with-spark).
 */
class ReadmeSnippetsTest {
    private static final Pattern CLASS = Pattern.compile("(?m)^public (?:final )?class (\\w+)");
    private static final Pattern MODULE = Pattern.compile("(?m)^module [\\w.]+ \\{");

    private final Path readme = Path.of(System.getProperty("ccl4j.readme", "README.md"));
    private final Path projects = Path.of(System.getProperty("ccl4j.it.projects", "java/consumer-it/src/it"));

    @Test
    void everyJavaBlockOfTheReadmeIsAConsumerSourceVerbatim() {
        List<String> blocks = javaBlocks();
        assertFalse(blocks.isEmpty(), "no ```java block in " + readme);
        List<Path> sources = sources();
        List<String> problems = new ArrayList<>();
        for (String block : blocks) {
            Matcher c = CLASS.matcher(block);
            List<Path> candidates;
            String name;
            if (c.find()) {
                name = c.group(1) + ".java";
            } else if (MODULE.matcher(block).find()) {
                name = "module-info.java";
            } else {
                problems.add("a ```java block declares neither a public class nor a module (it cannot be"
                        + " compiled as written):\n" + block);
                continue;
            }
            candidates = sources.stream().filter(p -> p.getFileName().toString().equals(name)).toList();
            if (candidates.isEmpty()) {
                problems.add("no consumer source " + name + " under " + projects + " for the README's block:\n" + block);
                continue;
            }
            if (name.equals("module-info.java")) {
                if (candidates.stream().noneMatch(p -> read(p).equals(block))) {
                    problems.add("no module-info.java under " + projects + " is the README's block:\n" + block
                            + "\n" + firstDifference(block, read(candidates.getFirst()), candidates.getFirst()));
                }
            } else if (candidates.size() > 1) {
                problems.add(name + " is in more than one consumer project: " + candidates);
            } else if (!read(candidates.getFirst()).equals(block)) {
                problems.add(firstDifference(block, read(candidates.getFirst()), candidates.getFirst()));
            }
        }
        if (!problems.isEmpty()) {
            fail("README.md and the consumer projects differ (edit both, or copy the README's block into the"
                    + " source):\n\n" + String.join("\n\n", problems));
        }
    }

    @Test
    void everyConsumerClassIsInTheReadme() {
        List<String> documented = javaBlocks().stream()
                .map(CLASS::matcher).filter(Matcher::find).map(m -> m.group(1) + ".java").toList();
        List<String> undocumented = sources().stream()
                .map(p -> p.getFileName().toString())
                .filter(n -> !n.equals("module-info.java") && !documented.contains(n))
                .toList();
        assertEquals(List.of(), undocumented, "consumer sources that are no README snippet");
    }

    @Test
    void theReadmesCoordinatesAreThisVersion() {
        String version = System.getProperty("ccl4j.version", "0.1.0-SNAPSHOT");
        String text = read(readme);
        for (String artifact : List.of("ccl4j-core", "ccl4j-io")) {
            String maven = "<artifactId>" + artifact + "</artifactId>\n  <version>" + version + "</version>";
            String gradle = "\"org.ccl4j:" + artifact + ":" + version + "\"";
            assertTrue(blocks(text, "xml").stream().anyMatch(b -> b.contains("<groupId>org.ccl4j</groupId>\n  " + maven)),
                    "no Maven dependency on org.ccl4j:" + artifact + ":" + version + " in " + readme);
            assertTrue(blocks(text, "kotlin").stream().anyMatch(b -> b.contains("implementation(" + gradle + ")")),
                    "no Gradle (Kotlin DSL) dependency " + gradle + " in " + readme);
            String groovy = "implementation 'org.ccl4j:" + artifact + ":" + version + "'";
            assertTrue(blocks(text, "groovy").stream().anyMatch(b -> b.contains(groovy)),
                    "no Gradle (Groovy DSL) dependency " + groovy + " in " + readme);
        }
        // ccl4j-jgrapht's section: a Maven block, and the Gradle coordinates in its text
        String jgrapht = "<groupId>org.ccl4j</groupId>\n  <artifactId>ccl4j-jgrapht</artifactId>\n  <version>" + version
                + "</version>";
        assertTrue(blocks(text, "xml").stream().anyMatch(b -> b.contains(jgrapht)),
                "no Maven dependency on org.ccl4j:ccl4j-jgrapht:" + version + " in " + readme);
        assertTrue(text.contains("implementation(\"org.ccl4j:ccl4j-jgrapht:" + version + "\")"),
                "no Gradle dependency on org.ccl4j:ccl4j-jgrapht:" + version + " in " + readme);
    }

    private List<String> javaBlocks() {
        return blocks(read(readme), "java");
    }

    private static List<String> blocks(String text, String language) {
        Matcher m = Pattern.compile("(?ms)^```" + language + "\\n(.*?)^```$").matcher(text);
        List<String> blocks = new ArrayList<>();
        while (m.find()) {
            blocks.add(m.group(1));
        }
        return blocks;
    }

    private List<Path> sources() {
        try (Stream<Path> files = Files.walk(projects)) {
            return files.filter(p -> p.toString().contains("/src/main/java/"))
                    .filter(p -> p.toString().endsWith(".java"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).replace("\r\n", "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String firstDifference(String block, String source, Path file) {
        String[] a = block.split("\n", -1);
        String[] b = source.split("\n", -1);
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            String x = i < a.length ? a[i] : "<end>";
            String y = i < b.length ? b[i] : "<end>";
            if (!x.equals(y)) {
                return file + " differs from its README block at line " + (i + 1) + ":\n  README: " + x
                        + "\n  source: " + y;
            }
        }
        return file + " differs from its README block";
    }
}
