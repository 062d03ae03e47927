package org.tomospark.executor.inputs;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.dataset.ChunkedDataset;
import io.jhdf.exceptions.HdfException;
import org.tomospark.executor.preprocess.RawStack;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.BufferUnderflowException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads an APS DataExchange HDF5 file with jhdf: {@code /exchange/data} [angle, row, col] (uint16 or
 * float32), {@code /exchange/data_white}, {@code /exchange/data_dark} and {@code /exchange/theta} (degrees).
 * Works over any {@link SeekableByteChannel}, so a Hadoop FSDataInputStream can back it without copying the
 * file. Each band is read as a hyperslab: jhdf reads the metadata, and the bands of contiguous and chunked datasets
 * are read directly ({@link HdfBandReaders} chooses how), by positioned reads through a {@link RangeReader} on
 * {@link ReadOptions#threads()} threads. A dataset may be virtual (HDF5's virtual layout, as nxtomomill and h5py write
 * it over camera files): its bands are read from the source files the {@link SourceFiles} find
 * ({@link VirtualBandReader}).
 */
public final class DataExchangeSource implements ProjectionSource {
    public static final String DATA = "/exchange/data";
    public static final String WHITE = "/exchange/data_white";
    public static final String DARK = "/exchange/data_dark";
    public static final String THETA = "/exchange/theta";

    private final String name;
    private final HdfFile hdf;
    private final RangeReader ranges;
    private final SourceFiles sources;
    private final ReadOptions options;
    private final List<VirtualBandReader> virtualReaders = new ArrayList<>();
    private final StoredDataset data;
    private final StoredDataset white;
    private final StoredDataset dark;
    private final ScanMetadata meta;
    private final BandReader dataBands, whiteBands, darkBands;

    public static DataExchangeSource open(Path file) {
        return open(file, ReadOptions.defaults());
    }

    public static DataExchangeSource open(Path file, ReadOptions options) {
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException(file + ": no such file");
        HdfFile hdf = openHdf(() -> new HdfFile(file), file.toString());
        return new DataExchangeSource(file.toString(), hdf, jhdfChannel(hdf, file.toString()),
                new LocalSourceFiles(file), options);
    }

    /** Opens over a channel; {@code name} (e.g. the URI) is used in messages. */
    public static DataExchangeSource open(SeekableByteChannel channel, String name) {
        return open(channel, name, ReadOptions.defaults());
    }

    /**
     * Opens over a channel. Bands are read through the same channel: in parallel if it is a {@link FileChannel},
     * otherwise one read at a time.
     */
    public static DataExchangeSource open(SeekableByteChannel channel, String name, ReadOptions options) {
        HdfFile hdf = openHdf(() -> new HdfFile(channel, uri(name)), name);
        RangeReader ranges = channel instanceof FileChannel fc ? FileChannelRangeReader.over(fc, name) : jhdfChannel(hdf, name);
        return new DataExchangeSource(name, hdf, ranges, SourceFiles.none(name), options);
    }

    /**
     * Opens over a channel for jhdf's metadata reads, with {@code ranges} for the bands' positioned reads (a second
     * handle on the same file, which this source closes); its virtual datasets cannot be read (no folder to find
     * their sources in).
     */
    public static DataExchangeSource open(SeekableByteChannel channel, RangeReader ranges, String name, ReadOptions options) {
        return open(channel, ranges, name, SourceFiles.none(name), options);
    }

    /**
     * Opens over a channel for jhdf's metadata reads, with {@code ranges} for the bands' positioned reads (a second
     * handle on the same file, which this source closes), and {@code sources} to find the files its virtual datasets
     * read from.
     */
    public static DataExchangeSource open(SeekableByteChannel channel, RangeReader ranges, String name,
            SourceFiles sources,
                                          ReadOptions options) {
        HdfFile hdf;
        try {
            hdf = openHdf(() -> new HdfFile(channel, uri(name)), name);
        } catch (RuntimeException e) {
            closeQuietly(ranges, e);
            throw e;
        }
        return new DataExchangeSource(name, hdf, ranges, sources, options);
    }

    static URI uri(String name) {
        return URI.create("file:///" + name.replaceAll("[^A-Za-z0-9._/-]", "_"));
    }

    /** jhdf's own channel: a FileChannel for a path; for other channels an adapter that reads one call at a time. */
    static RangeReader jhdfChannel(HdfFile hdf, String name) {
        return FileChannelRangeReader.over(hdf.getHdfBackingStorage().getFileChannel(), name);
    }

