package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;

import java.util.ArrayList;
import java.util.List;

/**
 * What benchmarks and tools may ask about the CUDA kernels this jar carries, by variant string: no device and no
 * JCuda types needed. Modes are (slices per pass, storage, interpolation), as {@code backend.slicesPerPass},
 * {@code backend.format} and {@code backend.interpolation} give them.
 */
public final class CudaVariants {
    private CudaVariants() {
    }

    /** The key of a mode in tuning tables and reports, e.g. {@code k4.half.linear}. */
    public static String modeKey(int k, SampleFormat f, Interpolation in) {
        return KernelVariant.modeKey(k, f, in);
    }

    /**
     * The variant strings compiled for a mode whose kernels take all its slices at once (in 8-slice modes the texture
     * kernels, which fetch at most 4 slices, would only run their 4-slice kernel twice and are left out).
     */
    public static List<String> variants(int k, SampleFormat f, Interpolation in) {
        List<String> l = new ArrayList<>();
        for (KernelVariant v : KernelBuild.packaged().catalog().forMode(k, f, in))
            if (v.k() == KernelCatalog.kernelSlices(k, false)) l.add(v.id());
        return l;
    }

    /**
     * Whether a variant interpolates with the texture unit's 8-bit weights (about 2e-3 relative error on white noise
     * instead of float rounding); false for strings this build does not compile.
     */
    public static boolean textureWeights(String variant, int k, SampleFormat f, Interpolation in) {
        try {
            return KernelBuild.packaged().catalog().parse(variant, k, f, in).textureWeights();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The generic fallback table's variant for a mode (what {@code auto} runs without tuning), or {@code alu}. */
    public static String fallback(int k, SampleFormat f, Interpolation in) {
        String v = TuningTable.fallback().generic(modeKey(k, f, in));
        return v != null ? v : "alu";
    }
}
