package org.tomospark.job.io;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tomospark.executor.io.SampleCoding;
import org.tomospark.job.io.hdf5.H5Attribute;
import org.tomospark.job.io.hdf5.H5Attributes;
import org.tomospark.job.io.hdf5.H5Type;
import org.tomospark.job.io.hdf5.H5VolumeFile;

import java.io.IOException;
import java.io.InputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

/**
 * volume.h5, the HDF5 output: one dataset {@code /volume} [z][y][x] of the slices the run reconstructed, z = 0 its
 * first (its attributes say which output slice that is), as in the Zarr output, chunked one slice per chunk, with the
 * volume's description as attributes (nested entries flattened to dotted names, and all of it as JSON in
 * {@code tomospark}). HDF5 files take one writer, so the tasks commit their slices to {@code volume.h5.slices/} like
 * any slice ({@link SliceFiles}); once all are there, the driver streams them, one at a time, into the file under a
 * temporary name and renames it into place, so that a failed run leaves no half-written volume.h5. The slices' files
 * stay: they are what {@code --resume} verifies and what a missing or damaged volume.h5 is rebuilt from.
 */
public final class Hdf5Volume {
    public static final String NAME = "volume.h5";
    public static final String DATASET = "volume";
    /** report.json's entry for the file ({@link Written#describe}). */
    public static final String REPORT_KEY = "volumeFile";

    private Hdf5Volume() {
    }

    /**
     * What a run records of the file (in report.json): its name, dataset, length and SHA-256, and the seconds the
     * driver took to assemble it.
     */
    public record Written(long bytes, String sha256, double seconds) {
        public Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("file", NAME);
            m.put("dataset", "/" + DATASET);
            m.put("bytes", bytes);
            m.put("sha256", sha256);
            m.put("assembleSeconds", seconds);
            return m;
        }
    }

    /**
     * Assembles volume.h5 from the committed slices of output slices [first, end), z = 0 being slice {@code first},
     * each checked against the checksum its marker recorded ({@code sha256} by slice).
     */
    public static Written write(OutputCommit out, int first, int end, int width, int height,
                                SampleCoding coding, Map<Integer, String> sha256, Map<String, Object> attributes,
                                String attributesJson) {
        List<H5Attribute> attrs = new ArrayList<>(H5Attributes.flatten(attributes));
        attrs.add(H5Attribute.text("tomospark", attributesJson));
        H5VolumeFile file = new H5VolumeFile(DATASET, end - first, height, width, type(coding),
                LongStream.range(0, end - first).toArray(), attrs);
        long t0 = System.nanoTime();
        MessageDigest digest = sha256();
        AtomicLong bytes = new AtomicLong();
        out.writeFile(NAME, os -> {
            DigestOutputStream d = new DigestOutputStream(os, digest);
            bytes.set(file.write(d, i -> {
                int row = first + i;
                byte[] b = out.read(out.files().name(row));
                if (!OutputCommit.checksum(b).equals(sha256.get(row)))
                    throw new IOException(out.dir() + "/" + out.files().name(row) + " does not match its checksum "
                            + "marker; run again with --resume to recompute it");
                return b;
            }));
            d.flush();
        });
        return new Written(bytes.get(), HexFormat.of().formatHex(digest.digest()), (System.nanoTime() - t0) / 1e9);
    }

    /** Whether volume.h5 is there with the length and SHA-256 a run recorded ({@link Written#describe}). */
    static boolean intact(FileSystem fs, Path dir, Object recorded) throws IOException {
        if (!(recorded instanceof Map<?, ?> m) || !(m.get("bytes") instanceof Number n) || !(m.get("sha256") instanceof String sha))
            return false;
        Path p = new Path(dir, NAME);
        if (!fs.exists(p) || fs.getFileStatus(p).getLen() != n.longValue()) return false;
        MessageDigest digest = sha256();
        byte[] buf = new byte[1 << 20];
        try (InputStream in = fs.open(p)) {
            for (int k; (k = in.read(buf)) > 0; ) digest.update(buf, 0, k);
        }
        return HexFormat.of().formatHex(digest.digest()).equals(sha);
    }

    private static H5Type type(SampleCoding coding) {
        return switch (coding.type()) {
            case FLOAT32 -> H5Type.FLOAT32;
            case FLOAT16 -> H5Type.FLOAT16;
            case UINT16 -> H5Type.UINT16;
        };
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
