package org.tomospark.executor.backends.cuda;

import java.util.List;

/**
 * A back-projection kernel of kernels/fdk.cu and the facts its launch needs (kernels/fdk.cuh, through the manifest:
 * {@link KernelFacts}). The column kernels give a thread {@code columns} (x, y) columns of {@code z} voxels
 * of a block of {@link #TILE_X} × {@link #TILE_Y}·columns columns and z slices; of every {@code tiles + textured}
 * projections, {@code tiles} are interpolated on the ALU from shared-memory copies of the block's footprint and
 * {@code textured} by the texture unit. The texture mode's kernels ({@link Kind#halfPrecision}) read tiles of
 * half-precision pairs and a half-precision texture, both of the band times a power of two. The texture mode's column
 * kernels ({@link Kind#HYBRID}) give the two shares to the two halves of the block, both on the same
 * {@link #TILE_X} × {@link #SPLIT_TILE_Y}·columns columns: the first half interpolates the tiles, the second filters
 * through the texture, so that the texture unit and the shared-memory loads work at once.
 *
 * @param name     the kernel's symbol
 * @param kind     what it computes and how exactly
 * @param z        slices of a block (1 for the naive kernel: one slice a block)
 * @param columns  columns a thread (column kernels)
 * @param tiles    projections of a batch read from shared-memory tiles
 * @param textured projections of a batch read through the texture unit
 * @param blocks   blocks an SM its launch bounds are built for (the name's {@code _m} suffix; 0: none asked)
 */
record FdkVariant(String name, Kind kind, int z, int columns, int tiles, int textured, int blocks) {
    /** Threads of every FDK kernel's block. */
    static final int THREADS = KernelFacts.FDK_THREADS;
    /** Columns of a column kernel's block along x, and along y per column of a thread. */
    static final int TILE_X = KernelFacts.FDK_TILE_X, TILE_Y = KernelFacts.FDK_TILE_Y;
    /** Columns of a texture-mode column kernel's block along y per column of a thread (its halves take the same ones). */
    static final int SPLIT_TILE_Y = KernelFacts.FDK_SPLIT_TILE_Y;
    /**
     * Footprints (pixels) from which the texture mode's column kernel gives the texture unit four projections of every
     * seven rather than one of two: copying a large tile costs the tile half more per voxel update (H200: 8584-pixel
     * footprints 46.2 against 49.2 ms, 6000 pixels a tie, 4284 pixels 144 against 139 ms).
     */
    static final int LARGE_FOOTPRINT = 7000;
    /** Voxels of the naive kernel's block along x, y and z. */
    static final int NAIVE_X = KernelFacts.FDK_NAIVE_X, NAIVE_Y = KernelFacts.FDK_NAIVE_Y, NAIVE_Z = KernelFacts.FDK_NAIVE_Z;
    /** Bytes of a block's view of one projection in shared memory (struct FdkLocal). */
    static final int LOCAL_BYTES = KernelFacts.FDK_LOCAL_BYTES;
    /**
     * Rows of zeros before and after each projection's entries in the band's pairs (FDK_PAIR_GUARD), and the rows of a
     * tensor copy's box.
     */
    static final int PAIR_GUARD = KernelFacts.FDK_PAIR_GUARD;
    /** Bytes the tensor-copy kernel may skip to start its tiles on an aligned boundary. */
    static final int TENSOR_ALIGNMENT = KernelFacts.FDK_TENSOR_ALIGNMENT;

    /** What a kernel computes. */
    enum Kind {
        /** A thread per voxel, pixels from global memory: the baseline; any matrix; exact. */
        NAIVE(true, true),
        /** u and w constant down a column (P[0][2] = P[2][2] = 0): shared-memory tiles, exact. */
        COLUMNS(true, false),
        /** Any matrix: u, v, w per voxel from shared-memory tiles, exact. */
        GENERAL(true, true),
        /**
         * The texture mode's column kernel: tiles of half-precision pairs on one half of the block, and a share of the
         * projections filtered by the texture unit (8-bit weights) from the band in half precision on the other.
         */
        HYBRID(false, false),
        /**
         * {@link #HYBRID} with its tiles filled by Hopper's tensor copies (sm_90 on): one thread issues a tile's boxes,
         * so the tile half spends nothing on the copy; tiles of the launch's widest footprint × boxes of
         * {@link #PAIR_GUARD} rows, from a tensor map of the band's pairs.
         */
        TENSOR_HYBRID(false, false),
        /** Every projection filtered by the texture unit from the half-precision band (the texture mode without tiles). */
        TEXTURE(false, false),
        /** TEXTURE for any matrix. */
        GENERAL_TEXTURE(false, true);

