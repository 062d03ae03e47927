package org.tomospark.executor.inputs;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.Node;
import io.jhdf.api.dataset.ContiguousDataset;
import io.jhdf.exceptions.HdfException;
import org.tomospark.executor.preprocess.RawStack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.nio.BufferUnderflowException;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Reads an NXtomo (NeXus) scan with jhdf: projections, flat fields and dark fields are frames of one detector dataset,
 * told apart by {@code image_key} (see {@link FrameKinds}), with one {@code rotation_angle} per frame (degrees, or
 * radians where its units say so). Bands of projections are read like DataExchange ({@link HdfBandReaders}: positioned
 * reads or parallel chunk decoding over every frame of the band, then the projections picked out); flats and darks are
 * read run by run, only their own frames.
 */
public final class NxTomoSource implements ProjectionSource {
    private final String name;
    private final HdfFile hdf;
    private final RangeReader ranges;
    private final NxTomoLayout layout;
    private final FrameKinds kinds;
    private final ScanMetadata meta;
    private final BandReader dataBands;
    private final List<BandReader> flatRuns, darkRuns;
    private final VirtualBandReader virtualBands;

    /** Whether the opened file is an NXtomo scan (and holds no DataExchange {@code /exchange/data}). */
    public static boolean isNxTomo(SeekableByteChannel channel, String name) {
        try (HdfFile hdf = DataExchangeSource.openHdf(() -> new HdfFile(channel, DataExchangeSource.uri(name)), name)) {
            return !(NxTomoLayout.node(hdf, DataExchangeSource.DATA) instanceof Dataset)
                    && NxTomoLayout.find(hdf) != null;
        }
    }

    /**
     * Opens over a channel for jhdf's metadata reads, with {@code ranges} for the bands' positioned reads (a second
     * handle on the same file, which this source closes).
     */
    public static NxTomoSource open(SeekableByteChannel channel, RangeReader ranges, String name, ReadOptions options) {
        return open(channel, ranges, name, SourceFiles.none(name), options);
    }

    /**
     * Opens over a channel for jhdf's metadata reads, with {@code ranges} for the bands' positioned reads (a second
     * handle on the same file, which this source closes), and {@code sources} to find the files a virtual detector
     * dataset (as nxtomomill writes it) reads from.
     */
    public static NxTomoSource open(SeekableByteChannel channel, RangeReader ranges, String name, SourceFiles sources,
                                    ReadOptions options) {
        HdfFile hdf;
        try {
            hdf = DataExchangeSource.openHdf(() -> new HdfFile(channel, DataExchangeSource.uri(name)), name);
        } catch (RuntimeException e) {
            DataExchangeSource.closeQuietly(ranges, e);
            throw e;
        }
        try {
            return new NxTomoSource(name, hdf, ranges, sources, options);
        } catch (HdfException e) {
            IllegalArgumentException bad = new IllegalArgumentException(name + ": cannot read NXtomo metadata ("
                    + e.getMessage()
                    + "); truncated or corrupt file?", e);
            closeAfter(ranges, hdf, bad);
            throw bad;
        } catch (RuntimeException e) {
            closeAfter(ranges, hdf, e);
            throw e;
        }
    }

    private static void closeAfter(RangeReader ranges, HdfFile hdf, RuntimeException cause) {
        DataExchangeSource.closeQuietly(ranges, cause);
        hdf.close();
    }

