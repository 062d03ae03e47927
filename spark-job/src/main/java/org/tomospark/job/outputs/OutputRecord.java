package org.tomospark.job.outputs;

import org.tomospark.executor.outputs.OutputFormat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the runs of an output recorded as theirs, in {@code _committed/_run.json}, before they wrote anything else: the
 * kind of run, the slices they were allowed to write (output slice indices and formats) and the other files they
 * write (manifest, report, pictures, volume files). A later run may delete or replace only what this record names
 * ({@link OutputOwnership}); anything else in the output folder is someone else's and stays as it is. A resumed run adds
 * its own slices and files to the record; an overwriting run starts a new one once it has removed the old run's files.
 *
 * <p>{@link #VERSION} 2 is the first to record this. An output from before ({@code _run.json} without it) is read as
 * {@link #legacy}: every name the earlier versions wrote counts as theirs.
 *
 * @param mode       {@link #RECONSTRUCTION} or {@link #CENTER_SWEEP}
 * @param rows       the output slice indices the runs wrote or were allowed to write
 * @param formats    the slices' formats ({@link OutputFormat#id})
 * @param files      the other files, relative to the output folder ({@code manifest.json}, {@code volume.zarr/.zarray}, …)
 * @param zarrOrigin the output slice index of the Zarr array's first slice, or -1 without Zarr slices
 * @param legacy     an output written before the record existed: every name those versions wrote is theirs
 * @param oldMarkers the output holds commit markers of format 1 ({@code .sha256}), adopted from an output written
 *                   before marker format 2: only then are markers of that name its own
 */
public record OutputRecord(String mode, BitSet rows, Set<String> formats, Set<String> files, int zarrOrigin,
                           boolean legacy, boolean oldMarkers) {
    public static final int VERSION = 2;
    public static final String RECONSTRUCTION = "reconstruction";
    public static final String CENTER_SWEEP = "center sweep";
    /** The record's key in {@code _run.json}. */
    static final String KEY = "owns";

    public OutputRecord {
        rows = (BitSet) rows.clone();
        formats = Set.copyOf(formats);
        files = Set.copyOf(files);
    }

    /** A reconstruction of output slices [first, end) into {@code format}, writing {@code files} besides. */
    public static OutputRecord reconstruction(int first, int end, OutputFormat format, Set<String> files) {
        BitSet rows = new BitSet();
        rows.set(first, end);
        return new OutputRecord(RECONSTRUCTION, rows, Set.of(format.id()), files, format == OutputFormat.ZARR ? first : -1,
                false, false);
    }

    /** A centre sweep writing {@code files}. */
    public static OutputRecord sweep(Set<String> files) {
        return new OutputRecord(CENTER_SWEEP, new BitSet(), Set.of(), files, -1, false, false);
    }

    /** This record and a resumed run's: the slices and files of both. */
    public OutputRecord merge(OutputRecord later) {
        BitSet r = (BitSet) rows.clone();
        r.or(later.rows);
        Set<String> f = new TreeSet<>(formats);
        f.addAll(later.formats);
        Set<String> n = new TreeSet<>(files);
        n.addAll(later.files);
        return new OutputRecord(later.mode, r, f, n, zarrOrigin >= 0 ? zarrOrigin : later.zarrOrigin, legacy, oldMarkers);
    }

    public boolean ownsRow(int index, OutputFormat format) {
        return legacy || (formats.contains(format.id()) && rows.get(index));
    }

    /**
     * Whether a commit marker is the runs' own: one of a slice they wrote, of the format this version writes, or of
     * format 1 where the output was adopted with such markers.
     */
    public boolean ownsMarker(int row, boolean formatOne) {
        return legacy || (rows.get(row) && (!formatOne || oldMarkers));
    }

    public boolean ownsFile(String relative) {
        return legacy ? LEGACY_FILES.contains(relative) : files.contains(relative);
    }

    public boolean ownsFormat(OutputFormat format) {
        return legacy || formats.contains(format.id());
    }

    /** The names the versions before the record wrote besides the slices. */
    private static final Set<String> LEGACY_FILES = Set.of(OutputCommit.MANIFEST, OutputCommit.REPORT, OutputCommit.SUCCESS,
            "preview.png", "convergence.png", RawVolume.NAME, Hdf5Volume.NAME, ZarrMetadata.ZARRAY, ZarrMetadata.ZATTRS);

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", VERSION);
        m.put("mode", mode);
        List<List<Integer>> ranges = new ArrayList<>();
        for (int a = rows.nextSetBit(0); a >= 0; a = rows.nextSetBit(rows.nextClearBit(a)))
            ranges.add(List.of(a, rows.nextClearBit(a)));
        m.put("rows", ranges);
        m.put("formats", List.copyOf(new TreeSet<>(formats)));
        m.put("files", List.copyOf(new TreeSet<>(files)));
        if (zarrOrigin >= 0) m.put("zarrOrigin", zarrOrigin);
        if (oldMarkers) m.put("oldMarkers", true);
        return m;
    }

    /**
     * The record of a {@code _run.json} read as {@code run}; {@link #legacy} for one written before records existed;
     * null when the entry is there but not a record this version understands (a later version's, or damaged): such an
     * output owns nothing that can be shown.
     */
    static OutputRecord of(Map<String, Object> run) {
        Object o = run.get(KEY);
        if (o == null) return new OutputRecord(RECONSTRUCTION, new BitSet(), Set.of(), Set.of(), -1, true, true);
        if (!(o instanceof Map<?, ?> m) || !(m.get("version") instanceof Number v) || v.intValue() != VERSION) return null;
        try {
            BitSet rows = new BitSet();
            for (Object r : (List<?>) m.get("rows")) {
                List<?> ab = (List<?>) r;
                int a = ((Number) ab.get(0)).intValue(), b = ((Number) ab.get(1)).intValue();
                if (a < 0 || b < a) return null;
                rows.set(a, b);
            }
            Set<String> formats = new TreeSet<>();
            for (Object f : (List<?>) m.get("formats")) formats.add(String.valueOf(f).toLowerCase(Locale.ROOT));
            Set<String> files = new TreeSet<>();
            for (Object f : (List<?>) m.get("files")) files.add(String.valueOf(f));
            int origin = m.get("zarrOrigin") instanceof Number n ? n.intValue() : -1;
            return new OutputRecord(String.valueOf(m.get("mode")), rows, formats, files, origin, false,
                    Boolean.TRUE.equals(m.get("oldMarkers")));
        } catch (ClassCastException | NullPointerException | IndexOutOfBoundsException e) {
            return null;
        }
    }
}
