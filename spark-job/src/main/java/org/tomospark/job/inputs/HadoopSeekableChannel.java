package org.tomospark.job.inputs;

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

    /**
     * Small reads (jhdf reads a hyperslab row by row) are served from a read-ahead window filled by one
     * sequential read; on HDFS a positioned read per call would open a new block reader every time (tens of
     * milliseconds each), a sequential read reuses it.
     */
    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (!open) throw new ClosedChannelException();
        if (position >= size) return -1;
        int want = (int) Math.min(dst.remaining(), size - position);
        if (want == 0) return 0;
        if (want >= WINDOW) {
            byte[] direct = dst.hasArray() ? dst.array() : new byte[want];
            int off = dst.hasArray() ? dst.arrayOffset() + dst.position() : 0;
            fill(position, direct, off, want);
            if (!dst.hasArray()) dst.put(direct, 0, want);
            else dst.position(dst.position() + want);
        } else {
            if (!(position >= windowStart && position + want <= windowStart + windowLength)) {
                if (window == null) window = new byte[WINDOW];
                windowLength = (int) Math.min(WINDOW, size - position);
                windowStart = position;
                try {
                    fill(position, window, 0, windowLength);
                } catch (IOException e) {
                    windowStart = -1;
                    windowLength = 0;
                    throw e;
                }
            }
            dst.put(window, (int) (position - windowStart), want);
        }
        position += want;
        return want;
    }

    private static final int WINDOW = 1 << 20;
    private byte[] window;
    private long windowStart = -1;
    private int windowLength;

    private void fill(long pos, byte[] b, int off, int len) throws IOException {
        if (in.getPos() != pos) in.seek(pos);
        int total = 0;
        while (total < len) {
            int n = in.read(b, off + total, len - total);
            if (n < 0) throw new IOException(name + ": unexpected end of file at byte " + (pos + total) + " of " + size + " (truncated?)");
            total += n;
        }
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