        final boolean exact, anyMatrix;

        Kind(boolean exact, boolean anyMatrix) {
            this.exact = exact;
            this.anyMatrix = anyMatrix;
        }

        /**
         * Whether its kernels read the band's half-precision pairs and scaled texture (the texture mode): parameters
         * the parameter list FDK_PAIRS.
         */
        boolean halfPrecision() {
            return !exact;
        }
    }

    static final FdkVariant NAIVE = product("NAIVE");
    static final FdkVariant COLUMNS = product("COLUMNS");
    static final FdkVariant GENERAL = product("GENERAL");
    static final FdkVariant HYBRID = product("HYBRID");
    static final FdkVariant HYBRID_LARGE_TILES = product("HYBRID_LARGE_TILES");
    /**
     * The texture mode's column kernel on devices with tensor copies, where the module has it (sm_90 code) and the
     * detector's rows are whole 16-byte words: one projection in two through the texture, whatever the footprint (H200,
     * RabbitCT's geometry: 512³ 40.5 ms against 46.2 for {@link #HYBRID_LARGE_TILES}, 1024³ 292 against 301 for
     * {@link #HYBRID}; four in seven and seven in thirteen 43.6 and 42.2 ms).
     */
    static final FdkVariant TENSOR_SPLIT = product("TENSOR_SPLIT");
    static final FdkVariant TEXTURE = product("TEXTURE");
    static final FdkVariant GENERAL_TEXTURE = product("GENERAL_TEXTURE");

    /** The product's kernel that plays this part (its role in kernels/fdk.cuh). */
    private static FdkVariant product(String role) {
        for (KernelFacts.FdkKernel k : KernelFacts.FDK_KERNELS)
            if (k.role().equals(role))
                return new FdkVariant(k.name(), Kind.valueOf(k.kind()), k.z(), k.columns(), k.tiles(), k.textured(), k.blocks());
        throw new IllegalStateException("kernels/fdk.cuh has no product kernel playing " + role);
    }

    /**
     * The kernel to run where this one's tiles do not fit (a footprint larger than a block's shared memory, or a block
     * with a corner behind the source): the exact kernels fall back to the naive one, the texture mode's to its
     * texture-only kernel.
     */
    FdkVariant withoutTiles() {
        if (!usesTiles()) return this;
        return kind.exact ? NAIVE : TEXTURE;
    }

    /**
     * The kernel for blocks whose footprints reach footprint.pixels(): the texture mode's column kernel gives large
     * footprints' blocks a larger texture share ({@link #LARGE_FOOTPRINT}); the others are as they are. Both have the
     * same blocks, so the same footprints and tiles.
     */
    FdkVariant forFootprint(FdkKernels.Footprint footprint) {
        return equals(HYBRID) && footprint.pixels() >= LARGE_FOOTPRINT ? HYBRID_LARGE_TILES : this;
    }

    /** Whether this kernel's tiles of footprint.pixels() pixels fit a block's shared memory for a full launch. */
    boolean tilesFit(FdkKernels.Footprint footprint, int maxShared) {
        return footprint.complete() && sharedBytes(FdkMatrices.LAUNCH_PROJECTIONS, tileCap(footprint)) <= maxShared;
    }

    /**
     * Whether {@link #TENSOR_SPLIT}'s tiles for these footprints fit: every block has one, a box as wide as the widest
     * (at most {@link TensorMaps#MAX_BOX} words) and a full launch's shared memory within a block's most.
     */
    static boolean tensorTilesFit(FdkKernels.Footprint footprint, int maxShared) {
        return footprint.complete() && footprint.width() > 0 && footprint.width() <= TensorMaps.MAX_BOX
                && TENSOR_SPLIT.sharedBytes(FdkMatrices.LAUNCH_PROJECTIONS, tensorCap(footprint.width(), tensorBoxes(footprint)))
                <= maxShared;
    }

    /** Boxes of {@link #PAIR_GUARD} rows a tensor-copy tile holds for footprints up to footprint.height() rows. */
    static int tensorBoxes(FdkKernels.Footprint footprint) {
        return ceil(footprint.height(), PAIR_GUARD);
    }

    /** Words of a tensor-copy tile of {@code boxes} boxes of bw × {@link #PAIR_GUARD}. */
    static int tensorCap(int bw, int boxes) {
        return bw * PAIR_GUARD * boxes;
    }

    /** Shared memory of one SM: what its blocks share, what each block takes of it besides its own, a block's most. */
    record SmShared(int perSm, int reservedPerBlock, int maxPerBlock) {
    }

