package org.tomospark.job.run;

import org.apache.hadoop.conf.Configuration;
import org.tomospark.job.JobKeys;
import org.tomospark.job.io.InputIdentity;
import org.tomospark.job.io.InputOptions;
import org.tomospark.job.io.Json;
import org.tomospark.job.io.OutputCommit;
import org.tomospark.job.io.SliceFiles;
import org.tomospark.job.io.OutputLock;
import org.tomospark.job.io.RawVolume;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

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
        OutputCommit out = new OutputCommit(req.output(), conf, SliceFiles.of(req.params()));
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
     * For {@code --resume} (without {@code --overwrite}): the output already holds exactly this run (same signature and
     * rows, every slice verified, the derived files this run would write), so the run has nothing to do and leaves the
     * output untouched. Null when there is work to do.
     */
    public NothingToDo nothingToDo() {
        JobRequest req = plan.request();
        if (!req.resume() || req.overwrite()) return null;
        Set<String> derived = new HashSet<>();
        if (req.preview()) derived.add(RunFinisher.PREVIEW);
        if (plan.rawVolume()) derived.add(RawVolume.NAME);
        Map<Integer, OutputCommit.Committed> done = out.upToDate(signature, plan.first(), plan.end(), derived);
        if (done == null) return null;
        Map<String, Object> report = Json.read(out.read(OutputCommit.REPORT), req.output() + "/" + OutputCommit.REPORT);
        return new NothingToDo(nothingToDoMessage(done.size()), report);
    }

    private String nothingToDoMessage(int slices) {
        int rowBin = plan.request().params().workflow().binRows();
        return "Nothing to do: " + plan.request().output() + " already holds this reconstruction of rows " + plan.first() * rowBin
                + ".." + (plan.end() * rowBin - 1) + " (" + slices + " slices verified against their checksums, same run "
                + "signature); the output was left untouched";
    }

    /**
     * Applies the overwrite/resume policy and records the run signature ({@link OutputCommit#prepare}); returns the slices
     * of [first, end) kept from an earlier run, each verified against its checksum (none without {@code --resume}).
     */
    public Map<Integer, OutputCommit.Committed> prepare() {
        JobRequest req = plan.request();
        Map<String, Object> runInfo = new TreeMap<>();
        runInfo.put("input", identity);
        runInfo.put("params", Json.describe(req.params()));
        out.prepare(req.overwrite(), req.resume(), req.names(), signed, runInfo);
        prepared = true;
        return req.resume() ? out.verifiedCommitted(plan.first(), plan.end()) : Map.of();
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
