package org.tomospark.bench;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendProvider;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.KernelTimer;
import org.tomospark.executor.backend.Requisition;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.backends.cuda.CudaVariants;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.filter.Padding;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.testing.Noise;
import org.tomospark.executor.testing.Phantoms;
import org.tomospark.executor.testing.SinogramSet;
import org.tomospark.executor.util.ImageErrors;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Benchmark and correctness check for any back-projection backend, opened through {@link Backends#open}.
 *
 * <pre>
 * GpuBench [--backend cuda|opencl|java] [--variants all|v1,v2,..] [--modes all|k4.half.linear,..]
 *          [--check] [--time] [--e2e] [--size 2048] [--projections 2048] [--slices 64] [--reps 5]
 *          [--e2e-slices 2048] [--e2e-distinct 256] [--e2e-mode k4.half.linear] [--e2e-variant V]
 * </pre>
 * --check compares every variant and mode with the Java backend (scalar kernel) on fresh random data (333 columns,
 * 181 projections, axis correction) and on the filtered sinogram of a smooth ellipse phantom (ROI), plus the device
 * ramp filter against {@link RampFilter}. --time measures the kernels alone (device events, median) at
 * size² pixels × projections × slices. --e2e times host→host reconstruction of e2e-slices slices with filtering.
 * A markdown table is printed at the end.
 */
public final class GpuBench {
    private String backend = "cuda";
    private String variants = "all";
    /** backend.device for the backend under test (e.g. platform=NVIDIA,gpu:0 for OpenCL); empty for the default. */
    private String device = "";
    private String modes = "all";
    private boolean check, time, e2e;
    private int size = 2048, projections = 2048, slices = 64, reps = 5;
    private int e2eSlices = 2048, e2eDistinct = 256;
    private String e2eMode = "k4.half.linear", e2eVariant = "";
    private final List<String> checkRows = new ArrayList<>();
    private final List<String> timeRows = new ArrayList<>();
    private final List<String> e2eRows = new ArrayList<>();
    private final Map<String, Double> bestPerMode = new LinkedHashMap<>();
    private final Map<String, String> bestVariantPerMode = new LinkedHashMap<>();
    private int failures;

    public static void main(String[] args) {
        GpuBench b = new GpuBench();
        b.parse(args);
        int rc = b.run();
        System.exit(rc);
    }

    private void parse(String[] a) {
        for (int i = 0; i < a.length; i++) {
            String k = a[i];
            switch (k) {
                case "--backend" -> backend = a[++i];
                case "--device" -> device = a[++i];
                case "--variants" -> variants = a[++i];
                case "--modes" -> modes = a[++i];
                case "--check" -> check = true;
                case "--time" -> time = true;
                case "--e2e" -> e2e = true;
                case "--all" -> check = time = e2e = true;
                case "--size" -> size = Integer.parseInt(a[++i]);
                case "--projections" -> projections = Integer.parseInt(a[++i]);
                case "--slices" -> slices = Integer.parseInt(a[++i]);
                case "--reps" -> reps = Integer.parseInt(a[++i]);
                case "--e2e-slices" -> e2eSlices = Integer.parseInt(a[++i]);
                case "--e2e-distinct" -> e2eDistinct = Integer.parseInt(a[++i]);
                case "--e2e-mode" -> e2eMode = a[++i];
                case "--e2e-variant" -> e2eVariant = a[++i];
                default -> throw new IllegalArgumentException("GpuBench: unknown argument " + k);
            }
        }
        if (!check && !time && !e2e) check = true;
    }

    record Mode(int k, SampleFormat format, Interpolation interp) {
        String key() {
            return CudaVariants.modeKey(k, format, interp);
        }

        static Mode parse(String s) {
            String[] p = s.trim().split("\\.");
            if (p.length != 3 || !p[0].startsWith("k"))
                throw new IllegalArgumentException("mode '" + s + "': expected k<slices>.<float32|half>.<linear|nearest>");
            return new Mode(Integer.parseInt(p[0].substring(1)), SampleFormat.parse(p[1]), Interpolation.parse(p[2]));
        }
    }

    private List<Mode> modes() {
        List<Mode> l = new ArrayList<>();
        if (modes.equals("all")) {
            for (String s : new String[]{"k1.float32.linear", "k1.float32.nearest", "k2.float32.linear", "k2.float32.nearest",
                    "k2.half.linear", "k4.float32.linear", "k4.half.linear", "k4.half.nearest", "k8.half.linear",
                    "k8.half.nearest", "k8.float32.linear"})
                l.add(Mode.parse(s));
        } else {
            for (String s : modes.split(",")) l.add(Mode.parse(s));
        }
        return l;
    }

    private List<String> variantsFor(Mode m) {
        List<String> l = new ArrayList<>();
        if (!variants.equals("all")) {
            for (String v : variants.split(",")) l.add(v.trim());
            return l;
        }
        if (!backend.equals("cuda")) {
            l.add("auto");
            return l;
        }
        // the variants this build compiles for the mode (texture kernels, which fetch at most 4 slices, only repeat their
        // 4-slice run in 8-slice modes and are left out there)
        return CudaVariants.variants(m.k, m.format, m.interp);
    }

    private int run() {
        // probe only the backend under test: initialising NVIDIA OpenCL after a CUDA probe in the same JVM
        // crashed the JVM on the H200 (driver 580), see BENCHMARKS.md
        String why = "unknown backend";
        for (BackendProvider p : Backends.providers())
            if (p.id().equals(backend)) why = String.valueOf(p.unavailableReason());
        System.out.println("GpuBench: backend " + backend + ", unavailable reason: " + why);
        if (check) runChecks();
        if (time) runTiming();
        if (e2e) runE2e();
        System.out.println();
        if (!checkRows.isEmpty()) {
            System.out.println("### Correctness (relative L2 vs java backend, scalar kernel)\n");
            System.out.println("| mode | variant | random 333x181 | phantom ROI | limit | result |");
            System.out.println("|---|---|---|---|---|---|");
            checkRows.forEach(System.out::println);
            System.out.println();
        }
        if (!timeRows.isEmpty()) {
            System.out.printf("### Kernel speed (%d x %d px, %d projections, %d slices; device events, median of %d)%n%n",
                    size, size, projections, slices, reps);
            System.out.println("| mode | variant | ms | GU/s | x std (same run) |");
            System.out.println("|---|---|---|---|---|");
            timeRows.forEach(System.out::println);
            System.out.println();
        }
        if (!e2eRows.isEmpty()) {
            System.out.println("### End to end (host -> host, with device filtering)\n");
            System.out.println("| slices | size | projections | mode | variant | seconds | GU/s |");
            System.out.println("|---|---|---|---|---|---|---|");
            e2eRows.forEach(System.out::println);
            System.out.println();
        }
        System.out.println(failures == 0 ? "GpuBench: all checks passed" : "GpuBench: " + failures + " check(s) FAILED");
        return failures == 0 ? 0 : 1;
    }

    // ------------------------------------------------------------------------------------------- checks

    private static float[][] reconstruct(String id, BackendOptions o, BackprojectionJob job, SliceBatch batch) {
        try (BackprojectionBackend b = Backends.open(id, o)) {
            Requisition r = b.validate(job);
            if (!batch.filtered() && !r.filtersOnDevice())
                throw new IllegalStateException(id + " does not filter on the device");
            int px = job.slice().pixels();
            float[][] out = new float[batch.count()][px];
            for (float[] a : out) Arrays.fill(a, Float.NaN); // poison: every pixel must be written
            b.process(batch, out);
            return out;
        }
    }

    /** White noise on an awkward geometry ({@link SinogramSet#offCentreNoise}). */
    private static SinogramSet randomCase(int count, long seed) {
        return SinogramSet.offCentreNoise(count, seed);
    }

    /** Filtered sinogram of a smooth ellipse phantom ({@link Phantoms#ellipses}), ROI, 360° scan. */
    private static SinogramSet phantomCase(int count, boolean filter) {
        int w = 256, np = 180;
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(w).anglesRange(360, np).centerOfRotation(127.8).build();
        SliceGeometry sg = new SliceGeometry(256, 256, 37, 21, 181, 199);
        float[][] s = new float[count][];
        for (int i = 0; i < count; i++) {
            s[i] = Phantoms.ellipses(scan, 1.0 + 0.1 * i, 3 * i);
            if (filter) new RampFilter(w, np, FilterSpec.of(FilterWindow.SHEPP_LOGAN)).filterRows(s[i], np, null);
        }
        return new SinogramSet(scan, sg, s);
    }

    private static double limitFor(String backend, String variant, Mode m, boolean random) {
        boolean texWeights = false;
        if (backend.equals("cuda")) {
            texWeights = CudaVariants.textureWeights(variant, m.k, m.format, m.interp);
        } else if (!backend.equals("java")) {
            texWeights = m.interp == Interpolation.LINEAR; // other GPU backends may use hardware filtering
        }
        // NVIDIA texture filtering uses 8-bit interpolation weights (error up to 1/512 per fetch): on white-noise
        // data that is ~2e-3 relative; on smooth data well under 1e-3.
        if (texWeights) return random ? 5e-3 : 1e-3;
        return m.format == SampleFormat.HALF ? 1e-3 : 1e-5;
    }

    /** A comparison with a reference: the relative L2 (or the error) as text, and whether it is within the limit. */
    private record Cmp(String text, boolean ok) {
    }

    /** Runs a reconstruction and compares it with {@code ref}; an exception or a miss counts as a failure. */
    private Cmp compare(float[][] ref, double limit, Supplier<float[][]> run) {
        Cmp c;
        try {
            double e = ImageErrors.relL2(run.get(), ref);
            c = new Cmp(String.format(Locale.ROOT, "%.2e", e), e <= limit);
        } catch (RuntimeException e) {
            e.printStackTrace();
            c = new Cmp("error: " + e.getMessage(), false);
        }
        if (!c.ok()) failures++;
        return c;
    }

    private void runChecks() {
        for (Mode m : modes()) {
            int count = 2 * m.k + 1; // one partial pass
            SinogramSet rc = randomCase(count, 1234 + m.k);
            SinogramSet pc = phantomCase(count, true);
            BackendOptions base = BackendOptions.defaults().withSlicesPerPass(m.k).withFormat(m.format).withInterpolation(m.interp);
            BackendOptions tested = base.withDevice(device).withExtra("opencl.filter", "device");
            float[][] refR = reconstruct("java", base.withVariant("scalar"), rc.job(count), rc.batch(true));
            float[][] refP = reconstruct("java", base.withVariant("scalar"), pc.job(count), pc.batch(true));
            for (String v : variantsFor(m)) {
                BackendOptions o = tested.withVariant(v).withExtra("cuda.autotune", "false");
                String er, ep;
                double lr = limitFor(backend, v, m, true), lp = limitFor(backend, v, m, false);
                boolean ok;
                try {
                    float[][] gr = reconstruct(backend, o, rc.job(count), rc.batch(true));
                    float[][] gp = reconstruct(backend, o, pc.job(count), pc.batch(true));
                    double dr = ImageErrors.relL2(gr, refR), dp = ImageErrors.relL2(gp, refP);
                    er = String.format(Locale.ROOT, "%.2e", dr);
                    ep = String.format(Locale.ROOT, "%.2e", dp);
                    ok = dr <= lr && dp <= lp;
                } catch (RuntimeException e) {
                    er = ep = "error: " + e.getMessage();
                    ok = false;
                    e.printStackTrace();
                }
                if (!ok) failures++;
                String lim = lr == lp ? String.format(Locale.ROOT, "%.0e", lr) : String.format(Locale.ROOT, "%.0e / %.0e", lr, lp);
                String row = String.format("| %s | %s | %s | %s | %s | %s |", m.key(), v, er, ep, lim, ok ? "pass" : "FAIL");
                System.out.println(row);
                checkRows.add(row);
            }
            // chunked = whole: the random case (2K+1 slices) again through pipeline chunks of K slices: three chunks, so
            // the double buffers are reused from the third on, and a partial last group (the variant checks above run
            // the same case as one chunk, its three groups in one launch with grid z = 3), with the mode's default
            // variant from the fallback table: what a run without auto-tuning uses
            if (backend.equals("cuda")) {
                String v = CudaVariants.fallback(m.k, m.format, m.interp);
                double lim = m.format == SampleFormat.HALF ? 1e-3 : 1e-5;
                Cmp c = compare(refR, lim, () -> reconstruct(backend, tested.withVariant(v).withExtra("cuda.autotune", "false")
                                .withExtra("cuda.chunkSlices", Integer.toString(m.k)), rc.job(count), rc.batch(true)));
                String row = String.format(Locale.ROOT, "| %s | %s, chunks of %d slices | %s | - | %.0e | %s |", m.key(), v, m.k,
                        c.text(), lim, c.ok() ? "pass" : "FAIL");
                System.out.println(row);
                checkRows.add(row);
            }
            // device filtering: unfiltered phantom (edge padding, hann) and random rows (zero padding, ramlak)
            if (!backend.equals("java")) {
                for (Padding pad : Padding.values()) {
                    FilterSpec fs = pad == Padding.EDGE ? new FilterSpec(FilterWindow.HANN, 0.9, pad)
                            : new FilterSpec(FilterWindow.RAMLAK, 1.0, pad);
                    SinogramSet raw = pad == Padding.EDGE ? phantomCase(count, false) : randomCase(count, 99);
                    ScanGeometry scan = raw.scan();
                    SliceGeometry sg = raw.slice();
                    float[][] s = raw.sinograms();
                    int w = scan.detectorWidth(), np = scan.numProjections();
                    float[][] filtered = SinogramSet.copy(s);
                    RampFilter rf = new RampFilter(w, np, fs);
                    for (float[] a : filtered) rf.filterRows(a, np, null);
                    double lim = m.format == SampleFormat.HALF ? 1e-3 : 1e-5;
                    String v = "alu";
                    float[][] ref = reconstruct("java", base.withVariant("scalar"), new BackprojectionJob(scan, sg, count),
                            new SliceBatch(0, filtered, np, w, true));
                    Cmp c = compare(ref, lim, () -> reconstruct(backend, tested.withVariant(v).withExtra("cuda.autotune", "false"),
                            new BackprojectionJob(scan, sg, count, fs), new SliceBatch(0, SinogramSet.copy(s), np, w, false)));
                    String d = c.text();
                    String row = String.format("| %s | %s + device filter (%s, %s) | %s | %s | %.0e | %s |", m.key(), v,
                            fs.window().id(), pad.name().toLowerCase(), pad == Padding.ZERO ? d : "-", pad == Padding.EDGE ? d : "-",
                            lim, c.ok() ? "pass" : "FAIL");
                    System.out.println(row);
                    checkRows.add(row);
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------- timing

    private void runTiming() {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(size).anglesRange(180, projections).build();
        SliceGeometry sg = SliceGeometry.square(size);
        float[][] data = Noise.perSlice(slices, projections * size, 42);
        SliceBatch batch = new SliceBatch(0, data, projections, size, true);
        Map<Interpolation, Double> stdGups = new LinkedHashMap<>();
        List<Mode> ms = new ArrayList<>(modes());
        // the baseline first (cuda): Algorithm 1, one slice, float32, per interpolation used, in this same run
        if (backend.equals("cuda")) {
            for (Interpolation in : Interpolation.values()) {
                if (ms.stream().noneMatch(m -> m.interp == in)) continue;
                BackendOptions o = BackendOptions.defaults().withSlicesPerPass(1).withFormat(SampleFormat.FLOAT32)
                        .withInterpolation(in).withVariant("std").withExtra("cuda.chunkSlices", Integer.toString(slices));
                try (BackprojectionBackend b = Backends.open(backend, o)) {
                    b.validate(new BackprojectionJob(scan, sg, slices));
                    KernelTimer kt = (KernelTimer) b;
                    kt.timeKernels(batch, 1, 0);
                    KernelTimer.Timing t = kt.timeKernels(batch, 0, Math.min(reps, 3));
                    stdGups.put(in, t.gups());
                    String row = String.format(Locale.ROOT, "| baseline k1.float32.%s | %s | %.1f | %.0f | 1.0 |",
                            in.name().toLowerCase(Locale.ROOT), t.description(), t.medianMs(), t.gups());
                    System.out.println(row);
                    timeRows.add(row);
                }
            }
        }
        for (Mode m : ms) {
            List<String> vs = variantsFor(m);
            for (String v : vs) {
                BackendOptions o = BackendOptions.defaults().withSlicesPerPass(m.k).withFormat(m.format)
                        .withInterpolation(m.interp).withVariant(v).withExtra("cuda.chunkSlices", Integer.toString(slices));
                try (BackprojectionBackend b = Backends.open(backend, o)) {
                    b.validate(new BackprojectionJob(scan, sg, slices));
                    if (!(b instanceof KernelTimer kt)) {
                        System.out.println("backend " + backend + " has no kernel timer; skipping timing");
                        return;
                    }
                    KernelTimer.Timing t = kt.timeKernels(batch, 1, 1);
                    int r = t.medianMs() > 1500 ? Math.min(reps, 3) : reps;
                    t = kt.timeKernels(batch, 0, r);
                    double gups = t.gups();
                    if (v.equals("std") && m.k == 1 && m.format == SampleFormat.FLOAT32) stdGups.putIfAbsent(m.interp, gups);
                    Double base = stdGups.get(m.interp);
                    String ratio = base == null ? "-" : String.format(Locale.ROOT, "%.1f", gups / base);
                    String row = String.format(Locale.ROOT, "| %s | %s | %.1f | %.0f | %s |",
                            m.key(), t.description(), t.medianMs(), gups, ratio);
                    System.out.println(row);
                    timeRows.add(row);
                    if (gups > bestPerMode.getOrDefault(m.key(), 0.0)) {
                        bestPerMode.put(m.key(), gups);
                        bestVariantPerMode.put(m.key(), v);
                    }
                } catch (RuntimeException e) {
                    String row = String.format("| %s | %s | error: %s | | |", m.key(), v, e.getMessage());
                    System.out.println(row);
                    timeRows.add(row);
                    e.printStackTrace();
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------- end to end

    private void runE2e() {
        for (String mk : e2eMode.split(",")) runE2e(Mode.parse(mk.trim()));
    }

    private void runE2e(Mode m) {
        String v = !e2eVariant.isEmpty() && !e2eMode.contains(",") ? e2eVariant : bestVariantPerMode.getOrDefault(m.key(), "auto");
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(size).anglesRange(180, projections).build();
        SliceGeometry sg = SliceGeometry.square(size);
        int distinct = Math.min(e2eDistinct, e2eSlices);
        System.out.printf("e2e: %d slices (%d distinct input and output arrays, reused cyclically), mode %s, variant %s%n",
                e2eSlices, distinct, m.key(), v);
        float[][] pool = Noise.perSlice(distinct, projections * size, 7);
        float[][] outPool = new float[distinct][size * size];
        float[][] in = new float[e2eSlices][];
        float[][] out = new float[e2eSlices][];
        for (int i = 0; i < e2eSlices; i++) {
            in[i] = pool[i % distinct];
            out[i] = outPool[i % distinct];
        }
        BackendOptions o = BackendOptions.defaults().withSlicesPerPass(m.k).withFormat(m.format).withInterpolation(m.interp)
                .withVariant(v);
        FilterSpec fs = FilterSpec.of(FilterWindow.SHEPP_LOGAN);
        try (BackprojectionBackend b = Backends.open(backend, o)) {
            System.gc();
            Requisition r = b.validate(new BackprojectionJob(scan, sg, e2eSlices, fs));
            System.out.println("e2e: " + r.description());
            boolean filtered = !r.filtersOnDevice();
            if (filtered) System.out.println("e2e: backend filters on the host side? no: filtering with RampFilter first (not timed)");
            // warm-up on a short batch
            int w = Math.min(64, e2eSlices);
            float[][] win = new float[w][], wout = new float[w][];
            System.arraycopy(in, 0, win, 0, w);
            System.arraycopy(out, 0, wout, 0, w);
            b.process(new SliceBatch(0, win, projections, size, filtered), wout);
            long t0 = System.nanoTime();
            b.process(new SliceBatch(0, in, projections, size, filtered), out);
            double sec = (System.nanoTime() - t0) / 1e9;
            double gups = (double) e2eSlices * size * size * projections / sec / 1e9;
            String row = String.format(Locale.ROOT, "| %d | %dx%d | %d | %s | %s | %.2f | %.0f |", e2eSlices, size, size,
                    projections, m.key(), v, sec, gups);
            System.out.println(row);
            e2eRows.add(row);
            System.out.println("e2e: device " + b.deviceDescription());
        } catch (RuntimeException e) {
            e.printStackTrace();
            e2eRows.add("| " + e2eSlices + " | | | " + m.key() + " | " + v + " | error: " + e.getMessage() + " | |");
            failures++;
        }
    }
}
