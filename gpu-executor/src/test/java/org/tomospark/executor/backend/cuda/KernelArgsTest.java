package org.tomospark.executor.backend.cuda;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class KernelArgsTest {
    @Test
    void signaturesMatchTheKernelDeclarations() {
        // the order of the extern "C" parameters in kernels/backproject.cu and kernels/filter.cu
        assertEquals(List.of("tex", "pd", "out", "rows", "cols", "plane", "np"), KernelArgs.Signature.TEXTURE.names);
        assertEquals(List.of("sino", "pitch", "width", "np", "pd", "tex", "out", "rows", "cols", "plane"), KernelArgs.Signature.ALU.names);
        assertEquals(List.of("raw", "width", "np", "sliceStride", "nValid", "dst", "pitch"), KernelArgs.Signature.PACK.names);
        assertEquals(List.of("data", "nrows", "width", "n", "tw", "resp", "edge"), KernelArgs.Signature.FILTER.names);
        assertEquals(List.of("sino", "pitch", "width", "np", "dst", "epitch"), KernelArgs.Signature.ENTRIES.names);
    }

    @Test
    void missingUnknownAndDuplicateNamesAreErrors() {
        KernelArgs a = KernelArgs.of(KernelArgs.Signature.PACK).i32("width", 3).i32("np", 2);
        assertEquals(List.of("raw", "sliceStride", "nValid", "dst", "pitch"), a.missing());
        IllegalStateException e = assertThrows(IllegalStateException.class, a::build);
        assertTrue(e.getMessage().contains("[raw, sliceStride, nValid, dst, pitch]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> a.i32("rows", 1));
        assertThrows(IllegalArgumentException.class, () -> a.i32("width", 4));
    }

    @Test
    void buildsInDeclarationOrderRegardlessOfCallOrder() {
        KernelArgs a = KernelArgs.of(KernelArgs.Signature.FILTER).i32("edge", 1).i64("nrows", 10).i32("n", 64)
                .i32("width", 20).i64("tw", 0).i64("resp", 0).i64("data", 0);
        assertTrue(a.missing().isEmpty());
        assertNotNull(a.build());
        assertEquals(KernelArgs.Signature.FILTER.names, a.order());
    }
}
