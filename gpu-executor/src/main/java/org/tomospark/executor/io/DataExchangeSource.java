package org.tomospark.executor.io;

import io.jhdf.HdfFile;
import io.jhdf.Superblock;
import io.jhdf.api.Dataset;
import io.jhdf.api.Node;
import io.jhdf.exceptions.HdfException;
import org.tomospark.executor.preprocess.RawStack;

import java.lang.reflect.Array;
import java.net.URI;
import java.nio.BufferUnderflowException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Reads an APS DataExchange HDF5 file with jhdf: {@code /exchange/data} [angle, row, col] (uint16 or
 * float32), {@code /exchange/data_white}, {@code /exchange/data_dark} and {@code /exchange/theta} (degrees).
 * Works over any {@link SeekableByteChannel}, so a Hadoop FSDataInputStream can back it without copying the
 * file. Bands are read as hyperslabs.
 */
public final class DataExchangeSource implements ProjectionSource {
    public static final String DATA = "/exchange/data";
    public static final String WHITE = "/exchange/data_white";
    public static final String DARK = "/exchange/data_dark";
    public static final String THETA = "/exchange/theta";

    private final String name;
    private final HdfFile hdf;
    private final Dataset data;
    private final Dataset white;
    private final Dataset dark;
    private final ScanMetadata meta;

    public static DataExchangeSource open(Path file) {
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException(file + ": no such file");
        return new DataExchangeSource(file.toString(), openHdf(() -> new HdfFile(file), file.toString()));
    }

    /** Opens over a channel; {@code name} (e.g. the URI) is used in messages. */
    public static DataExchangeSource open(SeekableByteChannel channel, String name) {
        return new DataExchangeSource(name, openHdf(() -> new HdfFile(channel,
                URI.create("file:///" + name.replaceAll("[^A-Za-z0-9._/-]", "_"))), name));
    }

