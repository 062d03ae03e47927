package org.tomospark.job.inputs;

import org.apache.hadoop.fs.FSDataInputStream;
import org.tomospark.executor.inputs.RangeReader;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Positioned reads ({@link org.apache.hadoop.fs.PositionedReadable#readFully(long, byte[], int, int)}) of one
 * Hadoop stream. They neither use nor move the stream's position and may run on several threads at once: on
 * the local file system each is one {@code pread}, on HDFS each fetches its byte range from a data node.
 */
public final class HadoopRangeReader implements RangeReader {
    private final FSDataInputStream in;
    private final String name;
    private final long length;

    /**
     * @param in     the stream, closed with this reader
     * @param length the file's length, for errors
     * @param name   names the file in errors
     */
    public HadoopRangeReader(FSDataInputStream in, long length, String name) {
        this.in = in;
        this.length = length;
        this.name = name;
    }

    @Override
    public void readFully(long position, ByteBuffer dst) throws IOException {
        int n = dst.remaining();
        if (position + n > length)
            throw new EOFException(name + ": unexpected end of file at byte " + length + " (a read needs bytes " + position + ".."
                    + (position + n - 1) + "); truncated?");
        try {
            if (dst.hasArray()) {
                in.readFully(position, dst.array(), dst.arrayOffset() + dst.position(), n);
                dst.position(dst.limit());
            } else {
                byte[] b = new byte[n];
                in.readFully(position, b, 0, n);
                dst.put(b);
            }
        } catch (EOFException e) {
            throw new EOFException(name + ": unexpected end of file reading bytes " + position + ".." + (position + n - 1)
                    + " (" + e.getMessage() + "); truncated?");
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
