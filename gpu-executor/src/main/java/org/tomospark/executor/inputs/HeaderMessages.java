package org.tomospark.executor.inputs;

import io.jhdf.Utils;
import io.jhdf.storage.HdfBackingStorage;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The raw messages of an HDF5 object header (version 1 or 2, continuation blocks followed), each its type and its
 * bytes, without interpreting them. jhdf interprets every message of a header at once and gives up on the whole
 * object for one it does not know (a virtual layout, external storage); this lets the messages be looked at one by
 * one.
 */
final class HeaderMessages {
    static final int DATASPACE = 0x1, DATATYPE = 0x3, FILL_VALUE_OLD = 0x4, FILL_VALUE = 0x5, EXTERNAL_FILES = 0x7,
            LAYOUT = 0x8, FILTERS = 0xB, CONTINUATION = 0x10;
    private static final byte[] OHDR = "OHDR".getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_MESSAGES = 100_000;

    /** One message: its type and its data (little-endian, position 0). */
    record Message(int type, ByteBuffer data) {
    }

    private HeaderMessages() {
    }

    static List<Message> read(HdfBackingStorage storage, long address) {
        List<Message> out = new ArrayList<>();
        ByteBuffer start = le(storage.readBufferFromAddress(address, 4));
        byte[] sig = new byte[4];
        start.get(sig);
        if (Arrays.equals(sig, OHDR)) readV2(storage, address, out);
        else readV1(storage, address, out);
        return out;
    }

    private static void readV1(HdfBackingStorage storage, long address, List<Message> out) {
        ByteBuffer prefix = le(storage.readBufferFromAddress(address, 16));
        int version = prefix.get() & 0xff;
        if (version != 1) throw new IllegalStateException("object header at " + address + " has unknown version "
                + version);
        prefix.get();
        int count = Short.toUnsignedInt(prefix.getShort());
        prefix.getInt();
        int size = prefix.getInt();
        List<ByteBuffer> blocks = new ArrayList<>(List.of(le(storage.readBufferFromAddress(address + 16, size))));
        for (int b = 0; b < blocks.size() && out.size() < count; b++) {
            ByteBuffer bb = blocks.get(b);
            while (bb.remaining() >= 8 && out.size() < count) {
                int type = Short.toUnsignedInt(bb.getShort());
                int length = Short.toUnsignedInt(bb.getShort());
                bb.getInt(); // flags and reserved bytes
                Message m = new Message(type, le(Utils.createSubBuffer(bb, length)));
                out.add(m);
                if (type == CONTINUATION) blocks.add(continuation(storage, m, 0));
            }
        }
    }

    private static void readV2(HdfBackingStorage storage, long address, List<Message> out) {
        ByteBuffer head = le(storage.readBufferFromAddress(address, 6 + 16 + 4 + 8));
        head.position(4);
        int version = head.get() & 0xff;
        if (version != 2) throw new IllegalStateException("object header at " + address + " has unknown version "
                + version);
        int flags = head.get() & 0xff;
        if ((flags & 0x20) != 0) head.position(head.position() + 16); // times
        if ((flags & 0x10) != 0) head.position(head.position() + 4);  // attribute phase change values
        int sizeBytes = 1 << (flags & 3);
        long size = Utils.readBytesAsUnsignedLong(head, sizeBytes);
        boolean creationOrder = (flags & 0x04) != 0;
        List<ByteBuffer> blocks = new ArrayList<>(List.of(le(storage.readBufferFromAddress(address + head.position(),
                Math.toIntExact(size)))));
        int headerBytes = creationOrder ? 6 : 4;
        for (int b = 0; b < blocks.size(); b++) {
            ByteBuffer bb = blocks.get(b);
            while (bb.remaining() >= headerBytes && out.size() < MAX_MESSAGES) {
                int type = bb.get() & 0xff;
                int length = Short.toUnsignedInt(bb.getShort());
                bb.position(bb.position() + headerBytes - 3);
                if (length > bb.remaining()) break; // the gap before the checksum
                Message m = new Message(type, le(Utils.createSubBuffer(bb, length)));
                out.add(m);
                if (type == CONTINUATION) blocks.add(continuation(storage, m, 4));
            }
        }
    }

    /** The block a continuation message points to; version 2 blocks start with "OCHK" and end with a checksum. */
    private static ByteBuffer continuation(HdfBackingStorage storage, Message m, int signatureAndChecksum) {
        ByteBuffer d = m.data().duplicate().order(ByteOrder.LITTLE_ENDIAN);
        long offset = Utils.readBytesAsUnsignedLong(d, storage.getSizeOfOffsets());
        long length = Utils.readBytesAsUnsignedLong(d, storage.getSizeOfLengths());
        ByteBuffer block = le(storage.readBufferFromAddress(offset, Math.toIntExact(length)));
        if (signatureAndChecksum > 0) {
            block.position(4);
            block.limit(block.limit() - 4);
            block = le(block.slice());
        }
        return block;
    }

    private static ByteBuffer le(ByteBuffer b) {
        return b.order(ByteOrder.LITTLE_ENDIAN);
    }
}
