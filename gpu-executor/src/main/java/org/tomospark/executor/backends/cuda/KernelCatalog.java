package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.backends.cuda.KernelVariant.CacheFill;
import org.tomospark.executor.backends.cuda.KernelVariant.Design;
import org.tomospark.executor.backends.cuda.KernelVariant.Family;
import org.tomospark.executor.backends.cuda.KernelVariant.HalfMath;
import org.tomospark.executor.backends.cuda.KernelVariant.TexRead;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The back-projection kernels of one build ({@link KernelBuild}) by mode: which variants a (slices, storage,
 * interpolation) mode may use, the variant a {@code backend.variant} string names, and the replacements for a device
 * with less shared memory or for small batches.
 */
final class KernelCatalog {
    /** A texture fetch returns at most 4 channels: the texture kernels serve an 8-slice mode with 4-slice bins, twice. */
    static final int MAX_TEXTURE_SLICES = 4;
    /** The widest compound bin of the other kernels (8 slices). */
    static final int MAX_SLICES = 8;
    private static final Pattern ALU_SHAPE = Pattern.compile("t(\\d+)p(\\d+)(?:b(\\d+))?(?:r(\\d+))?");
    private static final Pattern TC_TILE = Pattern.compile("t(\\d{1,4})x(\\d{1,4})");

    private final List<KernelVariant> variants;
    private final boolean complete;

    /**
     * @param complete whether every row of variants.def is compiled (else errors point to the build that has them)
     */
    KernelCatalog(List<KernelVariant> variants, boolean complete) {
        this.variants = List.copyOf(variants);
        this.complete = complete;
    }

    /** The rows compiled beside the manifest. */
    static KernelCatalog compiled(KernelManifest m) {
        boolean complete = m.rows().stream().allMatch(r -> m.compiled().contains(r.set()));
        return new KernelCatalog(m.compiledVariants(), complete);
    }

    List<KernelVariant> variants() {
        return variants;
    }

    /** Slices per bin of the kernels that serve a mode of {@code k} slices per pass (texture-bound or not). */
    static int kernelSlices(int k, boolean textureBins) {
        return Math.min(Integer.highestOneBit(Math.max(1, k)), textureBins ? MAX_TEXTURE_SLICES : MAX_SLICES);
    }

    private static boolean fetchesBinsFromTexture(KernelVariant v) {
        return v.design().texRead() == TexRead.FILTERED || v.design().texRead() == TexRead.EXACT;
    }

    /** Every compiled variant for a mode: its storage and interpolation, bins of the mode's slices (or fewer, see above). */
    List<KernelVariant> forMode(int k, SampleFormat f, Interpolation in) {
        List<KernelVariant> l = new ArrayList<>();
        for (KernelVariant v : variants)
            if (v.format() == f && v.interpolation() == in && v.k() == kernelSlices(k, fetchesBinsFromTexture(v))) l.add(v);
        return l;
    }

