package org.tomospark.job;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A failing picture step becomes one warning for its file; the file's later steps are skipped, other files go on. */
class CosmeticOutputsTest {

    @Test
    void failuresBecomeOneWarningPerFile() {
        List<String> printed = new ArrayList<>();
        CosmeticOutputs c = new CosmeticOutputs(printed::add);
        int[] steps = new int[3];

        assertTrue(c.run("preview.png", () -> steps[0]++));
        assertFalse(c.run("preview.png", () -> {
            throw new UnsatisfiedLinkError("/jdk/lib/libfontmanager.so: libharfbuzz.so.0: cannot open shared object file");
        }));
        assertFalse(c.run("preview.png", () -> steps[0]++), "a file's steps after its failure are skipped");
        assertTrue(c.run("contact-sheet.png", () -> steps[1]++), "another file is not affected");
        assertFalse(c.run("contact-sheet.png", () -> {
            throw new UncheckedIOException("cannot read slice_00003.tif back", new IOException("disk gone"));
        }));
        assertFalse(c.run("contact-sheet.png", () -> {
            throw new IllegalStateException("a second failure of the same file");
        }));
        assertTrue(c.run("other.png", () -> steps[2]++));

        assertArrayEquals(new int[]{1, 1, 1}, steps);
        assertTrue(c.failed("preview.png") && c.failed("contact-sheet.png") && !c.failed("other.png"));
        assertEquals(List.of(
                "preview.png was not written: java.lang.UnsatisfiedLinkError: /jdk/lib/libfontmanager.so: libharfbuzz.so.0: "
                        + "cannot open shared object file",
                "contact-sheet.png was not written: java.io.UncheckedIOException: cannot read slice_00003.tif back "
                        + "(caused by java.io.IOException: disk gone)"), c.warnings());
        assertEquals(c.warnings(), printed, "each warning is printed once, when it happens");
    }

    @Test
    void warningsJoinTheReportsOwn() {
        CosmeticOutputs c = new CosmeticOutputs(w -> { });
        c.run("preview.png", () -> {
            throw new OutOfMemoryError("Java heap space");
        });
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("warnings", List.of("no darks: the dark field is taken as 0"));
        c.addTo(report);
        assertEquals(List.of("no darks: the dark field is taken as 0",
                "preview.png was not written: java.lang.OutOfMemoryError: Java heap space"),
                report.get("warnings"));
        Map<String, Object> bare = new LinkedHashMap<>();
        new CosmeticOutputs(w -> { }).addTo(bare);
        assertEquals(List.of(), bare.get("warnings"), "a report without warnings gets an empty list");
    }
}
