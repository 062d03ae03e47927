package org.tomospark.job.spark;

import org.apache.spark.SparkContext;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.conveyor.VolumeReconstructor;
import org.tomospark.executor.iterative.Convergence;
import org.tomospark.executor.preprocess.PreprocessStats;
import org.tomospark.job.fs.Json;
import org.tomospark.job.run.RunFinisher;
import org.tomospark.job.run.RunReport;

import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a Spark run adds to the common report and summary ({@link RunReport}): the Spark application, the groups and
 * the memory plan, the retried tasks, every backend used and the executors that ran the groups. Also the run as a
 * {@link VolumeReconstructor.Summary} from the tasks' outcomes, so that the common report reads it as the direct
 * engine's.
 */
final class SparkReport implements RunFinisher.EngineReport {
    private final SparkContext sc;
    private final ScanMetadata meta;
    private final ReconstructionParams params;
    private final MemoryPlanner.Plan memory;
    private final int plannedGroups, groupRowsRaw;
    private final List<GroupOutcome> outcomes;
    private final boolean local;
    private final List<String> devices;
    private final Job job;

    /**
     * The Spark job of the run: when it was submitted and returned (epoch milliseconds), its elapsed nanoseconds, and how
     * its first task got going.
     */
    record Job(long startMillis, long endMillis, long nanos, RunTasks.Launch launch) {
    }

    SparkReport(SparkContext sc, ScanMetadata meta, ReconstructionParams params, MemoryPlanner.Plan memory, int plannedGroups,
                int groupRowsRaw, List<GroupOutcome> outcomes, boolean local, List<String> devices, Job job) {
        this.sc = sc;
        this.meta = meta;
        this.params = params;
        this.memory = memory;
        this.plannedGroups = plannedGroups;
        this.groupRowsRaw = groupRowsRaw;
        this.outcomes = outcomes;
        this.local = local;
        this.devices = devices;
        this.job = job;
    }

    /**
     * The run as the core's summary. Stage times are summed over the tasks (they overlap); the elapsed time is the Spark
     * job's, so GU/s is the cluster's throughput. The backend is the one most groups ran on (all of them are listed under
     * "backends").
     */
    VolumeReconstructor.Summary summary(ScanGeometry effective, SliceGeometry slice, int total, int skipped, long runNs,
                                        Map<String, Object> workflow) {
        PreprocessStats ps = PreprocessStats.ZERO;
        // the groups' residuals in group order, so that the sums are the same however the tasks finished
        Convergence convergence = Convergence.none();
        for (GroupOutcome o : outcomes.stream().sorted(Comparator.comparingInt(GroupOutcome::group)).toList())
            convergence = convergence.plus(o.convergence());
        long read = 0, pre = 0, filt = 0, bp = 0, updates = 0;
        Map<List<String>, Long> used = new HashMap<>();
        for (GroupOutcome o : outcomes) {
            ps = ps.plus(o.preprocess());
            read += o.readNanos();
            pre += o.preprocessNanos();
            filt += o.filterNanos();
            bp += o.backprojectNanos();
            updates += o.updates();
            used.merge(List.of(o.backend(), o.device(), o.variant()), 1L, Long::sum);
        }
        List<String> be = used.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElse(List.of("none", "none (every slice reused)", "none"));
        return new VolumeReconstructor.Summary(effective, slice, total, skipped, updates, runNs, read, pre, filt, bp, ps,
                be.get(0), be.get(1), be.get(2), workflow, convergence);
    }

