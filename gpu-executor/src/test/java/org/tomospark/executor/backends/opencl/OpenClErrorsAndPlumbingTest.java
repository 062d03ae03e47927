package org.tomospark.executor.backends.opencl;

import org.jocl.CL;
import org.jocl.CLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendProvider;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.Requisition;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.filter.Padding;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.testing.Noise;
import org.tomospark.executor.testing.Phantoms;
import org.tomospark.executor.util.ImageErrors;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Errors, device selection, registry, context/program sharing and the device ramp filter. */
class OpenClErrorsAndPlumbingTest {

    static void needOpenCl() {
        assumeTrue(ClRuntime.unavailableReason() == null, () -> "no OpenCL here: " + ClRuntime.unavailableReason());
    }

    static BackprojectionJob smallJob() {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(96).anglesRange(180, 45).build();
        return new BackprojectionJob(scan, SliceGeometry.square(64), 4);
    }

    @Test
    void selectorSyntax() {
        assertEquals(new DeviceSelector(null, DeviceSelector.Kind.DEFAULT, 0), DeviceSelector.parse(""));
        assertEquals(new DeviceSelector(null, DeviceSelector.Kind.DEFAULT, 0), DeviceSelector.parse(" auto "));
        assertEquals(new DeviceSelector(null, DeviceSelector.Kind.GPU, 3), DeviceSelector.parse("3"));
        assertEquals(new DeviceSelector(null, DeviceSelector.Kind.GPU, 1), DeviceSelector.parse("gpu:1"));
        assertEquals(new DeviceSelector(null, DeviceSelector.Kind.CPU, 0), DeviceSelector.parse("CPU"));
        assertEquals(new DeviceSelector("NVIDIA", DeviceSelector.Kind.GPU, 1), DeviceSelector.parse("platform=NVIDIA, gpu:1"));
        assertEquals(new DeviceSelector("portable", DeviceSelector.Kind.DEFAULT, 0), DeviceSelector.parse("platform=portable"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DeviceSelector.parse("fpga:0"));
        assertTrue(e.getMessage().contains("unknown device type 'fpga'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DeviceSelector.parse("gpu:x"));
        assertTrue(e.getMessage().contains("non-negative integer"), e.getMessage());
    }

    @Test
    void registeredThroughServiceLoader() {
        List<String> ids = Backends.providers().stream().map(BackendProvider::id).toList();
        assertTrue(ids.contains("opencl") && ids.contains("java"), ids.toString());
        BackendProvider p = Backends.providers().stream().filter(x -> x.id().equals("opencl")).findFirst().orElseThrow();
        // must not throw, whatever the machine has
        String reason = p.unavailableReason();
        boolean auto = p.eligibleForAuto();
        if (reason != null) assertFalse(auto);
        // with no OpenCL GPU, auto keeps the java backend
        if (!ClRuntime.hasGpu()) assertEquals("java", Backends.resolve("auto").id());
    }

    @Test
    void openByIdThroughBackends() {
        needOpenCl();
        try (BackprojectionBackend b = Backends.open("opencl", BackendOptions.defaults().withVariant("alu"))) {
            Requisition r = b.validate(smallJob());
            assertTrue(r.description().contains("alu"), r.description());
            assertTrue(b.deviceDescription().startsWith("opencl: "), b.deviceDescription());
        }
    }

    @Test
    void noPlatformGivesClearReason() throws Exception {
        // a child JVM whose ICD loader sees no vendors: the probe must answer, not throw
        Path empty = Files.createTempDirectory("no-icd");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "org.tomospark.executor.backends.opencl.ProbeMain");
        pb.environment().put("OCL_ICD_VENDORS", empty.toString());
        pb.environment().remove("OPENCL_VENDOR_PATH");
        pb.redirectErrorStream(true);
        Process proc = pb.start();
        String outText = new String(proc.getInputStream().readAllBytes());
        assertTrue(proc.waitFor(60, TimeUnit.SECONDS), "probe child hung");
        assertEquals(0, proc.exitValue(), outText);
        // the premise: a loader that reads its vendors from OCL_ICD_VENDORS (ocl-icd does; NVIDIA's loader on the GPU
        // machine finds its platform anyway)
        assumeFalse(outText.contains("reason=null"), "this machine's OpenCL loader ignores OCL_ICD_VENDORS: " + outText);
        assertTrue(outText.contains("reason=no OpenCL platform is installed"), outText);
        assertTrue(outText.contains("auto=false"), outText);
        assertTrue(outText.contains("resolved=java"), outText);
        assertTrue(outText.contains("open-error=backend 'opencl' was requested but cannot run here: no OpenCL platform"), outText);
    }

    @Test
    void buildFailureIncludesBuildLog() {
        needOpenCl();
        for (String v : new String[]{"std", "alu"}) {
            try (OpenClBackend b = new OpenClBackend()) {
                b.setup(BackendOptions.defaults().withVariant(v).withExtra("opencl.define", "-DBROKEN=1"));
                OpenClException e = assertThrows(OpenClException.class, () -> b.validate(smallJob()));
                assertTrue(e.getMessage().contains("Build log:"), e.getMessage());
                assertTrue(e.getMessage().contains("-DBROKEN=1"), e.getMessage());
                assertTrue(e.getMessage().contains("CL_BUILD_PROGRAM_FAILURE"), e.getMessage());
                // the compiler's own complaint about the deliberate error line is in the log
                assertTrue(e.getMessage().contains("error"), e.getMessage());
            }
        }
    }

    @Test
    void outOfResourcesSaysSizeAndLimit() {
        needOpenCl();
        // 60000 projections x 60000 bins x 4 slices x 4 B = 57.6 GB in one buffer: beyond any device's
        // CL_DEVICE_MAX_MEM_ALLOC_SIZE, so validate() refuses before allocating, naming size and limit
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(60000).anglesRange(180, 60000).build();
        BackprojectionJob job = new BackprojectionJob(scan, SliceGeometry.square(64), 4);
        try (OpenClBackend b = new OpenClBackend()) {
            b.setup(BackendOptions.defaults().withVariant("alu"));
            OpenClException e = assertThrows(OpenClException.class, () -> b.validate(job));
            assertTrue(e.getMessage().contains("needs 57600000000 bytes"), e.getMessage());
            assertTrue(e.getMessage().contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE"), e.getMessage());
        }
    }

    @Test
    void outOfResourcesStatusIsTranslated() {
        needOpenCl();
        try (OpenClBackend b = new OpenClBackend()) {
            b.setup(BackendOptions.defaults());
            OpenClException e = b.resourceError("allocating the test buffer", 123456789L,
                    new CLException("x", CL.CL_MEM_OBJECT_ALLOCATION_FAILURE));
            assertTrue(e.getMessage().contains("123456789 bytes"), e.getMessage());
            assertTrue(e.getMessage().contains("CL_MEM_OBJECT_ALLOCATION_FAILURE"), e.getMessage());
            assertTrue(e.getMessage().contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE"), e.getMessage());
        }
    }

    @Test
    void missingImageFormatIsAClearError() {
        needOpenCl();
        try (OpenClBackend b = new OpenClBackend()) {
            b.setup(BackendOptions.defaults().withVariant("tex2").withSlicesPerPass(2));
            ClDeviceContext ctx = ClRuntime.context(ClRuntime.select(DeviceSelector.parse("")));
            if (ctx.supportsImageFormat(CL.CL_RG, CL.CL_FLOAT)) {
                assertEquals(2, b.validate(smallJob()).slicesPerPass());
            } else { // PoCL
                OpenClException e = assertThrows(OpenClException.class, () -> b.validate(smallJob()));
                assertTrue(e.getMessage().contains("CL_RG/CL_FLOAT"), e.getMessage());
                assertTrue(e.getMessage().contains("use tex4 or alu"), e.getMessage());
            }
        }
    }

    @Test
    void deviceWithoutImages() {
        needOpenCl();
        try (OpenClBackend b = new OpenClBackend()) {
            b.setup(BackendOptions.defaults().withVariant("tex4").withExtra("opencl.images", "off"));
            OpenClException e = assertThrows(OpenClException.class, () -> b.validate(smallJob()));
            assertTrue(e.getMessage().contains("needs image support"), e.getMessage());
            assertTrue(e.getMessage().contains("use variant alu"), e.getMessage());
        }
        try (OpenClBackend b = new OpenClBackend()) { // auto falls back to the buffer kernel
            b.setup(BackendOptions.defaults().withVariant("auto").withExtra("opencl.images", "off"));
            assertTrue(b.validate(smallJob()).description().contains("alu"));
        }
    }

    @Test
    void unknownVariantAndBadDeviceIndex() {
        needOpenCl();
        try (OpenClBackend b = new OpenClBackend()) {
            b.setup(BackendOptions.defaults().withVariant("tex9"));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.validate(smallJob()));
            assertTrue(e.getMessage().contains("expected auto, std, tex2, tex4, tex4half or alu"), e.getMessage());
        }
        OpenClBackend b = new OpenClBackend();
        OpenClException e = assertThrows(OpenClException.class, () -> b.setup(BackendOptions.defaults().withDevice("any:99")));
        assertTrue(e.getMessage().contains("index 99 does not exist"), e.getMessage());
        b.close();
    }

    @Test
    void contextAndProgramsAreShared() {
        needOpenCl();
        BackprojectionJob job = smallJob();
        try (OpenClBackend a = new OpenClBackend(); OpenClBackend b = new OpenClBackend()) {
            a.setup(BackendOptions.defaults().withVariant("std"));
            a.validate(job);
            ClDeviceContext ctx = ClRuntime.context(ClRuntime.select(DeviceSelector.parse("")));
            int contexts = ClRuntime.contextCount();
            int programs = ctx.programCount();
            b.setup(BackendOptions.defaults().withVariant("std"));
            b.validate(job);
            assertEquals(contexts, ClRuntime.contextCount(), "a second backend created another context");
            assertEquals(programs, ctx.programCount(), "the same source and options were built twice");
            assertSame(ctx, ClRuntime.context(ClRuntime.select(DeviceSelector.parse(""))));
            b.validate(job); // re-validate reuses too
            assertEquals(programs, ctx.programCount());
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({"alu,ZERO,RAMLAK", "std,EDGE,HANN", "tex4,ZERO,SHEPP_LOGAN", "tex4half,EDGE,RAMLAK", "alu,EDGE,COSINE"})
    void deviceRampFilterMatchesHostFilter(String variant, Padding pad, FilterWindow window) {
        needOpenCl();
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(181).anglesRange(180, 97).centerOfRotation(92.5).build();
        FilterSpec fs = new FilterSpec(window, window == FilterWindow.HANN ? 0.8 : 1.0, pad);
        BackprojectionJob job = new BackprojectionJob(scan, SliceGeometry.full(150, 131), 5, fs);
        boolean half = variant.endsWith("half");
        int k = variant.equals("std") ? 1 : 4;
        BackendOptions o = BackendOptions.defaults().withVariant(variant).withSlicesPerPass(k)
                .withFormat(half ? SampleFormat.HALF : SampleFormat.FLOAT32).withExtra("opencl.filter", "device");
        float[][] raw = Phantoms.discs(5, scan, false);
        float[][] hostFiltered = new float[raw.length][];
        RampFilter f = new RampFilter(181, 97, fs);
        for (int s = 0; s < raw.length; s++) {
            hostFiltered[s] = raw[s].clone();
            f.filterRows(hostFiltered[s], 97, null);
        }
        float[][] ref = TestData.javaReference(o, new BackprojectionJob(scan, job.slice(), 5), hostFiltered);
        try (OpenClBackend b = new OpenClBackend()) {
            b.setup(o);
            Requisition r = b.validate(job);
            assertTrue(r.filtersOnDevice(), r.description());
            float[][] got = TestData.run(b, job, raw, false);
            double err = ImageErrors.relL2(got, ref);
            System.out.printf("device filter %s %s %s: rel L2 %.3g%n", variant, pad, window, err);
            // float32: PoCL within 1e-5; NVIDIA's OpenCL on an H200 3.9e-5 (std) and 8.7e-5 (tex4), the back-projection's
            // own rounding there (OpenClBackendTest's float bound is 1e-4 for the same reason)
            assertTrue(err < (half ? 1e-3 : 1e-4), "device-filtered " + variant + " differs from host filter + java: " + err);
            // a batch that arrives already filtered is not filtered twice
            float[][] again = TestData.run(b, job, hostFiltered, true);
            double againErr = ImageErrors.relL2(again, ref);
            assertTrue(againErr < (half ? 1e-3 : 1e-4), "pre-filtered " + variant + " differs from java: " + againErr);
        }
    }

    @Test
    void hostFilterIsTheDefault() {
        needOpenCl();
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(96).anglesRange(180, 45).build();
        BackprojectionJob job = new BackprojectionJob(scan, SliceGeometry.square(64), 4, FilterSpec.of(FilterWindow.RAMLAK));
        try (OpenClBackend b = new OpenClBackend()) {
            b.setup(BackendOptions.defaults().withInterpolation(Interpolation.NEAREST));
            assertFalse(b.validate(job).filtersOnDevice());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> TestData.run(b, job, Noise.uniform(1, 45 * 96, 1), false));
            assertTrue(e.getMessage().contains("expects filtered sinograms"), e.getMessage());
        }
    }

    @Test
    void kernelSourcesArePackagedAsResources() {
        assertNotNull(getClass().getClassLoader().getResource("kernels/bp_image.cl"));
        assertNotNull(getClass().getClassLoader().getResource("kernels/bp_alu.cl"));
        assertNotNull(getClass().getClassLoader().getResource("kernels/ramp_filter.cl"));
        assertNull(getClass().getClassLoader().getResource("kernels/none.cl"));
        assertTrue(new File("../kernels/bp_image.cl").isFile() || new File("kernels/bp_image.cl").isFile());
    }
}