    /**
     * Resolves a variant string for a mode. Unspecified parameters take the defaults of the family (alu: t32p8,
     * advanced caching for linear; hybrid: t32p8, s4; tc: t32x16, b16).
     */
    KernelVariant parse(String spec, int k, SampleFormat f, Interpolation in) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        String[] parts = s.split(":");
        String fam = parts[0];
        List<KernelVariant> all = forMode(k, f, in);
        switch (fam) {
            case "std", "stdz", "tex" -> {
                if (parts.length > 1) throw new IllegalArgumentException("backend.variant '" + spec + "': " + fam + " takes no parameters");
                for (KernelVariant v : all) if (v.id().equals(fam)) return v;
                throw notCompiled(spec, k, f, in, all);
            }
            case "alu", "hybrid" -> {
                return find(aluDesign(spec, parts, k, f, in), spec, k, f, in, all);
            }
            case "tc" -> {
                return find(tensorDesign(spec, parts, k, f, in), spec, k, f, in, all);
            }
            default -> throw new IllegalArgumentException("backend.variant: unknown cuda variant '" + spec
                    + "': expected auto, std, stdz, tex, alu[:tTpP][:adv|:std], hybrid[:tTpP][:sS] or tc[:tWxH][:bN]; for mode "
                    + KernelVariant.modeKey(k, f, in) + ": " + ids(all));
        }
    }

    private KernelVariant find(Design wanted, String spec, int k, SampleFormat f, Interpolation in, List<KernelVariant> all) {
        for (KernelVariant v : all) if (v.design().equals(wanted)) return v;
        throw notCompiled(spec, k, f, in, all);
    }

    private IllegalArgumentException notCompiled(String spec, int k, SampleFormat f, Interpolation in, List<KernelVariant> all) {
        return new IllegalArgumentException("backend.variant '" + spec + "' is not compiled for mode "
                + KernelVariant.modeKey(k, f, in) + "; compiled variants: " + ids(all) + (complete ? ""
                : " (this build holds the product kernels; mvn -P cuda-explore or kernels/build-ptx.sh --all builds every variant)"));
    }

    /** The design an alu or hybrid variant string names. */
    private static Design aluDesign(String spec, String[] parts, int k, SampleFormat f, Interpolation in) {
        boolean hybridFamily = parts[0].equals("hybrid");
        int tile = 32, ppt = 8, st = hybridFamily ? 4 : 0, async = 0, win = 0, mb = 0, regs = 0;
        HalfMath hm = HalfMath.NONE;
        TexRead tx = hybridFamily ? TexRead.FILTERED : TexRead.NONE;
        boolean adv = in == Interpolation.LINEAR, cachingNamed = false;
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i];
            Matcher shape = ALU_SHAPE.matcher(p);
            HalfMath named = halfMath(p);
            if (p.equals("adv") || p.equals("std")) {
                adv = p.equals("adv");
                cachingNamed = true;
            } else if (named != null) {
                hm = named;
            } else if (p.matches("async\\d*") && !hybridFamily) {
                async = p.length() > 5 ? batchNumber(spec, p, 5) : KernelVariant.defaultAsyncBatch(kernelSlices(k, false));
            } else if (p.matches("win\\d*") && !hybridFamily) {
                win = p.length() > 3 ? batchNumber(spec, p, 3) : KernelVariant.DEFAULT_WINDOW_BATCH;
            } else if (p.equals("x") && hybridFamily) {
                tx = TexRead.EXACT;
            } else if (p.equals("xe") && hybridFamily) {
                tx = TexRead.ENTRIES;
            } else if (shape.matches()) {
                // tTpP[bB][rR]: tile, pixels per thread, minimum blocks per SM, register cap
                tile = Integer.parseInt(shape.group(1));
                ppt = Integer.parseInt(shape.group(2));
                mb = shape.group(3) == null ? 0 : Integer.parseInt(shape.group(3));
                regs = shape.group(4) == null ? 0 : Integer.parseInt(shape.group(4));
            } else if (p.matches("s\\d+") && hybridFamily) {
                st = Integer.parseInt(p.substring(1));
            } else {
                throw new IllegalArgumentException("backend.variant '" + spec + "': unknown parameter '" + p
                        + "' (expected tTpP[bB][rR], adv, std, h2, h2p, h4p, h8p"
                        + (hybridFamily ? ", sS, x, xe" : ", async[N], win[N]") + ")");
            }
        }
        boolean window = win > 0;
        if (window && (async > 0 || cachingNamed))
            throw new IllegalArgumentException("backend.variant '" + spec + "': win caches bins in its own way; it takes no "
                    + (async > 0 ? "async" : adv ? "adv" : "std"));
        if (window && !windowMode(kernelSlices(k, false), f, in))
            throw new IllegalArgumentException("backend.variant '" + spec + "': the register-window kernels serve 8 half slices "
                    + "or 4 or 8 float32 slices, linear (backend.slicesPerPass 4, 8 or 16), not mode " + KernelVariant.modeKey(k, f, in));
        if (window && (f == SampleFormat.HALF) == (hm == HalfMath.NONE))
            throw new IllegalArgumentException("backend.variant '" + spec + "': the register-window kernel of "
                    + KernelVariant.modeKey(k, f, in) + (f == SampleFormat.HALF ? " needs h4p or h8p" : " takes no half math"));
        if (in == Interpolation.NEAREST || window) adv = false;
        CacheFill fill = window ? CacheFill.BINS : async > 0 ? CacheFill.ENTRIES : CacheFill.REGISTERS;
        return Design.builder(Family.ALU).advanced(adv).tile(tile, tile).ppt(ppt).texShare(st).halfMath(hm).texRead(tx)
                .minBlocks(mb).maxRegs(regs).fill(fill, window ? win : async).build();
    }

    /** Whether a register-window kernel serves bins of k slices: 8 half, or 4 or 8 float32, linear. */
    private static boolean windowMode(int k, SampleFormat f, Interpolation in) {
        if (in != Interpolation.LINEAR) return false;
        return f == SampleFormat.HALF ? k == 8 : k == 4 || k == 8;
    }

    private static HalfMath halfMath(String part) {
        for (HalfMath h : HalfMath.values()) if (h != HalfMath.NONE && h.token.equals(part)) return h;
        return null;
    }

    /** The design a tc variant string names. */
    private static Design tensorDesign(String spec, String[] parts, int k, SampleFormat f, Interpolation in) {
        int cols = 32, rows = 16, batch = KernelVariant.DEFAULT_TC_BATCH;
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i];
            Matcher m = TC_TILE.matcher(p);
            if (m.matches()) {
                cols = Integer.parseInt(m.group(1));
                rows = Integer.parseInt(m.group(2));
            } else if (p.matches("b\\d*")) {
                batch = batchNumber(spec, p, 1);
            } else {
                throw new IllegalArgumentException("backend.variant '" + spec + "': unknown parameter '" + p + "' (expected tWxH, bN)");
            }
        }
        int kt = kernelSlices(k, false);
        if (!((kt == 8 || kt == 4) && f == SampleFormat.HALF && in == Interpolation.LINEAR))
            throw new IllegalArgumentException("backend.variant '" + spec + "': the tensor-core kernel serves 8 or 4 half slices, "
                    + "linear (backend.slicesPerPass 4, 8 or 16, or 0, with half storage), not mode " + KernelVariant.modeKey(k, f, in));
        return Design.builder(Family.TC).tile(cols, rows).fill(CacheFill.BINS, batch).build();
    }

    /** The N of asyncN / winN / bN: projections per cache buffer, a positive number. */
    private static int batchNumber(String spec, String part, int prefix) {
        String digits = part.substring(prefix);
        try {
            int n = Integer.parseInt(digits);
            if (n > 0) return n;
        } catch (NumberFormatException e) {
            // falls through to the error below
        }
        throw new IllegalArgumentException("backend.variant '" + spec + "': " + part.substring(0, prefix) + digits
                + ": the number of projections per cache buffer must be a positive integer");
    }

    /**
     * {@code v}, unless it is a tensor-core variant and batches of {@code maxSlices} slices would leave its 32-slice
     * blocks so empty that the mode's fastest CUDA-core kernel is faster: a tc block costs the same for 1 or 32
     * slices, so tc at s slices runs at s/32 of its speed. H200 (BENCHMARKS.md): k8 11.6 TU/s against the window
     * kernel's 9.44 (tc pays from 26 slices), k4 10.1 against 7.0 (from 23).
     */
    KernelVariant forBatch(KernelVariant v, int k, int maxSlices) {
        if (v.family() != Family.TC || maxSlices >= (v.k() == 8 ? 26 : 23)) return v;
        return parse(v.k() == 8 ? "alu:t32p8:h8p:win" : "alu:t64p16:adv:h4p:async12", k, v.format(), v.interpolation());
    }

    /**
     * {@code v} if its shared memory fits {@code maxShared} bytes per block; else the same family's variant of the
     * mode with the most shared memory that fits (e.g. a 32x32 tensor-core tile chosen on an H200 becomes 32x16 on a
     * GPU with 99 KiB per block), else {@code alu}. {@code k} is the slices per pass the variant was parsed for.
     */
    KernelVariant fittingShared(KernelVariant v, int k, int maxShared) {
        if (v.dynamicSharedBytes() <= maxShared) return v;
        KernelVariant fit = null;
        for (KernelVariant c : forMode(k, v.format(), v.interpolation()))
            if (c.family() == v.family() && c.dynamicSharedBytes() <= maxShared
                    && (fit == null || c.dynamicSharedBytes() > fit.dynamicSharedBytes()))
                fit = c;
        return fit != null ? fit : parse("alu", k, v.format(), v.interpolation());
    }

    static List<String> ids(List<KernelVariant> l) {
        List<String> r = new ArrayList<>();
        for (KernelVariant v : l) r.add(v.id());
        return r;
    }
}
