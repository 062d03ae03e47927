package org.tomospark.job.outputs;

import org.tomospark.job.fs.FolderEntries;
import org.tomospark.job.fs.Json;
import org.tomospark.job.fs.RealPaths;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tomospark.executor.outputs.OutputFormat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one rule of what a run may change in an output folder, for both engines, {@code reprocess}, {@code find-centers}
 * and the notebook API: it deletes, renames or replaces only files it can show are its own, that is files under its
 * output, named as a tomospark output names them, and recorded as such by the runs of that output
 * ({@link OutputRecord}, kept in {@code _committed/_run.json}), or created by itself.
 *
 * <p>Before a run writes, {@link #check} lists the output folder. An entry named as one of tomospark's (a slice, the
 * manifest, {@code volume.h5}, …) that no record names, or that is a symbolic link, is someone else's: the run is refused,
 * naming it, and nothing is changed. Every other entry (a user's notes, a camera file) is not looked at again.
 * {@link #clear} removes only what the record names.
 */
public final class OutputOwnership {
    public static final String TEMPORARY = SliceWriter.TEMP_DIR;
    /** Names the sweeps write: a centre sweep's images, a TV weight sweep's. */
    public static final Pattern SWEEP_IMAGE = Pattern.compile("(center_|tv_r[0-9]+_x).*\\.tif");
    public static final String CONTACT_SHEET = "contact-sheet.png";
    public static final String TV_WEIGHT_SHEET = "tv-weight-sweep.png";
    /** Hadoop's checksummed file systems keep {@code .NAME.crc} beside a file. */
    private static final Pattern CRC = Pattern.compile("\\.(.+)\\.crc");
    /** The top-level names tomospark writes besides the slices and its folders. */
    static final Set<String> FILE_NAMES = Set.of(OutputCommit.MANIFEST, OutputCommit.REPORT, OutputCommit.SUCCESS,
            "preview.png", "convergence.png", RawVolume.NAME, Hdf5Volume.NAME, CONTACT_SHEET, TV_WEIGHT_SHEET);
    private static final int NAMED = 5;

    private OutputOwnership() {
    }

    /** The record of the output's runs; null when there is none (a new folder, or one tomospark did not make). */
    public static OutputRecord record(FileSystem fs, Path dir) throws IOException {
        Path run = new Path(new Path(dir, OutputCommit.COMMITTED), OutputCommit.RUN);
        if (FolderEntries.kind(fs, new Path(dir, OutputCommit.COMMITTED)) != FolderEntries.Kind.FOLDER
                || FolderEntries.kind(fs, run) != FolderEntries.Kind.FILE) return null;
        Map<String, Object> m;
        try {
            m = Json.read(OutputCommit.readAll(fs, run), run.toString());
        } catch (IllegalArgumentException e) {
            return null;
        }
        return OutputRecord.of(m);
    }

    /**
     * Refuses (an {@link IllegalArgumentException} naming the entries) an output folder holding entries named as
     * tomospark's that {@code record} does not name, or that are links, or folders of tomospark's names that are not
     * folders. Reads only.
     */
    public static void check(FileSystem fs, Path dir, OutputRecord record) {
        List<String> foreign = new ArrayList<>();
        try {
            for (FolderEntries.Entry e : FolderEntries.of(fs, dir)) {
                String n = e.name();
                if (n.equals(OutputLock.NAME) || !reserved(n)) continue;
                if (e.kind() == FolderEntries.Kind.LINK) {
                    foreign.add(n + " (a link)");
                    continue;
                }
                Folder f = Folder.of(n);
                if (f != null) {
                    if (e.kind() != FolderEntries.Kind.FOLDER) foreign.add(n + " (not a folder)");
                    else inside(fs, e.path(), f, record, foreign);
                    continue;
                }
                if (e.kind() != FolderEntries.Kind.FILE || !owns(record, n)) foreign.add(n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot list the output (" + e.getMessage() + ")", e);
        }
        if (foreign.isEmpty()) return;
        String them = foreign.size() == 1 ? "it" : "them";
        boolean unrecorded = record == null && foreign.stream().anyMatch(n -> n.startsWith(OutputCommit.COMMITTED + "/"));
        throw new IllegalArgumentException(dir + ": the output folder holds " + describe(foreign) + ", named as tomospark's "
                + "own files, but " + (unrecorded ? "its record " + OutputCommit.COMMITTED + "/" + OutputCommit.RUN + " is "
                + "missing or unreadable, so nothing proves that " + them + " are a tomospark run's"
                : "no tomospark run of this output recorded " + them + " (" + OutputCommit.COMMITTED + "/" + OutputCommit.RUN
                + ")") + "; a run changes only files it can show are its own, so this one changed nothing: move " + them
                + " away, or choose another output");
    }

    private static String describe(List<String> names) {
        List<String> shown = names.size() > NAMED ? names.subList(0, NAMED) : names;
        String s = String.join(", ", shown);
        return names.size() > NAMED ? s + " and " + (names.size() - NAMED) + " more" : s;
    }

    /** The folders tomospark makes in an output, and what it writes in each. */
    private enum Folder {
        COMMITTED(OutputCommit.COMMITTED), TEMPORARY(SliceWriter.TEMP_DIR), ZARR(SliceFiles.ZARR_DIR),
        HDF5_SLICES(SliceFiles.HDF5_SLICES_DIR);

        final String name;

        Folder(String name) {
            this.name = name;
        }

        static Folder of(String n) {
            for (Folder f : values()) if (f.name.equals(n)) return f;
            return null;
        }
    }

    /** Entries of one of tomospark's folders named as tomospark names them there, but not recorded. */
    private static void inside(FileSystem fs, Path folder, Folder f, OutputRecord record, List<String> foreign)
            throws IOException {
        if (f == Folder.TEMPORARY) return; // a run only ever removes its own temporary files there
        if (f == Folder.COMMITTED) {
            // the record itself is read by record(); a folder of markers with no readable record proves nothing
            for (FolderEntries.Entry e : FolderEntries.of(fs, folder)) {
                Matcher m = OutputCommit.MARKER.matcher(e.name());
                boolean named = m.matches() || e.name().equals(OutputCommit.RUN);
                if (!named) continue;
                boolean owned = record != null && e.kind() == FolderEntries.Kind.FILE && (!m.matches() || ownsMarker(record, m));
                if (!owned) foreign.add(f.name + "/" + e.name());
            }
            return;
        }
        if (record == null || !record.ownsFormat(f == Folder.ZARR ? OutputFormat.ZARR : OutputFormat.HDF5)) {
            foreign.add(f.name);
            return;
        }
        for (FolderEntries.Entry e : FolderEntries.of(fs, folder)) {
            String n = e.name();
            String rel = f.name + "/" + n;
            boolean link = e.kind() != FolderEntries.Kind.FILE;
            if (f == Folder.ZARR) {
                Matcher m = SliceFiles.ZARR_CHUNK.matcher(n);
                if (m.matches()) {
                    if (link || !record.ownsRow(record.zarrOrigin() + Integer.parseInt(m.group(1)), OutputFormat.ZARR))
                        foreign.add(rel);
                } else if ((n.equals(".zarray") || n.equals(".zattrs")) && (link || !record.ownsFile(rel))) {
                    foreign.add(rel);
                }
            } else {
                Matcher m = SliceFiles.HDF5_SLICE.matcher(n);
                if (m.matches() && (link || !record.ownsRow(Integer.parseInt(m.group(1)), OutputFormat.HDF5))) foreign.add(rel);
            }
        }
    }

    /**
     * The record of an output written before records existed ({@link OutputRecord#legacy}), in the form later runs
     * keep: the slices and files found there, in every format; the Zarr array of those versions begins at slice 0.
     */
    public static OutputRecord adopt(FileSystem fs, Path dir) throws IOException {
        BitSet rows = new BitSet();
        Set<String> formats = new TreeSet<>(), files = new TreeSet<>();
        for (FolderEntries.Entry e : FolderEntries.of(fs, dir)) {
            Matcher slice = SliceWriter.SLICE_NAME.matcher(e.name());
            if (slice.matches()) {
                rows.set(Integer.parseInt(slice.group(1)));
                formats.add(OutputFormat.TIFF.id());
            } else if (FILE_NAMES.contains(e.name()) && !e.name().equals(CONTACT_SHEET) && !e.name().equals(TV_WEIGHT_SHEET)) {
                files.add(e.name());
            }
        }
        for (FolderEntries.Entry e : FolderEntries.of(fs, new Path(dir, SliceFiles.ZARR_DIR))) {
            Matcher m = SliceFiles.ZARR_CHUNK.matcher(e.name());
            if (m.matches()) rows.set(Integer.parseInt(m.group(1)));
            else if (e.name().equals(".zarray") || e.name().equals(".zattrs")) files.add(SliceFiles.ZARR_DIR + "/" + e.name());
            formats.add(OutputFormat.ZARR.id());
        }
        for (FolderEntries.Entry e : FolderEntries.of(fs, new Path(dir, SliceFiles.HDF5_SLICES_DIR))) {
            Matcher m = SliceFiles.HDF5_SLICE.matcher(e.name());
            if (m.matches()) rows.set(Integer.parseInt(m.group(1)));
            formats.add(OutputFormat.HDF5.id());
        }
        boolean oldMarkers = false;
        for (FolderEntries.Entry e : FolderEntries.of(fs, new Path(dir, OutputCommit.COMMITTED))) {
            Matcher m = OutputCommit.MARKER.matcher(e.name());
            if (!m.matches()) continue;
            rows.set(Integer.parseInt(m.group(1)));
            oldMarkers |= m.group(2).equals("sha256");
        }
        boolean zarr = formats.contains(OutputFormat.ZARR.id());
        return new OutputRecord(OutputRecord.RECONSTRUCTION, rows, formats, files, zarr ? 0 : -1, false, oldMarkers);
    }

    /** Whether {@code name} is one tomospark writes at the top of an output folder. */
    public static boolean reserved(String name) {
        Matcher crc = CRC.matcher(name);
        if (crc.matches()) return reserved(crc.group(1));
        return FILE_NAMES.contains(name) || Folder.of(name) != null || SliceWriter.SLICE_NAME.matcher(name).matches()
                || SWEEP_IMAGE.matcher(name).matches();
    }

    /** Whether the record names a top-level file (not one of the folders). */
    static boolean owns(OutputRecord record, String name) {
        if (record == null) return false;
        Matcher crc = CRC.matcher(name);
        if (crc.matches()) return owns(record, crc.group(1));
        Matcher slice = SliceWriter.SLICE_NAME.matcher(name);
        if (slice.matches()) return record.ownsRow(Integer.parseInt(slice.group(1)), OutputFormat.TIFF);
        if (record.legacy() && SWEEP_IMAGE.matcher(name).matches()) return false;
        return record.ownsFile(name);
    }

    /**
     * Removes what the record names: its slices, markers, volume files and pictures, then the folders tomospark made if
     * nothing else is left in them. Entries it does not name stay. The output must have passed {@link #check}.
     */
    public static void clear(FileSystem fs, Path dir, OutputRecord record) throws IOException {
        if (record == null) return;
        for (FolderEntries.Entry e : FolderEntries.of(fs, dir)) {
            String n = e.name();
            if (n.equals(OutputLock.NAME) || !reserved(n)) continue;
            Folder f = Folder.of(n);
            if (f == null) {
                if (e.kind() == FolderEntries.Kind.FILE && owns(record, n)) fs.delete(e.path(), false);
                continue;
            }
            if (e.kind() != FolderEntries.Kind.FOLDER) continue;
            if (f == Folder.TEMPORARY) {
                SliceWriter.removeTemporaries(fs, e.path());
                continue;
            }
            for (FolderEntries.Entry c : FolderEntries.of(fs, e.path()))
                if (c.kind() == FolderEntries.Kind.FILE && ownsInside(f, c.name(), record)) fs.delete(c.path(), false);
            removeIfEmpty(fs, e.path());
        }
    }

    private static boolean ownsInside(Folder f, String n, OutputRecord record) {
        return switch (f) {
            case COMMITTED -> {
                Matcher m = OutputCommit.MARKER.matcher(n);
                yield m.matches() ? ownsMarker(record, m) : n.equals(OutputCommit.RUN);
            }
            case TEMPORARY -> false;
            case ZARR -> {
                Matcher m = SliceFiles.ZARR_CHUNK.matcher(n);
                yield m.matches() ? record.ownsRow(record.zarrOrigin() + Integer.parseInt(m.group(1)), OutputFormat.ZARR)
                        : record.ownsFile(f.name + "/" + n);
            }
            case HDF5_SLICES -> {
                Matcher m = SliceFiles.HDF5_SLICE.matcher(n);
                yield m.matches() && record.ownsRow(Integer.parseInt(m.group(1)), OutputFormat.HDF5);
            }
        };
    }

    private static boolean ownsMarker(OutputRecord record, Matcher marker) {
        return record.ownsMarker(Integer.parseInt(marker.group(1)), marker.group(2).equals("sha256"));
    }

    /** Removes a folder that holds nothing (a folder with a user's file in it stays). */
    static void removeIfEmpty(FileSystem fs, Path folder) throws IOException {
        if (FolderEntries.kind(fs, folder) == FolderEntries.Kind.FOLDER && FolderEntries.of(fs, folder).isEmpty())
            fs.delete(folder, false);
    }

    /**
     * Refuses to go on when {@code file}, which the run would replace, is there but is not one that such a run wrote
     * ({@code ours}, judged from its JSON): a link, a folder, another file. Nothing there is fine. Reads only.
     *
     * @param what      what the file must be, for the message ("a batch report of tomospark's")
     * @param otherwise what the user can do instead ("choose another output root")
     */
    public static void checkReplaceable(Path file, Configuration conf, Predicate<Map<String, Object>> ours, String what,
                                        String otherwise) {
        try {
            FileSystem fs = file.getFileSystem(conf);
            FolderEntries.Kind kind = FolderEntries.kind(fs, file);
            if (kind == null) return;
            boolean fine = false;
            if (kind == FolderEntries.Kind.FILE) {
                try {
                    fine = ours.test(Json.read(OutputCommit.readAll(fs, file), file.toString()));
                } catch (IllegalArgumentException e) {
                    fine = false;
                }
            }
            if (!fine)
                throw new IllegalArgumentException(file + ": this run would replace it, but it is "
                        + (kind == FolderEntries.Kind.FILE ? "not " + what : "a " + kind.name().toLowerCase(Locale.ROOT)
                        + ", not " + what) + ", and a run replaces only files it can show are its own; move it away, or "
                        + otherwise);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    /**
     * Refuses a run whose input lies inside the output folder it would write (where its files could be replaced or
     * removed), naming both, by their real locations: links followed.
     */
    public static void checkInputsOutside(List<Path> inputs, String input, String output, Configuration conf) {
        Path out = RealPaths.of(output, conf);
        Path main = RealPaths.of(input, conf);
        for (Path in : inputs) {
            Path real = RealPaths.of(in, conf);
            if (RealPaths.within(real, out))
                throw new IllegalArgumentException(output + ": the input " + input + (real.equals(main) ? ""
                        : " (its file " + in.toUri().getPath() + ")") + " lies inside this output folder (at " + RealPaths.show(real)
                        + "), where a run writes and replaces files; refused before anything was written: choose an output "
                        + "folder outside the input's");
        }
    }

    /**
     * Refuses an output folder inside another tomospark output (one whose folder holds {@code _committed/_run.json}),
     * whose own runs may remove or replace what is there, naming it.
     */
    public static void checkNotInsideAnother(String output, Configuration conf) {
        Path out = RealPaths.of(output, conf);
        try {
            FileSystem fs = out.getFileSystem(conf);
            for (Path p = out.getParent(); p != null; p = p.getParent()) {
                Path run = new Path(new Path(p, OutputCommit.COMMITTED), OutputCommit.RUN);
                if (fs.exists(run))
                    throw new IllegalArgumentException(output + ": this output would lie inside " + RealPaths.show(p) + ", the output of "
                            + "another tomospark run (it holds " + OutputCommit.COMMITTED + "/" + OutputCommit.RUN
                            + "), whose own runs may replace or remove what is there: choose an output folder outside it");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(output + ": cannot inspect the output's folders (" + e.getMessage() + ")", e);
        }
    }
}