    static void closeQuietly(Closeable ranges, RuntimeException cause) {
        try {
            ranges.close();
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }

    /**
     * Opens the HDF5 container and checks that the file is as long as its superblock says: a file cut short
     * (an interrupted copy) would otherwise read as zeros, or lose its last datasets, without any error. Only
     * failures of the container itself are reported as "not a readable HDF5 file"; a readable file with a bad
     * dataset gets that dataset's own error later.
     */
    static HdfFile openHdf(Supplier<HdfFile> opener, String name) {
        HdfFile hdf;
        try {
            hdf = opener.get();
        } catch (HdfException | IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": not a readable HDF5 file (" + e.getMessage() + ")", e);
        }
        try {
            // unlike every other address in the file, the stored end of file counts from the start of the file, a user
            // block included (libhdf5 compares it with the file's whole length)
            long storedEof = hdf.getHdfBackingStorage().getSuperblock().getEndOfFileAddress();
            long length = hdf.size();
            if (length < storedEof)
                throw new IllegalArgumentException(name + ": truncated HDF5 file: it has " + length + " bytes but its superblock"
                        + " says it ends at byte " + storedEof + " (" + (storedEof - length) + " bytes missing); copy the file again");
            return hdf;
        } catch (RuntimeException e) {
            hdf.close();
            throw e;
        }
    }

    private DataExchangeSource(String name, HdfFile hdf, RangeReader ranges, SourceFiles sources, ReadOptions options) {
        this.name = name;
        this.hdf = hdf;
        this.ranges = ranges;
        this.sources = sources;
        this.options = options;
        try {
            this.data = dataset(DATA, true);
            this.white = dataset(WHITE, false);
            this.dark = dataset(DARK, false);
            int[] d = data.dims();
            if (d.length != 3)
                throw new IllegalArgumentException(name + ": " + DATA + " must be 3-D [angle, row, column], has shape "
                        + Arrays.toString(d));
            if (d[0] == 0 || d[1] == 0 || d[2] == 0)
                throw new IllegalArgumentException(name + ": " + DATA + " is empty (shape " + Arrays.toString(d)
                        + "): it holds no projections to reconstruct");
            ScanMetadata.SampleType type = sampleType(data, DATA);
            checkFrames(white, WHITE, d);
            checkFrames(dark, DARK, d);
            double[] theta = readTheta(d[0]);
            this.meta = new ScanMetadata(name, d[0], d[1], d[2], type, theta,
                    white == null ? 0 : white.dims()[0], dark == null ? 0 : dark.dims()[0]);
            this.dataBands = bandReader(data, type);
            this.whiteBands = white == null ? null : bandReader(white, sampleType(white, WHITE));
            this.darkBands = dark == null ? null : bandReader(dark, sampleType(dark, DARK));
        } catch (HdfException e) {
            IllegalArgumentException bad = new IllegalArgumentException(name + ": cannot read DataExchange metadata (" + e.getMessage()
                    + "); truncated or corrupt file?", e);
            closeAfter(bad);
            throw bad;
        } catch (RuntimeException e) {
            closeAfter(e);
            throw e;
        }
    }

    private void closeAfter(RuntimeException cause) {
        for (VirtualBandReader v : virtualReaders) closeQuietly(v, cause);
        closeQuietly(ranges, cause);
        hdf.close();
    }

    /**
     * The reader of a dataset's bands: a virtual dataset's from its sources, any other as {@link HdfBandReaders} says.
     */
    private BandReader bandReader(StoredDataset ds, ScanMetadata.SampleType type) {
        if (ds.plain() != null && ds.plain().getHdfFile() != hdf) {
            // behind an external link: jhdf opened the other file, whose addresses the positioned reads must use
            HdfFile target = ds.plain().getHdfFile();
            String targetName = name + " -> " + target.getFileAsPath();
            RangeReader targetRanges = FileChannelRangeReader.over(target.getHdfBackingStorage().getFileChannel(),
                    targetName);
            return HdfBandReaders.forDataset(ds.plain(), targetName, ds.path(), type, targetRanges,
                    target.getUserBlockSize(), options);
        }
        if (ds.plain() != null)
            return HdfBandReaders.forDataset(ds.plain(), name, ds.path(), type, ranges, hdf.getUserBlockSize(),
                    options);
        try {
            VirtualBandReader v = new VirtualBandReader(name + ":" + ds.path(), ds.virtual(), type,
                    new SourceFile(name, hdf, ranges),
                    sources, options);
            virtualReaders.add(v);
            return v;
        } catch (IOException e) {
            throw new IllegalArgumentException(name + ": cannot look for the source files of the virtual dataset "
                    + ds.path()
                    + " (" + e.getMessage() + ")", e);
        }
    }

