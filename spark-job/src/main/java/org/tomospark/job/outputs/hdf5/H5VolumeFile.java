package org.tomospark.job.outputs.hdf5;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One HDF5 file with one dataset {@code /NAME} of [slices][height][width] elements, chunked one z-slice per chunk,
 * written front to back: first all the metadata (see the package's description for the format's pieces), then the
 * chunks, each asked of a {@link Chunks} in z order, so that only one chunk is in memory at a time. Chunks not listed
 * are not stored and read as the fill value: NaN for floats, 0 for integers.
 *
 * @param dataset    the dataset's name in the root group
 * @param slices     the dataset's extent along z
 * @param height     rows of a slice
 * @param width      columns of a slice
 * @param type       the element type
 * @param chunkZ     the stored chunks' z, ascending, each in [0, slices)
 * @param attributes the dataset's attributes
 */
public record H5VolumeFile(String dataset, long slices, int height, int width, H5Type type, long[] chunkZ,
                           List<H5Attribute> attributes) {
    private static final int RANK = 3;
    private static final byte[] SIGNATURE = {(byte) 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    private static final int SUPERBLOCK_BYTES = 96;
    private static final int ROOT_HEADER_BYTES = 16 + 8 + 16;
    private static final int GROUP_LEAF_K = 4;
    private static final int GROUP_INTERNAL_K = 16;
    private static final int GROUP_NODE_BYTES = 24 + 2 * GROUP_INTERNAL_K * 8 + (2 * GROUP_INTERNAL_K + 1) * 8;
    private static final int HEAP_HEADER_BYTES = 32;
    private static final int SYMBOL_NODE_BYTES = 8 + 2 * GROUP_LEAF_K * 40;
    /** Where the local heap's free list ends: no free block. */
    private static final long HEAP_NO_FREE_BLOCK = 1;

    private static final int DATASPACE = 0x1;
    private static final int DATATYPE = 0x3;
    private static final int FILL_VALUE = 0x5;
    private static final int LAYOUT = 0x8;
    private static final int ATTRIBUTE = 0xC;
    private static final int SYMBOL_TABLE = 0x11;
    private static final int CONSTANT = 1;

    /** The chunks' bytes, one z-slice at a time. */
    public interface Chunks {
        /** The chunk at z = {@code chunkZ[index]}: exactly height × width little-endian elements. */
        byte[] chunk(int index) throws IOException;
    }

    public H5VolumeFile {
        if (dataset.isEmpty() || dataset.contains("/") || dataset.equals("."))
            throw new IllegalArgumentException("not a dataset name: '" + dataset + "'");
        if (slices < 0 || height <= 0 || width <= 0)
            throw new IllegalArgumentException("a volume of " + slices + "x" + height + "x" + width);
        chunkZ = chunkZ.clone();
        for (int i = 0; i < chunkZ.length; i++)
            if (chunkZ[i] < 0 || chunkZ[i] >= slices || (i > 0 && chunkZ[i] <= chunkZ[i - 1]))
                throw new IllegalArgumentException("chunk z " + chunkZ[i] + " is not ascending within [0, " + slices
                        + ")");
        attributes = List.copyOf(attributes);
        if ((long) height * width * type.bytes() > Integer.MAX_VALUE - 8)
            throw new IllegalArgumentException("a " + width + "x" + height + " slice is too large for one chunk");
    }

    @Override
    public long[] chunkZ() {
        return chunkZ.clone();
    }

    /** Bytes of one chunk. */
    public int chunkBytes() {
        return height * width * type.bytes();
    }

    /** Bytes of the whole file. */
    public long fileBytes() {
        return new Plan().dataAt + (long) chunkZ.length * chunkBytes();
    }

    /** Writes the file to {@code out}; returns its length. */
    public long write(OutputStream out, Chunks chunks) throws IOException {
        Plan p = new Plan();
        out.write(p.metadata());
        long n = p.dataAt;
        for (int i = 0; i < chunkZ.length; i++) {
            byte[] c = chunks.chunk(i);
            if (c.length != chunkBytes())
                throw new IOException("chunk z=" + chunkZ[i] + " has " + c.length + " bytes, not " + chunkBytes());
            out.write(c);
            n += c.length;
        }
        return n;
    }

    private byte[] nameBytes() {
        byte[] b = dataset.getBytes(StandardCharsets.UTF_8);
        byte[] z = new byte[b.length + 1];
        System.arraycopy(b, 0, z, 0, b.length);
        return z;
    }

    /** The addresses of every structure, computed before anything is written. */
    private final class Plan {
        final long rootHeaderAt = SUPERBLOCK_BYTES;
        final long groupNodeAt = rootHeaderAt + ROOT_HEADER_BYTES;
        final long heapAt = groupNodeAt + GROUP_NODE_BYTES;
        final long heapDataAt = heapAt + HEAP_HEADER_BYTES;
        final int heapDataBytes = 8 + H5Layout.pad8(nameBytes().length);
        final long symbolNodeAt = heapDataAt + heapDataBytes;
        final long globalHeapAt = symbolNodeAt + SYMBOL_NODE_BYTES;
        final H5GlobalHeap strings = new H5GlobalHeap(attributes.stream().filter(H5Attribute::isText)
                .map(H5Attribute::value).toList());
        final long datasetHeaderAt = globalHeapAt + strings.bytes();
        final int datasetHeaderBytes = 16 + datasetMessagesBytes();
        final long indexAt = datasetHeaderAt + datasetHeaderBytes;
        final H5ChunkBTree index;
        final long dataAt;

        Plan() {
            long[] addresses = new long[chunkZ.length];
            H5ChunkBTree sizing = new H5ChunkBTree(chunkZ, addresses, chunkBytes(), RANK, indexAt);
            long at = indexAt + sizing.bytes();
            dataAt = at;
            for (int i = 0; i < addresses.length; i++) addresses[i] = at + (long) i * chunkBytes();
            index = new H5ChunkBTree(chunkZ, addresses, chunkBytes(), RANK, indexAt);
        }

        byte[] metadata() {
            if (dataAt > Integer.MAX_VALUE) throw new IllegalArgumentException("the HDF5 metadata of " + chunkZ.length
                    + " chunks is too large");
            ByteBuffer b = ByteBuffer.allocate((int) dataAt).order(ByteOrder.LITTLE_ENDIAN);
            superblock(b);
            rootHeader(b);
            groupNode(b);
            heap(b);
            symbolNode(b);
            strings.encode(b);
            datasetHeader(b);
            index.encode(b);
            if (b.position() != dataAt) throw new IllegalStateException("metadata of " + b.position() + " bytes, "
                    + "planned " + dataAt);
            return b.array();
        }

        private void superblock(ByteBuffer b) {
            b.put(SIGNATURE);
            b.put((byte) 0).put((byte) 0).put((byte) 0).put((byte) 0); // versions: superblock, free space, root group
            b.put((byte) 0).put((byte) 8).put((byte) 8).put((byte) 0); // shared header version, offset and length sizes
            b.putShort((short) GROUP_LEAF_K).putShort((short) GROUP_INTERNAL_K).putInt(0);
            b.putLong(0).putLong(H5Layout.UNDEFINED).putLong(dataAt + (long) chunkZ.length * chunkBytes());
            b.putLong(H5Layout.UNDEFINED);
            // the root group's symbol table entry: no name, its object header, and its B-tree and heap cached
            b.putLong(0).putLong(rootHeaderAt).putInt(1).putInt(0).putLong(groupNodeAt).putLong(heapAt);
        }

        private void rootHeader(ByteBuffer b) {
            objectHeaderPrefix(b, 1, 8 + 16);
            message(b, SYMBOL_TABLE, 16, 0);
            b.putLong(groupNodeAt).putLong(heapAt);
        }

        private void groupNode(ByteBuffer b) {
            int start = b.position();
            b.put("TREE".getBytes(StandardCharsets.US_ASCII)).put((byte) 0).put((byte) 0).putShort((short) 1);
            b.putLong(H5Layout.UNDEFINED).putLong(H5Layout.UNDEFINED);
            b.putLong(0).putLong(symbolNodeAt).putLong(8); // keys: the heap offsets of "" and of the dataset's name
            H5Layout.padTo(b, start + GROUP_NODE_BYTES);
        }

        private void heap(ByteBuffer b) {
            b.put("HEAP".getBytes(StandardCharsets.US_ASCII)).put((byte) 0).put((byte) 0).put((byte) 0).put((byte) 0);
            b.putLong(heapDataBytes).putLong(HEAP_NO_FREE_BLOCK).putLong(heapDataAt);
            b.putLong(0);
            H5Layout.putPadded(b, nameBytes());
        }

        private void symbolNode(ByteBuffer b) {
            int start = b.position();
            b.put("SNOD".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0).putShort((short) 1);
            b.putLong(8).putLong(datasetHeaderAt).putInt(0).putInt(0).putLong(0).putLong(0);
            H5Layout.padTo(b, start + SYMBOL_NODE_BYTES);
        }

        private void datasetHeader(ByteBuffer b) {
            int start = b.position();
            objectHeaderPrefix(b, 4 + attributes.size(), datasetHeaderBytes - 16);
            message(b, DATASPACE, 8 + 16 * RANK, 0);
            b.put((byte) 1).put((byte) RANK).put((byte) 1).put((byte) 0).putInt(0);
            for (int i = 0; i < 2; i++) b.putLong(slices).putLong(height).putLong(width); // extent, then maximum
            message(b, DATATYPE, H5Layout.pad8(type.messageBytes()), CONSTANT);
            int at = b.position();
            type.encode(b);
            H5Layout.padTo(b, at + H5Layout.pad8(type.messageBytes()));
            message(b, FILL_VALUE, fillBytes(), CONSTANT);
            at = b.position();
            b.put((byte) 2).put((byte) 3).put((byte) 0).put((byte) 1).putInt(type.bytes()); // allocated incrementally
            switch (type) {
                case FLOAT16 -> b.putShort((short) 0x7e00);
                case FLOAT32 -> b.putFloat(Float.NaN);
                case FLOAT64 -> b.putDouble(Double.NaN);
                case UINT16 -> b.putShort((short) 0);
                case INT64 -> b.putLong(0);
            }
            H5Layout.padTo(b, at + fillBytes());
            message(b, LAYOUT, layoutBytes(), 0);
            at = b.position();
            b.put((byte) 3).put((byte) 2).put((byte) (RANK + 1)).putLong(index.rootAddress());
            b.putInt(1).putInt(height).putInt(width).putInt(type.bytes());
            H5Layout.padTo(b, at + layoutBytes());
            int heapIndex = 0;
            for (H5Attribute a : attributes) {
                message(b, ATTRIBUTE, a.messageBytes(), 0);
                a.encode(b, globalHeapAt, a.isText() ? ++heapIndex : 0);
            }
            H5Layout.padTo(b, start + datasetHeaderBytes);
        }

        private int fillBytes() {
            return H5Layout.pad8(8 + type.bytes());
        }

        private int layoutBytes() {
            return H5Layout.pad8(3 + 8 + 4 * (RANK + 1));
        }

        private int datasetMessagesBytes() {
            int n = 8 + 8 + 16 * RANK;
            n += 8 + H5Layout.pad8(type.messageBytes());
            n += 8 + fillBytes();
            n += 8 + layoutBytes();
            for (H5Attribute a : attributes) n += 8 + a.messageBytes();
            return n;
        }

        private void objectHeaderPrefix(ByteBuffer b, int messages, int bytes) {
            b.put((byte) 1).put((byte) 0).putShort((short) messages).putInt(1).putInt(bytes).putInt(0);
        }

        private void message(ByteBuffer b, int type, int bytes, int flags) {
            b.putShort((short) type).putShort((short) bytes).put((byte) flags).put((byte) 0).put((byte) 0).put((byte) 0);
        }
    }
}
