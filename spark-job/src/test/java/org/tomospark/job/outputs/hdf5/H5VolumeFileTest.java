package org.tomospark.job.outputs.hdf5;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import org.junit.jupiter.api.Test;
import org.tomospark.job.fs.Json;
import org.tomospark.job.spark.PythonCheck;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HDF5 writer against h5py (check_h5_file.py): volumes of awkward sizes, every element type, chunks missing (read
 * as the fill value), enough chunks for two and three levels of the chunk B-tree, and attributes of every kind, read
 * back exactly.
 */
class H5VolumeFileTest {
    /** A string larger than an object header message can hold, and than the global heap's smallest collection. */
    private static final String LONG = "0123456789abcdefghijklmnopqrstuvwxyz".repeat(2000);

    /** A volume the test writes, and what h5py must find. */
    private record Case(String label, long slices, int height, int width, H5Type type, long[] chunkZ) {
    }

    @Test
    void h5pyReadsAwkwardVolumesExactly() throws Exception {
        List<Case> cases = List.of(
                new Case("one-slice", 1, 1, 1, H5Type.FLOAT32, new long[]{0}),
                new Case("seven-13x5", 7, 13, 5, H5Type.FLOAT32, LongStream.range(0, 7).toArray()),
                new Case("gaps-float16", 9, 4, 3, H5Type.FLOAT16, new long[]{1, 2, 5, 8}),
                new Case("uint16-no-chunk", 3, 2, 2, H5Type.UINT16, new long[0]),
                new Case("two-levels", 200, 3, 2, H5Type.UINT16, LongStream.range(0, 200).filter(z -> z != 64).toArray()),
                new Case("three-levels", 4100, 2, 1, H5Type.FLOAT32, LongStream.range(2, 4100).toArray()));
        Path dir = Files.createTempDirectory("h5-writer");
        for (Case c : cases) {
            String log = writeAndCheck(dir, c);
            assertTrue(log.startsWith("ok: (" + c.slices() + ", " + c.height() + ", " + c.width() + ")"), log);
            assertTrue(log.contains(c.chunkZ().length + " chunks stored"), c.label() + ": " + log);
        }
    }

    @Test
    void jhdfReadsItToo() throws Exception {
        // a second independent reader, in Java: 131 chunks of 5x3 over two B-tree levels (every chunk stored: jhdf 0.13
        // reads a missing chunk as zeros, not as the fill value)
        long[] z = LongStream.range(0, 131).toArray();
        H5VolumeFile f = new H5VolumeFile("volume", 131, 5, 3, H5Type.FLOAT32, z, attributes());
        Path h5 = Files.createTempDirectory("h5-jhdf").resolve("v.h5");
        try (OutputStream out = Files.newOutputStream(h5)) {
            f.write(out, i -> {
                ByteBuffer b = ByteBuffer.allocate(f.chunkBytes()).order(ByteOrder.LITTLE_ENDIAN);
                for (int k = 0; k < 15; k++) b.putFloat(z[i] * 100 + k);
                return b.array();
            });
        }
        try (HdfFile file = new HdfFile(h5)) {
            Dataset d = file.getDatasetByPath("/volume");
            assertArrayEquals(new int[]{131, 5, 3}, d.getDimensions());
            float[][][] v = (float[][][]) d.getData();
            for (int k = 0; k < 131; k++)
                for (int y = 0; y < 5; y++)
                    for (int x = 0; x < 3; x++)
                        assertEquals(k * 100 + y * 3 + x, v[k][y][x], 0, k + "," + y + "," + x);
            assertEquals(47.5, d.getAttribute("center").getData());
            assertEquals("1/mm", d.getAttribute("unit").getData());
            assertArrayEquals(new long[]{3, 13}, (long[]) d.getAttribute("rows").getData());
        }
    }

    @Test
    void fileBytesIsTheLengthWritten() throws Exception {
        H5VolumeFile f = new H5VolumeFile("v", 70, 3, 4, H5Type.FLOAT16, LongStream.range(0, 70).toArray(), attributes());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long n = f.write(out, i -> new byte[f.chunkBytes()]);
        assertEquals(n, out.size());
        assertEquals(f.fileBytes(), out.size());
        // the superblock's end-of-file address, which readers check against the file's length
        assertEquals(out.size(), ByteBuffer.wrap(out.toByteArray(), 40, 8).order(ByteOrder.LITTLE_ENDIAN).getLong());
        assertArrayEquals(new byte[]{(byte) 0x89, 'H', 'D', 'F'}, Arrays.copyOf(out.toByteArray(), 4));
    }