    private StoredDataset dataset(String path, boolean required) {
        StoredDataset ds = HdfDatasets.find(hdf, name, path).orElse(null);
        if (ds == null && required) throw new IllegalArgumentException(name + ": dataset " + path + " not found");
        return ds;
    }

    private ScanMetadata.SampleType sampleType(StoredDataset ds, String path) {
        return SampleTypes.of(ds.dataType(), name + ": " + path);
    }

    private void checkFrames(StoredDataset ds, String path, int[] dataShape) {
        if (ds == null) return;
        int[] d = ds.dims();
        if (d.length != 3 || d[1] != dataShape[1] || d[2] != dataShape[2])
            throw new IllegalArgumentException(name + ": " + path + " has shape " + Arrays.toString(d)
                    + " but frames must be [n, " + dataShape[1] + ", " + dataShape[2] + "] like " + DATA);
        sampleType(ds, path);
    }

    private double[] readTheta(int nproj) {
        StoredDataset stored = dataset(THETA, false);
        if (stored == null) return null;
        if (stored.plain() == null)
            throw new IllegalArgumentException(name + ": " + THETA
                    + " is a virtual dataset; write the angles as a plain dataset");
        Dataset th = stored.plain();
        Object o = DatasetValues.flat(th, name + ":" + THETA);
        double[] a;
        if (o instanceof double[] d) a = d;
        else if (o instanceof float[] f) {
            a = new double[f.length];
            for (int i = 0; i < f.length; i++) a[i] = f[i];
        } else throw new IllegalArgumentException(name + ": " + THETA + " must be float32 or float64 degrees, but holds "
                + th.getJavaType().getSimpleName() + " values");
        if (a.length != nproj)
            throw new IllegalArgumentException(name + ": " + THETA + " has " + a.length + " angles but " + DATA + " has " + nproj
                    + " projections");
        return a;
    }

    @Override
    public ScanMetadata metadata() {
        return meta;
    }

    /** The open HDF5 file, for metadata beyond /exchange (a cone-beam scan's /geometry group); closed with this source. */
    public HdfFile hdf() {
        return hdf;
    }

    @Override
    public RawStack readProjections(int rowStart, int rows) {
        return band(dataBands, DATA, rowStart, rows);
    }

    @Override
    public RawStack readFlats(int rowStart, int rows) {
        return white == null ? null : band(whiteBands, WHITE, rowStart, rows);
    }

    @Override
    public RawStack readDarks(int rowStart, int rows) {
        return dark == null ? null : band(darkBands, DARK, rowStart, rows);
    }

    /** How the bands of {@code path} ({@link #DATA}, {@link #WHITE} or {@link #DARK}) are read; null if it is absent. */
    public ReadPath readPath(String path) {
        BandReader r = bandReader(path);
        return r == null ? null : r.path();
    }

    /**
     * Rows of one chunk of {@link #DATA}, or 1 where it is not chunked. A chunk is decoded whole whatever part of it a
     * band needs, so bands that start and end on multiples of this decode each chunk once: a scan chunked one
     * projection per chunk reads fastest in one band of every row.
     */
    public int dataChunkRows() {
        return data.plain() instanceof ChunkedDataset c && c.getChunkDimensions().length == 3
                ? c.getChunkDimensions()[1] : 1;
    }

    /** The reader of {@code path}'s bands (null if the dataset is absent). */
    BandReader bandReader(String path) {
        return switch (path) {
            case DATA -> dataBands;
            case WHITE -> whiteBands;
            case DARK -> darkBands;
            default -> throw new IllegalArgumentException(path + ": not one of " + DATA + ", " + WHITE + ", " + DARK);
        };
    }

    @Override
    public String dataName() {
        return name + ":" + DATA;
    }

    @Override
    public String flatName() {
        return name + ":" + WHITE;
    }

    @Override
    public String darkName() {
        return name + ":" + DARK;
    }

    @Override
    public String anglesName() {
        return name + ":" + THETA;
    }

    private RawStack band(BandReader reader, String path, int rowStart, int rows) {
        int frameRows = meta.rows();
        if (rowStart < 0 || rows < 1 || rowStart + rows > frameRows)
            throw new IllegalArgumentException(name + ": rows " + rowStart + ".." + (rowStart + rows - 1) + " outside " + path
                    + " (" + frameRows + " rows)");
        try {
            return reader.read(rowStart, rows);
        } catch (IOException | HdfException | BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException(name + ": cannot read rows " + rowStart + ".." + (rowStart + rows - 1) + " of " + path
                    + " (" + e + "); truncated or corrupt file?", e);
        }
    }

    @Override
    public void close() {
        try {
            for (VirtualBandReader v : virtualReaders) v.close();
            ranges.close();
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": cannot close", e);
        } finally {
            hdf.close();
        }
    }
}
