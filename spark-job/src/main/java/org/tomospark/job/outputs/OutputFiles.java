package org.tomospark.job.outputs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

import java.io.BufferedOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** How the files of an output are created, renamed over their final name in one atomic step, and removed. */
interface OutputFiles {
    OutputStream create(Path file) throws IOException;

    /** Creates {@code file} holding {@code data}'s bytes from its position to its limit (left as they were). */
    void write(Path file, ByteBuffer data) throws IOException;

    /** Renames {@code from} to {@code to} in one atomic step, replacing a file already there. */
    void renameOver(Path from, Path to) throws IOException;

    void delete(Path file) throws IOException;

    /**
     * {@code fs.mkdirs(dir)}, but a missing folder whose parent is a folder is made by java.nio on a local disk: there
     * Hadoop without its native library sets each new folder's permissions by running {@code chmod} in a child process
     * (tens of milliseconds each, several a run). Any other case (several levels, something in the way, a link) goes
     * through Hadoop, with its checks and messages.
     */
    static void mkdirs(FileSystem fs, Path dir) throws IOException {
        if (fs instanceof RawLocalFileSystem raw) {
            File f = raw.pathToFile(dir), parent = f.getParentFile();
            if (parent != null && Files.isDirectory(parent.toPath(), LinkOption.NOFOLLOW_LINKS)
                    && Files.notExists(f.toPath(), LinkOption.NOFOLLOW_LINKS)) {
                try {
                    Files.createDirectory(f.toPath());
                    return;
                } catch (FileAlreadyExistsException e) {
                    // made meanwhile by another writer: Hadoop's mkdirs says whether it is a folder
                }
            }
        }
        fs.mkdirs(dir);
    }

    /**
     * java.nio for a local disk served by {@code RawLocalFileSystem} (as {@link HadoopConf#tune} configures it), unless
     * {@code viaHadoop}; Hadoop's API for every other file system.
     */
    static OutputFiles of(FileSystem fs, Path dir, Configuration conf, boolean viaHadoop) {
        return fs instanceof RawLocalFileSystem raw && !viaHadoop ? new Local(raw) : new Hadoop(fs, dir, conf);
    }

    /** Any Hadoop file system (HDFS, ...): create, then FileContext's overwriting rename, atomic on HDFS. */
    record Hadoop(FileSystem fs, Path dir, Configuration conf) implements OutputFiles {
        @Override
        public OutputStream create(Path file) throws IOException {
            return fs.create(file, true);
        }

        @Override
        public void write(Path file, ByteBuffer data) throws IOException {
            ByteBuffer d = data.duplicate();
            try (OutputStream out = fs.create(file, true)) {
                if (d.hasArray()) {
                    out.write(d.array(), d.arrayOffset() + d.position(), d.remaining());
                    return;
                }
                byte[] chunk = new byte[Math.min(d.remaining(), 1 << 20)];
                while (d.hasRemaining()) {
                    int n = Math.min(chunk.length, d.remaining());
                    d.get(chunk, 0, n);
                    out.write(chunk, 0, n);
                }
            }
        }

        @Override
        public void renameOver(Path from, Path to) throws IOException {
            FileContext.getFileContext(dir.toUri(), conf).rename(from, to, Options.Rename.OVERWRITE);
        }

        @Override
        public void delete(Path file) throws IOException {
            fs.delete(file, false);
        }
    }

    /**
     * A local disk, through java.nio: {@code rename(2)} replaces the final file atomically. Hadoop's local file system
     * would start a process for every permission it sets and every link it resolves ({@code chmod}, {@code readlink}:
     * ten per committed slice) wherever its native library is missing, as on most hosts.
     */
    record Local(RawLocalFileSystem fs) implements OutputFiles {
        @Override
        public OutputStream create(Path file) throws IOException {
            File f = fs.pathToFile(file);
            Files.createDirectories(f.getParentFile().toPath());
            return new BufferedOutputStream(new FileOutputStream(f), 1 << 16);
        }

        /** One positioned write of the buffer: from a direct buffer the kernel copies straight into the file. */
        @Override
        public void write(Path file, ByteBuffer data) throws IOException {
            var f = fs.pathToFile(file).toPath();
            Files.createDirectories(f.getParent());
            ByteBuffer d = data.duplicate();
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                for (long at = 0; d.hasRemaining(); ) at += ch.write(d, at);
            }
        }

        @Override
        public void renameOver(Path from, Path to) throws IOException {
            Files.move(fs.pathToFile(from).toPath(), fs.pathToFile(to).toPath(), StandardCopyOption.ATOMIC_MOVE);
        }

        @Override
        public void delete(Path file) throws IOException {
            Files.deleteIfExists(fs.pathToFile(file).toPath());
        }
    }
}
