package org.tomospark.job.inputs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.preprocess.RawStack;

import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import java.awt.Rectangle;
import java.awt.image.DataBuffer;
import java.awt.image.Raster;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A scan stored as a directory of TIFF files, one projection per file (16-bit unsigned or 32-bit float
 * grayscale), read through the Hadoop FileSystem API. Projections, flats and darks are selected by glob
 * patterns ({@code job.input.tiff.*} keys) and ordered by name; angles come from an optional text file with
 * one angle in degrees per line. Reading a band reads only those rows of each file (a TIFF source region
 * over a seeking stream).
 */
public final class TiffStackSource implements ProjectionSource {
    private final String name;
    private final FileSystem fs;
    private final Path[] projections, flats, darks;
    private final ScanMetadata meta;

    public static TiffStackSource open(String uri, InputOptions o, Configuration conf) {
        Path dir = Inputs.path(uri);
        try {
            FileSystem fs = dir.getFileSystem(conf);
            FileStatus st = fs.getFileStatus(dir);
            if (!st.isDirectory()) throw new IllegalArgumentException(uri + ": a TIFF stack input must be a directory");
            return new TiffStackSource(uri, fs, dir, o, true);
        } catch (FileNotFoundException e) {
            throw new IllegalArgumentException(uri + ": input not found", e);
        } catch (IOException e) {
            throw new IllegalArgumentException(uri + ": cannot read input (" + e.getMessage() + ")", e);
        }
    }

    /** The angles file read, or null when the angles come from angles.start and angles.step. */
    private Path anglesFile;

    private TiffStackSource(String name, FileSystem fs, Path dir, InputOptions o, boolean checkAll) throws IOException {
        this.name = name;
        this.fs = fs;
        this.projections = glob(dir, o.tiffProjections());
        if (projections.length == 0)
            throw new IllegalArgumentException(name + ": no projection files match " + o.tiffProjections()
                    + " (config key job.input.tiff.projections)");
        this.flats = o.tiffFlats().isBlank() ? new Path[0] : glob(dir, o.tiffFlats());
        this.darks = o.tiffDarks().isBlank() ? new Path[0] : glob(dir, o.tiffDarks());
        TiffHeader first = header(projections[0]);
        int rows = first.height(), width = first.width();
        ScanMetadata.SampleType type = first.dataType() == DataBuffer.TYPE_FLOAT
                ? ScanMetadata.SampleType.FLOAT32 : ScanMetadata.SampleType.UINT16;
        if (checkAll) {
            for (Path[] set : new Path[][]{projections, flats, darks})
                for (Path p : set) {
                    TiffHeader h = p == projections[0] ? first : header(p);
                    if (h.width() != width || h.height() != rows)
                        throw new IllegalArgumentException(p + ": image is " + h.width() + "x" + h.height() + " but "
                                + projections[0].getName() + " is " + width + "x" + rows
                                + "; every projection, flat and dark must have the same shape");
                    if (h.dataType() != first.dataType())
                        throw new IllegalArgumentException(p + ": sample type differs from " + projections[0].getName());
                }
        }
        double[] theta = null;
        String anglesSource;
        if (!o.tiffTheta().isBlank()) {
            Path tp = new Path(dir, o.tiffTheta());
            if (fs.exists(tp)) {
                theta = readAngles(fs, tp, projections.length);
                anglesFile = tp;
            }
            else if (!o.tiffTheta().equals(DEFAULT_THETA)) // the default file is optional; one the user named is not
                throw new IllegalArgumentException(tp + ": angles file not found (job.input.tiff.theta=" + o.tiffTheta() + ")");
            anglesSource = "no " + o.tiffTheta() + " in the directory: a text file of angles in degrees, one per line, "
                    + "named by config key job.input.tiff.theta";
        } else {
            anglesSource = "config key job.input.tiff.theta, the angles file, is empty";
        }
        this.meta = new ScanMetadata(name, projections.length, rows, width, type, theta, flats.length, darks.length, anglesSource);
    }

    /** The default of job.input.tiff.theta: used when present, else angles.start and angles.step. */
    public static final String DEFAULT_THETA = "theta.txt";

    /** Re-opens on an executor from the driver's metadata, without re-checking every header. */
    public static TiffStackSource reopen(String uri, InputOptions o, Configuration conf) {
        Path dir = Inputs.path(uri);
        try {
            return new TiffStackSource(uri, dir.getFileSystem(conf), dir, o, false);
        } catch (IOException e) {
            throw new UncheckedIOException(uri + ": cannot open TIFF stack", e);
        }
    }

    private Path[] glob(Path dir, String pattern) throws IOException {
        FileStatus[] st = fs.globStatus(new Path(dir, pattern));
        if (st == null) return new Path[0];
        List<Path> l = new ArrayList<>();
        for (FileStatus s : st) if (s.isFile()) l.add(s.getPath());
        l.sort((a, b) -> a.getName().compareTo(b.getName()));
        return l.toArray(new Path[0]);
    }

