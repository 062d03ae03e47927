package org.tomospark.executor.backends.cuda;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.backend.RawSliceBatch;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.memory.SliceFrame;
import org.tomospark.executor.memory.SliceFrames;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.Preprocessor;
import org.tomospark.executor.preprocess.RawStack;
import org.tomospark.executor.testing.Noise;
import org.tomospark.executor.util.ImageErrors;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * GPU tests: skipped where no CUDA device is present (CI). Every compiled variant of every mode is compared with the
 * Java backend by {@link VariantMatrixGpuTest}.
 */
@Tag("gpu")
class CudaBackendGpuTest {

    @BeforeAll
    static void needsGpu() {
        assumeTrue(CudaDevice.unavailableReason() == null, "no CUDA device: " + CudaDevice.unavailableReason());
    }

    private static float[][] run(String id, BackendOptions o, BackprojectionJob job, float[][] sino) {
        try (BackprojectionBackend b = Backends.open(id, o)) {
            b.validate(job);
            float[][] out = new float[sino.length][job.slice().pixels()];
            b.process(new SliceBatch(0, sino, job.scan().numProjections(), job.scan().detectorWidth(), true), out);
            return out;
        }
    }

    @Test
    void aluMatchesJavaOnOddSizesWithRoi() {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(201).anglesRange(180, 97).centerOfRotation(99.6).build();
        SliceGeometry sg = new SliceGeometry(201, 190, 11, 7, 151, 133);
        float[][] s = Noise.centred(5, 97 * 201, 5, i -> 1f);
        for (Interpolation in : Interpolation.values()) {
            BackendOptions o = BackendOptions.defaults().withSlicesPerPass(4).withFormat(SampleFormat.FLOAT32).withInterpolation(in);
            BackprojectionJob job = new BackprojectionJob(scan, sg, 5);
            assertClose(in.toString(), run("cuda", o.withVariant("alu"), job, s), run("java", o.withVariant("scalar"), job, s), 1e-5);
        }
    }

    /**
     * Half storage with the default slices per pass (8) and no auto-tuning: the fallback table's k8 kernel (which
     * batches of 17 slices replace by the window kernel), the window and the tensor-core variants; 17 slices through
     * chunks of 8 (two full groups and a partial one; a tensor-core block with one group of its four), 181 projections
     * (a partial last cache batch), odd detector width and ROI.
     */
    @Test
    void halfDefaultAndWindowKernelsMatchJava(@TempDir Path tmp) {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(211).anglesRange(360, 181).centerOfRotation(104.3).build();
        SliceGeometry sg = new SliceGeometry(211, 205, 9, 13, 177, 151);
        float[][] s = Noise.centred(17, 181 * 211, 9, i -> 1f);
        BackendOptions o = halfUntuned(tmp, 0, 8);
        BackprojectionJob job = new BackprojectionJob(scan, sg, 17);
        float[][] ref = run("java", o.withVariant("scalar"), job, s);
        for (String v : new String[]{"auto", "alu:t32p8:h8p:win", "tc", "tc:t32x32"})
            assertClose(v, run("cuda", o.withVariant(v), job, s), ref, 1e-3);
    }

    /**
     * The float32 register-window kernels (the product variants of 4 and 8 slices, and auto): float32 accuracy
     * against the Java backend on odd sizes with a ROI, 181 projections over 360 degrees (both walk directions, a
     * partial last cache batch), 13 slices through chunks of 8 (a partial group), and groups of amplitudes 1e-6 and
     * 1e6 in one launch (no scaled packing: float32 holds both).
     */
    @Test
    void float32WindowKernelsMatchJava(@TempDir Path tmp) {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(211).anglesRange(360, 181).centerOfRotation(104.3).build();
        SliceGeometry sg = new SliceGeometry(211, 205, 9, 13, 177, 151);
        float[] amp = {1e-6f, 1e6f};
        float[][] s = Noise.centred(13, 181 * 211, 17, i -> amp[(i / 4) % 2]);
        BackendOptions base = halfUntuned(tmp, 0, 8).withFormat(SampleFormat.FLOAT32);
        BackprojectionJob job = new BackprojectionJob(scan, sg, 13);
        float[][] ref = run("java", base.withVariant("scalar"), job, s);
        for (String v : new String[]{"4 alu:t32p16:win", "4 alu:t32p8:win", "8 alu:t32p8:win", "4 auto", "8 auto"}) {
            String[] kv = v.split(" ");
            float[][] got = run("cuda", base.withSlicesPerPass(Integer.parseInt(kv[0])).withVariant(kv[1]), job, s);
            for (int i = 0; i < 13; i++)
                assertClose(v + ", slice " + i, new float[][]{got[i]}, new float[][]{ref[i]}, 1e-5);
        }
    }

