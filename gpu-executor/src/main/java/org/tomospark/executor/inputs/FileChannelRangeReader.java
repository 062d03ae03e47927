package org.tomospark.executor.inputs;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Positioned reads through {@link FileChannel#read(ByteBuffer, long)}, which neither uses nor moves the channel's
 * position, so any number of threads can read at once. Fills direct buffers: the kernel copies straight into
 * them, with no intermediate buffer.
 */
public final class FileChannelRangeReader implements RangeReader {
    private final FileChannel channel;
    private final String name;
    private final boolean owned;

    private FileChannelRangeReader(FileChannel channel, String name, boolean owned) {
        this.channel = channel;
        this.name = name;
        this.owned = owned;
    }

    /** Opens {@code file}; {@link #close()} closes it. */
    public static FileChannelRangeReader open(Path file) throws IOException {
        return new FileChannelRangeReader(FileChannel.open(file, StandardOpenOption.READ), file.toString(), true);
    }

    /** Reads through a channel someone else owns and closes; {@code name} names it in errors. */
    public static FileChannelRangeReader over(FileChannel channel, String name) {
        return new FileChannelRangeReader(channel, name, false);
    }

    @Override
    public void readFully(long position, ByteBuffer dst) throws IOException {
        long at = position;
        while (dst.hasRemaining()) {
            int n = channel.read(dst, at);
            if (n < 0)
                throw new EOFException(name + ": unexpected end of file at byte " + at + " (the file has " + channel.size()
                        + " bytes); truncated?");
            at += n;
        }
    }

    @Override
    public ByteBuffer buffer(int bytes) {
        return ByteBuffer.allocateDirect(bytes);
    }

    @Override
    public void close() throws IOException {
        if (owned) channel.close();
    }
}
