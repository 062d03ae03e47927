package org.tomospark.job.inputs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tomospark.job.fs.UserPaths;
import org.tomospark.executor.inputs.ContiguousBandReader;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.RangeReader;
import org.tomospark.executor.inputs.ReadOptions;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.preprocess.RawStack;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteOrder;

/**
 * A scan stored as headerless binary [projection][row][column] (uint16 or float32, either byte order; shape,
 * type, order and header size from the {@code job.input.raw.*} keys), with optional flat and dark files of
 * the same frame shape. A band is read by positioned reads, one or more per projection, on several threads
 * ({@link ContiguousBandReader}). The file length must match the configured shape exactly, so a wrong shape fails
 * before any work.
 */
public final class RawBinarySource implements ProjectionSource {
    private final String name;
    private final FileSystem fs;
    private final Path data, flats, darks;
    private final int flatFrames, darkFrames;
    private final InputOptions o;
    private final ScanMetadata meta;
    private final int bytesPerSample;
    private final int threads;

    public static RawBinarySource open(String uri, InputOptions o, Configuration conf) {
        return open(uri, o, conf, ReadThreads.options());
    }

    /** Opens, with bands read on {@code read.threads()} threads. */
    public static RawBinarySource open(String uri, InputOptions o, Configuration conf, ReadOptions read) {
        if (o.rawShape() == null)
            throw new IllegalArgumentException(uri
                    + ": a raw input needs its shape (config key job.input.raw.shape=PROJECTIONS,ROWS,COLUMNS)");
        try {
            return new RawBinarySource(uri, o, conf, read.effectiveThreads());
        } catch (FileNotFoundException e) {
            throw new IllegalArgumentException(e.getMessage() + ": input not found", e);
        } catch (IOException e) {
            throw new IllegalArgumentException(uri + ": cannot read input (" + e.getMessage() + ")", e);
        }
    }

    private RawBinarySource(String uri, InputOptions o, Configuration conf, int threads) throws IOException {
        this.name = uri;
        this.o = o;
        this.threads = threads;
        this.data = Inputs.path(uri);
        this.fs = data.getFileSystem(conf);
        int[] sh = o.rawShape();
        this.bytesPerSample = o.rawDtype().equals("uint16") ? 2 : 4;
        long frameBytes = (long) sh[1] * sh[2] * bytesPerSample;
        long len = length(data);
        if (len != o.rawOffset() + sh[0] * frameBytes)
            throw new IllegalArgumentException(uri + ": file has " + len + " bytes but job.input.raw.shape=" + sh[0] + "," + sh[1] + ","
                    + sh[2] + " of " + o.rawDtype() + " with job.input.raw.offset=" + o.rawOffset() + " needs "
                    + (o.rawOffset() + sh[0] * frameBytes) + " bytes");
        this.flats = o.rawFlats().isBlank() ? null : UserPaths.path(o.rawFlats(), "job.input.raw.flats");
        this.darks = o.rawDarks().isBlank() ? null : UserPaths.path(o.rawDarks(), "job.input.raw.darks");
        this.flatFrames = frames(flats, frameBytes, "job.input.raw.flats");
        this.darkFrames = frames(darks, frameBytes, "job.input.raw.darks");
        double[] theta = null;
        if (!o.rawTheta().isBlank()) {
            Path tp = UserPaths.path(o.rawTheta(), "job.input.raw.theta");
            theta = TiffStackSource.readAngles(tp.getFileSystem(conf), tp, sh[0]);
        }
        this.meta = new ScanMetadata(uri, sh[0], sh[1], sh[2],
                bytesPerSample == 2 ? ScanMetadata.SampleType.UINT16 : ScanMetadata.SampleType.FLOAT32, theta, flatFrames, darkFrames,
                "a text file of angles named by config key job.input.raw.theta, which is empty");
    }

    private long length(Path p) throws IOException {
        try {
            FileStatus st = p.getFileSystem(fs.getConf()).getFileStatus(p);
            if (st.isDirectory()) throw new IllegalArgumentException(p + ": is a directory, expected a raw binary file");
            return st.getLen();
        } catch (FileNotFoundException e) {
            throw new FileNotFoundException(p.toString());
        }
    }

    private int frames(Path p, long frameBytes, String key) throws IOException {
        if (p == null) return 0;
        long len = length(p) - o.rawOffset();
        if (len <= 0 || len % frameBytes != 0)
            throw new IllegalArgumentException(p + " (" + key + "): " + (len + o.rawOffset()) + " bytes is not a whole number of "
                    + frameBytes + "-byte frames after the " + o.rawOffset() + "-byte header");
        return (int) (len / frameBytes);
    }

    @Override
    public ScanMetadata metadata() {
        return meta;
    }

    private RawStack band(Path p, int frames, int rowStart, int rows) {
        if (p == null || frames == 0) return null;
        if (rowStart < 0 || rows < 1 || rowStart + rows > meta.rows())
            throw new IllegalArgumentException(name + ": rows " + rowStart + ".." + (rowStart + rows - 1) + " outside " + meta.rows()
                    + " rows");
        ByteOrder order = o.rawBigEndian() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        try {
            FileSystem pfs = p.getFileSystem(fs.getConf());
            try (RangeReader ranges = RangeReaders.open(pfs, p, pfs.getFileStatus(p).getLen(), p.toString())) {
                return new ContiguousBandReader(ranges, p.toString(), o.rawOffset(), frames, meta.rows(), meta.width(),
                        meta.sampleType(), order, threads).read(rowStart, rows);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(p + ": cannot read rows " + rowStart + ".." + (rowStart + rows - 1) + " ("
                    + e.getMessage() + "); truncated file?", e);
        }
    }

    @Override
    public RawStack readProjections(int rowStart, int rows) {
        return band(data, meta.numProjections(), rowStart, rows);
    }

    @Override
    public RawStack readFlats(int rowStart, int rows) {
        return band(flats, flatFrames, rowStart, rows);
    }

    @Override
    public RawStack readDarks(int rowStart, int rows) {
        return band(darks, darkFrames, rowStart, rows);
    }

    @Override
    public String dataName() {
        return name;
    }

    @Override
    public String flatName() {
        return flats == null ? name + " (flats)" : flats.toString();
    }

    @Override
    public String darkName() {
        return darks == null ? name + " (darks)" : darks.toString();
    }

    @Override
    public String anglesName() {
        return o.rawTheta().isBlank() ? name + " (angles.start, angles.step)" : o.rawTheta();
    }

    @Override
    public void close() {
    }
}
