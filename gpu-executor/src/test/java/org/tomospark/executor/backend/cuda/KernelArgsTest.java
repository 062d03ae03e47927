package org.tomospark.executor.backend.cuda;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /**
     * Every signature against the parameter list the CUDA sources declare (read from kernels/*.cu, not restated):
     * the instantiation macro or extern "C" function that each signature's kernels come from.
     */
    @Test
    void signaturesMatchTheCudaSources() throws Exception {
        String bp = cudaSource("backproject.cu"), filter = cudaSource("filter.cu"), pre = cudaSource("preprocess.cu");
        String joseph = cudaSource("joseph.cu"), iterative = cudaSource("iterative.cu"), fdk = cudaSource("fdk.cu");
        Map<KernelArgs.Signature, List<String>> declared = new EnumMap<>(KernelArgs.Signature.class);
        declared.put(KernelArgs.Signature.TEXTURE, params(bp, "#define TS_STD("));
        declared.put(KernelArgs.Signature.ALU, params(bp, "#define TS_ALU("));
        declared.put(KernelArgs.Signature.WINDOW, params(bp, "#define TS_WIN("));
        declared.put(KernelArgs.Signature.TENSOR, params(bp, "#define TS_TC("));
        declared.put(KernelArgs.Signature.PACK, params(bp, "#define TS_PACK("));
        declared.put(KernelArgs.Signature.PACK_WIN, params(bp, "#define TS_PACK_WIN("));
        declared.put(KernelArgs.Signature.ABSMAX, params(bp, "#define TS_ABSMAX("));
        declared.put(KernelArgs.Signature.ENTRIES, params(bp, "#define TS_ENTRIES("));
        declared.put(KernelArgs.Signature.FILTER, params(filter, "extern \"C\" __global__ void __launch_bounds__(FILTER_THREADS)"));
        declared.put(KernelArgs.Signature.CORRECT, params(pre, "extern \"C\" __global__ void __launch_bounds__(CORRECT_THREADS)"));
        declared.put(KernelArgs.Signature.JOSEPH_FORWARD, params(joseph, "joseph_forward_c##C##_u##U##_a##A##_b##B("));
        declared.put(KernelArgs.Signature.JOSEPH_BACK, params(joseph, "joseph_back_c##C##_r##R##_b##B("));
        declared.put(KernelArgs.Signature.IT_RECIPROCAL, params(iterative, "it_reciprocal("));
        declared.put(KernelArgs.Signature.IT_WEIGHTED_RESIDUAL, params(iterative, "it_weighted_residual("));
        declared.put(KernelArgs.Signature.IT_SCALED_UPDATE, params(iterative, "it_scaled_update("));
        declared.put(KernelArgs.Signature.IT_SUBTRACT_FROM, params(iterative, "it_subtract_from("));
        declared.put(KernelArgs.Signature.IT_AXPY, params(iterative, "it_axpy("));
        declared.put(KernelArgs.Signature.IT_XPBY, params(iterative, "it_xpby("));
        declared.put(KernelArgs.Signature.IT_COUNTS, params(iterative, "it_counts("));
        declared.put(KernelArgs.Signature.IT_LIKELIHOOD_TERMS, params(iterative, "it_likelihood_terms("));
        declared.put(KernelArgs.Signature.IT_RATIO_UPDATE, params(iterative, "it_ratio_update("));
        declared.put(KernelArgs.Signature.IT_SUMS, params(iterative, "it_sums("));
        declared.put(KernelArgs.Signature.IT_FIRST_SLICE, params(iterative, "it_first_slice("));
        declared.put(KernelArgs.Signature.IT_WEIGHTED_UPDATE, params(iterative, "it_weighted_update("));
        declared.put(KernelArgs.Signature.IT_SUBSET_RESIDUAL, params(iterative, "it_subset_residual("));
        declared.put(KernelArgs.Signature.IT_OFFSET_RECIPROCAL, params(iterative, "it_offset_reciprocal("));
        declared.put(KernelArgs.Signature.IT_DATA_DUAL, params(iterative, "it_data_dual("));
        declared.put(KernelArgs.Signature.IT_TV_DUAL, params(iterative, "it_tv_dual("));
        declared.put(KernelArgs.Signature.IT_TV_PRIMAL, params(iterative, "it_tv_primal("));
        declared.put(KernelArgs.Signature.FDK, params(fdk, "fdk_naive("));
        declared.put(KernelArgs.Signature.FDK_PAIRS, params(fdk, "#define FDK_PAIR_KERNEL("));
        declared.put(KernelArgs.Signature.FDK_ABSMAX, params(fdk, "fdk_absmax("));
        declared.put(KernelArgs.Signature.FDK_MAKE_PAIRS, params(fdk, "fdk_pairs("));
        declared.put(KernelArgs.Signature.FDK_HALVES, params(fdk, "fdk_halves("));
        declared.put(KernelArgs.Signature.FDK_FOOTPRINT, params(fdk, "fdk_footprint("));
        declared.put(KernelArgs.Signature.FDK_WEIGHT, params(fdk, "fdk_weight("));
        declared.put(KernelArgs.Signature.FDK_TENSOR, params(fdk, "#define FDK_TSPLIT("));
        for (KernelArgs.Signature sig : KernelArgs.Signature.values())
            assertEquals(declared.get(sig), sig.names, sig + " against its declaration in kernels/");
        // the other macros of the same families declare the same lists
        assertEquals(params(bp, "#define TS_TEX("), KernelArgs.Signature.TEXTURE.names);
        assertEquals(params(bp, "#define TS_ASYNC("), KernelArgs.Signature.ALU.names);
        assertEquals(params(fdk, "#define FDK_KERNEL("), KernelArgs.Signature.FDK.names);
    }

    private static String cudaSource(String name) throws Exception {
        Path p = Path.of("..", "kernels", name);
        if (!Files.exists(p)) p = Path.of("kernels", name);  // run from the repository root
        // macro bodies continue over lines with a trailing backslash
        return Files.readString(p).replace("\\\n", " ");
    }

    /** Parameter names of the first declaration after {@code anchor}: the "(" that a parameter type follows. */
    private static List<String> params(String src, String anchor) {
        int a = src.indexOf(anchor);
        assertTrue(a >= 0, "not found in the CUDA sources: " + anchor);
        Matcher m = Pattern.compile("\\(\\s*(?=(?:const\\s+)?(?:__grid_constant__\\s+)?"
                + "(?:void|float|int|long|unsigned|cudaTextureObject_t|ProjD|CUtensorMap)\\b)").matcher(src);
        assertTrue(m.find(a + anchor.length() - (anchor.endsWith("(") ? 1 : 0)), "no parameter list after " + anchor);
        int end = src.indexOf(')', m.end());
        List<String> names = new ArrayList<>();
        for (String param : src.substring(m.end(), end).split(",")) {
            Matcher id = Pattern.compile("(\\w+)\\s*$").matcher(param.trim());
            assertTrue(id.find(), "parameter without a name after " + anchor + ": " + param);
            names.add(id.group(1));
        }
        return names;
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
