package org.ccl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

/** What {@code label} makes of its labelling's progress: the time to the first block, and the progress shown. */
class LabelProgressTest {
    private static final long MS = 1_000_000L;

    /** A clock the test moves, not at zero: the time is measured from the labelling's start. */
    private long now = 5_000 * MS;

    private LabelProgress listener(StringWriter text, Progress.Mode mode) {
        return new LabelProgress(total -> new Progress(new PrintWriter(text), mode, "label", total, () -> now),
                () -> now);
    }

    @Test
    void aLabellingThatDoesNotStreamShowsNothingAndHasNoFirstBlock() {
        for (Progress.Mode mode : Progress.Mode.values()) {
            StringWriter text = new StringWriter();
            LabelProgress progress = listener(text, mode);
            String labels = progress.during(() -> {
                now += 40 * MS;
                progress.progress("done", 12, 12);
                return "labels";
            });
            assertEquals("labels", labels);
            assertNull(progress.firstBlockMs(), mode.toString());
            assertEquals("", text.toString(), mode.toString());
        }
    }

    @Test
    void aStreamedLabellingShowsItsArcsAndTimesItsFirstBlock() {
        StringWriter text = new StringWriter();
        LabelProgress progress = listener(text, Progress.Mode.LINES);
        progress.during(() -> {
            now += 7 * MS;
            progress.progress("sample", 30, 200);
            now += 11_000 * MS;
            progress.progress("link", 150, 200);
            now += 2_000 * MS;
            progress.progress("done", 200, 200);
            return null;
        });
        assertEquals(7.0, progress.firstBlockMs());
        assertEquals("label: 150/200 (75%), elapsed 0:11, ETA 0:03, link\nlabel: 200/200 (100%) in 0:13\n",
                text.toString(), "a plain line after 10 s and the last one, as the mesh command's slabs");
    }

    /** --quiet shows no progress; the first block is timed all the same, for the output. */
    @Test
    void quietShowsNothingButTimesTheFirstBlock() {
        StringWriter text = new StringWriter();
        LabelProgress progress = listener(text, Progress.Mode.OFF);
        progress.during(() -> {
            now += 3 * MS;
            progress.progress("sample", 1, 4);
            progress.progress("link", 3, 4);
            progress.progress("done", 4, 4);
            return null;
        });
        assertEquals(3.0, progress.firstBlockMs());
        assertEquals("", text.toString());
    }

    /** A failed labelling clears the bar all the same. */
    @Test
    void theBarIsClearedWhenTheLabellingFails() {
        StringWriter text = new StringWriter();
        LabelProgress progress = listener(text, Progress.Mode.TERMINAL);
        IllegalStateException failure = new IllegalStateException("failed");
        assertSame(failure, assertThrows(IllegalStateException.class, () -> progress.during(() -> {
            progress.progress("sample", 10, 100);
            throw failure;
        })));
        assertTrue(text.toString().startsWith("\r[##......................]  10% elapsed 0:00, ETA 0:00  sample"),
                text.toString());
        assertTrue(text.toString().endsWith("\r"), "cleared: " + text);
    }
}
