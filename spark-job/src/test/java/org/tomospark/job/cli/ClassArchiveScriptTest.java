package org.tomospark.job.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launch scripts' class-data archive (submit/cds.sh): mapped where fresh, written where stale, and never asked of a
 * Java runtime that cannot write one (which would not even start).
 */
class ClassArchiveScriptTest {

    /** A fake java: {@code -Xshare:on} succeeds only where the runtime has a base archive. */
    private static Path java(Path dir, boolean baseArchive) throws Exception {
        Path j = dir.resolve(baseArchive ? "java-with-base" : "java-without-base");
        Files.writeString(j, "#!/usr/bin/env bash\nfor a in \"$@\"; do [ \"$a\" = -Xshare:on ] && exit "
                + (baseArchive ? 0 : 1) + "; done\nexit 0\n");
        Files.setPosixFilePermissions(j, Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_EXECUTE));
        return j;
    }

    /** Sources cds.sh, calls tomo_cds and prints what it set. */
    private static String[] cds(Path javaBin, Path dir) throws Exception {
        Path jar = dir.resolve("app.jar"), cpfile = dir.resolve("classpath.txt");
        if (!Files.exists(jar)) Files.writeString(jar, "jar");
        if (!Files.exists(cpfile)) Files.writeString(cpfile, "cp");
        String script = "JAVA_BIN='" + javaBin + "'; TOMO_CP='" + jar + "'; CPFILE='" + cpfile + "'; TOMO_JVM_OPTS='-Xmx1g'; "
                + "TOMO_CDS_ARCHIVE='" + dir.resolve("a.jsa") + "'; source ../submit/cds.sh; tomo_cds; "
                + "echo \"$TOMO_JVM_OPTS\"; echo \"$TOMO_CDS_DUMP\"";
        Process p = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), out);
        String[] lines = out.split("\n", -1);
        return new String[]{lines[0], lines.length > 1 ? lines[1] : ""};
    }

    @Test
    void aRuntimeWithoutABaseArchiveRunsWithoutWritingOne(@TempDir Path dir) throws Exception {
        String[] r = cds(java(dir, false), dir);
        assertEquals("-Xmx1g", r[0], "no archive flags at all");
        assertEquals("", r[1]);
        assertFalse(Files.exists(dir.resolve("a.jsa.lock")), "no lock taken");
    }

    @Test
    void aStaleArchiveIsWrittenAsTheRunExitsAndAFreshOneIsMapped(@TempDir Path dir) throws Exception {
        Path j = java(dir, true);
        String[] write = cds(j, dir);
        assertTrue(write[0].contains("-XX:ArchiveClassesAtExit=" + dir.resolve("a.jsa.lock/archive.jsa")), write[0]);
        assertEquals(dir.resolve("a.jsa.lock/archive.jsa").toString(), write[1]);
        // the launch script moves the written archive into place; it is newer than the classpath and its jars
        Files.writeString(dir.resolve("a.jsa"), "archive");
        Files.setLastModifiedTime(dir.resolve("a.jsa"), FileTime.from(Instant.now().plusSeconds(5)));
        Files.delete(dir.resolve("a.jsa.lock"));
        String[] map = cds(j, dir);
        assertTrue(map[0].contains("-XX:SharedArchiveFile=" + dir.resolve("a.jsa")), map[0]);
        assertFalse(map[0].contains("ArchiveClassesAtExit"), map[0]);
        assertEquals("", map[1]);
    }
}
