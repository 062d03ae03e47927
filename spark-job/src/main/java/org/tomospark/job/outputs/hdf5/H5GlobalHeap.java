package org.tomospark.job.outputs.hdf5;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The global heap collection ({@code GCOL}, version 1) holding the string attributes' bytes: a header (signature,
 * version, the collection's size), then one object per string, numbered from 1 (index, reference count, size, the
 * bytes padded to 8), then object 0, the free space, which fills the collection to its size (at least 4096 bytes).
 */
final class H5GlobalHeap {
    private static final int MIN_BYTES = 4096;
    private static final int HEADER = 16;
    private static final int OBJECT_HEADER = 16;

    private final List<byte[]> objects;

    /** {@code objects}: the strings' bytes, object i + 1 for element i. */
    H5GlobalHeap(List<byte[]> objects) {
        this.objects = List.copyOf(objects);
    }

    /** Bytes of the collection; 0 when there is nothing to hold (no collection is written). */
    int bytes() {
        if (objects.isEmpty()) return 0;
        return Math.max(MIN_BYTES, used() + OBJECT_HEADER);
    }

    private int used() {
        int n = HEADER;
        for (byte[] o : objects) n += OBJECT_HEADER + H5Layout.pad8(o.length);
        return n;
    }

    void encode(ByteBuffer b) {
        if (objects.isEmpty()) return;
        int start = b.position();
        b.put("GCOL".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0).put((byte) 0).put((byte) 0);
        b.putLong(bytes());
        for (int i = 0; i < objects.size(); i++) {
            b.putShort((short) (i + 1)).putShort((short) 0).putInt(0).putLong(objects.get(i).length);
            H5Layout.putPadded(b, objects.get(i));
        }
        b.putShort((short) 0).putShort((short) 0).putInt(0).putLong(bytes() - used());
        H5Layout.padTo(b, start + bytes());
    }
}
