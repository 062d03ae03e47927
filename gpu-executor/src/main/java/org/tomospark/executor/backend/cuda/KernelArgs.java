package org.tomospark.executor.backend.cuda;

import jcuda.NativePointerObject;
import jcuda.Pointer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a kernel's parameter list by parameter name, checked against the kernel's signature (the ordered
 * parameter names of its {@code extern "C"} declaration in kernels/*.cu). All signatures live here, in one
 * place, so no magic argument indices are scattered around.
 */
final class KernelArgs {
    /** Parameter names, in declaration order, per kernel family. Keep in sync with kernels/*.cu. */
    enum Signature {
        TEXTURE("tex", "pd", "out", "rows", "cols", "plane", "np"),
        ALU("sino", "pitch", "width", "np", "pd", "tex", "out", "rows", "cols", "plane"),
        /** The register-window kernels: gmax holds, per group, the magnitude bits its packing was scaled by. */
        WINDOW("sino", "pitch", "width", "np", "pd", "gmax", "out", "rows", "cols", "plane"),
        /** The tensor-core kernels: as WINDOW, and the groups of the launch (32 slices per block along grid z). */
        TENSOR("sino", "pitch", "width", "np", "pd", "gmax", "out", "rows", "cols", "plane", "ngroups"),
        PACK("raw", "width", "np", "sliceStride", "nValid", "dst", "pitch"),
        /** bp_pack_kK_h_win: PACK, scaled by a power of two from the group's largest magnitude (gmax). */
        PACK_WIN("raw", "width", "np", "sliceStride", "nValid", "dst", "pitch", "gmax"),
        /** bp_absmax_kK: the group's largest magnitude, as float bits, atomically into gmax (zeroed by the caller). */
        ABSMAX("raw", "width", "np", "sliceStride", "nValid", "gmax"),
        ENTRIES("sino", "pitch", "width", "np", "dst", "epitch"),
        FILTER("data", "nrows", "width", "n", "tw", "resp", "edge"),
        /** correct_u16: flat/dark correction and -log of a chunk's raw counts into its sinograms. */
        CORRECT("raw", "dark", "den", "out", "width", "np", "floorTr", "clamped"),
        /** joseph_forward_cC_uU_aA_bB: the iterative methods' forward projection of the projections in angles. */
        JOSEPH_FORWARD("img", "sino", "tab", "ftab", "angles", "nangles", "rows", "cols", "width", "k"),
        /** joseph_back_cC_rR_bB: its adjoint, a gather over the projections in angles. */
        JOSEPH_BACK("sino", "img", "tab", "ftab", "angles", "nangles", "rows", "cols", "width", "k"),
        /** it_reciprocal (kernels/iterative.cu). */
        IT_RECIPROCAL("v", "n"),
        /** it_weighted_residual. */
        IT_WEIGHTED_RESIDUAL("p", "y", "r", "n"),
        /** it_scaled_update. */
        IT_SCALED_UPDATE("x", "c", "u", "n", "nonNegative"),
        /** it_subtract_from. */
        IT_SUBTRACT_FROM("b", "r", "n"),
        /** it_axpy. */
        IT_AXPY("coef", "x", "y", "n", "k"),
        /** it_xpby. */
        IT_XPBY("s", "coef", "d", "n", "k"),
        /** it_counts. */
        IT_COUNTS("blank", "p", "out", "n", "rowLen"),
        /** it_likelihood_terms. */
        IT_LIKELIHOOD_TERMS("line", "blank", "counts", "rowSum", "angles", "nangles", "rowLen", "num", "den"),
        /** it_ratio_update. */
        IT_RATIO_UPDATE("x", "num", "den", "n"),
        /** it_sums: per-slice partial sums of a·b (mode 0) or (a − b)² (mode 1), one row of k per block. */
        IT_SUMS("a", "b", "mode", "n", "k", "partials"),
        /** it_first_slice: a weight image from slice 0 of an image of k slices. */
        IT_FIRST_SLICE("image", "w", "n", "k"),
        /** it_weighted_update: x ← x + w·u, w a weight image shared by the k slices. */
        IT_WEIGHTED_UPDATE("x", "w", "u", "n", "k", "nonNegative"),
        /** it_subset_residual: the weighted residual of the rows of angles, and Σ d², one partial per block. */
        IT_SUBSET_RESIDUAL("p", "y", "r", "angles", "nangles", "rowLen", "k", "partials"),
        /** it_offset_reciprocal: 1/(v + offset) on the real elements (edge floats, guardLines lines of guards). */
        IT_OFFSET_RECIPROCAL("v", "n", "offset", "pitch", "edge", "guardLines"),
        /** it_data_dual. */
        IT_DATA_DUAL("q", "y", "p", "sigma", "n"),
        /** it_tv_dual: weight one radius per slice, over the real pixels of rows × cols (guard: PaddedLayout.GUARD). */
        IT_TV_DUAL("zx", "zy", "xbar", "sigma", "weight", "rows", "cols", "k", "guard"),
        /** it_tv_primal. */
        IT_TV_PRIMAL("x", "xbar", "u", "zx", "zy", "tau", "nonNegative", "rows", "cols", "k", "guard"),
        /** Every FDK back-projection kernel (kernels/fdk.cu): fdk_naive and the instantiations of FDK_KERNEL. */
        FDK("q", "tex", "slab", "n", "nz", "k0", "slices", "voxel", "cols", "rows", "bandFirst", "bandRows", "chunk", "p0", "np",
                "cap"),
        /**
         * The texture mode's FDK kernels (FDK_PAIR_KERNEL): FDK's, q the band's half-precision pairs (fdk_pairs) and scale
         * the factor on the band they and the texture hold.
         */
        FDK_PAIRS("q", "tex", "slab", "n", "nz", "k0", "slices", "voxel", "cols", "rows", "bandFirst", "bandRows", "chunk", "p0",
                "np", "cap", "scale"),
        /**
         * The texture mode's split kernel with tensor copies (FDK_TSPLIT, sm_90 on): map the band's pairs as a tensor
         * (TensorMaps, 128 bytes by value), tiles of bw x 8·boxes words.
         */
        FDK_TENSOR("map", "tex", "slab", "n", "nz", "k0", "slices", "voxel", "bandFirst", "bandRows", "chunk", "p0", "np", "bw",
                "boxes", "scale"),
        /** fdk_absmax: the largest |value| of a band, as float bits. */
        FDK_ABSMAX("result", "q", "count"),
        /** fdk_pairs: a band's half-precision pairs (a pixel and the one below), times scale. */
        FDK_MAKE_PAIRS("pairs", "q", "np", "bandRows", "cols", "scale"),
        /** fdk_halves: a band times scale in half precision. */
        FDK_HALVES("halves", "q", "count", "scale"),
        /**
         * fdk_footprint: the largest footprint of a block of the column kernels, and whether any block cannot take one
         * (ends: a bound from the slab's end chunks, for matrices whose u and w do not depend on z).
         */
        FDK_FOOTPRINT("result", "n", "nz", "k0", "slices", "voxel", "p0", "np", "tileX", "tileY", "tileZ", "ends"),
        /** fdk_weight: FDK's cosine and redundancy weights of a band, in place, before its ramp filter. */
        FDK_WEIGHT("q", "uw", "pixels", "bandRows", "cols", "bandFirst", "dsd", "du", "dv", "cu", "cv");

        final List<String> names;

        Signature(String... names) {
            this.names = List.of(names);
        }
    }

    private final Signature sig;
    private final Map<String, Pointer> values = new LinkedHashMap<>();

    private KernelArgs(Signature sig) {
        this.sig = sig;
    }

    static KernelArgs of(Signature sig) {
        return new KernelArgs(sig);
    }

    private KernelArgs put(String name, Pointer p) {
        if (!sig.names.contains(name))
            throw new IllegalArgumentException("kernel signature " + sig + " has no parameter '" + name + "' (has " + sig.names + ")");
        if (values.put(name, p) != null)
            throw new IllegalArgumentException("kernel parameter '" + name + "' of " + sig + " set twice");
        return this;
    }

    KernelArgs ptr(String name, NativePointerObject devicePointerOrHandle) {
        return put(name, Pointer.to(devicePointerOrHandle));
    }

    KernelArgs i32(String name, int v) {
        return put(name, Pointer.to(new int[]{v}));
    }

    KernelArgs f32(String name, float v) {
        return put(name, Pointer.to(new float[]{v}));
    }

    KernelArgs f64(String name, double v) {
        return put(name, Pointer.to(new double[]{v}));
    }

    KernelArgs i64(String name, long v) {
        return put(name, Pointer.to(new long[]{v}));
    }

    /** A parameter passed by value as these bytes (a struct: a tensor map). */
    KernelArgs bytes(String name, byte[] v) {
        return put(name, Pointer.to(v.clone()));
    }

    /** Names that are still missing, in order. */
    List<String> missing() {
        List<String> m = new ArrayList<>();
        for (String n : sig.names) if (!values.containsKey(n)) m.add(n);
        return m;
    }

    /** The parameter array in declaration order; fails naming the missing parameters. */
    Pointer build() {
        List<String> m = missing();
        if (!m.isEmpty()) throw new IllegalStateException("kernel " + sig + ": parameters not set: " + m);
        Pointer[] ps = new Pointer[sig.names.size()];
        for (int i = 0; i < ps.length; i++) ps[i] = values.get(sig.names.get(i));
        return Pointer.to(ps);
    }

    /** For tests: the parameter names in the order {@link #build()} passes them. */
    List<String> order() {
        return Arrays.asList(sig.names.toArray(new String[0]));
    }
}
