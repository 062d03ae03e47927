package org.tomospark.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.tomospark.job.cli.TomoCli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The real-path benchmark: a scan file to committed slices through the product's own command line, one fresh JVM per
 * engine (so the wall time includes the JVM's start), with the disk floor measured in the same run by the OS alone.
 *
 * <pre>
 * RealPathBench --scan FILE [--make ANGLES,ROWS,COLUMNS[,LAYOUT]] --out DIR [--engines direct,spark] [--backend cuda]
 *               [--formats tiff,zarr,hdf5] [--center C] [--slices A:B] [--conf KEY=VALUE]... [--runs N] [--results FILE]
 *               [--keep] [--no-cds] [--jfr DIR]
 * </pre>
 *
 * <p>Each engine runs once per output format ({@code output.format}; the output type goes in a {@code --conf
 * output.type=...}), so the write+commit column compares the formats' write throughput on one machine.
 *
 * <p>For each engine it prints the CLI's wall time and job time, and the throughput of each stage from report.json:
 * read GB/s, preprocess Mpix/s, back-projection GU/s, write and commit GB/s (each over the time that stage was busy;
 * stages overlap, so their times add up to more than the job). The floor: the scan's bytes read back with the OS
 * ({@link DiskFloor}), and the output's bytes written and fdatasync'ed; GU/s = slices × width × height × projections / s.
 * {@code --make} writes a missing scan with benchmarks/make_scan.py (python3 with h5py): contiguous, or with LAYOUT
 * gzip,
 * bitshuffle-lz4 or blosc-zstd one projection per chunk (python3-hdf5plugin), so that read GB/s includes decoding.
 *
 * <p>As submit/tomospark does, the CLI's JVMs map a class-data archive of the classes a run loads: a first, untimed run
 * of each engine on the scan's first rows writes it ({@code -XX:ArchiveClassesAtExit}; on a runtime without a base
 * archive, such as the GPU bundle's jlink image, the run lists the classes it loads and the archive is dumped
 * statically from that list); {@code --no-cds} leaves it out. A second table splits each run's wall time around its
 * job: the JVM's uptime when the engine started (start,
 * class loading, the command line, the Spark context), the engine's time outside the job (the input opened, the flats
 * read, the checks, the output's claim, the last writes), the finish (preview, metadata) and the rest (the report,
 * the manifest, the JVM's exit). {@code --jfr DIR}: each timed run's Java Flight Recording (profile settings) into
 * DIR/ENGINE-FORMAT-RUN.jfr.
 */
public final class RealPathBench {
    private RealPathBench() {
    }

    record Options(Path scan, String make, Path out, List<String> engines, List<String> formats, String backend,
                   String center, String slices, List<String> conf, int runs, Path results, boolean keep, boolean cds,
                   Path jfr) {
    }

    /** One engine's run, from its report and the files it wrote. */
    record Run(String engine, int exitCode, double wallSeconds, double jobSeconds, long slices, long outputBytes, long inputBytes,
               long pixels, long updates, Map<String, Object> timings, String backend, Exit exit) {
        double timing(String key) {
            return timings.get(key) instanceof Number n ? n.doubleValue() : Double.NaN;
        }

        double stageRate(String key, double amount) {
            Object v = timings.get(key);
            double s = v instanceof Number n ? n.doubleValue() : 0;
            return s > 0 ? amount / s : Double.NaN;
        }
    }

    /**
     * The end of a run, from three clocks: the last file the CLI wrote (its report, manifest or marker), the JVM's exit
     * after its shutdown hooks (its heap summary, logged at exit), and the process's end as this JVM saw it.
     *
     * @param lastFileToVmExit seconds from the last file written to the JVM's exit (the CLI's return, the shutdown hooks)
     * @param vmExitToEnd      seconds from the JVM's exit to the process's end (native exit handlers such as the CUDA
     *                         driver's, and the kernel unmapping the process's memory)
     */
    record Exit(double lastFileToVmExit, double vmExitToEnd) {
        static final Exit UNKNOWN = new Exit(Double.NaN, Double.NaN);
    }

