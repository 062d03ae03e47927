package org.tomospark.job.inputs;

import org.apache.hadoop.fs.FSDataInputStream;

import javax.imageio.stream.ImageInputStreamImpl;
import java.io.IOException;

/**
 * An {@link javax.imageio.stream.ImageInputStream} over a Hadoop {@link FSDataInputStream} that seeks
 * instead of caching, so a TIFF reader asked for a band of rows reads only the strips it needs.
 */
final class HadoopImageInputStream extends ImageInputStreamImpl {
    private final FSDataInputStream in;
    private final long length;

    HadoopImageInputStream(FSDataInputStream in, long length) {
        this.in = in;
        this.length = length;
    }

    @Override
    public int read() throws IOException {
        checkClosed();
        bitOffset = 0;
        if (streamPos >= length) return -1;
        in.seek(streamPos);
        int b = in.read();
        if (b >= 0) streamPos++;
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        checkClosed();
        bitOffset = 0;
        if (len == 0) return 0;
        if (streamPos >= length) return -1;
        int n = in.read(streamPos, b, off, (int) Math.min(len, length - streamPos));
        if (n > 0) streamPos += n;
        return n;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public void close() throws IOException {
        super.close();
        in.close();
    }
}