    static double[] readAngles(FileSystem fs, Path p, int expected) throws IOException {
        String text;
        try (var in = fs.open(p)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<Double> l = new ArrayList<>();
        int line = 0;
        for (String s : text.split("\\R")) {
            line++;
            s = s.trim();
            if (s.isEmpty() || s.startsWith("#")) continue;
            try {
                l.add(Double.parseDouble(s));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(p + ": line " + line + " is not an angle in degrees: '" + s + "'");
            }
        }
        if (l.size() != expected)
            throw new IllegalArgumentException(p + ": has " + l.size() + " angles but there are " + expected + " projections");
        return l.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** A TIFF's image size and sample type (a {@link DataBuffer} type constant). */
    private record TiffHeader(int width, int height, int dataType) {
    }

    /** The size and sample type of a TIFF, reading only its header. */
    private TiffHeader header(Path p) {
        try (ImageInputStream iis = stream(p)) {
            ImageReader r = reader(iis, p);
            try {
                int w = r.getWidth(0), h = r.getHeight(0);
                var spec = r.getImageTypes(0).next();
                int type = spec.getSampleModel().getDataType();
                int bands = spec.getSampleModel().getNumBands();
                if (bands != 1 || (type != DataBuffer.TYPE_USHORT && type != DataBuffer.TYPE_FLOAT))
                    throw new IllegalArgumentException(p + ": expected a 16-bit unsigned or 32-bit float grayscale TIFF, got "
                            + bands + " band(s) of data type " + type);
                return new TiffHeader(w, h, type);
            } finally {
                r.dispose();
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(p + ": cannot read TIFF header (" + e.getMessage() + ")", e);
        }
    }

    private ImageInputStream stream(Path p) throws IOException {
        return new HadoopImageInputStream(fs.open(p), fs.getFileStatus(p).getLen());
    }

    private static ImageReader reader(ImageInputStream iis, Path p) throws IOException {
        Iterator<ImageReader> it = ImageIO.getImageReadersByFormatName("tiff");
        if (!it.hasNext()) throw new IOException("no TIFF reader in this JDK");
        ImageReader r = it.next();
        r.setInput(iis, true, true);
        return r;
    }

    @Override
    public ScanMetadata metadata() {
        return meta;
    }

    private RawStack band(Path[] files, int rowStart, int rows) {
        if (files.length == 0) return null;
        if (rowStart < 0 || rows < 1 || rowStart + rows > meta.rows())
            throw new IllegalArgumentException(name + ": rows " + rowStart + ".." + (rowStart + rows - 1) + " outside " + meta.rows()
                    + " rows");
        int w = meta.width(), n = rows * w;
        boolean u16 = meta.sampleType() == ScanMetadata.SampleType.UINT16;
        int total = RawStack.samples(files.length, rows, w, name);
        short[] s = u16 ? new short[total] : null;
        float[] f = u16 ? null : new float[total];
        int[] tmp = u16 ? new int[n] : null;
        for (int i = 0; i < files.length; i++) {
            Path p = files[i];
            try (ImageInputStream iis = stream(p)) {
                ImageReader r = reader(iis, p);
                try {
                    if (r.getWidth(0) != w || r.getHeight(0) != meta.rows())
                        throw new IllegalArgumentException(p + ": image is " + r.getWidth(0) + "x" + r.getHeight(0) + ", expected "
                                + w + "x" + meta.rows());
                    ImageReadParam param = r.getDefaultReadParam();
                    param.setSourceRegion(new Rectangle(0, rowStart, w, rows));
                    Raster ras = r.read(0, param).getRaster();
                    if (u16) {
                        ras.getSamples(0, 0, w, rows, 0, tmp);
                        for (int k = 0; k < n; k++) s[i * n + k] = (short) tmp[k];
                    } else {
                        float[] px = ras.getSamples(0, 0, w, rows, 0, new float[n]);
                        System.arraycopy(px, 0, f, i * n, n);
                    }
                } finally {
                    r.dispose();
                }
            } catch (IOException | RuntimeException e) {
                if (e instanceof IllegalArgumentException iae && iae.getMessage() != null && iae.getMessage().startsWith(p.toString()))
                    throw iae;
                throw new IllegalArgumentException(p + ": cannot read rows " + rowStart + ".." + (rowStart + rows - 1)
                        + " (" + e.getMessage() + "); truncated or corrupt TIFF?", e);
            }
        }
        return u16 ? RawStack.ofUint16(files.length, rows, w, s) : RawStack.ofFloat(files.length, rows, w, f);
    }

    @Override
    public RawStack readProjections(int rowStart, int rows) {
        return band(projections, rowStart, rows);
    }

    @Override
    public RawStack readFlats(int rowStart, int rows) {
        return band(flats, rowStart, rows);
    }

    @Override
    public RawStack readDarks(int rowStart, int rows) {
        return band(darks, rowStart, rows);
    }

    @Override
    public String dataName() {
        return name + " (projection TIFFs)";
    }

    @Override
    public String flatName() {
        return name + " (flat TIFFs)";
    }

    @Override
    public String darkName() {
        return name + " (dark TIFFs)";
    }

    @Override
    public String anglesName() {
        return anglesFile == null ? name + " (angles.start, angles.step)" : anglesFile.toString();
    }

    @Override
    public void close() {
    }
}
