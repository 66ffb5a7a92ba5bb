package org.ccl4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The README's Spark example (example.SparkComponents, verbatim there), run in this JVM's local session. */
class ReadmeExampleTest {
    @Test
    void printsEveryVertexWithTheSmallestIdOfItsComponent() {
        TestSpark.session();                          // the example's getOrCreate finds the tests' session
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            example.SparkComponents.main(new String[0]);
        } finally {
            System.setOut(out);
        }
        assertEquals("1 -> 1\n2 -> 1\n3 -> 1\n5 -> 5\n10 -> 10\n11 -> 10\n", printed.toString(StandardCharsets.UTF_8));
    }
}