    private NxTomoSource(String name, HdfFile hdf, RangeReader ranges, SourceFiles sources, ReadOptions options) {
        this.name = name;
        this.hdf = hdf;
        this.ranges = ranges;
        this.layout = NxTomoLayout.find(hdf);
        if (layout == null)
            throw new IllegalArgumentException(name
                    + ": not an NXtomo file: no entry with instrument/detector/data (or data/data)"
                    + " and its image_key");
        StoredDataset stored = HdfDatasets.find(hdf, name, layout.data()).orElseThrow();
        int[] d = stored.dims();
        if (d.length != 3 || d[0] == 0 || d[1] == 0 || d[2] == 0)
            throw new IllegalArgumentException(name + ": " + layout.data()
                    + " must be 3-D [frame, row, column] and not empty, has shape "
                    + Arrays.toString(d));
        ScanMetadata.SampleType type = SampleTypes.of(stored.dataType(), name + ": " + layout.data());
        this.kinds = FrameKinds.of(keys(d[0]), name + ":" + layout.keys());
        requireFrames(kinds.flats(), "flat fields (image_key 1)");
        requireFrames(kinds.darks(), "dark fields (image_key 2)");
        requireFrames(kinds.projections(), "projections (image_key 0)");
        double[] angles = projectionAngles(d[0]);
        this.meta = new ScanMetadata(name, kinds.projections().length, d[1], d[2], type, angles, kinds.flats().length,
                kinds.darks().length, layout.angle());
        if (stored.virtual() != null) {
            // the camera files of every segment: flats and darks are picked from bands of every frame
            this.virtualBands = virtualReader(stored, type, sources, options);
            this.dataBands = virtualBands;
            this.flatRuns = List.of(new FrameSelection(virtualBands, kinds.flats()));
            this.darkRuns = List.of(new FrameSelection(virtualBands, kinds.darks()));
            return;
        }
        this.virtualBands = null;
        Dataset data = stored.plain();
        long base = hdf.getUserBlockSize();
        this.dataBands = HdfBandReaders.forDataset(data, name, layout.data(), type, ranges, base, options);
        this.flatRuns = runReaders(data, kinds.flats(), type, base, options);
        this.darkRuns = runReaders(data, kinds.darks(), type, base, options);
    }

    private VirtualBandReader virtualReader(StoredDataset stored, ScanMetadata.SampleType type, SourceFiles sources,
                                            ReadOptions options) {
        try {
            return new VirtualBandReader(name + ":" + layout.data(), stored.virtual(), type,
                    new SourceFile(name, hdf, ranges), sources, options);
        } catch (IOException e) {
            throw new IllegalArgumentException(name + ": cannot look for the source files of the virtual dataset "
                    + layout.data() + " (" + e.getMessage() + ")", e);
        }
    }

    private void requireFrames(int[] frames, String what) {
        if (frames.length == 0)
            throw new IllegalArgumentException(name + ":" + layout.keys() + ": the scan has no " + what
                    + "; NXtomo input needs projections, flats and darks in " + layout.data());
    }

