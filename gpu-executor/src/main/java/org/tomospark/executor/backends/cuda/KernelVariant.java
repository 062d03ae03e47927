package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;

import java.util.Locale;

/**
 * One compiled back-projection kernel for one (slices, storage, interpolation) mode: a row of the variant manifest
 * (kernels/variants.def, described by kernels/manifest.cpp; read by {@link KernelManifest}). {@link #functionName()}
 * is its {@code extern "C"} symbol, {@link #id()} the variant string {@code backend.variant} accepts.
 *
 * <p>Variant strings: {@code std} (seed paper Algorithm 1), {@code stdz} (Algorithm 1 with the Z-order remap of
 * Algorithm 2), {@code tex} (Algorithm 3: remap, 4 projections in parallel, reduction), {@code alu[:tTpP][:adv|:std]}
 * (Algorithm 6, shared-memory cache, tile T, P pixels per thread, advanced or standard caching),
 * {@code hybrid[:tTpP][:sS]} (sect. 7.1: S of every 16+S projections through the texture unit). Half modes with
 * advanced caching and 2+ slices also take {@code :h2} (interpolation in packed half2, accumulation in float) or
 * {@code :h2p} / {@code :h4p} / {@code :h8p} (as h2, 2 / 4 / 8 projections summed in half2 before each conversion).
 * {@code alu...:async} fills its double-buffered cache with cp.async from a device array of entries, overlapping the
 * copy of the next projection batch with the arithmetic of this one. The texture share of a hybrid is read with the
 * hardware's linear filtering (8-bit weights) by default; {@code hybrid...:x} fetches both neighbouring bins at their
 * centres and interpolates in float; {@code hybrid...:xe} point-fetches the cache entry itself from a device array of
 * entries. {@code alu:tTpP:h4p|h8p:win[N]} (8 half slices, linear) is the register-window kernel: its cache holds
 * bins, not entries (N projections per buffer, default 16), each thread walks a column of P adjacent pixels with the
 * two bins of the current pixel in registers; it reads a compound sinogram packed scaled by a power of two from each
 * group's largest magnitude ({@link #packFunctionName()}, {@link #absMaxFunctionName()}). {@code alu:tTpP:win[N]} of
 * the float32 linear modes with 4 or 8 slices is its float32 twin: the same walk with the first pixel's position in
 * fixed point and float weights and sums, reading the plain packing. {@code tc[:tWxH][:bN]} (8
 * or 4 half slices, linear) is the tensor-core kernel: mma products of each 4x4-pixel patch's interpolation weights
 * and the bins, 32 slices per block, tile W x H (default 32x16), N projections per cache buffer (default 16); it
 * reads the same scaled packing.
 *
 * @param functionName  the kernel's symbol in the module
 * @param k             slices per bin (an 8-slice mode runs the texture kernels, which fetch at most 4, twice)
 * @param design        what its variant string names
 * @param launch        how it is launched
 * @param inputs        the helper kernels that prepare its input
 */