    /**
     * The window and tensor-core kernels pack each group scaled by a power of two from its largest magnitude: groups
     * of one launch whose data differ by 12 orders of magnitude (1e-6, 1e6, all zero, then 1 and 3) each keep half's
     * relative accuracy. Unscaled half storage would flush the first to subnormals and overflow the second. 40
     * slices in one launch: the tensor-core kernel takes 32 per block (four groups of 8, or eight of 4), so its
     * second block holds one or two groups.
     */
    @Test
    void scaledKernelsScaleEachGroupToItsOwnMagnitude(@TempDir Path tmp) {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(160).anglesRange(180, 120).centerOfRotation(80.2).build();
        SliceGeometry sg = new SliceGeometry(160, 150, 0, 0, 150, 150);
        float[] amp = {1e-6f, 1e6f, 0f, 1f, 3f};
        float[][] s = Noise.centred(40, 120 * 160, 11, i -> amp[i / 8]);
        // the reference in float32: half storage itself could hold neither magnitude
        float[][] ref = run("java", halfUntuned(tmp, 8, 40).withFormat(SampleFormat.FLOAT32).withVariant("scalar"),
                new BackprojectionJob(scan, sg, 40), s);
        for (String v : new String[]{"8 alu:t32p8:h8p:win", "8 tc", "8 tc:t32x32", "4 tc", "4 tc:t32x32"}) {
            String[] kv = v.split(" ");
            BackendOptions o = halfUntuned(tmp, Integer.parseInt(kv[0]), 40);
            float[][] got = run("cuda", o.withVariant(kv[1]), new BackprojectionJob(scan, sg, 40), s);
            for (int g = 0; g < 5; g++) {
                if (amp[g] == 0f) {
                    for (int i = 8 * g; i < 8 * g + 8; i++) for (float x : got[i])
                            assertEquals(0f, x, v + ": an all-zero group stays zero");
                } else {
                    assertClose(v + " slices per pass, amplitude " + amp[g], Arrays.copyOfRange(got, 8 * g, 8 * g + 8),
                            Arrays.copyOfRange(ref, 8 * g, 8 * g + 8), 1e-3);
                }
            }
        }
    }

    /**
     * Raw counts corrected on the device equal the host's correction followed by the same device filter and kernel:
     * the same float operations and a double -log rounded once. 37 rows through chunks of 16 (a partial last chunk),
     * odd width, counts below the dark (clamped transmissions, counted alike).
     */
    @Test
    void deviceCorrectionEqualsTheHosts(@TempDir Path tmp) {
        int w = 213, np = 181, rows = 37;
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(w).anglesRange(180, np).centerOfRotation(105.7).build();
        SliceGeometry sg = SliceGeometry.square(w);
        RawScan raw = RawScan.random(5, np, rows, w, 40);
        RawStack band = raw.band();
        FlatDark fields = raw.fields();
        Preprocessor pre = Preprocessor.defaults();
        Preprocessor.Result host = pre.apply(band, fields, "data", "flats");
        assertTrue(host.stats().clampedTransmission() > 0, "the data must clamp some transmissions");
        BackendOptions o = BackendOptions.defaults().withSlicesPerPass(4).withFormat(SampleFormat.FLOAT32).withVariant("alu")
                .withExtra("cuda.chunkSlices", "16").withExtra("cuda.tuningCache", tmp.resolve("c.properties").toString());
        BackprojectionJob job = new BackprojectionJob(scan, sg, rows, FilterSpec.of(FilterWindow.SHEPP_LOGAN));
        try (BackprojectionBackend b = Backends.open("cuda", o)) {
            b.validate(job);
            assertTrue(b.correctsOnDevice());
            float[][] viaHost = new float[rows][sg.pixels()], onDevice = new float[rows][sg.pixels()];
            b.process(new SliceBatch(40, host.sinograms(), np, w, false), viaHost);
            Preprocessor.Fields f = pre.fields(fields, "flats");
            long clamped = b.processRaw(new RawSliceBatch(40, band, 0, rows, f.dark(), f.den(), pre.transmissionFloor()), onDevice);
            assertEquals(host.stats().clampedTransmission(), clamped, "clamped transmissions");
            int differ = 0;
            for (int s = 0; s < rows; s++)
                for (int i = 0; i < sg.pixels(); i++)
                        if (Float.floatToRawIntBits(viaHost[s][i]) != Float.floatToRawIntBits(onDevice[s][i])) differ++;
            assertEquals(0, differ, "pixels that differ between host and device correction");
            assertClose("device correction", onDevice, viaHost, 1e-7);
        }
    }

