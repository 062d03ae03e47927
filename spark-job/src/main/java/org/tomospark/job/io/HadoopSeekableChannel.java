package org.tomospark.job.io;

import org.apache.hadoop.fs.FSDataInputStream;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * A read-only {@link SeekableByteChannel} over a Hadoop {@link FSDataInputStream}, so jhdf can read an
 * HDF5 file on HDFS (or any Hadoop FileSystem) by positioned reads, without copying the file.
 */
public final class HadoopSeekableChannel implements SeekableByteChannel {
    private final FSDataInputStream in;
    private final long size;
    private final String name;
    private long position;
    private boolean open = true;

    public HadoopSeekableChannel(FSDataInputStream in, long size, String name) {
        this.in = in;
        this.size = size;
        this.name = name;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (!open) throw new ClosedChannelException();
        if (position >= size) return -1;
        int want = (int) Math.min(dst.remaining(), size - position);
        int total = 0;
        if (dst.hasArray()) {
            while (total < want) {
                int n = in.read(position + total, dst.array(), dst.arrayOffset() + dst.position() + total, want - total);
                if (n < 0) break;
                total += n;
            }
            dst.position(dst.position() + total);
        } else {
            byte[] buf = new byte[Math.min(want, 1 << 20)];
            while (total < want) {
                int n = in.read(position + total, buf, 0, Math.min(buf.length, want - total));
                if (n < 0) break;
                dst.put(buf, 0, n);
                total += n;
            }
        }
        if (total == 0 && want > 0) throw new IOException(name + ": unexpected end of file at byte " + position + " of " + size);
        position += total;
        return total;
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) {
        if (newPosition < 0) throw new IllegalArgumentException("negative position");
        position = newPosition;
        return this;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public SeekableByteChannel truncate(long size) {
        throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() throws IOException {
        open = false;
        in.close();
    }
}
