package org.tomospark.executor.backends.cuda;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The facts FdkVariant and FdkMatrices launch the FDK kernels by, against kernels/fdk.cu (read, not restated): the
 * block and constant-memory sizes, the layout of a block's view of a projection, and each product kernel's
 * instantiation with its tile, slices, columns and texture share, in the product set rather than the exploration one.
 */
class FdkVariantTest {

    private static String source() throws Exception {
        Path p = Path.of("..", "kernels", "fdk.cu");
        if (!Files.exists(p)) p = Path.of("kernels", "fdk.cu");  // run from the repository root
        return Files.readString(p);
    }

    private static int define(String src, String name) {
        Matcher m = Pattern.compile("#define " + name + " (\\d+)").matcher(src);
        assertTrue(m.find(), "no #define " + name + " in kernels/fdk.cu");
        return Integer.parseInt(m.group(1));
    }

    @Test
    void constantsMatchTheKernelSource() throws Exception {
        String src = source();
        assertEquals(FdkVariant.THREADS, define(src, "FDK_THREADS"));
        assertEquals(FdkVariant.TILE_X, define(src, "FDK_TILE_X"));
        assertEquals(FdkVariant.TILE_Y, define(src, "FDK_TILE_Y"));
        assertEquals(FdkVariant.NAIVE_X, define(src, "FDK_NAIVE_X"));
        assertEquals(FdkVariant.NAIVE_Y, define(src, "FDK_NAIVE_Y"));
        assertEquals(FdkVariant.NAIVE_Z, define(src, "FDK_NAIVE_Z"));
        assertEquals(FdkMatrices.CONSTANT_PROJECTIONS, define(src, "FDK_MAX_PROJECTIONS"));
        assertEquals(FdkVariant.PAIR_GUARD, define(src, "FDK_PAIR_GUARD"));
        // struct FdkLocal: 12 floats and 4 ints
        Matcher m = Pattern.compile("struct FdkLocal \\{\\s*float m\\[12\\];[^\\n]*\\n\\s*int u0, v0;[^\\n]*\\n\\s*int w, h;").matcher(src);
        assertTrue(m.find(), "struct FdkLocal is not 12 floats and 4 ints");
        assertEquals(12 * 4 + 4 * 4, FdkVariant.LOCAL_BYTES);
    }

    /** Each product variant: its instantiation macro's arguments, before the exploration set. */
    @Test
    void productVariantsAreTheProductInstantiations() throws Exception {
        String src = source();
        int explore = src.indexOf("#ifdef FDK_EXPLORE");
        assertTrue(explore > 0, "no exploration set in kernels/fdk.cu");
        String product = src.substring(0, explore);
        List<String> found = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^FDK_(COL|GEN|SPLIT|HTEX|GHTEX)\\(([\\d, ]+)\\)$").matcher(product);
        while (m.find()) {
            int[] a = Arrays.stream(m.group(2).split(",")).mapToInt(x -> Integer.parseInt(x.trim())).toArray();
            FdkVariant v = switch (m.group(1)) {
                case "COL" -> new FdkVariant("fdk_col_z" + a[0] + "_c" + a[1] + "_b" + a[2] + "_m" + a[3], FdkVariant.Kind.COLUMNS,
                        a[0], a[1], a[2], 0, a[3]);
                case "GEN" -> new FdkVariant("fdk_gen_z" + a[0] + "_c" + a[1] + "_b" + a[2] + "_m" + a[3], FdkVariant.Kind.GENERAL,
                        a[0], a[1], a[2], 0, a[3]);
                case "SPLIT" -> new FdkVariant("fdk_split_z" + a[0] + "_c" + a[1] + "_b" + a[2] + "_t" + a[3] + "_m" + a[4],
                        FdkVariant.Kind.HYBRID, a[0], a[1], a[2], a[3], a[4]);
                case "HTEX" -> new FdkVariant("fdk_htex_z" + a[0] + "_c" + a[1] + "_m" + a[2], FdkVariant.Kind.TEXTURE, a[0], a[1], 0, 1,
                        a[2]);
                default -> new FdkVariant("fdk_ghtex_z" + a[0] + "_c" + a[1] + "_m" + a[2], FdkVariant.Kind.GENERAL_TEXTURE, a[0], a[1],
                        0, 1, a[2]);
            };
            found.add(v.name());
            assertTrue(FdkVariant.PRODUCT.contains(v), "kernels/fdk.cu's product kernel " + v + " is not a FdkVariant constant");
        }
        for (FdkVariant v : FdkVariant.PRODUCT)
            if (v.kind() != FdkVariant.Kind.NAIVE) assertTrue(found.contains(v.name()), v.name() + " is not in the product set");
        assertTrue(product.contains("fdk_naive("), "fdk_naive");
        // the tensor-copy kernel (sm_90 code only, so outside PRODUCT, whose kernels every module has)
        Matcher t = Pattern.compile("(?m)^FDK_TSPLIT\\(([\\d, ]+)\\)$").matcher(product);
        assertTrue(t.find(), "no FDK_TSPLIT in the product set");
        int[] a = Arrays.stream(t.group(1).split(",")).mapToInt(x -> Integer.parseInt(x.trim())).toArray();
        assertEquals(new FdkVariant("fdk_tsplit_z" + a[0] + "_c" + a[1] + "_b" + a[2] + "_t" + a[3] + "_m" + a[4],
                FdkVariant.Kind.TENSOR_HYBRID, a[0], a[1], a[2], a[3], a[4]), FdkVariant.TENSOR_SPLIT);
        assertTrue(!t.find(), "one FDK_TSPLIT in the product set");
        assertTrue(!FdkVariant.PRODUCT.contains(FdkVariant.TENSOR_SPLIT));
    }

