package org.tomospark.executor.inputs;

import io.jhdf.GlobalHeap;
import io.jhdf.Utils;
import io.jhdf.object.datatype.DataType;
import io.jhdf.object.datatype.FixedPoint;
import io.jhdf.object.datatype.FloatingPoint;
import io.jhdf.object.message.DataSpace;
import io.jhdf.storage.HdfBackingStorage;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A dataset with HDF5's virtual layout: its shape, sample type and fill value, and the mappings of its elements to
 * source datasets, read from the object header's messages and the global heap entry the layout message points to.
 *
 * @param dims     the virtual dataset's extents
 * @param type     its sample type (sources are converted to it)
 * @param fill     the fill value's bytes (the type's size, in its byte order), or null for zero
 * @param mappings in the order HDF5 stores them
 */
record VirtualDataset(int[] dims, DataType type, byte[] fill, List<VirtualMapping> mappings) {
    private static final int VIRTUAL = 3;

    /** True if {@code layout} (a layout message's data) is the virtual layout. */
    static boolean isVirtual(ByteBuffer layout) {
        ByteBuffer b = layout.duplicate();
        return b.remaining() >= 2 && (b.get() & 0xff) >= 3 && b.get() == VIRTUAL;
    }

    /**
     * Reads a virtual dataset from its object header's messages.
     *
     * @throws IllegalArgumentException where a part of it is of a kind this reader does not take; the message says
     * which
     */
    static VirtualDataset read(HdfBackingStorage storage, List<HeaderMessages.Message> messages) {
        int[] dims = null;
        DataType type = null;
        byte[] fill = null;
        List<VirtualMapping> mappings = null;
        for (HeaderMessages.Message m : messages) {
            ByteBuffer d = m.data().duplicate().order(ByteOrder.LITTLE_ENDIAN);
            switch (m.type()) {
                case HeaderMessages.DATASPACE -> dims = DataSpace.readDataSpace(d,
                        storage.getSuperblock()).getDimensions();
                case HeaderMessages.DATATYPE -> type = DataType.readDataType(d);
                case HeaderMessages.FILL_VALUE -> fill = fillValue(d);
                case HeaderMessages.FILL_VALUE_OLD -> fill = d.remaining() >= 4 ? bytes(d, d.getInt()) : null;
                case HeaderMessages.LAYOUT -> mappings = mappings(storage, d);
                default -> {
                }
            }
        }
        if (dims == null || type == null || mappings == null)
            throw new IllegalArgumentException("a virtual dataset without a dataspace, datatype or layout message");
        if (fill != null && fill.length != type.getSize()) fill = null;
        return new VirtualDataset(dims, type, fill, mappings);
    }

    /** The fill value message, versions 1 to 3: the value's bytes where one is defined. */
    private static byte[] fillValue(ByteBuffer d) {
        int version = d.get() & 0xff;
        if (version == 3) {
            int flags = d.get() & 0xff;
            return (flags & 0x20) != 0 ? bytes(d, d.getInt()) : null;
        }
        d.get(); // space allocation time
        d.get(); // fill value write time
        boolean defined = d.get() != 0;
        if (version == 1 || defined) {
            int size = d.getInt();
            return defined ? bytes(d, size) : null;
        }
        return null;
    }

    private static byte[] bytes(ByteBuffer d, int size) {
        if (size <= 0 || size > d.remaining()) return null;
        byte[] b = new byte[size];
        d.get(b);
        return b;
    }

    /** The layout message's global heap entry: the encoding version (0), the count, then each mapping. */
    private static List<VirtualMapping> mappings(HdfBackingStorage storage, ByteBuffer layout) {
        layout.get(); // version
        layout.get(); // class
        long heapAddress = Utils.readBytesAsUnsignedLong(layout, storage.getSizeOfOffsets());
        int index = layout.getInt();
        ByteBuffer heap = new GlobalHeap(storage, heapAddress).getObjectData(index).order(ByteOrder.LITTLE_ENDIAN);
        int version = heap.get() & 0xff;
        if (version != 0) throw new IllegalArgumentException("a virtual layout encoded in version " + version
                + " (version 0 is read)");
        long n = Utils.readBytesAsUnsignedLong(heap, storage.getSizeOfLengths());
        List<VirtualMapping> out = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            String file = Utils.readUntilNull(heap);
            String dataset = Utils.readUntilNull(heap);
            Selection source = Selection.read(heap);
            Selection virtual = Selection.read(heap);
            out.add(new VirtualMapping(file, dataset, source, virtual));
        }
        return out;
    }

    /** The fill value as a sample of the dataset's type, converted as the type says; 0 where none is defined. */
    double fillSample() {
        if (fill == null) return 0;
        ByteOrder order = type instanceof FixedPoint f ? f.getByteOrder()
                : type instanceof FloatingPoint f ? f.getByteOrder() : ByteOrder.LITTLE_ENDIAN;
        ByteBuffer b = ByteBuffer.wrap(fill).order(order);
        return fill.length == 2 ? Short.toUnsignedInt(b.getShort()) : b.getFloat();
    }
}
