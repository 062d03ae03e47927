package org.tomospark.executor.backends.cuda;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The facts FdkVariant and FdkMatrices launch the FDK kernels by, as kernels/fdk.cuh states them (through the manifest,
 * KernelFacts): the block shapes agree with each other and with the view's layout, each product kernel's name spells
 * the facts it is launched with, and every part the host logic plays has its kernel.
 */
class FdkVariantTest {

    @Test
    void blockShapesAndTheViewLayoutAgree() {
        // a column kernel's block: 32 x 8 columns, a thread each; the split kernels' halves: 32 x 4 each
        assertEquals(FdkVariant.THREADS, FdkVariant.TILE_X * FdkVariant.TILE_Y);
        assertEquals(FdkVariant.TILE_Y, 2 * FdkVariant.SPLIT_TILE_Y);
        assertEquals(FdkVariant.THREADS, FdkVariant.NAIVE_X * FdkVariant.NAIVE_Y * FdkVariant.NAIVE_Z);
        // struct FdkLocal: a 3 x 4 float matrix and four ints
        assertEquals(12 * Float.BYTES + 4 * Integer.BYTES, FdkVariant.LOCAL_BYTES);
        assertEquals(0, FdkVariant.TENSOR_ALIGNMENT & (FdkVariant.TENSOR_ALIGNMENT - 1), "a power of two");
        assertTrue(FdkMatrices.CONSTANT_PROJECTIONS >= FdkMatrices.LAUNCH_PROJECTIONS);
    }

    /** Each product kernel's name (fdk_KIND_zZ_cC[_bB][_tT]_mM) spells the facts it is launched with. */
    @Test
    void productKernelNamesSpellTheirFacts() {
        Pattern grammar = Pattern.compile("fdk_(col|gen|split|tsplit|htex|ghtex)_z(\\d+)_c(\\d+)(?:_b(\\d+))?(?:_t(\\d+))?_m(\\d+)");
        List<FdkVariant> all = new ArrayList<>(FdkVariant.PRODUCT);
        all.add(FdkVariant.TENSOR_SPLIT);
        for (FdkVariant v : all) {
            if (v.kind() == FdkVariant.Kind.NAIVE) {
                assertEquals("fdk_naive", v.name());
                assertEquals(FdkVariant.NAIVE_Z, v.z());
                continue;
            }
            Matcher m = grammar.matcher(v.name());
            assertTrue(m.matches(), v.name());
            assertEquals(Integer.parseInt(m.group(2)), v.z(), v.name());
            assertEquals(Integer.parseInt(m.group(3)), v.columns(), v.name());
            assertEquals(m.group(4) == null ? 0 : Integer.parseInt(m.group(4)), v.tiles(), v.name());
            int textured = m.group(5) != null ? Integer.parseInt(m.group(5)) : m.group(1).endsWith("tex") ? 1 : 0;
            assertEquals(textured, v.textured(), v.name());
            assertEquals(Integer.parseInt(m.group(6)), v.blocks(), v.name());
            FdkVariant.Kind kind = switch (m.group(1)) {
                case "col" -> FdkVariant.Kind.COLUMNS;
                case "gen" -> FdkVariant.Kind.GENERAL;
                case "split" -> FdkVariant.Kind.HYBRID;
                case "tsplit" -> FdkVariant.Kind.TENSOR_HYBRID;
                case "htex" -> FdkVariant.Kind.TEXTURE;
                default -> FdkVariant.Kind.GENERAL_TEXTURE;
            };
            assertEquals(kind, v.kind(), v.name());
        }
        // one kernel of every kind; the tensor-copy one (sm_90 code only) outside PRODUCT, whose kernels every module has
        assertEquals(List.of(FdkVariant.Kind.values()), all.stream().map(FdkVariant::kind).distinct().sorted().toList());
        assertTrue(!FdkVariant.PRODUCT.contains(FdkVariant.TENSOR_SPLIT));
        assertEquals(FdkVariant.Kind.HYBRID, FdkVariant.HYBRID_LARGE_TILES.kind());
        assertTrue(FdkVariant.HYBRID_LARGE_TILES.textured() > FdkVariant.HYBRID.textured(), "the larger texture share");
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