    /**
     * The tensor-copy kernel's tiles: boxes of 8 rows as wide as the widest footprint, two of them and the views of a
     * launch from a 128-byte boundary; a footprint wider than a box's 256 words, a block without one or tiles beyond a
     * block's shared memory leave it to the split kernel. RabbitCT's 512³ on the H200: footprints of 116 x 75.
     */
    @Test
    void tensorCopyTiles() {
        int h200 = 227 * 1024;
        FdkKernels.Footprint rabbit = new FdkKernels.Footprint(8584, true, 116, 75);
        assertEquals(10, FdkVariant.tensorBoxes(rabbit));
        assertEquals(116 * 8 * 10, FdkVariant.tensorCap(116, 10));
        assertEquals(496 * 64 + 128 + 2 * 9280 * 4, FdkVariant.TENSOR_SPLIT.sharedBytes(496, 9280));
        // the texture half's sums (128 threads x 4 columns x 16 voxels) when the tiles are smaller
        assertEquals(128 + 128 + 128 * 64 * 4, FdkVariant.TENSOR_SPLIT.sharedBytes(2, 8));
        assertTrue(FdkVariant.tensorTilesFit(rabbit, h200));
        assertTrue(FdkVariant.tensorTilesFit(new FdkKernels.Footprint(256 * 8, true, 256, 8), h200));
        assertTrue(!FdkVariant.tensorTilesFit(new FdkKernels.Footprint(260 * 8, true, 260, 8), h200), "wider than a box");
        assertTrue(!FdkVariant.tensorTilesFit(new FdkKernels.Footprint(8584, false, 116, 75), h200), "a block without a footprint");
        assertTrue(!FdkVariant.tensorTilesFit(new FdkKernels.Footprint(8584, true, 116, 75), 64 * 1024), "beyond shared memory");
        assertTrue(!FdkVariant.tensorTilesFit(new FdkKernels.Footprint(0, true), h200), "no width known");
        // its blocks, launches and fallbacks are the split kernel's
        assertArrayEquals(FdkVariant.HYBRID.grid(512, 0, 512), FdkVariant.TENSOR_SPLIT.grid(512, 0, 512));
        assertEquals(FdkVariant.TEXTURE, FdkVariant.TENSOR_SPLIT.withoutTiles());
        assertEquals(FdkVariant.TENSOR_SPLIT, FdkVariant.TENSOR_SPLIT.forFootprint(new FdkKernels.Footprint(30000, true)));
        assertTrue(FdkVariant.TENSOR_SPLIT.split() && FdkVariant.TENSOR_SPLIT.kind().halfPrecision());
        FdkVariant.SmShared sm = new FdkVariant.SmShared(233472, 1024, h200);
        assertEquals(496, FdkVariant.TENSOR_SPLIT.launchProjections(496, 9280, sm));
    }