    public static void main(String[] args) throws Exception {
        Options o = parse(args);
        Files.createDirectories(o.out());
        if (!Files.exists(o.scan())) {
            if (o.make() == null) throw new IllegalArgumentException(o.scan() + ": no such scan (give --make ANGLES,ROWS,COLUMNS)");
            makeScan(o.scan(), o.make());
        }
        List<Run> runs = new ArrayList<>();
        if (o.cds()) {
            boolean dynamic = baseArchiveLoads();
            for (String engine : o.engines()) writeClassArchive(o, engine, dynamic);
        }
        for (int r = 0; r < o.runs(); r++)
            for (String engine : o.engines())
                for (String format : o.formats()) runs.add(runEngine(o, engine, format, r));
        Run last = runs.get(runs.size() - 1);
        DiskFloor.Result floor = DiskFloor.measure(o.scan(), last.inputBytes(), o.out().resolve("floor.bin"), last.outputBytes());
        String table = table(o, runs, floor);
        System.out.print(table);
        if (o.results() != null) Files.writeString(o.results(), table);
    }

    static Options parse(String[] args) {
        Path scan = null, out = null, results = null, jfr = null;
        String make = null, backend = "auto", center = null, slices = null;
        List<String> engines = List.of("direct", "spark"), formats = List.of("tiff"), conf = new ArrayList<>();
        int runs = 1;
        boolean keep = false, cds = true;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--scan" -> scan = Path.of(args[++i]);
                case "--make" -> make = args[++i];
                case "--out" -> out = Path.of(args[++i]);
                case "--engines" -> engines = List.of(args[++i].split(","));
                case "--formats" -> formats = List.of(args[++i].split(","));
                case "--backend" -> backend = args[++i];
                case "--center" -> center = args[++i];
                case "--slices" -> slices = args[++i];
                case "--conf" -> conf.add(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--results" -> results = Path.of(args[++i]);
                case "--keep" -> keep = true;
                case "--no-cds" -> cds = false;
                case "--jfr" -> jfr = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + a + " (see RealPathBench's javadoc)");
            }
        }
        if (scan == null || out == null) throw new IllegalArgumentException("--scan and --out are required");
        return new Options(scan, make, out, engines, formats, backend, center, slices, conf, runs, results, keep, cds, jfr);
    }

    static void makeScan(Path scan, String shape) throws IOException, InterruptedException {
        String[] d = shape.split(",");
        boolean cone = d[d.length - 1].equals("cone");
        int n = cone ? d.length - 1 : d.length;
        if (n != 3 && n != 4)
            throw new IllegalArgumentException("--make expects ANGLES,ROWS,COLUMNS[,LAYOUT][,cone], got " + shape);
        Path script = locate("benchmarks/make_scan.py");
        String layout = n == 4 ? d[3] : "contiguous";
        List<String> cmd = new ArrayList<>(List.of("python3", script.toString(), scan.toString(), d[0], d[1], d[2], layout));
        if (cone) cmd.add("cone");
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        if (p.waitFor() != 0) throw new IllegalStateException("make_scan.py failed (exit " + p.exitValue() + ")");
    }

    private static Path locate(String rel) {
        for (Path base = Path.of("").toAbsolutePath(); base != null; base = base.getParent())
            if (Files.exists(base.resolve(rel))) return base.resolve(rel);
        throw new IllegalStateException(rel + " not found above " + Path.of("").toAbsolutePath());
    }

    private static Path classArchive(Options o, String engine) {
        return o.out().resolve("classes-" + engine + ".jsa").toAbsolutePath();
    }

    /**
     * Whether this Java runtime maps a base class-data archive of its own, on which a run's archive can be written at its
     * exit (a jlink image has none: the archive is then dumped statically from a class list, as submit/cds.sh does).
     */
    static boolean baseArchiveLoads() throws IOException, InterruptedException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xshare:on", "-version")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return p.waitFor() == 0;
    }

    /**
     * The engine's class-data archive, from an untimed run of the engine on the scan's first rows: written at that run's
     * exit on top of the runtime's base archive ({@code dynamic}), or, on a runtime without one, dumped statically from
     * the classes that run loaded (the JDK's and the application's in one archive).
     */
    static void writeClassArchive(Options o, String engine, boolean dynamic) throws IOException, InterruptedException {
        Path jsa = classArchive(o, engine), dest = o.out().resolve("cds-" + engine);
        Path list = o.out().resolve("classes-" + engine + ".lst").toAbsolutePath();
        Path logFile = o.out().resolve("cds-" + engine + ".log");
        Files.deleteIfExists(jsa);
        deleteTree(dest);
        List<String> flags = dynamic ? List.of("-XX:ArchiveClassesAtExit=" + jsa, "-Xlog:cds=off", "-Xlog:cds+dynamic=off")
                : List.of("-Xshare:off", "-XX:DumpLoadedClassList=" + list);
        int exit = run(command(o, engine, o.formats().get(0), dest, flags, "0:8"), logFile);
        if (exit == 0 && !dynamic) {
            List<String> dump = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            dump.addAll(jvmFlags());
            dump.addAll(List.of("-Xshare:dump", "-XX:SharedClassListFile=" + list, "-XX:SharedArchiveFile=" + jsa,
                    "-cp", System.getProperty("java.class.path")));
            exit = run(dump, o.out().resolve("cds-" + engine + "-dump.log"));
            if (exit != 0) logFile = o.out().resolve("cds-" + engine + "-dump.log");
        }
        if (exit != 0 || !Files.exists(jsa)) {
            List<String> log = Files.readAllLines(logFile);
            System.err.println(engine + ": no class-data archive (exit " + exit + "); its runs go without. The log ends: "
                    + String.join(" | ", log.subList(Math.max(0, log.size() - 3), log.size())));
            Files.deleteIfExists(jsa);
        } else {
            System.err.println(engine + ": class-data archive " + (dynamic ? "written at exit" : "dumped from the class list")
                    + " (" + Files.size(jsa) / (1 << 20) + " MiB)");
        }
        deleteTree(dest);
    }

    private static int run(List<String> cmd, Path log) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(1, TimeUnit.HOURS)) p.destroyForcibly();
        return p.waitFor();
    }

    /** This JVM's flags, for the CLI's JVMs (less agents and recordings). */
    private static List<String> jvmFlags() {
        List<String> flags = new ArrayList<>();
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments())
            if (!a.startsWith("-agentlib") && !a.startsWith("-javaagent") && !a.startsWith("-XX:StartFlightRecording")) flags.add(a);
        return flags;
    }

    /** The CLI's command line in a fresh JVM: this JVM's flags and classpath, {@code jvm} flags, and the run's options. */
    private static List<String> command(Options o, String engine, String format, Path dest, List<String> jvm, String slices) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmFlags());
        cmd.addAll(jvm);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), TomoCli.class.getName(), "reconstruct", "--engine", engine,
                "--input", o.scan().toString(), "--output", dest.toString(), "--backend", o.backend(), "--conf", "job.progress=false"));
        cmd.addAll(List.of("--output-format", format));
        if (o.center() != null) cmd.addAll(List.of("--center", o.center()));
        if (slices != null) cmd.addAll(List.of("--slices", slices));
        for (String c : o.conf()) cmd.addAll(List.of("--conf", c));
        return cmd;
    }

    /** Runs the CLI in a fresh JVM (this JVM's flags and classpath) into out/ENGINE-FORMAT, and reads its report. */
    static Run runEngine(Options o, String engine, String format, int run) throws IOException, InterruptedException {
        String label = engine + "-" + format;
        Path dest = o.out().resolve(label);
        deleteTree(dest);
        Path jsa = classArchive(o, engine);
        List<String> jvm = new ArrayList<>();
        if (o.cds() && Files.exists(jsa)) jvm.addAll(List.of("-XX:SharedArchiveFile=" + jsa, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
        if (o.jfr() != null) {
            Files.createDirectories(o.jfr());
            Path rec = o.jfr().resolve(label + "-" + run + ".jfr").toAbsolutePath();
            jvm.add("-XX:StartFlightRecording=filename=" + rec + ",settings=profile");
        }
        Path vmExitLog = o.out().resolve(label + "-vmexit.log");
        Files.deleteIfExists(vmExitLog);
        jvm.add("-Xlog:gc+heap+exit=info:file=" + vmExitLog + ":timemillis");
        List<String> cmd = command(o, engine, format, dest, jvm, o.slices());
        Path log = o.out().resolve(label + ".log");
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(3, TimeUnit.HOURS)) p.destroyForcibly();
        long endMillis = System.currentTimeMillis();
        double wall = (System.nanoTime() - t0) / 1e9;
        if (p.exitValue() != 0) {
            System.err.println(label + ": exit " + p.exitValue() + "; log:\n" + Files.readString(log));
            return new Run(label, p.exitValue(), wall, Double.NaN, 0, 0, 0, 0, 0, Map.of(), "?", Exit.UNKNOWN);
        }
        Map<String, Object> report = readJson(dest.resolve("report.json"));
        @SuppressWarnings("unchecked") Map<String, Object> t = (Map<String, Object>) report.get("timings");
        @SuppressWarnings("unchecked") Map<String, Object> sl = (Map<String, Object>) report.get("slices");
        @SuppressWarnings("unchecked") Map<String, Object> geo = (Map<String, Object>) report.get("geometry");
        @SuppressWarnings("unchecked") Map<String, Object> slice = (Map<String, Object>) geo.get("slice");
        @SuppressWarnings("unchecked") Map<String, Object> be = (Map<String, Object>) report.get("backend");
        long slices = ((Number) sl.get("computed")).longValue();
        long projections = ((Number) geo.get("projections")).longValue(), width = ((Number) geo.get("detectorWidth")).longValue();
        long outBytes = outputBytes(dest);
        if (report.get("volumeFile") instanceof Map<?, ?> vf && vf.get("assembleSeconds") instanceof Number sec)
            System.out.printf(Locale.ROOT, "%s: volume.h5 of %.2f GB assembled by the driver in %.2f s (%.2f GB/s)%n", label,
                    ((Number) vf.get("bytes")).doubleValue() / 1e9, sec.doubleValue(),
                    ((Number) vf.get("bytes")).doubleValue() / 1e9 / sec.doubleValue());
        // the job read every projection's band of its rows: 2 bytes a sample for uint16 input; a cone-beam run's slabs read
        // the bands of detector rows their voxels project to
        long rowsRead = slices;
        if (((Map<?, ?>) report.get("workflow")).get("coneBeam") instanceof Map<?, ?> cone)
            rowsRead = ((Number) cone.get("detectorRowsReadPerProjection")).longValue();
        long inBytes = rowsRead * projections * width * sampleBytes(report);
        long pixels = rowsRead * projections * width;
        long updates = ((Number) t.get("voxelUpdates")).longValue();
        double job = ((Number) t.getOrDefault("jobSeconds", t.get("totalSeconds"))).doubleValue();
        Run r = new Run(label, 0, wall, job, slices, outBytes, inBytes, pixels, updates, t,
                be.get("id") + " " + be.get("variant") + " (" + slice.get("width") + "x" + slice.get("height") + ")",
                exit(dest, vmExitLog, endMillis));
        if (!o.keep()) deleteTree(dest);
        return r;
    }

    /** The run's end from its files' times, the JVM's exit log and {@code endMillis} (this JVM's clock at the process's end). */
    static Exit exit(Path dest, Path vmExitLog, long endMillis) throws IOException {
        long lastFile = 0;
        try (Stream<Path> w = Files.walk(dest)) {
            for (Path f : w.filter(Files::isRegularFile).toList()) lastFile = Math.max(lastFile, Files.getLastModifiedTime(f).toMillis());
        }
        long vmExit = -1;
        if (Files.exists(vmExitLog)) {
            Matcher m = Pattern.compile("^\\[(\\d+)ms]").matcher(Files.readString(vmExitLog));
            if (m.find()) vmExit = Long.parseLong(m.group(1));
        }
        return vmExit < 0 ? new Exit(Double.NaN, (endMillis - lastFile) / 1e3)
                : new Exit((vmExit - lastFile) / 1e3, (endMillis - vmExit) / 1e3);
    }

    private static int sampleBytes(Map<String, Object> report) {
        return String.valueOf(report.get("scan")).contains("FLOAT32") ? 4 : 2;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> readJson(Path p) throws IOException {
        return new ObjectMapper().readValue(p.toFile(), LinkedHashMap.class);
    }

    /** Bytes of the slices the tasks committed: the TIFFs, the chunks of volume.zarr, or the slices of volume.h5. */
    static long outputBytes(Path dir) throws IOException {
        return bytes(dir, "slice_\\d+\\.tif") + bytes(dir.resolve("volume.zarr"), "\\d+\\.0\\.0")
                + bytes(dir.resolve("volume.h5.slices"), "slice_\\d+\\.raw");
    }

    private static long bytes(Path dir, String names) throws IOException {
        if (!Files.isDirectory(dir)) return 0;
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().matches(names)).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (Stream<Path> w = Files.walk(p)) {
            for (Path x : w.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) Files.deleteIfExists(x);
        }
    }

    /** The results as a markdown table: command, machine, date, one row per run, the floor and the ratios. */
    static String table(Options o, List<Run> runs, DiskFloor.Result floor) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "real path, %s: %s; backend %s; %d cores; %s%n", LocalDate.now(), o.scan(), o.backend(),
                Runtime.getRuntime().availableProcessors(), String.join(" ", o.conf())));
        sb.append("| engine | exit | CLI wall s | job s | GU/s (job) | GB/s in, out (job) | read GB/s* | preprocess Mpix/s* "
                + "| back-projection GU/s* | write+commit GB/s* | backend |\n");
        sb.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Run r : runs) {
            sb.append(String.format(Locale.ROOT, "| %s | %d | %.2f | %.2f | %.1f | %.2f, %.2f | %.2f | %.0f | %.1f | %.2f | %s |%n",
                    r.engine(), r.exitCode(), r.wallSeconds(), r.jobSeconds(), r.updates() / r.jobSeconds() / 1e9,
                    r.inputBytes() / r.jobSeconds() / 1e9, r.outputBytes() / r.jobSeconds() / 1e9,
                    r.stageRate("readSeconds", r.inputBytes() / 1e9),
                    r.stageRate("preprocessSeconds", r.pixels() / 1e6), r.stageRate("backprojectSeconds", r.updates() / 1e9),
                    r.stageRate("writeSeconds", r.outputBytes() / 1e9), r.backend()));
        }
        sb.append("\\* per second of that stage's busy time, summed over its threads and tasks (the stages overlap)\n\n");
        sb.append("| engine | CLI wall s | JVM uptime at the engine's start s | engine outside the job s | job s | finish s "
                + "| report, manifest, exit s | of which: last file → JVM exit s | JVM exit → process end s | CLI wall − job s |\n"
                + "|---|---|---|---|---|---|---|---|---|---|\n");
        for (Run r : runs) {
            if (r.exitCode() != 0) continue;
            double up = r.timing("jvmUptimeAtStartSeconds"), outside = r.timing("outsideJobSeconds"), fin = r.timing("finishSeconds");
            double rest = r.wallSeconds() - up - r.timing("wallSeconds") - fin;
            sb.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |%n", r.engine(),
                    r.wallSeconds(), up, outside, r.jobSeconds(), fin, rest, r.exit().lastFileToVmExit(), r.exit().vmExitToEnd(),
                    r.wallSeconds() - r.jobSeconds()));
        }
        for (Run r : runs) {
            if (r.exitCode() == 0 && r.timings().get("groupLoop") instanceof Map<?, ?> gl)
                sb.append(String.format(Locale.ROOT, "%s, %s group lane(s): first band waited %.2f s, later bands %.2f s, "
                                + "in the processors %.2f s, handing slices to the writers %.2f s (summed over the lanes)%n", r.engine(),
                        gl.get("lanes"),
                        ((Number) gl.get("firstReadSeconds")).doubleValue(), ((Number) gl.get("readWaitSeconds")).doubleValue(),
                        ((Number) gl.get("processSeconds")).doubleValue(), ((Number) gl.get("sinkSeconds")).doubleValue()));
        }
        for (Run r : runs) {
            if (r.exitCode() == 0 && r.timings().get("groupLoop") instanceof Map<?, ?> gl
                    && gl.get("devicePipeline") instanceof Map<?, ?> d) {
                double compute = ((Number) d.get("computeSeconds")).doubleValue(), batch = ((Number) d.get("batchSeconds")).doubleValue();
                sb.append(String.format(Locale.ROOT, "%s, device pipeline: compute stream busy %.2f s of %.2f s in the groups (%.2f), "
                                + "host staging %.2f s, waiting for chunks %.2f s, %s chunks; %.2f TU/s while computing%n", r.engine(),
                        compute, batch, compute / batch, ((Number) d.get("hostStageSeconds")).doubleValue(),
                        ((Number) d.get("downloadWaitSeconds")).doubleValue(), d.get("chunks"), r.updates() / compute / 1e12));
            }
        }
        for (Run r : runs) {
            if (r.exitCode() != 0 || !(r.timings().get("beforeJobSeconds") instanceof Map<?, ?> steps)) continue;
            StringBuilder line = new StringBuilder(r.engine() + ", before the job:");
            steps.forEach((k, v) -> line.append(String.format(Locale.ROOT, " %s %.2f s,", k, ((Number) v).doubleValue())));
            if (r.timings().get("slicesWrittenFromFrames") instanceof Number n) line.append(" slices written from their frames ").append(n);
            sb.append(line).append('\n');
        }
        boolean mapped = o.cds() && o.engines().stream().allMatch(e -> Files.exists(classArchive(o, e)));
        sb.append(mapped ? "(each engine's JVMs map a class-data archive written by an untimed run of its first rows)\n"
                : "(no class-data archive)\n");
        sb.append(String.format(Locale.ROOT,
                "disk floor (OS alone, same bytes): read %.2f GB in %.2f s (%.2f GB/s), write+fdatasync %.2f GB "
                        + "in %.2f s (%.2f GB/s); floor %.2f s%n",
                floor.readBytes() / 1e9, floor.readSeconds(), floor.readBytes() / 1e9 / floor.readSeconds(),
                floor.writeBytes() / 1e9, floor.writeSeconds(), floor.writeBytes() / 1e9 / floor.writeSeconds(), floor.seconds()));
        for (Run r : runs)
            if (r.exitCode() == 0)
                sb.append(String.format(Locale.ROOT, "%s: CLI wall / floor = %.2f, job / floor = %.2f%n", r.engine(),
                        r.wallSeconds() / floor.seconds(), r.jobSeconds() / floor.seconds()));
        return sb.toString();
    }
}