    /**
     * Opens the HDF5 container and checks that the file is as long as its superblock says: a file cut short
     * (an interrupted copy) would otherwise read as zeros, or lose its last datasets, without any error. Only
     * failures of the container itself are reported as "not a readable HDF5 file"; a readable file with a bad
     * dataset gets that dataset's own error later.
     */
    private static HdfFile openHdf(Supplier<HdfFile> opener, String name) {
        HdfFile hdf;
        try {
            hdf = opener.get();
        } catch (HdfException | IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": not a readable HDF5 file (" + e.getMessage() + ")", e);
        }
        try {
            Superblock sb = hdf.getHdfBackingStorage().getSuperblock();
            long storedEof = sb.getBaseAddressByte() + sb.getEndOfFileAddress();
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

    private DataExchangeSource(String name, HdfFile hdf) {
        this.name = name;
        this.hdf = hdf;
        try {
            this.data = dataset(DATA, true);
            this.white = dataset(WHITE, false);
            this.dark = dataset(DARK, false);
            int[] d = data.getDimensions();
            if (d.length != 3)
                throw new IllegalArgumentException(name + ": " + DATA + " must be 3-D [angle, row, column], has shape " + Arrays.toString(d));
            if (d[0] == 0 || d[1] == 0 || d[2] == 0)
                throw new IllegalArgumentException(name + ": " + DATA + " is empty (shape " + Arrays.toString(d)
                        + "): it holds no projections to reconstruct");
            ScanMetadata.SampleType type = sampleType(data, DATA);
            checkFrames(white, WHITE, d);
            checkFrames(dark, DARK, d);
            double[] theta = readTheta(d[0]);
            this.meta = new ScanMetadata(name, d[0], d[1], d[2], type, theta,
                    white == null ? 0 : white.getDimensions()[0], dark == null ? 0 : dark.getDimensions()[0]);
        } catch (HdfException e) {
            hdf.close();
            throw new IllegalArgumentException(name + ": cannot read DataExchange metadata (" + e.getMessage() + "); truncated or corrupt file?", e);
        } catch (RuntimeException e) {
            hdf.close();
            throw e;
        }
    }

    private Dataset dataset(String path, boolean required) {
        Node n;
        try {
            n = hdf.getByPath(path);
        } catch (HdfException e) {
            if (required) throw new IllegalArgumentException(name + ": dataset " + path + " not found", e);
            return null;
        }
        if (!(n instanceof Dataset ds)) throw new IllegalArgumentException(name + ": " + path + " is not a dataset");
        return ds;
    }

    private ScanMetadata.SampleType sampleType(Dataset ds, String path) {
        Class<?> t = ds.getJavaType();
        int bytes = ds.getDataType().getSize();
        if ((t == int.class || t == short.class || t == char.class) && bytes == 2) return ScanMetadata.SampleType.UINT16;
        if (t == float.class) return ScanMetadata.SampleType.FLOAT32;
        throw new IllegalArgumentException(name + ": " + path + " has unsupported type " + t + " (" + bytes
                + " bytes); expected uint16 or float32");
    }

    private void checkFrames(Dataset ds, String path, int[] dataShape) {
        if (ds == null) return;
        int[] d = ds.getDimensions();
        if (d.length != 3 || d[1] != dataShape[1] || d[2] != dataShape[2])
            throw new IllegalArgumentException(name + ": " + path + " has shape " + Arrays.toString(d)
                    + " but frames must be [n, " + dataShape[1] + ", " + dataShape[2] + "] like " + DATA);
        sampleType(ds, path);
    }

    private double[] readTheta(int nproj) {
        Dataset th = dataset(THETA, false);
        if (th == null) return null;
        Object o = th.getDataFlat();
        double[] a;
        if (o instanceof double[] d) a = d;
        else if (o instanceof float[] f) {
            a = new double[f.length];
            for (int i = 0; i < f.length; i++) a[i] = f[i];
        } else throw new IllegalArgumentException(name + ": " + THETA + " must be float32 or float64 degrees, but holds "
                + th.getJavaType().getSimpleName() + " values");
        if (a.length != nproj)
            throw new IllegalArgumentException(name + ": " + THETA + " has " + a.length + " angles but " + DATA + " has " + nproj + " projections");
        return a;
    }

    @Override
    public ScanMetadata metadata() {
        return meta;
    }

    @Override
    public RawStack readProjections(int rowStart, int rows) {
        return band(data, DATA, rowStart, rows);
    }

    @Override
    public RawStack readFlats(int rowStart, int rows) {
        return white == null ? null : band(white, WHITE, rowStart, rows);
    }

    @Override
    public RawStack readDarks(int rowStart, int rows) {
        return dark == null ? null : band(dark, DARK, rowStart, rows);
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

    private RawStack band(Dataset ds, String path, int rowStart, int rows) {
        int[] d = ds.getDimensions();
        if (rowStart < 0 || rows < 1 || rowStart + rows > d[1])
            throw new IllegalArgumentException(name + ": rows " + rowStart + ".." + (rowStart + rows - 1) + " outside " + path
                    + " (" + d[1] + " rows)");
        int n = RawStack.samples(d[0], rows, d[2], name + ":" + path);  // before jhdf allocates the band
        Object o;
        try {
            o = ds.getData(new long[]{0, rowStart, 0}, new int[]{d[0], rows, d[2]});
        } catch (HdfException | BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException(name + ": cannot read rows " + rowStart + ".." + (rowStart + rows - 1) + " of " + path
                    + " (" + e + "); truncated or corrupt file?", e);
        }
        int frames = d[0], w = d[2];
        if (sampleType(ds, path) == ScanMetadata.SampleType.UINT16) {
            short[] out = new short[n];
            int i = 0;
            for (int f = 0; f < frames; f++) {
                Object plane = Array.get(o, f);
                for (int r = 0; r < rows; r++) {
                    Object row = Array.get(plane, r);
                    if (row instanceof int[] ir) for (int c = 0; c < w; c++) out[i++] = (short) ir[c];
                    else if (row instanceof short[] sr) { System.arraycopy(sr, 0, out, i, w); i += w; }
                    else if (row instanceof char[] cr) for (int c = 0; c < w; c++) out[i++] = (short) cr[c];
                    else throw new IllegalArgumentException(name + ": unexpected element type in " + path);
                }
            }
            return RawStack.ofUint16(frames, rows, w, out);
        }
        float[] out = new float[n];
        int i = 0;
        for (int f = 0; f < frames; f++) {
            float[][] plane = (float[][]) Array.get(o, f);
            for (int r = 0; r < rows; r++) {
                System.arraycopy(plane[r], 0, out, i, w);
                i += w;
            }
        }
        return RawStack.ofFloat(frames, rows, w, out);
    }

    @Override
    public void close() {
        hdf.close();
    }
}