record KernelVariant(String functionName, int k, SampleFormat format, Interpolation interpolation, Design design,
                     Launch launch, Inputs inputs) {

    /** STD, TEX: texture kernels; ALU: shared-memory cache and CUDA cores; TC: shared-memory cache and tensor cores. */
    enum Family { STD, TEX, ALU, TC }

    /** Packed-half arithmetic: none, or interpolation in half2 with partial sums of 1, 2, 4 or 8 projections in half2. */
    enum HalfMath {
        NONE(""), H2("h2"), H2P("h2p"), H4P("h4p"), H8P("h8p");

        /** The variant-string and manifest token ("none" in the manifest for NONE). */
        final String token;

        HalfMath(String token) {
            this.token = token;
        }
    }

    /** How a kernel reads the texture: not at all, with the hardware's filtering, as two exact point fetches, or as entries. */
    enum TexRead {
        NONE(""), FILTERED(""), EXACT("x"), ENTRIES("xe");

        /** The suffix a hybrid's variant string carries. */
        final String suffix;

        TexRead(String suffix) {
            this.suffix = suffix;
        }
    }

    /** How the shared-memory cache is filled: by the threads' loads, or by cp.async from the entries array or the bins. */
    enum CacheFill { NONE, REGISTERS, ENTRIES, BINS }

    /**
     * What a variant string names.
     *
     * @param zorder    the texture kernel's Z-order thread remap
     * @param advanced  advanced caching (value and difference per cached entry)
     * @param tile      pixels per block along x; rows along y
     * @param ppt       pixels per thread
     * @param texShare  projections of every batch a hybrid reads through the texture, else 0
     * @param minBlocks resident blocks per SM asked of the register allocator, else 0
     * @param maxRegs   register cap per thread, else 0
     * @param batch     projections per buffer of a cp.async-filled cache, else 0
     */
    record Design(Family family, boolean zorder, boolean advanced, int tile, int rows, int ppt, int texShare,
                  HalfMath halfMath, TexRead texRead, int minBlocks, int maxRegs, CacheFill fill, int batch) {

        static Builder builder(Family family) {
            return new Builder(family);
        }

        /** Named settings for a design; unset ones are 0, false or NONE. */
        static final class Builder {
            private final Family family;
            private boolean zorder, advanced;
            private int tile, rows, ppt, texShare, minBlocks, maxRegs, batch;
            private HalfMath halfMath = HalfMath.NONE;
            private TexRead texRead = TexRead.NONE;
            private CacheFill fill = CacheFill.NONE;

            private Builder(Family family) {
                this.family = family;
            }

            Builder zorder(boolean v) {
                zorder = v;
                return this;
            }

            Builder advanced(boolean v) {
                advanced = v;
                return this;
            }

            Builder tile(int cols, int rows) {
                this.tile = cols;
                this.rows = rows;
                return this;
            }

            Builder ppt(int v) {
                ppt = v;
                return this;
            }

            Builder texShare(int v) {
                texShare = v;
                return this;
            }

            Builder halfMath(HalfMath v) {
                halfMath = v;
                return this;
            }

            Builder texRead(TexRead v) {
                texRead = v;
                return this;
            }

            Builder minBlocks(int v) {
                minBlocks = v;
                return this;
            }

            Builder maxRegs(int v) {
                maxRegs = v;
                return this;
            }

            Builder fill(CacheFill v, int batch) {
                this.fill = v;
                this.batch = batch;
                return this;
            }

            Design build() {
                return new Design(family, zorder, advanced, tile, rows, ppt, texShare, halfMath, texRead, minBlocks,
                        maxRegs, fill, batch);
            }
        }
    }

    /**
     * @param threads            threads per block
     * @param groupsPerBlock     groups (compound sinograms) one block back-projects together
     * @param dynamicSharedBytes dynamic shared memory per block the launch must give
     * @param maxProjections     projections the kernel takes at most (projection constants in constant memory)
     * @param args               its parameter list
     */
    record Launch(int threads, int groupsPerBlock, int dynamicSharedBytes, int maxProjections, KernelCalls.Signature args) {
    }

    /**
     * @param pack       the kernel that interleaves a group's slices into the compound sinogram this variant reads
     * @param absMax     the kernel that finds a group's largest magnitude for a scaled packing, or null
     * @param entries    the kernel that builds the entries array the variant reads, or null
     * @param entryBytes bytes of one entry of that array, 0 without one
     */
    record Inputs(String pack, String absMax, String entries, int entryBytes) {
    }

    /** Projections per cache buffer of a :win variant when not named. */
    static final int DEFAULT_WINDOW_BATCH = 16;
    /** Projections per cache buffer of a tc variant when not named. */
    static final int DEFAULT_TC_BATCH = 16;

    /** Projections per cache buffer of an :async variant when not named: 12 for 8 slices (48 KiB of static shared memory), else 16. */
    static int defaultAsyncBatch(int k) {
        return k == 8 ? 12 : 16;
    }

    Family family() {
        return design.family();
    }

    int threads() {
        return launch.threads();
    }

    /** Pixels along x covered by one block. */
    int blockCols() {
        return design.tile();
    }

    /** Pixels along y covered by one block. */
    int blockRows() {
        return design.rows();
    }

    /** Groups (compound sinograms) one block back-projects together: grid z runs over groups / this. */
    int groupsPerBlock() {
        return launch.groupsPerBlock();
    }

    /** Dynamic shared memory per block, in bytes, that the launch must give (the kernel's layout, layout.cuh). */
    int dynamicSharedBytes() {
        return launch.dynamicSharedBytes();
    }

    /** Projections the kernel takes: the texture kernels keep the projection constants in 64 KiB of constant memory. */
    int maxProjections() {
        return launch.maxProjections() > 0 ? launch.maxProjections() : Integer.MAX_VALUE;
    }

    boolean usesTexture() {
        return design.texRead() != TexRead.NONE;
    }

    boolean hybrid() {
        return family() == Family.ALU && design.texShare() > 0;
    }

    /** The register-window kernel ({@code :win}), whose cache holds bins filled from the compound sinogram. */
    boolean window() {
        return family() == Family.ALU && design.fill() == CacheFill.BINS;
    }

    /** Whether the cache is filled asynchronously from the entries array ({@code :async}). */
    boolean asyncFill() {
        return design.fill() == CacheFill.ENTRIES;
    }

    /** Whether results are bound by NVIDIA's 8-bit texture interpolation weights (linear through the texture). */
    boolean textureWeights() {
        return interpolation == Interpolation.LINEAR && design.texRead() == TexRead.FILTERED;
    }

    /**
     * Whether the variant reads a device array of cache entries (built by {@link #entriesFunctionName()}): through
     * the texture (hybrid :xe) or as the source of its asynchronous cache fill (:async, which then takes the
     * entries array and its pitch in place of the compound sinogram).
     */
    boolean usesEntries() {
        return inputs.entries() != null;
    }

    /**
     * Whether one launch back-projects all groups of a chunk (grid z over the groups, one compound sinogram per
     * group): the kernels that read no texture. Texture-bound kernels read one texture, so one group per launch.
     */
    boolean batchesGroups() {
        return !usesTexture();
    }

    /**
     * Whether the variant reads the compound sinogram packed scaled by a power of two from each group's largest
     * magnitude: the register-window and tensor-core kernels, whose half arithmetic assumes data of a known magnitude.
     */
    boolean scaledPacking() {
        return inputs.absMax() != null;
    }

    /** Bytes of one entry of the entries array, for {@link #usesEntries()} variants. */
    int entryBytes() {
        return inputs.entryBytes();
    }

    String packFunctionName() {
        return inputs.pack();
    }

    /** The kernel that finds a group's largest magnitude for {@link #packFunctionName()}, or null where none is needed. */
    String absMaxFunctionName() {
        return inputs.absMax();
    }

    /** The kernel that builds the entries array, for {@link #usesEntries()} variants, else null. */
    String entriesFunctionName() {
        return inputs.entries();
    }

    /** Canonical variant string (without the mode). */
    String id() {
        Design d = design;
        return switch (d.family()) {
            case STD -> d.zorder() ? "stdz" : "std";
            case TEX -> "tex";
            case TC -> "tc:t" + d.tile() + "x" + d.rows() + (d.batch() == DEFAULT_TC_BATCH ? "" : ":b" + d.batch());
            case ALU -> window()
                    ? "alu:t" + d.tile() + "p" + d.ppt() + suffix(d.halfMath().token) + ":win"
                    + (d.batch() == DEFAULT_WINDOW_BATCH ? "" : d.batch())
                    : (hybrid() ? "hybrid" : "alu") + ":t" + d.tile() + "p" + d.ppt()
                    + (d.minBlocks() > 0 ? "b" + d.minBlocks() : "") + (d.maxRegs() > 0 ? "r" + d.maxRegs() : "")
                    + (hybrid() ? ":s" + d.texShare() : "")
                    + (interpolation == Interpolation.LINEAR ? (d.advanced() ? ":adv" : ":std") : "")
                    + suffix(d.halfMath().token) + suffix(d.texRead().suffix)
                    + (asyncFill() ? ":async" + (d.batch() == defaultAsyncBatch(k) ? "" : d.batch()) : "");
        };
    }

    private static String suffix(String token) {
        return token.isEmpty() ? "" : ":" + token;
    }

    @Override
    public String toString() {
        return id() + " [" + modeKey(k, format, interpolation) + ", " + functionName + "]";
    }

    /** The key of a (slices, format, interpolation) mode, as used in tuning tables: e.g. {@code k4.half.linear}. */
    static String modeKey(int k, SampleFormat f, Interpolation i) {
        return "k" + k + "." + f.name().toLowerCase(Locale.ROOT) + "." + i.name().toLowerCase(Locale.ROOT);
    }
}
