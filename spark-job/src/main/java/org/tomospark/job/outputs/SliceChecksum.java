package org.tomospark.job.outputs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * The checksum a commit marker, the manifest and the report record for a file of the output, written as
 * {@code ALGORITHM:HEX}. New files get CRC32C, the checksum HDFS keeps for its blocks (Castagnoli's polynomial; the JDK's
 * is intrinsified to the CPU's crc32 instructions, tens of GB/s a core where SHA-256 gives about 0.5): it catches what a
 * commit must catch, a file cut short, damaged on disk or not the bytes that were written, and is no defence against
 * someone forging a file, which a marker beside it could not be either. Outputs written before (marker format 1,
 * manifest without a version) recorded SHA-256, bare: they are verified with SHA-256, never taken as CRC32C.
 */
public final class SliceChecksum {
    public static final String CRC32C = "crc32c";
    public static final String SHA256 = "sha256";

    private SliceChecksum() {
    }

    /** The CRC32C of the bytes from {@code data}'s position to its limit (left as it was). */
    public static String crc32c(ByteBuffer data) {
        CRC32C c = new CRC32C();
        c.update(data.duplicate());
        return format(c.getValue());
    }

    /** The CRC32C of {@code b}. */
    public static String crc32c(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b, 0, b.length);
        return format(c.getValue());
    }

    private static String format(long crc) {
        return CRC32C + ":" + String.format(Locale.ROOT, "%08x", crc);
    }

    /**
     * The recorded checksum in its current form: {@code crc32c:HEX} and {@code sha256:HEX} as they are, a bare 64-digit
     * hex (marker format 1, a manifest without a version) as {@code sha256:HEX}; null for anything else.
     */
    public static String normalize(String recorded) {
        if (recorded == null) return null;
        String r = recorded.trim().toLowerCase(Locale.ROOT);
        if (r.matches("crc32c:[0-9a-f]{8}") || r.matches("sha256:[0-9a-f]{64}")) return r;
        if (r.matches("[0-9a-f]{64}")) return SHA256 + ":" + r;
        return null;
    }

    /** Whether {@code data} has the recorded checksum, computed with the algorithm it names. */
    public static boolean matches(String recorded, byte[] data) {
        String r = normalize(recorded);
        if (r == null) return false;
        return r.equals(r.startsWith(CRC32C) ? crc32c(data) : sha256(data));
    }

    /** Whether the stream's bytes have the recorded checksum; reads it to its end. */
    public static boolean matches(String recorded, InputStream in) throws IOException {
        String r = normalize(recorded);
        if (r == null) return false;
        byte[] buf = new byte[1 << 20];
        if (r.startsWith(CRC32C)) {
            CRC32C c = new CRC32C();
            for (int k; (k = in.read(buf)) > 0; ) c.update(buf, 0, k);
            return r.equals(format(c.getValue()));
        }
        MessageDigest d = sha256Digest();
        for (int k; (k = in.read(buf)) > 0; ) d.update(buf, 0, k);
        return r.equals(SHA256 + ":" + HexFormat.of().formatHex(d.digest()));
    }

    private static String sha256(byte[] b) {
        return SHA256 + ":" + HexFormat.of().formatHex(sha256Digest().digest(b));
    }

    private static MessageDigest sha256Digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
