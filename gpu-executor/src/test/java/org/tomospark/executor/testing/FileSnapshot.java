package org.tomospark.executor.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A file's modification time and bytes, taken to show later that a run neither rewrote nor changed it. */
public record FileSnapshot(long modifiedMillis, byte[] bytes) {

    public static FileSnapshot of(Path file) {
        try {
            return new FileSnapshot(Files.getLastModifiedTime(file).toMillis(), Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot snapshot", e);
        }
    }

    /** Snapshots of the named files under {@code dir}, by name. */
    public static Map<String, FileSnapshot> of(Path dir, List<String> names) {
        Map<String, FileSnapshot> m = new LinkedHashMap<>();
        for (String name : names) m.put(name, of(dir.resolve(name)));
        return m;
    }

    /** Asserts that every file snapshotted under {@code dir} still has its modification time and bytes. */
    public static void assertUnchanged(Path dir, Map<String, FileSnapshot> before) {
        before.forEach((name, was) -> {
            FileSnapshot now = of(dir.resolve(name));
            assertEquals(was.modifiedMillis(), now.modifiedMillis(), name + " rewritten");
            assertArrayEquals(was.bytes(), now.bytes(), name + " changed");
        });
    }
}
