package org.tomospark.job.outputs;

import org.tomospark.job.fs.Json;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.outputs.OutputFormat;
import org.tomospark.executor.params.ReconstructionParams;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The commit protocol of an output directory, on top of {@link SliceWriter}:
 * <ul>
 *   <li>a slice is written under {@code _temporary/} and renamed into place ({@code slice_NNNNN.tif}); then a
 *       marker {@code _committed/slice_NNNNN.commit} ({@link #MARKER_VERSION}, the CRC32C and the length,
 *       {@link SliceChecksum}) is written the same way. A slice
 *       counts as committed only when its marker exists and matches its bytes, so a task killed between the
 *       two steps, or a retried/speculative attempt, is harmless (slices are deterministic: a second attempt
 *       renames identical bytes over the first);</li>
 *   <li>{@code _committed/_run.json} holds the run signature (input identity and every parameter that changes the
 *       slices); {@code --resume} refuses an output made from another input or other parameters;</li>
 *   <li>at the end {@code manifest.json}, then {@code _SUCCESS}. An output with {@code _SUCCESS} is complete and is
 *       refused unless {@code --overwrite}; an unfinished one is refused unless {@code --resume} or
 *       {@code --overwrite}.</li>
 * </ul>
 */
public final class OutputCommit {
    public static final String COMMITTED = "_committed";
    public static final String RUN = "_run.json";
    public static final String MANIFEST = "manifest.json";
    public static final String SUCCESS = "_SUCCESS";
    public static final String REPORT = "report.json";
    /**
     * A commit marker: {@code slice_NNNNN.commit} ("2 crc32c:HEX LENGTH"), or {@code slice_NNNNN.sha256} ("HEX
     * LENGTH", SHA-256) of an output written before marker format 2, which is verified with SHA-256.
     */
    static final Pattern MARKER = Pattern.compile("slice_(\\d{5,})\\.(commit|sha256)");
    /** The format of the markers this version writes. */
    public static final int MARKER_VERSION = 2;

    private final SliceWriter writer;
    private final Configuration conf;
    private final String uri;
    private final SliceFiles files;

    /** An output of TIFF slices. */
    public OutputCommit(String outputUri, Configuration conf) {
        this(outputUri, conf, SliceFiles.TIFF);
    }

    /** An output whose slices go to {@code files}. */
    public OutputCommit(String outputUri, Configuration conf, SliceFiles files) {
        this(outputUri, conf, false, files);
    }

    /** {@code viaHadoop}: local files through Hadoop's local file system too ({@link SliceWriter}), to compare the two ways. */
    OutputCommit(String outputUri, Configuration conf, boolean viaHadoop) {
        this(outputUri, conf, viaHadoop, SliceFiles.TIFF);
    }

    private OutputCommit(String outputUri, Configuration conf, boolean viaHadoop, SliceFiles files) {
        this.uri = outputUri;
        this.conf = conf;
        this.writer = new SliceWriter(outputUri, conf, viaHadoop);
        this.files = files;
    }

    /** Where the slices go and how they are encoded. */
    public SliceFiles files() {
        return files;
    }

    public Path dir() {
        return writer.dir();
    }

    public SliceWriter writer() {
        return writer;
    }

    /** A committed slice: its checksum ({@link SliceChecksum}: {@code ALGORITHM:HEX}) and length. */
    public record Committed(int row, String checksum, long bytes) implements Serializable {
    }

    /** Identifies what changes the slices: the input and every parameter except the row range, grouping and threads. */
    public static String signature(Map<String, Object> identity, ReconstructionParams p) {
        return Json.sha256(Json.write(signed(identity, p))).substring(0, 32);
    }

    /**
     * What the run signature is computed from: the input's fingerprint and the parameters that decide the slices'
     * bytes (not the row range, the grouping, the threads or the device, nor backend settings that its results do not
     * depend on, {@link Backends#outputDefining}). Kept in {@code _committed/_run.json}, so that a refused
     * {@code --resume} can say what differs.
     */
    public static Map<String, Object> signed(Map<String, Object> identity, ReconstructionParams p) {
        ReconstructionParams q = p.toBuilder().rows(0, -1).groupRows(0)
                .backendOptions(Backends.outputDefining(p.algorithm().backend(), p.algorithm().backendOptions())).build();
        Map<String, Object> m = new TreeMap<>();
        m.put("input", identity.get("fingerprint"));
        m.put("params", Json.describe(q.recorded()));
        return m;
    }

    /** Claims the output for this run ({@link OutputLock}); no other run can prepare or commit into it until closed. */
    public OutputLock claim(Duration staleAfter, String run) {
        return OutputLock.claim(dir(), conf, staleAfter, run);
    }

    public static String markerName(int row) {
        return String.format("%s/slice_%05d.commit", COMMITTED, row);
    }

    /** Executor side: writes a slice and its marker; returns the slice's checksum. */
    public Committed commitSlice(int row, byte[] file) {
        return commitSlice(row, ByteBuffer.wrap(file), SliceChecksum.crc32c(file));
    }

    /**
     * Writes a slice's file from {@code file} (position to limit, left as it was) and then its marker recording
     * {@code checksum} ({@link SliceChecksum#crc32c} of those bytes, already computed by the caller).
     */
    public Committed commitSlice(int row, ByteBuffer file, String checksum) {
        int length = file.remaining();
        writer.writeBuffer(files.name(row), file);
        writer.writeBytes(markerName(row), (MARKER_VERSION + " " + checksum + " " + length + "\n")
                .getBytes(StandardCharsets.US_ASCII));
        return new Committed(row, checksum, length);
    }

    /**
     * What the destination holds before a run. {@code signed} is what the earlier run's signature was computed from
     * ({@link #signed}), or null when it did not record it.
     */
    public record State(boolean exists, boolean complete, int sliceFiles, int markers, String runSignature, Object signed) {
        public boolean empty() {
            return !complete && sliceFiles == 0 && markers == 0;
        }
    }

    public State state() {
        try {
            FileSystem fs = fs();
            Path d = dir();
            if (!fs.exists(d)) return new State(false, false, 0, 0, null, null);
            FileStatus st = fs.getFileStatus(d);
            if (!st.isDirectory()) throw new IllegalArgumentException(uri + ": output exists and is not a directory");
            boolean complete = fs.exists(new Path(d, SUCCESS));
            int slices = 0;
            for (FileStatus s : fs.listStatus(d)) if (SliceWriter.SLICE_NAME.matcher(s.getPath().getName()).matches()) slices++;
            slices += count(fs, new Path(d, SliceFiles.ZARR_DIR), SliceFiles.ZARR_CHUNK);
            slices += count(fs, new Path(d, SliceFiles.HDF5_SLICES_DIR), SliceFiles.HDF5_SLICE);
            int markers = 0;
            String sig = null;
            Object signed = null;
            Path c = new Path(d, COMMITTED);
            if (fs.exists(c)) {
                for (FileStatus s : fs.listStatus(c)) if (MARKER.matcher(s.getPath().getName()).matches()) markers++;
                Path r = new Path(c, RUN);
                if (fs.exists(r)) {
                    Map<String, Object> run = Json.read(readAll(fs, r), r.toString());
                    sig = run.get("signature") == null ? null : String.valueOf(run.get("signature"));
                    signed = run.get("signed");
                }
            }
            return new State(true, complete, slices, markers, sig, signed);
        } catch (IOException e) {
            throw new IllegalArgumentException(uri + ": cannot inspect output (" + e.getMessage() + ")", e);
        }
    }

    private static int count(FileSystem fs, Path dir, Pattern names) throws IOException {
        int n = 0;
        if (fs.exists(dir))
            for (FileStatus s : fs.listStatus(dir)) if (names.matcher(s.getPath().getName()).matches()) n++;
        return n;
    }

    /**
     * Driver side, after the input and parameters were validated and before any task: checks that the output holds
     * nothing named as tomospark's that its runs did not record ({@link OutputOwnership#check}) and that it is
     * writable, applies the overwrite/resume policy and records the run: its signature (computed from {@code signed},
     * {@link #signed}) and what it may write ({@code mine}, added to an earlier run's record on {@code --resume}), in
     * {@code _committed/_run.json}, before it writes anything else. No slice is deleted unless {@code overwrite}, and
     * then only what the earlier runs recorded; the files derived from the whole volume and {@code _SUCCESS} go, as the
     * run is about to rewrite them (a {@code --resume} with nothing to do is caught before this, by {@link #finished}).
     */
    public State prepare(boolean overwrite, boolean resume, OptionNames names, Map<String, Object> signed,
                         Map<String, Object> runInfo, OutputRecord mine) {
        if (overwrite && resume)
            throw new IllegalArgumentException(names.overwrite() + " and " + names.resume() + " cannot be used "
                    + "together");
        String signature = Json.sha256(Json.write(signed)).substring(0, 32);
        State s;
        try {
            s = state();
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(uri + ": output is not usable (" + e.getMessage() + ")", e);
        }
        OutputRecord old;
        try {
            old = OutputOwnership.record(fs(), dir());
            OutputOwnership.check(fs(), dir(), old);
            if (old != null && old.legacy()) old = OutputOwnership.adopt(fs(), dir());
        } catch (IOException e) {
            throw new UncheckedIOException(uri + ": cannot inspect output (" + e.getMessage() + ")", e);
        }
        if (old != null && !old.mode().equals(OutputRecord.RECONSTRUCTION) && !overwrite)
            throw new IllegalArgumentException(uri + ": output holds a " + old.mode() + ", not a reconstruction; use "
                    + names.overwrite() + " to replace it, or choose another output");
        if (s.complete() && !overwrite && !resume)
            throw new IllegalArgumentException(uri + ": output already holds a complete reconstruction (" + SUCCESS
                    + " present); use " + names.overwrite() + " to replace it");
        if (!s.empty() && !overwrite && !resume)
            throw new IllegalArgumentException(uri + ": output holds " + s.sliceFiles() + " slices of an unfinished "
                    + "run; use " + names.resume() + " to finish it or " + names.overwrite() + " to replace it");
        if (resume && !overwrite && s.runSignature() == null && (s.sliceFiles() > 0 || s.markers() > 0))
            throw new OutputMismatchException(uri + ": " + names.resume() + " refused: " + COMMITTED + "/" + RUN
                    + " is missing, so nothing proves that the " + s.sliceFiles() + " slices there were made from this "
                    + "input with these parameters; use " + names.overwrite());
        if (resume && s.runSignature() != null && !s.runSignature().equals(signature))
            throw new OutputMismatchException(uri + ": " + names.resume() + " refused: the output was made from "
                    + "another input or with other parameters (" + RunDifference.describe(s.signed(), signed)
                    + "); use " + names.overwrite() + " to replace it");
        if (resume && !overwrite && old != null && mine.zarrOrigin() >= 0 && old.zarrOrigin() >= 0
                && old.zarrOrigin() != mine.zarrOrigin() && s.sliceFiles() > 0)
            throw new OutputMismatchException(uri + ": " + names.resume() + " refused: the output's Zarr array begins at "
                    + "slice " + old.zarrOrigin() + " and this run's at slice " + mine.zarrOrigin() + "; resume with the "
                    + "first slice of the earlier run's range, or use " + names.overwrite());
        writer.checkWritable();
        try {
            FileSystem fs = fs();
            Path d = dir();
            if (overwrite && s.exists()) OutputOwnership.clear(fs, d, old);
            OutputRecord record = overwrite || old == null ? mine : old.merge(mine);
            // from here on the output is unfinished until finish() writes _SUCCESS again; the files derived from the
            // whole volume (manifest, report, preview, volume.raw) go too: a resumed run with another row range or
            // without job.output.raw must not leave an earlier run's versions beside its own
            if (!overwrite && old != null)
                for (String derived : DERIVED_AND_SUCCESS)
                    if (OutputOwnership.owns(old, derived)) fs.delete(new Path(d, derived), false);
            OutputFiles.mkdirs(fs, new Path(d, COMMITTED));
            Map<String, Object> run = new TreeMap<>(runInfo);
            run.put("signature", signature);
            run.put("signed", signed);
            run.put(OutputRecord.KEY, record.toMap());
            writer.writeBytes(COMMITTED + "/" + RUN, Json.write(run));
            if (files.dir() != null) OutputFiles.mkdirs(fs, new Path(d, files.dir()));
        } catch (IOException e) {
            throw new IllegalArgumentException(uri + ": output is not writable (" + e.getMessage() + ")", e);
        }
        return s;
    }

    /**
     * What a finished output of this run signature holds, for a {@code --resume} to decide before {@link #prepare}
     * whether it has anything to do: the output slices [first, end) its manifest lists (a gap-free range), whether its
     * volume file is as the run recorded it (volume.h5: length and SHA-256 in the report; true for other formats), the
     * optional files present (preview.png, volume.raw, convergence.png), and the slices' files ({@link SliceFiles} of
     * its Zarr array's first slice).
     */
    public record Finished(int first, int end, boolean volumeIntact, Set<String> present, SliceFiles files) {
        public boolean covers(int from, int to) {
            return from >= first && to <= end;
        }
    }

    /**
     * The finished output of this signature ({@code _SUCCESS}, the same signature in {@code _committed/_run.json} and in
     * the manifest, report.json present), or null when there is none or it cannot be read: then the run goes the
     * ordinary way, through {@link #prepare}. Reads only.
     */
    public Finished finished(String signature) {
        State s;
        try {
            s = state();
        } catch (RuntimeException e) {
            return null;
        }
        if (!s.complete() || !signature.equals(s.runSignature())) return null;
        try {
            FileSystem fs = fs();
            Path d = dir();
            if (!fs.exists(new Path(d, MANIFEST)) || !fs.exists(new Path(d, REPORT))) return null;
            Map<String, Object> m = Json.read(readAll(fs, new Path(d, MANIFEST)), uri + "/" + MANIFEST);
            if (!signature.equals(m.get("runSignature"))) return null;
            // the direct engine's manifest lists the slices at the top level, the Spark engine's under "output"
            Object slices = m.get("slices");
            if (slices == null && m.get("output") instanceof Map<?, ?> o) slices = o.get("slices");
            if (!(slices instanceof List<?> list) || list.isEmpty()) return null;
            BitSet rows = new BitSet();
            for (Object e : list) {
                if (!(e instanceof Map<?, ?> sl) || !(sl.get("row") instanceof Number n) || n.intValue() < 0) return null;
                if (rows.get(n.intValue())) return null;
                rows.set(n.intValue());
            }
            int first = rows.nextSetBit(0), end = rows.length();
            if (rows.cardinality() != end - first) return null;
            // HDF5 output: volume.h5 as the run recorded it; one missing or damaged is rebuilt from the slices
            boolean intact = files.format() != OutputFormat.HDF5
                    || m.get("report") instanceof Map<?, ?> r && Hdf5Volume.intact(fs, d, r.get(Hdf5Volume.REPORT_KEY));
            Set<String> present = new TreeSet<>();
            for (String f : List.of("preview.png", "volume.raw", "convergence.png"))
                if (fs.exists(new Path(d, f))) present.add(f);
            OutputRecord record = OutputOwnership.record(fs, d);
            int origin = record == null || record.legacy() ? 0 : Math.max(0, record.zarrOrigin());
            return new Finished(first, end, intact, present, files.withOrigin(files.format() == OutputFormat.ZARR ? origin : 0));
        } catch (IOException | RuntimeException e) {
            return null; // unreadable or malformed: not provably complete, so the run goes the ordinary way
        }
    }

    /** Files written once per run from the whole volume, after the slices, and the mark of a finished run. */
    private static final List<String> DERIVED_AND_SUCCESS = List.of(SUCCESS, MANIFEST, REPORT, "preview.png",
            "convergence.png", "volume.raw", Hdf5Volume.NAME, ZarrMetadata.ZARRAY, ZarrMetadata.ZATTRS);

    /**
     * Slices in [first, end) committed by earlier runs whose file still matches its marker (the file is re-read and
     * re-hashed); the rows a --resume run skips. Slices outside the range (an earlier run's wider --slices) are
     * neither hashed nor reused.
     */
    public Map<Integer, Committed> verifiedCommitted(int first, int end) {
        return verifiedCommitted(first, end, files);
    }

    /** As {@link #verifiedCommitted(int, int)}, the slices' files named by {@code files}. */
    public Map<Integer, Committed> verifiedCommitted(int first, int end, SliceFiles files) {
        Map<Integer, Committed> m = new TreeMap<>();
        try {
            FileSystem fs = fs();
            Path c = new Path(dir(), COMMITTED);
            if (!fs.exists(c)) return m;
            // a slice's current marker; one of format 1 counts only where the slice has none of format 2
            Map<Integer, Path> markers = new TreeMap<>();
            for (FileStatus s : fs.listStatus(c)) {
                Matcher mt = MARKER.matcher(s.getPath().getName());
                if (!mt.matches()) continue;
                int row = Integer.parseInt(mt.group(1));
                if (row < first || row >= end) continue;
                if (mt.group(2).equals("commit") || !markers.containsKey(row)) markers.put(row, s.getPath());
            }
            for (Map.Entry<Integer, Path> e : markers.entrySet()) {
                int row = e.getKey();
                String[] marker = markerFields(new String(readAll(fs, e.getValue()), StandardCharsets.US_ASCII));
                // a damaged marker is no proof of the slice: it is recomputed
                if (marker == null) continue;
                Path slice = new Path(dir(), files.name(row));
                byte[] b;
                try {
                    b = readAll(fs, slice);
                } catch (FileNotFoundException missing) {
                    continue;
                }
                if (b.length == Long.parseLong(marker[1]) && SliceChecksum.matches(marker[0], b))
                    m.put(row, new Committed(row, marker[0], b.length));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(uri + ": cannot read committed slices", e);
        }
        return m;
    }

    /**
     * A marker's checksum ({@link SliceChecksum}, normalized) and length: "2 crc32c:HEX LENGTH" (format 2) or
     * "HEX LENGTH" (format 1, SHA-256); null for anything else, or a later format this version cannot read.
     */
    static String[] markerFields(String text) {
        String[] parts = text.trim().split(" ");
        String sum, length;
        if (parts.length == 3 && parts[0].equals(Integer.toString(MARKER_VERSION))) {
            sum = parts[1];
            length = parts[2];
        } else if (parts.length == 2 && parts[0].matches("[0-9a-f]{64}")) {
            sum = parts[0];
            length = parts[1];
        } else {
            return null;
        }
        String normalized = SliceChecksum.normalize(sum);
        return normalized == null || !length.matches("\\d{1,18}") ? null : new String[]{normalized, length};
    }

    /**
     * Writes {@code _committed/_run.json} for a run that has no signature (a centre sweep): {@code info} and the
     * record of what it writes, before it writes anything else.
     */
    public void writeRecord(Map<String, Object> info, OutputRecord record) {
        try {
            OutputFiles.mkdirs(fs(), new Path(dir(), COMMITTED));
        } catch (IOException e) {
            throw new UncheckedIOException(uri + ": output is not writable (" + e.getMessage() + ")", e);
        }
        Map<String, Object> run = new TreeMap<>(info);
        run.put(OutputRecord.KEY, record.toMap());
        writer.writeBytes(COMMITTED + "/" + RUN, Json.write(run));
    }

    public void writeFile(String name, byte[] bytes) {
        writer.writeBytes(name, bytes);
    }

    /** Writes a file of the output atomically from a stream (for files larger than memory). */
    public void writeFile(String name, SliceWriter.StreamBody body) {
        writer.writeStream(name, body);
    }

    /** Last step: the manifest, then _SUCCESS, then the temporary directory goes. */
    public void finish(byte[] manifest) {
        writer.writeBytes(MANIFEST, manifest);
        writer.writeBytes(SUCCESS, new byte[0]);
        writer.cleanTemporary();
    }

    public byte[] read(String name) {
        try {
            return readAll(fs(), new Path(dir(), name));
        } catch (IOException e) {
            throw new UncheckedIOException(uri + ": cannot read " + name, e);
        }
    }

    private FileSystem fs() throws IOException {
        return dir().getFileSystem(conf);
    }

    static byte[] readAll(FileSystem fs, Path p) throws IOException {
        try (FSDataInputStream in = fs.open(p)) {
            return in.readAllBytes();
        }
    }
}