    /**
     * Slices copied by the device straight into registered direct frames (the JVM's pool) are bit for bit those copied
     * through pinned buffers into arrays; so are chunks that mix frames the device cannot write (a heap frame, a direct
     * frame no pool keeps), which go through pinned buffers; and the frames' room in front of the pixels is untouched.
     */
    @Test
    void directFramesGetTheBitsOfArrays(@TempDir Path tmp) {
        int w = 211, np = 150, rows = 21;
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(w).anglesRange(180, np).centerOfRotation(104.2).build();
        SliceGeometry sg = SliceGeometry.square(w);
        RawScan raw = RawScan.random(9, np, rows, w, 0);
        RawStack band = raw.band();
        Preprocessor pre = Preprocessor.defaults();
        Preprocessor.Fields f = pre.fields(raw.fields(), "flats");
        BackendOptions o = BackendOptions.defaults().withFormat(SampleFormat.FLOAT32)
                .withExtra("cuda.chunkSlices", "8").withExtra("cuda.tuningCache", tmp.resolve("c.properties").toString());
        BackprojectionJob job = new BackprojectionJob(scan, sg, rows, FilterSpec.of(FilterWindow.RAMLAK));
        try (BackprojectionBackend b = Backends.open("cuda", o)) {
            b.validate(job);
            assertTrue(b.correctsOnDevice() && b.fillsDirectFrames());
            RawSliceBatch batch = new RawSliceBatch(0, band, 0, rows, f.dark(), f.den(), pre.transmissionFloor());
            float[][] arrays = new float[rows][sg.pixels()];
            b.processRaw(batch, arrays);
            SliceFrame[] direct = new SliceFrame[rows];
            for (int s = 0; s < rows; s++) direct[s] = SliceFrames.jvm().take(sg.pixels(), 3000);
            // the third chunk mixes in frames the device cannot write into
            direct[17] = SliceFrame.heap(sg.pixels());
            direct[18] = SliceFrame.directUnpooled(sg.pixels(), 0);
            for (SliceFrame d : direct) if (d.isDirect()) d.memory().put(0, (byte) 0x5a);
            b.processRaw(batch, direct);
            // the first two chunks (8 slices each) were copied straight into their frames
            for (int s = 0; s < 16; s++) assertTrue(FrameRegistry.isRegistered(direct[s]), "frame of slice " + s + " registered");
            for (int s = 0; s < rows; s++) {
                assertTrue(Arrays.equals(arrays[s], direct[s].toArray()), "slice " + s + " (" + direct[s] + ")");
                if (direct[s].room() > 0) assertEquals((byte) 0x5a, direct[s].memory().get(0), "room of slice " + s);
            }
            // filtered float sinograms too
            Preprocessor.Result host = pre.apply(band, raw.fields(), "data", "flats");
            float[][] viaArrays = new float[rows][sg.pixels()];
            b.process(new SliceBatch(0, host.sinograms(), np, w, false), viaArrays);
            b.process(new SliceBatch(0, host.sinograms(), np, w, false), direct);
            for (int s = 0; s < rows; s++) assertTrue(Arrays.equals(viaArrays[s], direct[s].toArray()), "float sinograms, slice " + s);
        }
    }

    /**
     * Random uint16 counts of {@code np} projections of {@code rows} rows from detector row {@code rowStart}, some below
     * the dark (clamped transmissions), with the flats and darks of those rows.
     */
    private record RawScan(RawStack band, FlatDark fields) {
        static RawScan random(long seed, int np, int rows, int w, int rowStart) {
            Random r = new Random(seed);
            short[] counts = new short[np * rows * w];
            for (int i = 0; i < counts.length; i++) counts[i] = (short) (90 + r.nextInt(3000));
            float[] flat = new float[rows * w], dark = new float[rows * w];
            for (int i = 0; i < flat.length; i++) {
                flat[i] = 2800 + r.nextInt(400);
                dark[i] = 95 + r.nextInt(10);
            }
            return new RawScan(RawStack.ofUint16(np, rows, w, counts), new FlatDark(rowStart, rows, w, flat, dark));
        }
    }

    private static void assertClose(String what, float[][] got, float[][] ref, double limit) {
        double err = ImageErrors.relL2(got, ref);
        assertTrue(err < limit, what + ": relative L2 " + err + " against the Java backend (limit " + limit + ")");
    }

    /** Half storage, linear, no auto-tuning and no cached choice (so the fallback table decides "auto"). */
    private static BackendOptions halfUntuned(Path tmp, int slicesPerPass, int chunkSlices) {
        return BackendOptions.defaults().withSlicesPerPass(slicesPerPass).withFormat(SampleFormat.HALF)
                .withInterpolation(Interpolation.LINEAR).withExtra("cuda.autotune", "false")
                .withExtra("cuda.chunkSlices", Integer.toString(chunkSlices))
                .withExtra("cuda.tuningCache", tmp.resolve("empty-cache.properties").toString());
    }
}
