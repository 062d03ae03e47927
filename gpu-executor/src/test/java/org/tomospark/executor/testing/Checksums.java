package org.tomospark.executor.testing;

import java.util.Locale;
import java.util.zip.CRC32C;

/** The checksum the product records for a file's bytes, computed here from the JDK's CRC32C, for tests to compare. */
public final class Checksums {
    private Checksums() {
    }

    /** {@code crc32c:HEX}, eight lowercase hex digits. */
    public static String crc32c(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b, 0, b.length);
        return String.format(Locale.ROOT, "crc32c:%08x", c.getValue());
    }
}
