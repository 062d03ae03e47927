package org.tomospark.executor.inputs;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Positioned reads from one file. Each call names its own position, so several threads can read one file at
 * once without sharing a file pointer. Implemented over a {@link java.nio.channels.FileChannel}
 * ({@link FileChannelRangeReader}) and, in spark-job, over a Hadoop stream's positioned reads.
 */
public interface RangeReader extends Closeable {

    /**
     * Fills {@code dst} from its position to its limit with the file's bytes from {@code position} on. A file that
     * ends first is an {@link java.io.EOFException} naming the file and the byte, never a partly filled buffer
     * taken as data.
     */
    void readFully(long position, ByteBuffer dst) throws IOException;

    /** A scratch buffer of {@code bytes} bytes, of the kind this reader fills with the fewest copies. */
    default ByteBuffer buffer(int bytes) {
        return ByteBuffer.allocate(bytes);
    }

    /** Releases what the reader owns; a reader over a borrowed channel leaves that channel open. */
    @Override
    default void close() throws IOException {
    }
}