    @Test
    void gridsAndSharedMemory() {
        // blocks of 32 x 8·C columns and Z slices: general z8 c4, columns z16 c2
        assertArrayEquals(new int[]{16, 16, 64}, FdkVariant.GENERAL.grid(512, 0, 512));
        assertArrayEquals(new int[]{16, 32, 32}, FdkVariant.COLUMNS.grid(512, 0, 512));
        assertArrayEquals(new int[]{2, 2, 5}, FdkVariant.GENERAL.grid(45, 0, 37));
        assertArrayEquals(new int[]{2, 3, 3}, FdkVariant.COLUMNS.grid(45, 0, 37));
        assertArrayEquals(new int[]{6, 12, 5}, FdkVariant.NAIVE.grid(45, 0, 37));
        assertArrayEquals(new int[]{2, 6, 5}, FdkVariant.TEXTURE.grid(45, 0, 37));
        // blocks cover whole chunks of Z slices of the volume: for Z = 8, slices 5..12 touch chunks 0 and 1, 5..13
        // chunks 0..1, 8..15 chunk 1 alone, 7..16 chunks 0..2
        assertEquals(2, FdkVariant.GENERAL.grid(45, 5, 8)[2]);
        assertEquals(2, FdkVariant.GENERAL.grid(45, 5, 9)[2]);
        assertEquals(1, FdkVariant.GENERAL.grid(45, 8, 8)[2]);
        assertEquals(3, FdkVariant.GENERAL.grid(45, 7, 10)[2]);
        // for Z = 16: slices 5..12 chunk 0 alone, 10..21 chunks 0..1, 16..31 chunk 1 alone, 15..32 chunks 0..2
        assertEquals(1, FdkVariant.COLUMNS.grid(45, 5, 8)[2]);
        assertEquals(2, FdkVariant.COLUMNS.grid(45, 10, 12)[2]);
        assertEquals(1, FdkVariant.COLUMNS.grid(45, 16, 16)[2]);
        assertEquals(3, FdkVariant.COLUMNS.grid(45, 15, 18)[2]);
        // the launch's views, then two buffers of one tile each
        assertEquals(128 * 64 + 2 * 8140 * 4, FdkVariant.COLUMNS.sharedBytes(128, 8140));
        assertEquals(128 * 64, FdkVariant.TEXTURE.sharedBytes(128, 8140));
        assertTrue(FdkVariant.HYBRID.usesTexture() && FdkVariant.HYBRID.usesTiles() && !FdkVariant.HYBRID.kind().exact);
        // the texture mode's column kernels: both halves of a block on the same 32 x 4·C columns (z16 c4: 32 x 16);
        // one tile a buffer, and at least room for the texture half's 128 threads x 64 sums at the end
        assertArrayEquals(new int[]{16, 32, 32}, FdkVariant.HYBRID.grid(512, 0, 512));
        assertArrayEquals(new int[]{2, 3, 3}, FdkVariant.HYBRID_LARGE_TILES.grid(45, 0, 37));
        assertEquals(128 * 64 + 2 * 8140 * 4, FdkVariant.HYBRID.sharedBytes(128, 8140));
        assertEquals(128 * 64 + 2 * 8140 * 4, FdkVariant.HYBRID_LARGE_TILES.sharedBytes(128, 8140));
        assertEquals(128 * 64 + 128 * 64 * 4, FdkVariant.HYBRID.sharedBytes(128, 1000));
        assertTrue(FdkVariant.GENERAL.kind().anyMatrix && !FdkVariant.COLUMNS.kind().anyMatrix);
    }

    /** Large footprints take the texture-mode kernel with the larger texture share; nothing else changes with them. */
    @Test
    void largeFootprintsTakeTheLargerTextureShare() {
        FdkKernels.Footprint small = new FdkKernels.Footprint(FdkVariant.LARGE_FOOTPRINT - 4, true);
        FdkKernels.Footprint large = new FdkKernels.Footprint(FdkVariant.LARGE_FOOTPRINT, true);
        assertEquals(FdkVariant.HYBRID, FdkVariant.HYBRID.forFootprint(small));
        assertEquals(FdkVariant.HYBRID_LARGE_TILES, FdkVariant.HYBRID.forFootprint(large));
        assertEquals(3, FdkVariant.HYBRID_LARGE_TILES.tiles());
        assertEquals(4, FdkVariant.HYBRID_LARGE_TILES.textured());
        for (FdkVariant v : List.of(FdkVariant.COLUMNS, FdkVariant.GENERAL, FdkVariant.TEXTURE, FdkVariant.HYBRID_LARGE_TILES))
            assertEquals(v, v.forFootprint(large));
    }

    /** An H200's SM: 228 KB shared by its blocks, 1 KB of it reserved for each, 227 KB a block at most. */
    static final FdkVariant.SmShared H200 = new FdkVariant.SmShared(228 * 1024, 1024, 227 * 1024);

