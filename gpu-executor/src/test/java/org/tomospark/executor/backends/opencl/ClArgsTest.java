package org.tomospark.executor.backends.opencl;

import org.jocl.cl_mem;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.clCreateBuffer;
import static org.jocl.CL.clReleaseMemObject;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * OpenCL arguments are bound by the names the kernel sources declare, as the compiler reports them: a parameter renamed
 * (or added, or moved) in kernels/*.cl fails here and in every OpenCL test until the Java code agrees, naming the
 * kernel and its parameters; arguments of the wrong kind, set twice or left unset fail too.
 */
class ClArgsTest {
    private ClDeviceContext ctx;

    @BeforeEach
    void openCl() {
        assumeTrue(ClRuntime.unavailableReason() == null, () -> "no OpenCL here: " + ClRuntime.unavailableReason());
        ctx = ClRuntime.context(ClRuntime.select(DeviceSelector.parse("")));
    }

    private ClKernel rampFilter(String source) {
        String opts = ClPrograms.rampFilter().nfft(64).log2n(6).channels(1).edgePad(false).outHalf(false).build().options();
        return ClKernel.create(ctx.program("ramp_filter.cl", source, opts), ClPrograms.RampFilter.RAMP_FILTER);
    }

    @Test
    void theKernelsParametersAreTheSourcesInItsOrder() {
        ClKernel k = rampFilter(KernelSources.get("ramp_filter.cl"));
        try {
            assertEquals(List.of("raw", "out", "response", "width", "buf"), k.params().stream().map(ClKernel.Param::name).toList());
            assertEquals("int", k.params().get(3).type());
            assertTrue(k.params().get(4).local(), "buf is __local");
            assertTrue(k.params().get(0).type().endsWith("*"), k.params().get(0).type());
        } finally {
            k.release();
        }
    }

    @Test
    void aParameterRenamedInTheKernelSourceFailsItsCaller() {
        String source = KernelSources.get("ramp_filter.cl");
        String renamed = source.replace("const int width", "const int rowWidth").replaceAll("\\bwidth\\b", "rowWidth");
        assertTrue(!renamed.equals(source) && renamed.contains("rowWidth"));
        ClKernel k = rampFilter(renamed);
        cl_mem m = clCreateBuffer(ctx.context(), CL_MEM_READ_WRITE, 256, null, null);
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> k.args().mem("raw", m).mem("out", m).mem("response", m).i32("width", 64));
            assertTrue(e.getMessage().contains("ramp_filter has no parameter 'width'")
                    && e.getMessage().contains("[raw, out, response, rowWidth, buf]"), e.getMessage());
            // as committed, the same call binds every parameter
            ClKernel committed = rampFilter(source);
            try {
                committed.args().mem("raw", m).mem("out", m).mem("response", m).i32("width", 64).local("buf", 64L * 8).complete();
            } finally {
                committed.release();
            }
        } finally {
            clReleaseMemObject(m);
            k.release();
        }
    }

    @Test
    void wrongKindsRepeatsAndGapsAreErrors() {
        ClKernel k = rampFilter(KernelSources.get("ramp_filter.cl"));
        cl_mem m = clCreateBuffer(ctx.context(), CL_MEM_READ_WRITE, 256, null, null);
        try {
            ClArgs args = k.args();
            IllegalArgumentException kind = assertThrows(IllegalArgumentException.class, () -> args.i32("raw", 1));
            assertTrue(kind.getMessage().contains("'raw'") && kind.getMessage().contains("given an int"), kind.getMessage());
            // a refused argument leaves its parameter unset: the right one is taken after it
            args.mem("raw", m).mem("out", m).mem("response", m).i32("width", 64).local("buf", 64L * 8).complete();
            assertThrows(IllegalArgumentException.class, () -> k.args().mem("buf", m), "buf is __local");
            assertThrows(IllegalArgumentException.class, () -> k.args().local("width", 8));
            IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                    () -> k.args().i32("width", 1).i32("width", 2));
            assertTrue(twice.getMessage().contains("'width' set twice"), twice.getMessage());
            IllegalStateException gap = assertThrows(IllegalStateException.class,
                    () -> k.args().mem("raw", m).i32("width", 3).complete());
            assertTrue(gap.getMessage().contains("[out, response, buf]"), gap.getMessage());
        } finally {
            clReleaseMemObject(m);
            k.release();
        }
    }

    /** A REAL parameter (a typedef of double or float) takes the program's width: fdk.cl's centres, with and without doubles. */
    @Test
    void realParametersFollowTheProgramsPrecision() {
        for (boolean fp64 : new boolean[]{false, true}) {
            if (fp64 && !ctx.hasExtension("cl_khr_fp64")) continue;
            ClKernel k = ClKernel.create(ctx.program(ClPrograms.fdk().zb(4).useDouble(fp64).build()), ClPrograms.Fdk.FDK_COLUMNS, fp64);
            try {
                ClKernel.Param centre = k.params().stream().filter(p -> p.name().equals("centreXy")).findFirst().orElseThrow();
                assertTrue(List.of("REAL", fp64 ? "double" : "float").contains(centre.type()), centre.type());
                k.args().real("centreXy", 1.5);
            } finally {
                k.release();
            }
        }
    }
}
