package org.tomospark.executor.inputs;

import org.tomospark.executor.preprocess.RawStack;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads bands of a 3-D virtual dataset [frame][row][col]: for each mapping whose rows the band overlaps, the rows it
 * needs of its source dataset, through that dataset's own band reader (positioned reads, or chunks decoded on several
 * threads), copied to where the mapping puts them; elements that no mapping covers hold the fill value. A source
 * file is opened when a band first needs it and stays open until this reader is closed; a band opens no file it does
 * not overlap. Every source file must exist when the reader is made.
 */
final class VirtualBandReader implements BandReader, Closeable {
    private final String name;
    private final VirtualDataset vds;
    private final ScanMetadata.SampleType type;
    private final SourceFiles sources;
    private final SourceFile self;
    private final ReadOptions options;
    private final List<Mapped> mapped = new ArrayList<>();
    private final Map<Mapped, Source> opened = new LinkedHashMap<>();
    private final Map<String, SourceFile> files = new LinkedHashMap<>();

    /** A mapping with its source file resolved and the indices its virtual selection takes in each dimension. */
    private record Mapped(int index, VirtualMapping mapping, String file, int[][] virtual) {
    }

    /** A mapping's source: its band reader, the indices its selection takes, and column runs to copy. */
    private record Source(BandReader reader, int[][] selected, int sourceWidth, List<Run> columns) {
    }

    /** {@code length} columns from virtual column {@code to} on come from source column {@code from} on. */
    private record Run(int to, int from, int length) {
    }

    /**
     * @param name    names the virtual dataset in messages (file:path)
     * @param self    the file that holds the virtual dataset (for mappings into the same file; not closed here)
     * @param sources finds the other files
     * @throws IllegalArgumentException where a mapping cannot be taken or a source file does not exist
     */
    VirtualBandReader(String name, VirtualDataset vds, ScanMetadata.SampleType type, SourceFile self,
            SourceFiles sources,
                      ReadOptions options) throws IOException {
        this.name = name;
        this.vds = vds;
        this.type = type;
        this.self = self;
        this.sources = sources;
        this.options = options;
        for (int i = 0; i < vds.mappings().size(); i++) {
            VirtualMapping m = vds.mappings().get(i);
            if (m.virtual().isNone() || m.source().isNone()) continue;
            int[][] v;
            try {
                v = m.virtual().indices(vds.dims());
            } catch (IllegalArgumentException e) {
                throw refused(i, m, "its virtual selection is " + e.getMessage(), e);
            }
            String file = m.file().equals(VirtualMapping.SAME_FILE) ? VirtualMapping.SAME_FILE
                    : sources.resolve(m.file());
            if (!file.equals(VirtualMapping.SAME_FILE) && !sources.exists(file))
                throw new IllegalArgumentException(name + " is a virtual dataset whose source file " + m.file() + " ("
                        + file
                        + ") does not exist: copy the camera files next to it, keeping their names, and run again");
            mapped.add(new Mapped(i, m, file, v));
        }
    }

    private IllegalArgumentException refused(int i, VirtualMapping m, String why, Exception cause) {
        return new IllegalArgumentException(name + " is a virtual dataset whose mapping " + i + " (" + m.file() + ":"
                + m.dataset()
                + ") cannot be read: " + why + "; make it a plain dataset with h5repack -l DATASET:CONTI in.h5 out.h5",
                cause);
    }

    /** Source files opened so far. */
    synchronized List<String> openedFiles() {
        return List.copyOf(files.keySet());
    }

