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
 * The launch scripts' class-data archive (submit/cds.sh): mapped where fresh, written where stale: at the run's exit on
 * a runtime with a base archive, dumped from the run's class list on one without (which could not write one at exit,
 * and would not even start if asked to).
 */
class ClassArchiveScriptTest {

    /**
     * A fake java: {@code -Xshare:on} succeeds only where the runtime has a base archive; {@code -Xshare:dump} writes the
     * archive it is asked for, naming the class list it was given; everything else succeeds.
     */
    private static Path java(Path dir, boolean baseArchive) throws Exception {
        Path j = dir.resolve(baseArchive ? "java-with-base" : "java-without-base");
        Files.writeString(j, "#!/usr/bin/env bash\nlist=; jsa=; dump=0\nfor a in \"$@\"; do case \"$a\" in\n"
                + "  -Xshare:on) exit " + (baseArchive ? 0 : 1) + " ;;\n"
                + "  -Xshare:dump) dump=1 ;;\n"
                + "  -XX:SharedClassListFile=*) list=${a#*=} ;;\n"
                + "  -XX:SharedArchiveFile=*) jsa=${a#*=} ;;\n"
                + "esac; done\n"
                + "if [ $dump = 1 ]; then echo \"static from $list\" > \"$jsa\"; fi\nexit 0\n");
        Files.setPosixFilePermissions(j, Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_EXECUTE));
        return j;
    }

    /** Sources cds.sh, calls tomo_cds, prints what it set, then "runs" (writes the class list) and calls tomo_cds_finish. */
    private static String[] cds(Path javaBin, Path dir) throws Exception {
        Path jar = dir.resolve("app.jar"), cpfile = dir.resolve("classpath.txt");
        if (!Files.exists(jar)) Files.writeString(jar, "jar");
        if (!Files.exists(cpfile)) Files.writeString(cpfile, "cp");
        String script = "JAVA_BIN='" + javaBin + "'; TOMO_CP='" + jar + "'; CPFILE='" + cpfile + "'; TOMO_JVM_OPTS='-Xmx1g'; "
                + "TOMO_CDS_ARCHIVE='" + dir.resolve("a.jsa") + "'; source ../submit/cds.sh; tomo_cds; "
                + "echo \"$TOMO_JVM_OPTS\"; echo \"$TOMO_CDS_DUMP\"; "
                + "if [ -n \"$TOMO_CDS_LIST\" ]; then echo 'java/lang/Object id: 0' > \"$TOMO_CDS_LIST\"; fi; tomo_cds_finish";
        Process p = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), out);
        String[] lines = out.split("\n", -1);
        return new String[]{lines[0], lines.length > 1 ? lines[1] : ""};
    }

    @Test
    void aRuntimeWithoutABaseArchiveListsItsClassesAndGetsAStaticArchive(@TempDir Path dir) throws Exception {
        String[] r = cds(java(dir, false), dir);
        Path list = dir.resolve("a.jsa.lock/classes.lst");
        assertTrue(r[0].contains("-Xshare:off -XX:DumpLoadedClassList=" + list), r[0]);
        assertFalse(r[0].contains("ArchiveClassesAtExit"), "never asked to write at exit: " + r[0]);
        assertEquals(dir.resolve("a.jsa.lock/archive.jsa").toString(), r[1]);
        assertEquals("static from " + list + "\n", Files.readString(dir.resolve("a.jsa")), "dumped from the run's class list");
        assertFalse(Files.exists(dir.resolve("a.jsa.lock")), "lock and list gone");
        // the next run maps it
        Files.setLastModifiedTime(dir.resolve("a.jsa"), FileTime.from(Instant.now().plusSeconds(5)));
        String[] map = cds(java(dir, false), dir);
        assertTrue(map[0].contains("-XX:SharedArchiveFile=" + dir.resolve("a.jsa")), map[0]);
        assertFalse(map[0].contains("DumpLoadedClassList"), map[0]);
    }

    @Test
    void aStaleArchiveIsWrittenAsTheRunExitsAndAFreshOneIsMapped(@TempDir Path dir) throws Exception {
        Path j = java(dir, true);
        String[] write = cds(j, dir);
        assertTrue(write[0].contains("-XX:ArchiveClassesAtExit=" + dir.resolve("a.jsa.lock/archive.jsa")), write[0]);
        assertFalse(write[0].contains("DumpLoadedClassList"), write[0]);
        assertEquals(dir.resolve("a.jsa.lock/archive.jsa").toString(), write[1]);
        // the fake run wrote no archive at exit: nothing is put in place, and the lock is dropped
        assertFalse(Files.exists(dir.resolve("a.jsa")));
        assertFalse(Files.exists(dir.resolve("a.jsa.lock")));
        // an archive written at exit, newer than the classpath and its jars, is mapped by the next run
        Files.writeString(dir.resolve("a.jsa"), "archive");
        Files.setLastModifiedTime(dir.resolve("a.jsa"), FileTime.from(Instant.now().plusSeconds(5)));
        String[] map = cds(j, dir);
        assertTrue(map[0].contains("-XX:SharedArchiveFile=" + dir.resolve("a.jsa")), map[0]);
        assertFalse(map[0].contains("ArchiveClassesAtExit"), map[0]);
        assertEquals("", map[1]);
    }
}
