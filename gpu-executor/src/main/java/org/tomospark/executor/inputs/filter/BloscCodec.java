package org.tomospark.executor.inputs.filter;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import io.jhdf.exceptions.HdfFilterException;

import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The codecs a Blosc chunk may name (bits 5..7 of its flags), each decoding one compressed stream into a known
 * number of bytes. LZ4 and Zstd come from aircompressor, zlib from the JDK. BloscLZ and Snappy have no maintained
 * Java decoder, so chunks in them are refused with a message that says how to repack the file.
 */
enum BloscCodec {
    BLOSCLZ("BloscLZ"), LZ4("LZ4"), SNAPPY("Snappy"), ZLIB("zlib"), ZSTD("Zstd");

    /** The h5repack filter that rewrites a dataset as Blosc with LZ4 and byte shuffle, which tomospark reads. */
    static final String REPACK = "h5repack -f DATASET:UD=32001,0,7,0,0,0,0,5,1,1 in.h5 out.h5";

    private final String label;

    BloscCodec(String label) {
        this.label = label;
    }

    static BloscCodec of(int code) {
        if (code < 0 || code >= values().length) throw new HdfFilterException("Blosc chunk names an unknown codec "
                + code);
        return values()[code];
    }

    String label() {
        return label;
    }

    /** Whether tomospark decodes this codec. */
    boolean readable() {
        return this == LZ4 || this == ZLIB || this == ZSTD;
    }

    /**
     * Decodes {@code length} bytes of {@code src} from {@code offset} into exactly {@code outLength} bytes of {@code
     * out}.
     */
    void decode(byte[] src, int offset, int length, byte[] out, int outOffset, int outLength) {
        int n;
        try {
            n = switch (this) {
                case LZ4 -> new Lz4Decompressor().decompress(src, offset, length, out, outOffset, outLength);
                case ZSTD -> new ZstdDecompressor().decompress(src, offset, length, out, outOffset, outLength);
                case ZLIB -> inflate(src, offset, length, out, outOffset, outLength);
                case BLOSCLZ, SNAPPY -> throw new HdfFilterException("the Blosc codec " + label
                        + " has no maintained Java decoder,"
                        + " so tomospark does not read it; repack the dataset with another codec: " + REPACK);
            };
        } catch (MalformedInputException e) {
            throw new HdfFilterException("a Blosc " + label + " stream does not decode (" + e.getMessage() + ")", e);
        }
        if (n != outLength)
            throw new HdfFilterException("a Blosc " + label + " stream decodes to " + n + " bytes, its header says "
                    + outLength);
    }

    private static int inflate(byte[] src, int offset, int length, byte[] out, int outOffset, int outLength) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(src, offset, length);
            int n = 0;
            while (n < outLength && !inflater.finished()) {
                int k = inflater.inflate(out, outOffset + n, outLength - n);
                if (k == 0 && (inflater.needsInput() || inflater.needsDictionary())) break;
                n += k;
            }
            return n;
        } catch (DataFormatException e) {
            throw new HdfFilterException("a Blosc zlib stream does not decode (" + e.getMessage() + ")", e);
        } finally {
            inflater.end();
        }
    }
}
