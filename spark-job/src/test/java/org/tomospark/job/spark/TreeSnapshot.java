package org.tomospark.job.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Everything under a folder, links not followed: each file's SHA-256 and modification time, each link's target, each
 * folder. Two snapshots tell what a run changed; {@link #assertUnchangedBut} fails on any change outside what the run
 * may touch, naming every such path.
 */
record TreeSnapshot(Path root, Map<String, String> entries) {

    static TreeSnapshot of(Path root) {
        Map<String, String> m = new TreeMap<>();
        try {
            if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) return new TreeSnapshot(root, m);
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    m.put(rel(root, dir), "folder");
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes a) throws IOException {
                    if (a.isSymbolicLink()) m.put(rel(root, file), "link -> " + Files.readSymbolicLink(file));
                    else if (a.isRegularFile()) m.put(rel(root, file), "file " + sha256(Files.readAllBytes(file)) + " "
                            + a.lastModifiedTime().toMillis());
                    else m.put(rel(root, file), "other");
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new TreeSnapshot(root, m);
    }

    private static String rel(Path root, Path p) {
        return root.relativize(p).toString();
    }

    /** The paths (relative to the root) that differ between this snapshot and {@code after}: changed, gone or new. */
    List<String> changes(TreeSnapshot after) {
        List<String> l = new ArrayList<>();
        for (Map.Entry<String, String> e : entries.entrySet()) {
            String now = after.entries.get(e.getKey());
            if (!e.getValue().equals(now)) l.add(e.getKey() + (now == null ? " (gone)" : " (changed)"));
        }
        for (String k : after.entries.keySet()) if (!entries.containsKey(k)) l.add(k + " (new)");
        return l;
    }

    /**
     * Fails when anything changed, appeared or went that {@code mayChange} (given the path relative to the root) does
     * not allow; folders may appear and go only where allowed too, but their times are not compared.
     */
    void assertUnchangedBut(TreeSnapshot after, Predicate<String> mayChange, String what) {
        List<String> bad = new ArrayList<>();
        for (String c : changes(after)) {
            String path = c.substring(0, c.lastIndexOf(" ("));
            if (!mayChange.test(path)) bad.add(c);
        }
        if (!bad.isEmpty()) fail(what + ": changed what it may not touch: " + bad);
    }

    void assertUnchanged(TreeSnapshot after, String what) {
        assertUnchangedBut(after, p -> false, what);
    }

    static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