    private long[] keys(int frames) {
        Dataset k = HdfDatasets.find(hdf, name, layout.keys()).map(StoredDataset::plain).orElseThrow(
                () -> new IllegalArgumentException(name + ":" + layout.keys() + ": image_key must be a plain dataset"));
        Object o = DatasetValues.flat(k, name + ":" + layout.keys());
        if (!o.getClass().isArray() || !k.getJavaType().isPrimitive() || k.getJavaType() == float.class
                || k.getJavaType() == double.class)
            throw new IllegalArgumentException(name + ":" + layout.keys() + ": image_key must hold integers, holds "
                    + k.getJavaType().getSimpleName());
        int n = Array.getLength(o);
        if (n != frames)
            throw new IllegalArgumentException(name + ":" + layout.keys() + ": " + n + " image keys but "
                    + layout.data() + " has "
                    + frames + " frames");
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) keys[i] = Array.getLong(o, i);
        return keys;
    }

    /** The angles of the projection frames in degrees, or null if the file has no rotation_angle. */
    private double[] projectionAngles(int frames) {
        Node n = NxTomoLayout.node(hdf, layout.angle());
        if (n == null) return null;
        String where = name + ":" + layout.angle();
        if (!(n instanceof Dataset ds)) throw new IllegalArgumentException(where + " is not a dataset");
        Object o = DatasetValues.flat(ds, where);
        if (!(o instanceof double[]) && !(o instanceof float[]))
            throw new IllegalArgumentException(where + ": rotation_angle must be float32 or float64, holds "
                    + ds.getJavaType().getSimpleName());
        int count = Array.getLength(o);
        if (count != frames)
            throw new IllegalArgumentException(where + ": " + count + " angles but " + layout.data() + " has " + frames
                    + " frames (NXtomo gives one rotation_angle per frame, flats and darks included)");
        double scale = degreesPer(NxTomoLayout.text(ds.getAttribute("units")), where);
        int[] proj = kinds.projections();
        double[] a = new double[proj.length];
        for (int i = 0; i < proj.length; i++) a[i] = Array.getDouble(o, proj[i]) * scale;
        return a;
    }

    private static double degreesPer(String units, String where) {
        if (units == null) return 1;
        String u = units.trim().toLowerCase(Locale.ROOT);
        if (u.matches("deg|degree|degrees|°")) return 1;
        if (u.matches("rad|radian|radians")) return 180 / Math.PI;
        throw new IllegalArgumentException(where + ": unknown units '" + units + "'; expected degree or rad");
    }

    /** One reader per run of consecutive frames: positioned reads of a contiguous dataset, else general hyperslabs. */
    private List<BandReader> runReaders(Dataset data, int[] frames, ScanMetadata.SampleType type, long base,
            ReadOptions options) {
        int[] d = data.getDimensions();
        ByteOrder order = HdfBandReaders.plainOrder(data.getDataType(), type);
        long frameBytes = (long) d[1] * d[2] * data.getDataType().getSize();
        List<BandReader> out = new ArrayList<>();
        for (FrameKinds.Run run : FrameKinds.runs(frames)) {
            if (!options.hyperslabOnly() && order != null && data instanceof ContiguousDataset c && !c.isEmpty())
                out.add(new ContiguousBandReader(ranges, name + ":" + layout.data(), base + c.getDataAddress()
                        + run.first() * frameBytes, run.count(), d[1], d[2], type, order, options.effectiveThreads()));
            else
                out.add(new HyperslabBandReader(data, name, layout.data(), type, run.first(), run.count()));
        }
        return out;
    }

    /** Where the datasets are in this file. */
    public NxTomoLayout layout() {
        return layout;
    }

    /** Which frames are projections, flats and darks. */
    public FrameKinds frameKinds() {
        return kinds;
    }

    @Override
    public ScanMetadata metadata() {
        return meta;
    }

    @Override
    public RawStack readProjections(int rowStart, int rows) {
        checkRows(rowStart, rows);
        RawStack band = read(dataBands, rowStart, rows, "projections");
        return kinds.projectionsAreAll(band.frames()) ? band : FrameStacks.select(band, kinds.projections());
    }

    @Override
    public RawStack readFlats(int rowStart, int rows) {
        return readRuns(flatRuns, rowStart, rows, "flat fields");
    }

    @Override
    public RawStack readDarks(int rowStart, int rows) {
        return readRuns(darkRuns, rowStart, rows, "dark fields");
    }

    private RawStack readRuns(List<BandReader> runs, int rowStart, int rows, String what) {
        checkRows(rowStart, rows);
        List<RawStack> parts = new ArrayList<>();
        for (BandReader r : runs) parts.add(read(r, rowStart, rows, what));
        return FrameStacks.concat(parts);
    }

    private void checkRows(int rowStart, int rows) {
        if (rowStart < 0 || rows < 1 || rowStart + rows > meta.rows())
            throw new IllegalArgumentException(name + ": rows " + rowStart + ".." + (rowStart + rows - 1) + " outside "
                    + layout.data() + " (" + meta.rows() + " rows)");
    }

    private RawStack read(BandReader reader, int rowStart, int rows, String what) {
        try {
            return reader.read(rowStart, rows);
        } catch (IOException | HdfException | BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException(name + ": cannot read rows " + rowStart + ".." + (rowStart + rows - 1)
                    + " of the "
                    + what + " in " + layout.data() + " (" + e + "); truncated or corrupt file?", e);
        }
    }

    @Override
    public String dataName() {
        return name + ":" + layout.data();
    }

    @Override
    public String flatName() {
        return name + ":" + layout.data() + " (image_key 1)";
    }

    @Override
    public String darkName() {
        return name + ":" + layout.data() + " (image_key 2)";
    }

    @Override
    public String anglesName() {
        return name + ":" + layout.angle();
    }

    @Override
    public void close() {
        try {
            if (virtualBands != null) virtualBands.close();
            ranges.close();
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": cannot close", e);
        } finally {
            hdf.close();
        }
    }
}
