package org.tomospark.bench;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.Requisition;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.backends.opencl.OpenClBackend;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.testing.Noise;
import org.tomospark.executor.util.ImageErrors;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Throughput benchmark of back-projection backends opened by id through {@link Backends#open}, all in one
 * run so that ratios compare like with like. Prints one table row per spec: end-to-end GU/s of
 * {@code process()} (transfers, packing and readback included), kernel-only GU/s where the backend
 * reports it, the ratio to the first spec, and the relative L2 difference to the first spec's images.
 * With {@code --filter} it also times the ramp filter on the host (RampFilter, all cores) and on the
 * device (opencl.filter=device).
 *
 * <pre>
 * submit/opencl-bench [--width 512] [--proj 512] [--size 512]
 *      [--slices 8] [--reps 3] [--interp linear] [--device ""]
 *      [--specs opencl:std,opencl:tex4,opencl:tex4half,opencl:alu,java:auto] [--filter]
 * </pre>
 * A spec is {@code backend:variant[:slicesPerPass[:format]]}; e.g. {@code cuda:auto}, {@code opencl:alu:1}.
 */
public final class OpenClBench {
    private OpenClBench() {
    }

    public static void main(String[] args) {
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String k = args[i];
            if (!k.startsWith("--")) throw new IllegalArgumentException("unexpected argument '" + k + "'");
            if (k.equals("--filter")) a.put("filter", "true");
            else if (i + 1 < args.length) a.put(k.substring(2), args[++i]);
            else throw new IllegalArgumentException(k + " needs a value");
        }
        int width = Integer.parseInt(a.getOrDefault("width", "512"));
        int nproj = Integer.parseInt(a.getOrDefault("proj", "512"));
        int size = Integer.parseInt(a.getOrDefault("size", Integer.toString(width)));
        int slices = Integer.parseInt(a.getOrDefault("slices", "8"));
        int reps = Integer.parseInt(a.getOrDefault("reps", "3"));
        Interpolation interp = Interpolation.parse(a.getOrDefault("interp", "linear"));
        String device = a.getOrDefault("device", "");
        String[] specs = a.getOrDefault("specs", "opencl:std,opencl:tex4,opencl:tex4half,opencl:alu,opencl:alu:1,java:auto").split(",");

        ScanGeometry scan = ScanGeometry.builder().detectorWidth(width).anglesRange(180, nproj).build();
        SliceGeometry slice = SliceGeometry.square(size);
        BackprojectionJob job = new BackprojectionJob(scan, slice, slices);
        float[][] sinos = Noise.uniform(slices, nproj * width, 1);
        long updates = (long) slice.pixels() * nproj * slices;

        System.out.printf(Locale.ROOT,
                "# back-projection bench: %d x %d slice, %d projections x %d bins, %d slices/batch, %s, best of %d%n",
                size, size, nproj, width, slices, interp.name().toLowerCase(Locale.ROOT), reps);
        System.out.printf(Locale.ROOT, "| %-22s | %-60s | %9s | %9s | %8s | %9s |%n", "spec", "device / kernel", "GU/s e2e", "GU/s kern",
                "vs first", "rel L2");
        System.out.println("|---|---|---|---|---|---|");
        double firstGups = 0;
        float[][] firstImg = null;
        for (String spec : specs) {
            String[] p = spec.trim().split(":");
            String id = p[0];
            BackendOptions o = BackendOptions.defaults().withInterpolation(interp).withDevice(id.equals("java") ? "" : device)
                    .withVariant(p.length > 1 ? p[1] : "auto").withSlicesPerPass(p.length > 2 ? Integer.parseInt(p[2]) : 4)
                    .withFormat(p.length > 3 ? SampleFormat.parse(p[3]) : SampleFormat.FLOAT32)
                    .withExtra("opencl.profile", "true");
            if (o.variant().endsWith("half")) o = o.withFormat(SampleFormat.HALF);
            float[][] out = new float[slices][slice.pixels()];
            try (BackprojectionBackend b = Backends.open(id, o)) {
                Requisition req = b.validate(job);
                SliceBatch batch = new SliceBatch(0, sinos, nproj, width, true);
                b.process(batch, out); // warm-up: builds, first-touch
                long best = Long.MAX_VALUE, bestKernel = Long.MAX_VALUE;
                for (int i = 0; i < reps; i++) {
                    long k0 = b instanceof OpenClBackend ob ? ob.kernelNanos() : 0;
                    long t0 = System.nanoTime();
                    b.process(batch, out);
                    best = Math.min(best, System.nanoTime() - t0);
                    if (b instanceof OpenClBackend ob) bestKernel = Math.min(bestKernel, ob.kernelNanos() - k0);
                }
                double gups = updates / (double) best;
                String kern = bestKernel == Long.MAX_VALUE ? "-" : String.format(Locale.ROOT, "%.3f", updates / (double) bestKernel);
                if (firstImg == null) {
                    firstGups = gups;
                    firstImg = out;
                }
                System.out.printf(Locale.ROOT, "| %-22s | %-60s | %9.3f | %9s | %8.2f | %9.2e |%n", spec.trim(),
                        trim(b.deviceDescription() + "; " + req.description(), 160), gups, kern, gups / firstGups,
                        ImageErrors.relL2(out, firstImg));
            } catch (RuntimeException e) {
                System.out.printf(Locale.ROOT, "| %-22s | not run: %s |%n", spec.trim(), e.getMessage().replace('\n', ' '));
            }
        }
        if (a.containsKey("filter")) filterBench(scan, slice, slices, sinos, device);
    }

    /** Host RampFilter (all cores) vs the device FFT kernel (profiled), for the same batch. */
    static void filterBench(ScanGeometry scan, SliceGeometry slice, int slices, float[][] sinos, String device) {
        int width = scan.detectorWidth(), nproj = scan.numProjections();
        FilterSpec fs = FilterSpec.of(FilterWindow.RAMLAK);
        RampFilter f = new RampFilter(width, nproj, fs);
        List<float[]> copies = new ArrayList<>();
        for (float[] s : sinos) copies.add(s.clone());
        long bestHost = Long.MAX_VALUE;
        for (int rep = 0; rep < 4; rep++) {
            long t0 = System.nanoTime();
            for (float[] c : copies) f.filterRows(c, nproj, null);
            bestHost = Math.min(bestHost, System.nanoTime() - t0);
        }
        BackprojectionJob job = new BackprojectionJob(scan, slice, slices, fs);
        for (String variant : new String[]{"alu", "tex4"}) {
            BackendOptions base = BackendOptions.defaults().withDevice(device).withVariant(variant).withExtra("opencl.profile", "true");
            long[] e2e = new long[2];
            long filterKernel = Long.MAX_VALUE;
            for (int mode = 0; mode < 2; mode++) { // 0: host filter + back-projection, 1: device filter + back-projection
                BackendOptions o = base.withExtra("opencl.filter", mode == 0 ? "host" : "device");
                float[][] out = new float[slices][slice.pixels()];
                try (OpenClBackend b = new OpenClBackend()) {
                    b.setup(o);
                    b.validate(job);
                    long best = Long.MAX_VALUE;
                    for (int rep = 0; rep < 3; rep++) {
                        float[][] in = new float[slices][];
                        for (int s = 0; s < slices; s++) in[s] = sinos[s].clone();
                        long f0 = b.filterNanos();
                        long t0 = System.nanoTime();
                        if (mode == 0) for (float[] c : in) f.filterRows(c, nproj, null);
                        b.process(new SliceBatch(0, in, nproj, width, mode == 0), out);
                        best = Math.min(best, System.nanoTime() - t0);
                        if (mode == 1 && rep > 0) filterKernel = Math.min(filterKernel, b.filterNanos() - f0);
                    }
                    e2e[mode] = best;
                }
            }
            System.out.printf(Locale.ROOT,
                    "# filter (%d rows x %d, FFT %d) with %s: host RampFilter %.1f ms (%d threads); device FFT kernel %.1f ms; "
                            + "filter+backprojection end-to-end: host filter %.1f ms, device filter %.1f ms%n",
                    slices * nproj, width, f.paddedLength(), variant, bestHost / 1e6, Runtime.getRuntime().availableProcessors(),
                    filterKernel / 1e6, e2e[0] / 1e6, e2e[1] / 1e6);
        }
    }

    private static String trim(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 3) + "...";
    }
}
