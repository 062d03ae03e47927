package org.tomospark.job.run;

import org.apache.hadoop.conf.Configuration;
import org.tomospark.job.JobKeys;
import org.tomospark.job.inputs.InputIdentity;
import org.tomospark.job.inputs.InputOptions;
import org.tomospark.job.fs.Json;
import org.tomospark.job.outputs.OutputCommit;
import org.tomospark.job.outputs.SliceFiles;
import org.tomospark.job.outputs.OutputLock;
import org.tomospark.job.outputs.RawVolume;
import org.tomospark.job.outputs.OutputMismatchException;
import org.tomospark.job.outputs.OutputOwnership;
import org.tomospark.job.outputs.OutputRecord;
import org.tomospark.job.outputs.Hdf5Volume;
import org.tomospark.job.outputs.ZarrMetadata;
import org.tomospark.executor.outputs.OutputFormat;
import org.tomospark.executor.params.ReconstructionParams;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The output of one run, handled the same way by both engines from the claim up to the slices: the claim
 * ({@link OutputLock}), the answer to a {@code --resume} that has nothing to do, and the preparation (overwrite/resume
 * policy, run signature). The engine then commits its slices through {@link #commit()}, and {@link RunFinisher} writes
 * the files derived from them, the report, the manifest and {@code _SUCCESS}. Closing it removes the temporary files of
 * a prepared run and gives up the claim.
 */
public final class RunOutput implements AutoCloseable {
    /**
     * What a run writes and how its input is identified.
     *
     * @param request      the request with its parameters resolved (centre auto found)
     * @param engine       direct or spark (in the report and the manifest)
     * @param inputOptions how the input is read (the manifest records it)
     * @param format       the input's resolved format (hdf5, tiff, raw)
     * @param first        first output slice index (detector row, or row bin)
     * @param end          last output slice index + 1
     * @param rawVolume    whether volume.raw is written (job.output.raw)
     */
    public record Plan(JobRequest request, String engine, InputOptions inputOptions, String format, int first, int end,
                       boolean rawVolume) {
        public int slices() {
            return end - first;
        }
    }

    /** A --resume of an output that already holds exactly this run: the line to print and the report found there. */
    public record NothingToDo(String message, Map<String, Object> report) {
    }

    private final Plan plan;
    private final OutputCommit out;
    private final OutputLock lock;
    private final Map<String, Object> identity;
    private final Map<String, Object> signed;
    private final String signature;
    private boolean prepared;

    private RunOutput(Plan plan, OutputCommit out, OutputLock lock, Map<String, Object> identity) {
        this.plan = plan;
        this.out = out;
        this.lock = lock;
        this.identity = identity;
        this.signed = OutputCommit.signed(identity, plan.request().params());
        this.signature = OutputCommit.signature(identity, plan.request().params());
    }

    /**
     * Claims the output for the run; {@code claimant} says who holds it (shown to a second run that is refused). The
     * claim of a dead run is taken over after {@code job.output.lockTimeout}.
     */
    public static RunOutput claim(Plan plan, String claimant, Configuration conf) {
        JobRequest req = plan.request();
        Map<String, Object> identity = InputIdentity.of(req.input(), plan.format(), plan.inputOptions(), conf);
        // the one rule, before the claim creates anything: no input inside the output, no output inside another
        OutputOwnership.checkInputsOutside(InputIdentity.files(req.input(), plan.format(), plan.inputOptions(), conf),
                req.input(), req.output(), conf);
        OutputOwnership.checkNotInsideAnother(req.output(), conf);
        OutputCommit out = new OutputCommit(req.output(), conf, SliceFiles.of(req.params().output(), plan.first()));
        Duration staleAfter = Duration.ofSeconds(req.settings().get(JobKeys.LOCK_TIMEOUT));
        OutputLock lock = out.claim(staleAfter, claimant + ", " + req.input());
        return new RunOutput(plan, out, lock, identity);
    }

    public Plan plan() {
        return plan;
    }

    /** Where slices are committed. */
    public OutputCommit commit() {
        return out;
    }

    /** The claim: checked before each commit and before the files that end a run. */
    public OutputLock lock() {
        return lock;
    }

    public String signature() {
        return signature;
    }

    /** The input's identity (files, lengths, modification times). */
    public Map<String, Object> identity() {
        return identity;
    }

    /**
     * For {@code --resume} (without {@code --overwrite}) of a finished output of this run signature: null when this run
     * has work to do, or the answer that it has none, the output left untouched. A finished output is never shrunk or
     * rewritten: a request for slices it holds, each still matching its checksum, with its volume file intact, has
     * nothing to do (an optional file this run would not write, such as preview.png, is left where it is); a request
     * for the same slices with one damaged or missing, or a file this run writes missing, repairs it through
     * {@link #prepare}; any other request (slices outside it, or some of its slices while it is damaged) is refused,
     * with the reason.
     */
    public NothingToDo nothingToDo() {
        JobRequest req = plan.request();
        if (!req.resume() || req.overwrite()) return null;
        OutputCommit.Finished f = out.finished(signature);
        if (f == null) return null;
        boolean same = f.first() == plan.first() && f.end() == plan.end();
        String resume = req.names().resume();
        if (!f.covers(plan.first(), plan.end()))
            throw new OutputMismatchException(req.output() + ": " + resume + " refused: the output holds a finished "
                    + "reconstruction of " + rows(f.first(), f.end()) + ", and a finished output is not changed, so "
                    + rows(plan.first(), plan.end()) + " cannot be added to it; use " + req.names().overwrite()
                    + " to replace it, or choose another output");
        Map<Integer, OutputCommit.Committed> done = out.verifiedCommitted(plan.first(), plan.end(), f.files());
        boolean slicesOk = done.size() == plan.slices();
        Set<String> wanted = new HashSet<>();
        if (req.preview()) wanted.add(RunFinisher.PREVIEW);
        if (plan.rawVolume()) wanted.add(RawVolume.NAME);
        boolean filesOk = f.volumeIntact() && (!same || f.present().containsAll(wanted));
        if (!slicesOk || !filesOk) {
            if (same) return null; // repaired by the ordinary resume: the same slices, the same bytes
            throw new OutputMismatchException(req.output() + ": " + resume + " refused: the finished reconstruction of "
                    + rows(f.first(), f.end()) + " there is damaged (" + (slicesOk ? "its volume file does not match its "
                    + "record" : (plan.slices() - done.size()) + " of the slices asked for do not match their checksums")
                    + "); repair it over its whole range, " + rows(f.first(), f.end()) + ", with " + resume);
        }
        Map<String, Object> report = Json.read(out.read(OutputCommit.REPORT), req.output() + "/" + OutputCommit.REPORT);
        String message = same ? nothingToDoMessage(done.size())
                : "Nothing to do: " + req.output() + " already holds a finished reconstruction of " + rows(f.first(), f.end())
                + ", which includes the " + rows(plan.first(), plan.end()) + " asked for (" + done.size() + " slices verified "
                + "against their checksums, same run signature); the output was left untouched";
        return new NothingToDo(message, report);
    }

    private String nothingToDoMessage(int slices) {
        return "Nothing to do: " + plan.request().output() + " already holds this reconstruction of " + rows(plan.first(), plan.end())
                + " (" + slices + " slices verified against their checksums, same run signature); the output was left untouched";
    }

    /** Output slices [first, end) as the detector rows they are ("rows 0..15", or the volume's slices in cone beam). */
    private String rows(int first, int end) {
        ReconstructionParams p = plan.request().params();
        if (p.coneBeam() != null) return "slices " + first + ".." + (end - 1);
        int rowBin = p.workflow().binRows();
        return "rows " + first * rowBin + ".." + (end * rowBin - 1);
    }

    /**
     * Applies the overwrite/resume policy and records the run signature ({@link OutputCommit#prepare}); returns the slices
     * of [first, end) kept from an earlier run, each verified against its checksum (none without {@code --resume}).
     */
    public Map<Integer, OutputCommit.Committed> prepare() {
        JobRequest req = plan.request();
        Map<String, Object> runInfo = new TreeMap<>();
        runInfo.put("input", identity);
        runInfo.put("params", Json.describe(req.params().recorded()));
        out.prepare(req.overwrite(), req.resume(), req.names(), signed, runInfo, record());
        prepared = true;
        return req.resume() ? out.verifiedCommitted(plan.first(), plan.end()) : Map.of();
    }

    /** What this run may write besides its slices, recorded before it writes ({@link OutputRecord}). */
    private OutputRecord record() {
        JobRequest req = plan.request();
        ReconstructionParams p = req.params();
        Set<String> files = new TreeSet<>(List.of(OutputCommit.MANIFEST, OutputCommit.REPORT, OutputCommit.SUCCESS));
        if (req.preview()) files.add(RunFinisher.PREVIEW);
        if (req.preview() && p.algorithm().iterative().iterative()) files.add(RunFinisher.CONVERGENCE);
        if (plan.rawVolume()) files.add(RawVolume.NAME);
        if (p.output().format() == OutputFormat.HDF5) files.add(Hdf5Volume.NAME);
        if (p.output().format() == OutputFormat.ZARR) files.addAll(List.of(ZarrMetadata.ZARRAY, ZarrMetadata.ZATTRS));
        return OutputRecord.reconstruction(plan.first(), plan.end(), p.output().format(), files);
    }

    /**
     * Removes the temporary files of a prepared run (a failed run keeps its whole, checksummed slices) and gives up the
     * claim.
     */
    @Override
    public void close() {
        try {
            if (prepared) out.writer().cleanTemporary();
        } finally {
            lock.close();
        }
    }
}
