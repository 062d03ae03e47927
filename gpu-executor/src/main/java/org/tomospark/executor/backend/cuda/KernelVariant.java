package org.tomospark.executor.backend.cuda;

import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One compiled back-projection kernel: family, slices per pass, storage format, interpolation and the
 * template parameters it was instantiated with in kernels/backproject.cu. {@link #functionName()} gives the
 * {@code extern "C"} symbol; {@link #id()} the user-facing variant string accepted by {@code backend.variant}.
 *
 * <p>Variant strings: {@code std} (seed paper Algorithm 1), {@code stdz} (Algorithm 1 with the Z-order remap
 * of Algorithm 2), {@code tex} (Algorithm 3: remap, 4 projections in parallel, reduction), {@code alu[:tTpP][:adv|:std]}
 * (Algorithm 6, shared-memory cache, tile T, P pixels per thread, advanced or standard caching),
 * {@code hybrid[:tTpP][:sS]} (sect. 7.1: S of every 16+S projections through the texture unit). Half modes with
 * advanced caching and 2+ slices also take {@code :h2} (interpolation in packed half2, accumulation in float) or
 * {@code :h2p} (as h2, two projections summed in half2 before each conversion). {@code hybrid...:x} fetches both
 * neighbouring bins through the texture at their centres and interpolates in float (exact, no 8-bit weights).
 */
public record KernelVariant(Family family, int k, SampleFormat format, Interpolation interpolation, boolean zorder,
                            boolean advanced, int tile, int ppt, int texProjections, int halfMath, boolean texExact,
                            int minBlocks) {

    public KernelVariant(Family family, int k, SampleFormat format, Interpolation interpolation, boolean zorder,
                         boolean advanced, int tile, int ppt, int texProjections, int halfMath, boolean texExact) {
        this(family, k, format, interpolation, zorder, advanced, tile, ppt, texProjections, halfMath, texExact, 0);
    }

    /** Variant without packed-half arithmetic. */
    public KernelVariant(Family family, int k, SampleFormat format, Interpolation interpolation, boolean zorder,
                         boolean advanced, int tile, int ppt, int texProjections) {
        this(family, k, format, interpolation, zorder, advanced, tile, ppt, texProjections, 0, false);
    }

    public KernelVariant(Family family, int k, SampleFormat format, Interpolation interpolation, boolean zorder,
                         boolean advanced, int tile, int ppt, int texProjections, int halfMath) {
        this(family, k, format, interpolation, zorder, advanced, tile, ppt, texProjections, halfMath, false);
    }

    private static String hmSuffix(int hm, char sep) {
        return hm == 1 ? sep + "h2" : hm == 2 ? sep + "h2p" : "";
    }

    public enum Family { STD, TEX, ALU }

    /** Threads per block. */
    public int threads() {
        return switch (family) {
            case STD, TEX -> 256;
            case ALU -> tile * tile / ppt;
        };
    }

    /** Pixels along x and y covered by one block. */
    public int blockTile() {
        return family == Family.ALU ? tile : 16;
    }

    public boolean usesTexture() {
        return family != Family.ALU || texProjections > 0;
    }

    public boolean hybrid() {
        return family == Family.ALU && texProjections > 0;
    }

    /** Texture kernels keep the projection constants in 64 KiB of constant memory. */
    public int maxProjections() {
        return family == Family.ALU ? Integer.MAX_VALUE : 4096;
    }

    /** Whether results are bound by NVIDIA's 8-bit texture interpolation weights (linear through the texture). */
    public boolean textureWeights() {
        return usesTexture() && interpolation == Interpolation.LINEAR && !texExact;
    }

    public String functionName() {
        String in = interpolation == Interpolation.LINEAR ? "lin" : "nn";
        return switch (family) {
            case STD -> "bp_std_k" + k + "_" + in + "_" + (zorder ? "z" : "l");
            case TEX -> "bp_tex_k" + k + "_" + in;
            case ALU -> "bp_alu_k" + k + "_" + (format == SampleFormat.HALF ? "h" : "f") + "_" + in + "_"
                    + (advanced ? "adv" : "std") + "_t" + tile + "p" + ppt + "_s" + texProjections + hmSuffix(halfMath, '_') + (texExact ? "_x" : "") + (minBlocks > 0 ? "_b" + minBlocks : "");
        };
    }

    /** Canonical variant string (without the mode). */
    public String id() {
        return switch (family) {
            case STD -> zorder ? "stdz" : "std";
            case TEX -> "tex";
            case ALU -> (texProjections > 0 ? "hybrid" : "alu") + ":t" + tile + "p" + ppt + (minBlocks > 0 ? "b" + minBlocks : "")
                    + (texProjections > 0 ? ":s" + texProjections : "")
                    + (interpolation == Interpolation.LINEAR ? (advanced ? ":adv" : ":std") : "") + hmSuffix(halfMath, ':') + (texExact ? ":x" : "");
        };
    }

    @Override
    public String toString() {
        return id() + " [" + modeKey(k, format, interpolation) + ", " + functionName() + "]";
    }

    /** The key of a (slices, format, interpolation) mode, as used in tuning tables: e.g. {@code k4.half.linear}. */
    public static String modeKey(int k, SampleFormat f, Interpolation i) {
        return "k" + k + "." + f.name().toLowerCase(Locale.ROOT) + "." + i.name().toLowerCase(Locale.ROOT);
    }

    /** Largest slices-per-pass the family supports that is ≤ k. */
    public static int kernelSlices(Family fam, int k) {
        int max = fam == Family.ALU ? 8 : 4;
        return Math.min(Integer.highestOneBit(Math.max(1, k)), max);
    }

    /** Every instantiated variant for a mode (mirrors the instantiation list at the end of kernels/backproject.cu). */
    public static List<KernelVariant> all(int kIn, SampleFormat f, Interpolation in) {
        List<KernelVariant> l = new ArrayList<>();
        boolean lin = in == Interpolation.LINEAR;
        int kt = kernelSlices(Family.STD, kIn);
        l.add(new KernelVariant(Family.STD, kt, f, in, false, false, 16, 1, 0));
        l.add(new KernelVariant(Family.STD, kt, f, in, true, false, 16, 1, 0));
        l.add(new KernelVariant(Family.TEX, kt, f, in, true, false, 16, 4, 0));
        int ka = kernelSlices(Family.ALU, kIn);
        for (int ppt : new int[]{4, 8}) {
            if (lin) {
                l.add(new KernelVariant(Family.ALU, ka, f, in, true, true, 32, ppt, 0));
                l.add(new KernelVariant(Family.ALU, ka, f, in, true, false, 32, ppt, 0));
            } else {
                l.add(new KernelVariant(Family.ALU, ka, f, in, true, false, 32, ppt, 0));
            }
        }
        if (lin && f == SampleFormat.HALF && ka >= 4)
            l.add(new KernelVariant(Family.ALU, ka, f, in, true, true, 64, 16, 0));
        boolean h2 = lin && f == SampleFormat.HALF && ka >= 2;
        if (h2) {
            for (int hm = 1; hm <= 2; hm++)
                for (int ppt : new int[]{4, 8})
                    l.add(new KernelVariant(Family.ALU, ka, f, in, true, true, 32, ppt, 0, hm));
            if (ka == 4) l.add(new KernelVariant(Family.ALU, ka, f, in, true, true, 32, 8, 0, 2, false, 10));
        }
        if (!lin && f == SampleFormat.HALF && ka == 8)
            l.add(new KernelVariant(Family.ALU, ka, f, in, true, false, 32, 4, 0, 0, false, 4));
        int kh = Math.min(ka, 4);
        if (lin) {
            l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 4));
            l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 8));
            l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 4, 4));
            if (h2) {
                l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 8, 1));
                l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 8, 2));
                l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 4, 2));
                l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 12, 2));
                l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 16, 2));
                if (kh == 4) {
                    l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 8, 2, false, 8));
                    l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 12, 2, false, 8));
                } else {
                    l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 8, 2, false, 10));
                }
            }
            if (!(f == SampleFormat.HALF && kh == 1)) {
                l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 4, 0, true));
                l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 8, 0, true));
            }
        } else {
            l.add(new KernelVariant(Family.ALU, kh, f, in, true, false, 32, 8, 4));
        }
        return l;
    }

    /**
     * Resolves a variant string for a mode. Unspecified parameters take the defaults of the family
     * (alu: t32p8, advanced caching; hybrid: t32p8, s4).
     */
    public static KernelVariant parse(String spec, int k, SampleFormat f, Interpolation in) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        String[] parts = s.split(":");
        String fam = parts[0];
        List<KernelVariant> all = all(k, f, in);
        switch (fam) {
            case "std", "stdz", "tex" -> {
                if (parts.length > 1) throw new IllegalArgumentException("cuda variant '" + spec + "': " + fam + " takes no parameters");
                for (KernelVariant v : all) if (v.id().equals(fam)) return v;
            }
            case "alu", "hybrid" -> {
                int tile = 32, ppt = 8, st = fam.equals("hybrid") ? 4 : 0, hm = 0;
                boolean tx = false;
                int mb = 0;
                boolean adv = in == Interpolation.LINEAR;
                for (int i = 1; i < parts.length; i++) {
                    String p = parts[i];
                    if (p.equals("adv")) adv = true;
                    else if (p.equals("std")) adv = false;
                    else if (p.equals("h2")) hm = 1;
                    else if (p.equals("h2p")) hm = 2;
                    else if (p.equals("x") && fam.equals("hybrid")) tx = true;
                    else if (p.matches("t\\d+p\\d+(b\\d+)?")) {
                        tile = Integer.parseInt(p.substring(1, p.indexOf('p')));
                        int b = p.indexOf('b');
                        ppt = Integer.parseInt(p.substring(p.indexOf('p') + 1, b < 0 ? p.length() : b));
                        mb = b < 0 ? 0 : Integer.parseInt(p.substring(b + 1));
                    } else if (p.matches("s\\d+") && fam.equals("hybrid")) st = Integer.parseInt(p.substring(1));
                    else throw new IllegalArgumentException("cuda variant '" + spec + "': unknown parameter '" + p
                                + "' (expected tTpP, adv, std, h2, h2p" + (fam.equals("hybrid") ? ", sS, x" : "") + ")");
                }
                if (in == Interpolation.NEAREST) adv = false;
                for (KernelVariant v : all)
                    if (v.family == Family.ALU && v.tile == tile && v.ppt == ppt && v.texProjections == st && v.advanced == adv
                            && v.halfMath == hm && v.texExact == tx && v.minBlocks == mb)
                        return v;
                throw new IllegalArgumentException("cuda variant '" + spec + "' is not compiled for mode "
                        + modeKey(k, f, in) + "; compiled variants: " + ids(all));
            }
            default -> {
            }
        }
        throw new IllegalArgumentException("unknown cuda variant '" + spec + "': expected auto, std, stdz, tex, alu[:tTpP][:adv|:std] "
                + "or hybrid[:tTpP][:sS]; for mode " + modeKey(k, f, in) + ": " + ids(all));
    }

    static List<String> ids(List<KernelVariant> l) {
        List<String> r = new ArrayList<>();
        for (KernelVariant v : l) r.add(v.id());
        return r;
    }
}
