package org.tomospark.job.outputs;

import org.tomospark.job.fs.UserPaths;
import org.tomospark.job.fs.FolderEntries;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSError;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tomospark.executor.outputs.FloatTiff;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Writes float32 TIFF slices {@code slice_00000.tif …} (numbered by detector row) through the Hadoop
 * FileSystem API (a local disk served by {@code RawLocalFileSystem}, as {@link HadoopConf#tune} sets it, through
 * java.nio). Each slice is written under {@code _temporary/} with a unique attempt name, then renamed
 * into place with an overwriting rename, so a slice appears whole or not at all, and a retried or
 * speculative attempt replaces it with identical bytes instead of leaving a duplicate.
 */
public final class SliceWriter {
    public static final String TEMP_DIR = "_temporary";
    public static final Pattern SLICE_NAME = Pattern.compile("slice_(\\d{5,})\\.tif");
    /** The name of a file being written: its final name, the writer's attempt, ".tmp"; or a probe of the folder. */
    private static final Pattern TEMPORARY = Pattern.compile("(.+\\.|\\.probe-)[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}(\\.tmp)?");

    private final Path dir;
    private final Configuration conf;
    private final String attempt;
    private final boolean viaHadoop;

    public SliceWriter(String outputUri, Configuration conf) {
        this(outputUri, conf, false);
    }

    /** {@code viaHadoop}: write local files through Hadoop's local file system too (to compare the two ways). */
    SliceWriter(String outputUri, Configuration conf, boolean viaHadoop) {
        this.dir = UserPaths.path(outputUri, "output (--output)");
        this.conf = conf;
        this.attempt = UUID.randomUUID().toString();
        this.viaHadoop = viaHadoop;
    }

    public static String sliceName(int row) {
        return String.format("slice_%05d.tif", row);
    }

    public Path dir() {
        return dir;
    }

    /** Writes one slice atomically and returns its final path. */
    public Path write(int row, float[] pixels, int width, int height) {
        return writeBytes(sliceName(row), FloatTiff.encode(pixels, width, height));
    }

    /** Writes any file of the output atomically (temporary name, then overwriting rename). */
    public Path writeBytes(String name, byte[] bytes) {
        return writeBuffer(name, ByteBuffer.wrap(bytes));
    }

    /**
     * Writes a file of the output atomically from {@code data}'s bytes (position to limit, left as they were): on a
     * local disk one positioned write, from a direct buffer without a copy on the way.
     */
    public Path writeBuffer(String name, ByteBuffer data) {
        return write(name, (files, tmp) -> files.write(tmp, data));
    }

    /** Content written to an output stream; may throw IOException. */
    @FunctionalInterface
    public interface StreamBody {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Writes a file of the output atomically from a stream (temporary name, then overwriting rename), so that files
     * larger than memory (volume.raw of a whole scan) never need to be held in one array.
     */
    public Path writeStream(String name, StreamBody body) {
        return write(name, (files, tmp) -> {
            try (OutputStream out = files.create(tmp)) {
                body.writeTo(out);
            }
        });
    }

    /** How a temporary file gets its bytes. */
    @FunctionalInterface
    private interface Filler {
        void fill(OutputFiles files, Path tmp) throws IOException;
    }

    /** Writes {@code name} under a temporary name with {@code filler}, then renames it over the final name. */
    private Path write(String name, Filler filler) {
        Path fin = new Path(dir, name);
        Path tmp = new Path(new Path(dir, TEMP_DIR), name + "." + attempt + ".tmp");
        try {
            FileSystem fs = dir.getFileSystem(conf);
            OutputFiles files = OutputFiles.of(fs, dir, conf, viaHadoop);
            try {
                filler.fill(files, tmp);
                files.renameOver(tmp, fin);
                return fin;
            } catch (IOException | RuntimeException | FSError e) {
                // a failed write (body or rename) leaves no partial temporary file behind
                try {
                    files.delete(tmp);
                } catch (IOException | FSError cleanup) {
                    e.addSuppressed(cleanup);
                }
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot write " + name + " (" + e.getMessage() + ")", e);
        } catch (FSError e) {
            // the local file system reports a failed disk write (e.g. no space left) as an Error
            IOException cause = e.getCause() instanceof IOException io ? io : new IOException(e.getMessage(), e);
            throw new UncheckedIOException(dir + ": cannot write " + name + " (" + cause.getMessage() + ")", cause);
        }
    }

    /** Checks the output can be created and written, before any work: creates the directory and probes it. */
    public void checkWritable() {
        try {
            FileSystem fs = dir.getFileSystem(conf);
            OutputFiles.mkdirs(fs, dir);
            OutputFiles.mkdirs(fs, new Path(dir, TEMP_DIR));
            Path probe = new Path(new Path(dir, TEMP_DIR), ".probe-" + attempt);
            try (FSDataOutputStream out = fs.create(probe, true)) {
                out.write(1);
            }
            fs.delete(probe, false);
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": output is not writable (" + e.getMessage() + ")", e);
        } catch (RuntimeException | FSError e) {
            throw new IllegalArgumentException(dir + ": output is not writable (" + e.getMessage() + ")", e);
        }
    }

    /** Number of committed slice files in the output, 0 if the directory does not exist. */
    public int countSlices() {
        try {
            FileSystem fs = dir.getFileSystem(conf);
            if (!fs.exists(dir)) return 0;
            int n = 0;
            for (FileStatus s : fs.listStatus(dir)) if (SLICE_NAME.matcher(s.getPath().getName()).matches()) n++;
            return n;
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot list output", e);
        }
    }

    public boolean exists(String name) {
        try {
            return dir.getFileSystem(conf).exists(new Path(dir, name));
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot read output", e);
        }
    }

    /**
     * Removes the temporary files of this output's writers (this one's and any other attempt's, named as {@link #write}
     * names them), then {@code _temporary} itself and its folders where nothing else is left in them: anything else
     * there is not a writer's, and stays.
     */
    public void cleanTemporary() {
        try {
            removeTemporaries(dir.getFileSystem(conf), new Path(dir, TEMP_DIR));
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot remove " + TEMP_DIR, e);
        }
    }

    /** Removes the writers' temporary files under {@code folder} and the folders left empty, links not followed. */
    static void removeTemporaries(FileSystem fs, Path folder) throws IOException {
        if (FolderEntries.kind(fs, folder) != FolderEntries.Kind.FOLDER) return;
        for (FolderEntries.Entry e : FolderEntries.of(fs, folder)) {
            if (e.kind() == FolderEntries.Kind.FOLDER) removeTemporaries(fs, e.path());
            else if (e.kind() == FolderEntries.Kind.FILE && TEMPORARY.matcher(e.name()).matches()) fs.delete(e.path(), false);
        }
        OutputOwnership.removeIfEmpty(fs, folder);
    }
}