    /**
     * Projections a launch of this kernel takes, of a chunk of {@code count}, with tiles of {@code cap} pixels. Every
     * block holds its view of each projection of its launch, so a launch of many takes more shared memory. The texture
     * mode's column kernel takes as many as still leave as many of its blocks on an SM as a launch of
     * {@link FdkMatrices#LAUNCH_PROJECTIONS} does (all of a chunk, where they fit): the slab is then read and added to
     * once, not once a launch, and the launches' last, partly filled waves of blocks are fewer. H200, RabbitCT's
     * geometry, a launch of all 496 projections against four: 1024³ 313 → 299 ms, 768³ 140 → 130, 640³ 85 → 81, 384³
     * 34 → 29, 512³ as fast. The other kernels take LAUNCH_PROJECTIONS: larger launches gave them 1% at most (the
     * exact column kernel and the texture-only one, 512³ and 1024³), and fewer blocks an SM cost the column kernel 8%.
     */
    int launchProjections(int count, int cap, SmShared sm) {
        int base = FdkMatrices.LAUNCH_PROJECTIONS;
        if (!split() || count <= base) return base;
        int resident = resident(base, cap, sm);
        if (resident == 0) return base;
        long perBlock = Math.min(sm.maxPerBlock(), sm.perSm() / resident - sm.reservedPerBlock());
        long most = (perBlock - sharedBytes(0, cap)) / LOCAL_BYTES;
        return (int) Math.max(base, Math.min(count, most));
    }

    /** Blocks of a launch of {@code projections} that share memory leaves on an SM, at most {@link #blocks}. */
    int resident(int projections, int cap, SmShared sm) {
        long bytes = sharedBytes(projections, cap);
        if (bytes > sm.maxPerBlock()) return 0;
        long fit = sm.perSm() / (bytes + sm.reservedPerBlock());
        return (int) (blocks > 0 ? Math.min(blocks, fit) : fit);
    }

    /** Pixels of a tile for footprints of up to footprint.pixels(): whole 16-byte words. */
    static int tileCap(FdkKernels.Footprint footprint) {
        return (footprint.pixels() + 3) & ~3;
    }

    /** The kernels of the product build (kernels/fdk.cu, "The product set"). */
    static final List<FdkVariant> PRODUCT = List.of(NAIVE, COLUMNS, GENERAL, HYBRID, HYBRID_LARGE_TILES, TEXTURE,
            GENERAL_TEXTURE);

    /** Whether its block's two halves take the two shares on the same columns (the texture mode's column kernels). */
    boolean split() {
        return kind == Kind.HYBRID || kind == Kind.TENSOR_HYBRID;
    }

    /** Whether it reads the projections through the layered texture. */
    boolean usesTexture() {
        return textured > 0;
    }

    /** Whether it copies footprints into shared-memory tiles (sized by fdk_footprint). */
    boolean usesTiles() {
        return tiles > 0;
    }

    /** Columns of a block along y. */
    int blockColumnsY() {
        return switch (kind) {
            case NAIVE -> NAIVE_Y;
            case HYBRID, TENSOR_HYBRID -> SPLIT_TILE_Y * columns;
            default -> TILE_Y * columns;
        };
    }

    /** Columns of a block along x. */
    int blockColumnsX() {
        return kind == Kind.NAIVE ? NAIVE_X : TILE_X;
    }

    /**
     * The launch grid for an n × n slab of {@code slices} slices from slice k0: x tiles, y tiles, and the chunks of z
     * slices of the volume the slab touches (blocks work on whole chunks of the volume, so that a voxel's arithmetic does
     * not depend on where its slab starts).
     */
    int[] grid(int n, int k0, int slices) {
        return new int[]{ceil(n, blockColumnsX()), ceil(n, blockColumnsY()), ceil(k0 % z + slices, z)};
    }

    /**
     * Dynamic shared memory of a launch over {@code projections} projections with tiles of {@code cap} pixels (a float
     * or a pair of halves each): the views, then two buffers of {@code tiles} tiles; the texture mode's column kernels
     * have one tile a buffer, and its space takes at the end the texture half's sums (a float per voxel of the block);
     * the tensor copies' tiles start on a 128-byte boundary.
     */
    long sharedBytes(int projections, int cap) {
        long views = (long) projections * LOCAL_BYTES;
        if (split())
            return views + (kind == Kind.TENSOR_HYBRID ? TENSOR_ALIGNMENT : 0)
                    + Math.max(2L * cap, (long) THREADS / 2 * columns * z) * Float.BYTES;
        return views + 2L * tiles * cap * Float.BYTES;
    }

    private static int ceil(int a, int b) {
        return (a + b - 1) / b;
    }
}
