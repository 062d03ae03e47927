package org.tomospark.job.outputs;

import org.tomospark.job.fs.HadoopConf;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The output's folders on a local disk: made as Hadoop's mkdirs makes them, and refused where Hadoop refuses. */
class OutputFilesMkdirsTest {
    @TempDir
    File dir;

    FileSystem fs() throws IOException {
        FileSystem fs = new Path(dir.toURI()).getFileSystem(HadoopConf.create());
        assertInstanceOf(RawLocalFileSystem.class, fs, "HadoopConf serves file:// by RawLocalFileSystem");
        return fs;
    }

    @Test
    void aMissingFolderOneOrSeveralLevelsDeepIsMadeAndAnExistingOneKept() throws IOException {
        var tmp = dir.toPath();
        FileSystem fs = fs();
        OutputFiles.mkdirs(fs, new Path(tmp.resolve("out").toUri()));
        assertTrue(Files.isDirectory(tmp.resolve("out")));
        Files.writeString(tmp.resolve("out/kept"), "x");
        OutputFiles.mkdirs(fs, new Path(tmp.resolve("out").toUri()));
        assertEquals("x", Files.readString(tmp.resolve("out/kept")), "an existing folder is left as it is");
        OutputFiles.mkdirs(fs, new Path(tmp.resolve("a/b/c").toUri()));
        assertTrue(Files.isDirectory(tmp.resolve("a/b/c")), "several levels, through Hadoop");
    }

    @Test
    void aFileOrADanglingLinkInTheWayIsRefusedAndLeftAsItIs() throws IOException {
        var tmp = dir.toPath();
        FileSystem fs = fs();
        Files.writeString(tmp.resolve("file"), "data");
        assertThrows(IOException.class, () -> OutputFiles.mkdirs(fs, new Path(tmp.resolve("file").toUri())));
        assertEquals("data", Files.readString(tmp.resolve("file")));
        Files.createSymbolicLink(tmp.resolve("dangling"), tmp.resolve("nowhere"));
        try {
            OutputFiles.mkdirs(fs, new Path(tmp.resolve("dangling").toUri()));
        } catch (IOException refused) {
            // Hadoop may refuse it; either way the link is not replaced by a folder
        }
        assertTrue(Files.isSymbolicLink(tmp.resolve("dangling")), "the link stays a link");
    }
}