    @Override
    public RawStack read(int rowStart, int rows) throws IOException {
        int[] d = vds.dims();
        int frames = d[0], width = d[2];
        int total = RawStack.samples(frames, rows, width, name);
        short[] u16 = type == ScanMetadata.SampleType.UINT16 ? new short[total] : null;
        float[] f32 = u16 == null ? new float[total] : null;
        double fill = vds.fillSample();
        if (fill != 0) {
            if (u16 != null) Arrays.fill(u16, (short) fill);
            else Arrays.fill(f32, (float) fill);
        }
        for (Mapped m : mapped) {
            int[] vRows = m.virtual()[1];
            int k0 = lowerBound(vRows, rowStart), k1 = lowerBound(vRows, rowStart + rows);
            if (k0 >= k1) continue;
            Source s = source(m);
            int[] sRows = s.selected()[1];
            int first = sRows[k0];
            RawStack band = s.reader().read(first, sRows[k1 - 1] - first + 1);
            int[] vFrames = m.virtual()[0], sFrames = s.selected()[0];
            for (int j = 0; j < vFrames.length; j++)
                for (int k = k0; k < k1; k++) {
                    int to = (vFrames[j] * rows + vRows[k] - rowStart) * width;
                    int from = (sFrames[j] * band.rows() + sRows[k] - first) * s.sourceWidth();
                    for (Run r : s.columns()) {
                        if (u16 != null) System.arraycopy(band.uint16Data(), from + r.from(), u16, to + r.to(),
                                r.length());
                        else System.arraycopy(band.floatData(), from + r.from(), f32, to + r.to(), r.length());
                    }
                }
        }
        return u16 != null ? RawStack.ofUint16(frames, rows, width, u16) : RawStack.ofFloat(frames, rows, width, f32);
    }

    /** The first index of {@code sorted} whose value is at least {@code value}. */
    private static int lowerBound(int[] sorted, int value) {
        int i = Arrays.binarySearch(sorted, value);
        return i >= 0 ? i : -i - 1;
    }

    private synchronized Source source(Mapped m) throws IOException {
        Source s = opened.get(m);
        if (s == null) {
            s = open(m);
            opened.put(m, s);
        }
        return s;
    }

    private Source open(Mapped m) throws IOException {
        VirtualMapping vm = m.mapping();
        SourceFile file = m.file().equals(VirtualMapping.SAME_FILE) ? self : files.get(m.file());
        if (file == null) {
            file = sources.open(m.file(), options);
            files.put(m.file(), file);
        }
        StoredDataset ds = HdfDatasets.find(file.hdf(), file.name(), vm.dataset())
                .orElseThrow(() -> refused(m.index(), vm, "the source file has no dataset " + vm.dataset(), null));
        if (ds.plain() == null) throw refused(m.index(), vm, "its source is itself a virtual dataset", null);
        int[] dims = ds.dims();
        if (dims.length != 3) throw refused(m.index(), vm, "its source has shape " + Arrays.toString(dims)
                + " (3-D sources [frames, rows, columns] are read)", null);
        ScanMetadata.SampleType sourceType = SampleTypes.of(ds.dataType(), file.name() + ":" + vm.dataset());
        if (sourceType != type) throw refused(m.index(), vm, "its source holds " + sourceType
                + " samples, the virtual dataset "
                + type, null);
        int[][] selected;
        try {
            selected = vm.source().indices(dims);
        } catch (IllegalArgumentException e) {
            throw refused(m.index(), vm, "its source selection is " + e.getMessage(), e);
        }
        for (int d = 0; d < 3; d++)
            if (selected[d].length != m.virtual()[d].length)
                throw refused(m.index(), vm, "its source selection spans " + selected[d].length
                        + " indices of dimension " + d
                        + " and its virtual selection " + m.virtual()[d].length, null);
        BandReader reader = HdfBandReaders.forDataset(ds.plain(), file.name(), vm.dataset(), type, file.ranges(),
                file.hdf().getUserBlockSize(), options);
        return new Source(reader, selected, dims[2], runs(m.virtual()[2], selected[2]));
    }

    /** The columns in runs that are consecutive on both sides. */
    private static List<Run> runs(int[] to, int[] from) {
        List<Run> out = new ArrayList<>();
        int start = 0;
        for (int i = 1; i <= to.length; i++)
            if (i == to.length || to[i] != to[i - 1] + 1 || from[i] != from[i - 1] + 1) {
                out.add(new Run(to[start], from[start], i - start));
                start = i;
            }
        return out;
    }

    @Override
    public ReadPath path() {
        return ReadPath.VIRTUAL;
    }

    @Override
    public synchronized void close() throws IOException {
        IOException failure = null;
        for (SourceFile f : files.values()) {
            try {
                f.close();
            } catch (IOException e) {
                if (failure == null) failure = e;
                else failure.addSuppressed(e);
            }
        }
        files.clear();
        opened.clear();
        if (failure != null) throw failure;
    }
}