    @Override
    public void addTo(Map<String, Object> m) {
        m.put("spark", Map.of("version", sc.version(), "master", sc.master(), "applicationId", sc.applicationId(),
                "localMode", local, "localDevices", devices));
        m.put("scan", meta.toString());
        m.put("params", Json.describe(params.recorded()));
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("rowsPerGroup", memory.groupRows());
        g.put("planned", plannedGroups);
        g.put("run", outcomes.size());
        g.put("hostMiBPerTask", memory.hostBytesPerTask() / 1048576.0);
        g.put("hostBudgetMiBPerTask", memory.hostBudgetPerTask() / 1048576.0);
        g.put("retriedTasks", outcomes.stream().filter(o -> o.attempt() > 0).count());
        // the tasks' timeline: from the job's start to the first task's, from the first start to the last end, from the
        // last end to the job's return (the executors' clocks against the driver's), and each group's own time
        if (!outcomes.isEmpty()) {
            long first = outcomes.stream().mapToLong(GroupOutcome::startMillis).min().getAsLong();
            long last = outcomes.stream().mapToLong(GroupOutcome::endMillis).max().getAsLong();
            double[] each = outcomes.stream().mapToDouble(o -> (o.endMillis() - o.startMillis()) / 1e3).sorted().toArray();
            g.put("toFirstTaskSeconds", (first - job.startMillis()) / 1e3);
            g.put("taskSpanSeconds", (last - first) / 1e3);
            g.put("afterLastTaskSeconds", (job.endMillis() - last) / 1e3);
            // a place on the conveyor, then a device and a set-up processor: the first group on each device sets one up
            g.put("queueSecondsMax", outcomes.stream().mapToLong(GroupOutcome::queueNanos).max().getAsLong() / 1e9);
            g.put("setupSecondsMax", outcomes.stream().mapToLong(GroupOutcome::setupNanos).max().getAsLong() / 1e9);
            g.put("setupSecondsMedian", outcomes.stream().mapToLong(GroupOutcome::setupNanos).sorted()
                    .toArray()[outcomes.size() / 2] / 1e9);
            // the time to the first task, taken apart: the scheduler's launch of the first task after the job's submission
            // (the driver's clock), an executor's deserialization of a task, and a task's fetch of the broadcast plan
            if (job.launch().known())
                g.put("firstLaunchSeconds", (job.launch().firstLaunchMillis() - job.launch().jobSubmitMillis()) / 1e3);
            g.put("taskDeserializeSecondsMax", job.launch().deserializeMillisMax() / 1e3);
            g.put("planFetchSecondsMax", outcomes.stream().mapToLong(GroupOutcome::planNanos).max().getAsLong() / 1e9);
            g.put("taskSecondsMedian", each[each.length / 2]);
            g.put("taskSecondsMax", each[each.length - 1]);
            // how much of the tasks' span each GPU had a group on it (its processors' work: host copies, kernels), the
            // groups of tasks that share a GPU counted once where they overlap
            double busy = DeviceBusy.fraction(outcomes, first, last);
            if (busy >= 0) g.put("gpuBusyFraction", busy);
        }
        // which group needed another attempt, and where that attempt ran
        g.put("retried", outcomes.stream().filter(o -> o.attempt() > 0)
                .map(o -> Map.of("group", o.group(), "attempt", o.attempt(), "executor", o.executor())).toList());
        m.put("groups", g);
        Map<String, Long> backends = new TreeMap<>();
        Map<String, Long> executors = new TreeMap<>();
        Map<String, Long> writers = new TreeMap<>();
        for (GroupOutcome o : outcomes) {
            backends.merge(o.backend() + " on " + o.device() + " (" + o.variant() + ")", 1L, Long::sum);
            executors.merge(o.executor(), 1L, Long::sum);
            if (o.writers() != null) writers.merge(o.writers(), 1L, Long::sum);
        }
        // the groups each executor's writers committed: one set per executor, shared by its tasks
        m.put("writers", writers);
        m.put("backends", backends);
        long kernels = outcomes.stream().map(o -> o.backend() + " " + o.variant()).distinct().count();
        if (kernels > 1) {
            // e.g. executors with different GPUs, or one without: the slices are right, but not all from the same kernel
            @SuppressWarnings("unchecked") List<String> warnings = (List<String>) m.get("warnings");
            warnings.add("the slices were computed by " + kernels + " different backends or kernels (see \"backends\"; "
                    + "the manifest names each slice's): their values may differ in the last bits");
        }
        m.put("executors", executors);
        m.put("groupRowsRaw", groupRowsRaw);
    }

    /** The Spark lines after the common summary: wall time, groups, executors, every backend. */
    @Override
    @SuppressWarnings("unchecked")
    public String summaryLines(Map<String, Object> r) {
        Map<String, Object> t = (Map<String, Object>) r.get("timings");
        Map<String, Object> g = (Map<String, Object>) r.get("groups");
        return String.format(Locale.ROOT,
                "  spark: wall %.2f s (job %.2f s); %s groups of %s rows run on executors %s; %s retried%n",
                (Double) t.get("wallSeconds"), (Double) t.get("jobSeconds"), g.get("run"), g.get("rowsPerGroup"),
                ((Map<?, ?>) r.get("executors")).keySet(), g.get("retriedTasks"))
                + (g.containsKey("taskSpanSeconds") ? String.format(Locale.ROOT,
                "  timeline: %.2f s to the first task%s, tasks %.2f s (median %.2f, slowest %.2f), %.2f s after the last; "
                        + "set-up of a processor up to %.2f s%n", (Double) g.get("toFirstTaskSeconds"), firstTask(g),
                (Double) g.get("taskSpanSeconds"), (Double) g.get("taskSecondsMedian"), (Double) g.get("taskSecondsMax"),
                (Double) g.get("afterLastTaskSeconds"), (Double) g.get("setupSecondsMax")) : "")
                + "  backends: " + r.get("backends") + "\n";
    }

    /** The first task's delay taken apart, where the listener bus told its launch. */
    private static String firstTask(Map<String, Object> g) {
        if (!(g.get("firstLaunchSeconds") instanceof Double launch)) return "";
        return String.format(Locale.ROOT, " (launched at %.2f s; deserialized in up to %.2f s; plan fetched in up to %.2f s)", launch,
                (Double) g.get("taskDeserializeSecondsMax"), (Double) g.get("planFetchSecondsMax"));
    }
}