    @Test
    void aChunkOfTheWrongSizeFailsTheWrite() {
        H5VolumeFile f = new H5VolumeFile("v", 2, 3, 4, H5Type.FLOAT32, new long[]{0, 1}, List.of());
        Exception e = assertThrows(IOException.class,
                () -> f.write(OutputStream.nullOutputStream(), i -> new byte[5]));
        assertTrue(e.getMessage().contains("chunk z=0 has 5 bytes, not 48"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new H5VolumeFile("v", 2, 3, 4, H5Type.FLOAT32, new long[]{1, 1}, List.of()));
    }

    private static List<H5Attribute> attributes() {
        return List.of(H5Attribute.text("unit", "1/mm"), H5Attribute.text("empty", ""),
                H5Attribute.text("note", "µm and ° survive: UTF-8"), H5Attribute.text("long", LONG),
                H5Attribute.real("center", 47.5),
                H5Attribute.integer("projections", 181), H5Attribute.reals("range", -0.001, 0.06),
                H5Attribute.integers("rows", 3, 13));
    }

    private static Map<String, Object> expectedAttributes() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("unit", "1/mm");
        m.put("empty", "");
        m.put("note", "µm and ° survive: UTF-8");
        m.put("long", LONG);
        m.put("center", 47.5);
        m.put("projections", 181);
        m.put("range", List.of(-0.001, 0.06));
        m.put("rows", List.of(3, 13));
        return m;
    }

    private static String writeAndCheck(Path dir, Case c) throws Exception {
        Random rnd = new Random(c.label().hashCode());
        int n = c.height() * c.width();
        int bytes = c.type().bytes();
        List<byte[]> chunks = new ArrayList<>();
        for (int i = 0; i < c.chunkZ().length; i++) {
            ByteBuffer b = ByteBuffer.allocate(n * bytes).order(ByteOrder.LITTLE_ENDIAN);
            for (int k = 0; k < n; k++) {
                switch (c.type()) {
                    case FLOAT32 -> b.putFloat((float) rnd.nextGaussian() * 1000);
                    case FLOAT16 -> b.putShort((short) (rnd.nextInt(65536) & 0xbfff)); // finite half floats
                    default -> b.putShort((short) rnd.nextInt(65536));
                }
            }
            chunks.add(b.array());
        }
        // the whole volume as numpy will compare it: the fill value (NaN or 0) wherever no chunk was written
        ByteBuffer all = ByteBuffer.allocate((int) c.slices() * n * bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (long z = 0; z < c.slices(); z++) {
            int i = Arrays.binarySearch(c.chunkZ(), z);
            if (i >= 0) all.put(chunks.get(i));
            else for (int k = 0; k < n; k++) {
                switch (c.type()) {
                    case FLOAT32 -> all.putFloat(Float.NaN);
                    case FLOAT16 -> all.putShort((short) 0x7e00); // NaN
                    default -> all.putShort((short) 0);
                }
            }
        }
        H5VolumeFile f = new H5VolumeFile("volume", c.slices(), c.height(), c.width(), c.type(), c.chunkZ(),
                attributes());
        Path h5 = dir.resolve(c.label() + ".h5");
        try (OutputStream out = Files.newOutputStream(h5)) {
            assertEquals(f.fileBytes(), f.write(out, chunks::get));
        }
        assertEquals(f.fileBytes(), Files.size(h5));
        Path raw = dir.resolve(c.label() + ".raw");
        Files.write(raw, all.array());
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("dtype", switch (c.type()) {
            case FLOAT32 -> "<f4";
            case FLOAT16 -> "<f2";
            default -> "<u2";
        });
        spec.put("shape", List.of(c.slices(), c.height(), c.width()));
        spec.put("attrs", expectedAttributes());
        Path json = dir.resolve(c.label() + ".json");
        Files.write(json, Json.write(spec));
        return PythonCheck.run("check_h5_file.py", h5.toString(), "volume", raw.toString(), json.toString());
    }
}