    /**
     * The texture mode's column kernel takes launches of as many projections as keep as many of its blocks on an SM as a
     * launch of 128 (here against a plain search down from the chunk); the other kernels take 128; a chunk of up to 128
     * is one launch whatever the kernel.
     */
    @Test
    void launchesAsLargeAsKeepTheBlocksOnAnSm() {
        for (int cap : new int[]{0, 2000, 8584, 12000, 14288, 20000, 26000})
            for (int count : new int[]{60, 128, 129, 300, 496, 512}) {
                for (FdkVariant v : List.of(FdkVariant.HYBRID, FdkVariant.HYBRID_LARGE_TILES)) {
                    int got = v.launchProjections(count, cap, H200);
                    assertEquals(searched(v, count, cap), got, v.name() + ", " + count + " projections, tiles of " + cap);
                    assertTrue(got >= FdkMatrices.LAUNCH_PROJECTIONS && got <= Math.max(count, FdkMatrices.LAUNCH_PROJECTIONS));
                }
                for (FdkVariant v : List.of(FdkVariant.COLUMNS, FdkVariant.GENERAL, FdkVariant.TEXTURE, FdkVariant.NAIVE))
                    assertEquals(FdkMatrices.LAUNCH_PROJECTIONS, v.launchProjections(count, cap, H200), v.name());
            }
        // RabbitCT at 512³ (footprints of 8584 pixels): two blocks an SM either way, every projection in one launch
        assertEquals(2, FdkVariant.HYBRID_LARGE_TILES.resident(128, 8584, H200));
        assertEquals(2, FdkVariant.HYBRID_LARGE_TILES.resident(496, 8584, H200));
        assertEquals(496, FdkVariant.HYBRID_LARGE_TILES.launchProjections(496, 8584, H200));
        // tiles of 12000 pixels: two blocks an SM hold the views of 308 projections each, not 309
        assertEquals(308, FdkVariant.HYBRID.launchProjections(496, 12000, H200));
        assertEquals(2, FdkVariant.HYBRID.resident(308, 12000, H200));
        assertEquals(1, FdkVariant.HYBRID.resident(309, 12000, H200));
        // 384³ (14288 pixels): one block an SM already at 128, so all 496 in one launch
        assertEquals(1, FdkVariant.HYBRID.resident(128, 14288, H200));
        assertEquals(496, FdkVariant.HYBRID.launchProjections(496, 14288, H200));
        // no more blocks than the kernel's launch bounds ask for, however little shared memory it takes
        assertEquals(2, FdkVariant.HYBRID.resident(1, 0, H200));
        assertEquals(0, FdkVariant.HYBRID.resident(128, 30000, H200));
    }

    /** The largest launch, down from the chunk, that keeps the blocks an SM of a launch of 128 (the reference). */
    private static int searched(FdkVariant v, int count, int cap) {
        int base = FdkMatrices.LAUNCH_PROJECTIONS;
        if (count <= base) return base;
        int want = v.resident(base, cap, H200);
        if (want == 0) return base;
        for (int np = count; np > base; np--)
            if (v.resident(np, cap, H200) == want) return np;
        return base;
    }

    /** Tiles too large for shared memory, or a block without a footprint: the kernels without tiles take over. */
    @Test
    void kernelsWithoutTilesTakeOverWhereTilesDoNotFit() {
        int h200 = 227 * 1024;
        FdkKernels.Footprint rabbit = new FdkKernels.Footprint(8140, true), large = new FdkKernels.Footprint(30000, true);
        assertTrue(FdkVariant.COLUMNS.tilesFit(rabbit, h200));
        assertEquals(8140, FdkVariant.tileCap(rabbit));
        assertEquals(8144, FdkVariant.tileCap(new FdkKernels.Footprint(8141, true)));
        assertTrue(!FdkVariant.COLUMNS.tilesFit(large, h200) && !FdkVariant.COLUMNS.tilesFit(rabbit, 64 * 1024));
        assertTrue(!FdkVariant.GENERAL.tilesFit(new FdkKernels.Footprint(100, false), h200));
        assertEquals(FdkVariant.NAIVE, FdkVariant.COLUMNS.withoutTiles());
        assertEquals(FdkVariant.NAIVE, FdkVariant.GENERAL.withoutTiles());
        assertEquals(FdkVariant.TEXTURE, FdkVariant.HYBRID.withoutTiles());
        assertEquals(FdkVariant.TEXTURE, FdkVariant.HYBRID_LARGE_TILES.withoutTiles());
        assertEquals(FdkVariant.TEXTURE, FdkVariant.TEXTURE.withoutTiles());
        assertEquals(FdkVariant.GENERAL_TEXTURE, FdkVariant.GENERAL_TEXTURE.withoutTiles());
        assertTrue(FdkVariant.GENERAL_TEXTURE.kind().halfPrecision() && FdkVariant.GENERAL_TEXTURE.kind().anyMatrix);
        assertTrue(!FdkVariant.COLUMNS.kind().halfPrecision() && !FdkVariant.NAIVE.kind().halfPrecision());
    }
}
