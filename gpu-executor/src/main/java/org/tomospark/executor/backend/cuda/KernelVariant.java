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
 * {@code :h2p} / {@code :h4p} / {@code :h8p} (as h2, 2 / 4 / 8 projections summed in half2 before each conversion).
 * {@code alu...:async} fills its double-buffered cache with cp.async from a device array of entries, overlapping the
 * copy of the next projection batch with the arithmetic of this one (linear, advanced caching; float32 k1/k2, half
 * with :h2p and up). The texture share
 * of a hybrid is read with the hardware's linear filtering (8-bit weights) by default; {@code hybrid...:x} fetches both
 * neighbouring bins at their centres and interpolates in float; {@code hybrid...:xe} point-fetches the cache entry itself
 * from a device array of entries (one fetch per update) and interpolates it exactly as the shared-memory path does.
 * {@code alu:tTpP:h4p|h8p:win[N]} (8 half slices, linear) is the register-window kernel: its cache holds bins, not
 * entries (N projections per buffer, default 16, filled by cp.async from the compound sinogram), each thread walks a
 * column of P adjacent pixels and keeps the two bins of the current pixel in registers, so one 16-byte load serves
 * each update instead of 32 bytes. It walks the fraction in 32-bit fixed point and weights with 11-bit half weights
 * (2^-13 of their value, as subnormal-range bit patterns), so it reads a compound sinogram packed scaled by a power
 * of two from each group's largest magnitude ({@link #packFunctionName()}, {@link #absMaxFunctionName()}).
 * {@code tc[:tWxH][:bN]} (8 or 4 half slices, linear) is the tensor-core kernel: each warp back-projects 4x4-pixel
 * patches of 32 slices at once as mma products (weights of a patch's 8-bin window times the bins, two projections
 * per product, float accumulation); tile W x H (default 32x16), N projections per cache buffer (default 16). It
 * reads the same scaled packing as the window kernel and takes 32 slices (four groups of 8, eight of 4) per block.
 *
 * @param texRead how the texture share of a hybrid is read: {@link #TEX_FILTERED}, {@link #TEX_EXACT} or
 *                {@link #TEX_ENTRIES}
 * @param cacheBatch projections per buffer of a cp.async-filled cache ({@code :async[N]}, {@code :win[N]} or
 *                   {@code tc:...:bN}), else 0
 * @param window  the register-window kernel ({@code :win}), whose cache holds bins; else an {@code :async} cache holds
 *                entries
 * @param tileRows the tile's height in pixels for the tensor-core family ({@link Family#TC}, whose {@code tile} is
 *                 the width); 0 for the square tiles of the other families
 */
public record KernelVariant(Family family, int k, SampleFormat format, Interpolation interpolation, boolean zorder,
                            boolean advanced, int tile, int ppt, int texProjections, int halfMath, int texRead,
                            int minBlocks, int cacheBatch, int maxRegs, boolean window, int tileRows) {

    public KernelVariant(Family family, int k, SampleFormat format, Interpolation interpolation, boolean zorder,
                         boolean advanced, int tile, int ppt, int texProjections, int halfMath, int texRead, int minBlocks) {
        this(family, k, format, interpolation, zorder, advanced, tile, ppt, texProjections, halfMath, texRead, minBlocks, 0, 0, false, 0);
    }

    /**
     * An ALU variant whose cache is filled asynchronously (cp.async, double-buffered) from the entries array, with
     * {@code batch} projections per cache buffer.
     */
    static KernelVariant async(int k, SampleFormat f, int halfMath, int ppt, int maxRegs, int batch) {
        return async(k, f, halfMath, 32, ppt, maxRegs, batch);
    }

    static KernelVariant async(int k, SampleFormat f, int halfMath, int tile, int ppt, int maxRegs, int batch) {
        return new KernelVariant(Family.ALU, k, f, Interpolation.LINEAR, true, true, tile, ppt, 0, halfMath, TEX_FILTERED, 0, batch, maxRegs, false, 0);
    }

    /** Projections per cache buffer of a :win variant when not named. */
    static final int DEFAULT_WINDOW_BATCH = 16;

    /** A register-window variant (8 half slices, linear): tile 32, {@code ppt} pixels per thread, {@code batch} projections per buffer. */
    static KernelVariant window(int halfMath, int ppt, int batch) {
        return new KernelVariant(Family.ALU, 8, SampleFormat.HALF, Interpolation.LINEAR, false, false, 32, ppt, 0, halfMath, TEX_FILTERED, 0, batch, 0, true, 0);
    }

    /** Projections per cache buffer of a tc variant when not named. */
    static final int DEFAULT_TC_BATCH = 16;
    /** Slices one tensor-core block back-projects together (kernels/backproject.cu bpTc: 4 cache rows of 8 slices). */
    static final int TC_SLICES = 32;

    /**
     * A tensor-core variant ({@code k} = 8 or 4 half slices per bin, linear): a {@code cols} x {@code rows} pixel
     * tile, {@code batch} projections per buffer.
     */
    static KernelVariant tensor(int k, int cols, int rows, int batch) {
        return new KernelVariant(Family.TC, k, SampleFormat.HALF, Interpolation.LINEAR, false, false, cols, 0, 0, 0, TEX_FILTERED, 0, batch, 0, false, rows);
    }

    static KernelVariant async(int k, SampleFormat f, int halfMath) {
        return async(k, f, halfMath, 8, 0, defaultAsyncBatch(k));
    }

    /** Projections per cache buffer of an :async variant when not named: 12 for 8 slices (48 KiB of static shared memory), else 16. */
    static int defaultAsyncBatch(int k) {
        return k == 8 ? 12 : 16;
    }

    /** Whether the cache is filled asynchronously from the entries array ({@code :async}). */
    public boolean asyncFill() {
        return family == Family.ALU && cacheBatch > 0 && !window;
    }

    private String asyncSuffix(char sep) {
        if (cacheBatch == 0 || window) return "";
        String b = cacheBatch == defaultAsyncBatch(k) ? "" : Integer.toString(cacheBatch);
        return sep == '_' ? "_a" + b : ":async" + b;
    }

    /** Hybrid texture share read through the hardware's linear filtering (8-bit weights). */
    public static final int TEX_FILTERED = 0;
    /** Hybrid texture share: both neighbouring bins point-fetched at their centres, interpolated in float. */
    public static final int TEX_EXACT = 1;
    /** Hybrid texture share: cache entries point-fetched from a device array of entries, one fetch per update. */
    public static final int TEX_ENTRIES = 2;

    public KernelVariant(Family family, int k, SampleFormat format, Interpolation interpolation, boolean zorder,
                         boolean advanced, int tile, int ppt, int texProjections, int halfMath, int texRead) {
        this(family, k, format, interpolation, zorder, advanced, tile, ppt, texProjections, halfMath, texRead, 0);
    }

    /** Variant without packed-half arithmetic. */
    public KernelVariant(Family family, int k, SampleFormat format, Interpolation interpolation, boolean zorder,
                         boolean advanced, int tile, int ppt, int texProjections) {
        this(family, k, format, interpolation, zorder, advanced, tile, ppt, texProjections, 0, TEX_FILTERED);
    }

    public KernelVariant(Family family, int k, SampleFormat format, Interpolation interpolation, boolean zorder,
                         boolean advanced, int tile, int ppt, int texProjections, int halfMath) {
        this(family, k, format, interpolation, zorder, advanced, tile, ppt, texProjections, halfMath, TEX_FILTERED);
    }

    private static String hmSuffix(int hm, char sep) {
        return hm == 1 ? sep + "h2" : hm == 2 ? sep + "h2p" : hm == 3 ? sep + "h4p" : hm == 4 ? sep + "h8p" : "";
    }

    private static String texSuffix(int texRead, char sep) {
        return texRead == TEX_EXACT ? sep + "x" : texRead == TEX_ENTRIES ? sep + "xe" : "";
    }

    /** STD, TEX: texture kernels; ALU: shared-memory cache and CUDA cores; TC: shared-memory cache and tensor cores. */
    public enum Family { STD, TEX, ALU, TC }

    /** Threads per block. */
    public int threads() {
        return switch (family) {
            case STD, TEX -> 256;
            case ALU -> tile * tile / ppt;
            case TC -> tile * tileRows / 2;  // a warp per 8 x 8 pixels
        };
    }

    /** Pixels along x covered by one block. */
    public int blockCols() {
        return family == Family.ALU || family == Family.TC ? tile : 16;
    }

    /** Pixels along y covered by one block. */
    public int blockRows() {
        return family == Family.TC ? tileRows : blockCols();
    }

    /** Groups (compound sinograms) one block back-projects together: grid z runs over groups / this. */
    public int groupsPerBlock() {
        return family == Family.TC ? TC_SLICES / k : 1;
    }

    /**
     * Whether the variant reads the compound sinogram packed scaled by a power of two from each group's largest
     * magnitude ({@link #absMaxFunctionName()}, then {@link #packFunctionName()}): the register-window and
     * tensor-core kernels, whose half arithmetic assumes data of a known magnitude.
     */
    public boolean scaledPacking() {
        return window || family == Family.TC;
    }

    /**
     * Dynamic shared memory per block, in bytes, that the launch must give, as laid out in kernels/backproject.cu:
     * the register-window kernel's (bpAluWin) double-buffered cache of bins (CW 16-byte bins for each of its batch's
     * projections) and triple-buffered window constants (two 16-byte words and one 8-byte word per projection); the
     * tensor-core kernel's (bpTc, which traps if given less); 0 for the other variants, whose shared memory is static.
     */
    public int dynamicSharedBytes() {
        if (family == Family.TC) {
            // bpTc: cache [2][batch][4 rows of 8 slices][CWT] 16-byte entries, then (16 + 8) bytes of constants per
            // projection of 3 batches
            return 16 * (2 * cacheBatch * (TC_SLICES / 8) * tcCacheWidth(tile, tileRows) + 3 * cacheBatch) + 8 * 3 * cacheBatch;
        }
        if (!window) return 0;
        int cw = windowCacheWidth(tile);
        return 16 * (2 * cacheBatch * cw + 6 * cacheBatch) + 8 * 3 * cacheBatch;
    }

    /** Cached bins per projection row of a TILE x TILE block (kernels/backproject.cu CacheW): the window's span plus margins. */
    static int windowCacheWidth(int tile) {
        return ((tile - 1) * 1415 / 1000 + 4 + 15) / 16 * 16;
    }

    /**
     * Cached entries per projection and 8-slice cache row of a tensor-core block of cols x rows pixels (kernels/backproject.cu
     * CacheWT): a margin bin, the tile's t span (at most its diagonal), an 8-bin patch window, rounded up to 8.
     */
    static int tcCacheWidth(int cols, int rows) {
        int d2 = (cols - 1) * (cols - 1) + (rows - 1) * (rows - 1), r = 0;
        while (r * r < d2) r++;
        return (r + 17) / 8 * 8;
    }

    public boolean usesTexture() {
        return family == Family.STD || family == Family.TEX || texProjections > 0;
    }

    public boolean hybrid() {
        return family == Family.ALU && texProjections > 0;
    }

    /** Texture kernels keep the projection constants in 64 KiB of constant memory. */
    public int maxProjections() {
        return family == Family.ALU || family == Family.TC ? Integer.MAX_VALUE : 4096;
    }

    /** Whether results are bound by NVIDIA's 8-bit texture interpolation weights (linear through the texture). */
    public boolean textureWeights() {
        return usesTexture() && interpolation == Interpolation.LINEAR && texRead == TEX_FILTERED;
    }

    /**
     * Whether the variant reads a device array of cache entries (built by {@link #entriesFunctionName()}): through
     * the texture (hybrid :xe) or as the source of its asynchronous cache fill (:async, which then takes the
     * entries array and its pitch in place of the compound sinogram).
     */
    public boolean usesEntries() {
        return asyncFill() || (hybrid() && texRead == TEX_ENTRIES);
    }

    /**
     * Whether one launch back-projects all groups of a chunk (grid z over the groups, one compound sinogram per
     * group): the ALU and tensor-core kernels that read no texture. Texture-bound kernels read one texture, so one
     * group per launch.
     */
    public boolean batchesGroups() {
        return !usesTexture();
    }

    /** Bytes of one cache entry (advanced caching: value and difference of K slices). */
    public int entryBytes() {
        return 2 * k * (format == SampleFormat.HALF ? 2 : 4);
    }

    /**
     * The kernel that interleaves a group's K sinograms into the compound sinogram this variant reads. The
     * register-window and tensor-core kernels read it scaled by a power of two from the group's largest magnitude
     * (found first by {@link #absMaxFunctionName()}), which keeps their half data in range for data of any magnitude.
     */
    public String packFunctionName() {
        return scaledPacking() ? "bp_pack_k" + k + "_h_win" : "bp_pack_k" + k + (format == SampleFormat.HALF ? "_h" : "_f");
    }

    /** The kernel that finds a group's largest magnitude for {@link #packFunctionName()}, or null where none is needed. */
    public String absMaxFunctionName() {
        return scaledPacking() ? "bp_absmax_k" + k : null;
    }

    /** The kernel that builds the entries array, for {@link #usesEntries()} variants. */
    public String entriesFunctionName() {
        return "bp_entries_k" + k + (format == SampleFormat.HALF ? "_h_h2" : "_f");
    }

    public String functionName() {
        String in = interpolation == Interpolation.LINEAR ? "lin" : "nn";
        return switch (family) {
            case STD -> "bp_std_k" + k + "_" + in + "_" + (zorder ? "z" : "l");
            case TEX -> "bp_tex_k" + k + "_" + in;
            case TC -> "bp_tc_k" + k + "_h_lin_t" + tile + "x" + tileRows + "_s" + cacheBatch;
            case ALU -> window ? "bp_alu_k" + k + "_h_lin_win_t" + tile + "p" + ppt + "_s" + cacheBatch + hmSuffix(halfMath, '_')
                    : "bp_alu_k" + k + "_" + (format == SampleFormat.HALF ? "h" : "f") + "_" + in + "_"
                    + (advanced ? "adv" : "std") + "_t" + tile + "p" + ppt + "_s" + texProjections + hmSuffix(halfMath, '_') + texSuffix(texRead, '_') + (minBlocks > 0 ? "_b" + minBlocks : "") + (maxRegs > 0 ? "_r" + maxRegs : "") + asyncSuffix('_');
        };
    }

    /** Canonical variant string (without the mode). */
    public String id() {
        return switch (family) {
            case STD -> zorder ? "stdz" : "std";
            case TEX -> "tex";
            case TC -> "tc:t" + tile + "x" + tileRows + (cacheBatch == DEFAULT_TC_BATCH ? "" : ":b" + cacheBatch);
            case ALU -> window ? "alu:t" + tile + "p" + ppt + hmSuffix(halfMath, ':') + ":win" + (cacheBatch == DEFAULT_WINDOW_BATCH ? "" : cacheBatch)
                    : (texProjections > 0 ? "hybrid" : "alu") + ":t" + tile + "p" + ppt + (minBlocks > 0 ? "b" + minBlocks : "") + (maxRegs > 0 ? "r" + maxRegs : "")
                    + (texProjections > 0 ? ":s" + texProjections : "")
                    + (interpolation == Interpolation.LINEAR ? (advanced ? ":adv" : ":std") : "") + hmSuffix(halfMath, ':') + texSuffix(texRead, ':') + asyncSuffix(':');
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
        int max = fam == Family.ALU || fam == Family.TC ? 8 : 4;
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
        if (lin && f == SampleFormat.FLOAT32 && ka <= 2) {
            l.add(async(ka, f, 0));
            if (ka == 2) {
                l.add(async(ka, f, 0, 8, 0, 24));
                l.add(async(ka, f, 0, 8, 80, 16));
                l.add(async(ka, f, 0, 8, 80, 24));
                l.add(async(ka, f, 0, 64, 16, 0, 12));
                l.add(async(ka, f, 0, 64, 8, 64, 12));
            }
        }
        boolean h2 = lin && f == SampleFormat.HALF && ka >= 2;
        if (h2) {
            for (int hm = 1; hm <= 2; hm++)
                for (int ppt : new int[]{4, 8})
                    l.add(new KernelVariant(Family.ALU, ka, f, in, true, true, 32, ppt, 0, hm));
            if (ka == 4) l.add(new KernelVariant(Family.ALU, ka, f, in, true, true, 32, 8, 0, 2, TEX_FILTERED, 10));
            if (ka >= 4) l.add(new KernelVariant(Family.ALU, ka, f, in, true, true, 32, 8, 0, 3));
            if (ka == 8) l.add(new KernelVariant(Family.ALU, ka, f, in, true, true, 32, 4, 0, 3));
            if (ka == 4) l.add(new KernelVariant(Family.ALU, ka, f, in, true, true, 32, 8, 0, 4));
            // asynchronous cache fill from the entries array (kernels/backproject.cu TS_ASYNC)
            l.add(async(ka, f, 2));
            if (ka >= 4) l.add(async(ka, f, 3));
            if (ka == 4) {
                l.add(async(ka, f, 4));
                // batch / occupancy / thread-count tuning of the 4-slice async kernel
                l.add(async(ka, f, 3, 8, 0, 24));
                l.add(async(ka, f, 3, 8, 80, 16));
                l.add(async(ka, f, 3, 8, 80, 24));
                l.add(async(ka, f, 3, 4, 0, 16));
                l.add(async(ka, f, 3, 64, 16, 0, 12));
                l.add(async(ka, f, 3, 64, 8, 64, 12));
            }
            if (ka == 8) {
                l.add(async(ka, f, 3, 8, 112, 12));
                l.add(async(ka, f, 3, 8, 96, 12));
                // register-window kernels (kernels/backproject.cu TS_WIN)
                l.add(window(3, 8, 16));
                l.add(window(4, 8, 16));
                l.add(window(3, 8, 24));
                l.add(window(4, 8, 24));
                l.add(window(4, 4, 16));
                // tensor-core kernels (kernels/backproject.cu TS_TC)
                l.add(tensor(8, 32, 16, 16));
                l.add(tensor(8, 32, 16, 8));
                l.add(tensor(8, 32, 32, 16));
            }
            if (ka == 4) {
                l.add(tensor(4, 32, 16, 16));
                l.add(tensor(4, 32, 32, 16));
            }
        }
        if (!lin && f == SampleFormat.HALF && ka == 8)
            l.add(new KernelVariant(Family.ALU, ka, f, in, true, false, 32, 4, 0, 0, TEX_FILTERED, 4));
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
                    l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 8, 2, TEX_FILTERED, 8));
                    l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 12, 2, TEX_FILTERED, 8));
                } else {
                    l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 8, 2, TEX_FILTERED, 10));
                }
            }
            if (!(f == SampleFormat.HALF && kh == 1)) {
                l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 4, 0, TEX_EXACT));
                l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 8, 0, TEX_EXACT));
            }
            // entries hybrids: entries of at most 16 bytes (float32 k1/k2, half k2/k4 with packed half arithmetic)
            if (f == SampleFormat.FLOAT32 && kh <= 2) {
                if (kh == 2) l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 2, 0, TEX_ENTRIES));
                l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 4, 0, TEX_ENTRIES));
                l.add(new KernelVariant(Family.ALU, kh, f, in, true, true, 32, 8, 8, 0, TEX_ENTRIES));
            }
            if (h2) {
                // 8 half slices: 32-byte entries, two texels per fetch; the only hybrid that serves 8 slices
                int kx = ka == 8 ? 8 : kh;
                for (int hm = 2; hm <= (kx >= 4 ? 3 : 2); hm++) {
                    l.add(new KernelVariant(Family.ALU, kx, f, in, true, true, 32, 8, 4, hm, TEX_ENTRIES));
                    l.add(new KernelVariant(Family.ALU, kx, f, in, true, true, 32, 8, 8, hm, TEX_ENTRIES));
                }
                if (kx == 4) l.add(new KernelVariant(Family.ALU, kx, f, in, true, true, 32, 8, 12, 3, TEX_ENTRIES));
            }
        } else {
            l.add(new KernelVariant(Family.ALU, kh, f, in, true, false, 32, 8, 4));
        }
        return l;
    }

    /**
     * {@code v}, unless it is a tensor-core variant and batches of {@code maxSlices} slices would leave its 32-slice
     * blocks so empty that the mode's fastest CUDA-core kernel is faster: a tc block costs the same for 1 or 32
     * slices, so tc at s slices runs at s/32 of its speed. H200 (BENCHMARKS.md, runs G and I): k8 11.6 TU/s against the
     * window kernel's 9.44 (tc pays from 26 slices), k4 10.1 against 7.0 (from 23).
     */
    static KernelVariant forBatch(KernelVariant v, int k, int maxSlices) {
        if (v.family != Family.TC || maxSlices >= (v.k == 8 ? 26 : 23)) return v;
        return parse(v.k == 8 ? "alu:t32p8:h8p:win" : "alu:t64p16:adv:h4p:async12", k, v.format, v.interpolation);
    }

    /**
     * {@code v} if its shared memory fits {@code maxShared} bytes per block; else the same family's variant of the
     * mode with the most shared memory that fits (e.g. a 32x32 tensor-core tile chosen on an H200 becomes 32x16 on a
     * GPU with 99 KiB per block), else {@code alu}. {@code k} is the slices per pass the variant was parsed for.
     */
    static KernelVariant fittingShared(KernelVariant v, int k, int maxShared) {
        if (v.dynamicSharedBytes() <= maxShared) return v;
        KernelVariant fit = null;
        for (KernelVariant c : all(k, v.format, v.interpolation))
            if (c.family == v.family && c.dynamicSharedBytes() <= maxShared
                    && (fit == null || c.dynamicSharedBytes() > fit.dynamicSharedBytes()))
                fit = c;
        return fit != null ? fit : parse("alu", k, v.format, v.interpolation);
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
                if (parts.length > 1) throw new IllegalArgumentException("backend.variant '" + spec + "': " + fam + " takes no parameters");
                for (KernelVariant v : all) if (v.id().equals(fam)) return v;
            }
            case "alu", "hybrid" -> {
                int tile = 32, ppt = 8, st = fam.equals("hybrid") ? 4 : 0, hm = 0;
                int tx = TEX_FILTERED;
                int async = 0, win = 0;
                int mb = 0, regs = 0;
                boolean adv = in == Interpolation.LINEAR, cachingNamed = false;
                for (int i = 1; i < parts.length; i++) {
                    String p = parts[i];
                    if (p.equals("adv") || p.equals("std")) {
                        adv = p.equals("adv");
                        cachingNamed = true;
                    }
                    else if (p.equals("h2")) hm = 1;
                    else if (p.equals("h2p")) hm = 2;
                    else if (p.equals("h4p")) hm = 3;
                    else if (p.equals("h8p")) hm = 4;
                    else if (p.matches("async\\d*") && fam.equals("alu"))
                        async = p.length() > 5 ? batchNumber(spec, p, 5) : defaultAsyncBatch(kernelSlices(Family.ALU, k));
                    else if (p.matches("win\\d*") && fam.equals("alu"))
                        win = p.length() > 3 ? batchNumber(spec, p, 3) : DEFAULT_WINDOW_BATCH;
                    else if (p.equals("x") && fam.equals("hybrid")) tx = TEX_EXACT;
                    else if (p.equals("xe") && fam.equals("hybrid")) tx = TEX_ENTRIES;
                    else if (p.matches("t\\d+p\\d+(b\\d+)?(r\\d+)?")) {
                        // tTpP[bB][rR]: tile, pixels per thread, minimum blocks per SM, register cap
                        java.util.regex.Matcher m = java.util.regex.Pattern.compile("t(\\d+)p(\\d+)(?:b(\\d+))?(?:r(\\d+))?").matcher(p);
                        if (!m.matches()) throw new IllegalStateException(p);
                        tile = Integer.parseInt(m.group(1));
                        ppt = Integer.parseInt(m.group(2));
                        mb = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
                        regs = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
                    } else if (p.matches("s\\d+") && fam.equals("hybrid")) st = Integer.parseInt(p.substring(1));
                    else throw new IllegalArgumentException("backend.variant '" + spec + "': unknown parameter '" + p
                                + "' (expected tTpP[bB][rR], adv, std, h2, h2p, h4p, h8p" + (fam.equals("hybrid") ? ", sS, x, xe" : ", async[N], win[N]") + ")");
                }
                boolean window = win > 0;
                if (window && (async > 0 || cachingNamed))
                    throw new IllegalArgumentException("backend.variant '" + spec + "': win caches bins in its own way; it takes no "
                            + (async > 0 ? "async" : adv ? "adv" : "std"));
                if (in == Interpolation.NEAREST || window) adv = false;
                int batch = window ? win : async;
                for (KernelVariant v : all)
                    if (v.family == Family.ALU && v.tile == tile && v.ppt == ppt && v.texProjections == st && v.advanced == adv
                            && v.halfMath == hm && v.texRead == tx && v.minBlocks == mb && v.cacheBatch == batch && v.maxRegs == regs
                            && v.window == window)
                        return v;
                if (window && !(kernelSlices(Family.ALU, k) == 8 && f == SampleFormat.HALF && in == Interpolation.LINEAR))
                    throw new IllegalArgumentException("backend.variant '" + spec + "': the register-window kernel serves 8 half slices, "
                            + "linear (backend.slicesPerPass 8 or 16, or 0 with half storage), not mode " + modeKey(k, f, in));
                throw new IllegalArgumentException("backend.variant '" + spec + "' is not compiled for mode "
                        + modeKey(k, f, in) + "; compiled variants: " + ids(all));
            }
            case "tc" -> {
                int cols = 32, rows = 16, batch = DEFAULT_TC_BATCH;
                for (int i = 1; i < parts.length; i++) {
                    String p = parts[i];
                    java.util.regex.Matcher m = java.util.regex.Pattern.compile("t(\\d{1,4})x(\\d{1,4})").matcher(p);
                    if (m.matches()) {
                        cols = Integer.parseInt(m.group(1));
                        rows = Integer.parseInt(m.group(2));
                    } else if (p.matches("b\\d*")) batch = batchNumber(spec, p, 1);
                    else throw new IllegalArgumentException("backend.variant '" + spec + "': unknown parameter '" + p
                                + "' (expected tWxH, bN)");
                }
                int kt = kernelSlices(Family.TC, k);
                if (!((kt == 8 || kt == 4) && f == SampleFormat.HALF && in == Interpolation.LINEAR))
                    throw new IllegalArgumentException("backend.variant '" + spec + "': the tensor-core kernel serves 8 or 4 half slices, "
                            + "linear (backend.slicesPerPass 4, 8 or 16, or 0, with half storage), not mode " + modeKey(k, f, in));
                for (KernelVariant v : all)
                    if (v.family == Family.TC && v.tile == cols && v.tileRows == rows && v.cacheBatch == batch) return v;
                throw new IllegalArgumentException("backend.variant '" + spec + "' is not compiled for mode "
                        + modeKey(k, f, in) + "; compiled variants: " + ids(all));
            }
            default -> {
            }
        }
        throw new IllegalArgumentException("backend.variant: unknown cuda variant '" + spec + "': expected auto, std, stdz, tex, alu[:tTpP][:adv|:std], "
                + "hybrid[:tTpP][:sS] or tc[:tWxH][:bN]; for mode " + modeKey(k, f, in) + ": " + ids(all));
    }

    /** The N of asyncN / winN: projections per cache buffer, a positive number. */
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

    static List<String> ids(List<KernelVariant> l) {
        List<String> r = new ArrayList<>();
        for (KernelVariant v : l) r.add(v.id());
        return r;
    }
}
