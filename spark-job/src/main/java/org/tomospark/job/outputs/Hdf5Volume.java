package org.tomospark.job.outputs;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tomospark.executor.outputs.SampleCoding;
import org.tomospark.executor.util.Cancellation;
import org.tomospark.job.outputs.hdf5.H5Attribute;
import org.tomospark.job.outputs.hdf5.H5Attributes;
import org.tomospark.job.outputs.hdf5.H5Type;
import org.tomospark.job.outputs.hdf5.H5VolumeFile;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;

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
     * What a run records of the file (in report.json): its name, dataset, length and checksum ({@link SliceChecksum}:
     * CRC32C), and the seconds the driver took to assemble it.
     */
    public record Written(long bytes, String checksum, double seconds) {
        public Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("file", NAME);
            m.put("dataset", "/" + DATASET);
            m.put("bytes", bytes);
            m.put("checksum", checksum);
            m.put("assembleSeconds", seconds);
            return m;
        }
    }

    /**
     * Assembles volume.h5 from the committed slices of output slices [first, end), z = 0 being slice {@code first},
     * each checked against the checksum its marker recorded ({@code checksums} by slice).
     */
    public static Written write(OutputCommit out, int first, int end, int width, int height,
                                SampleCoding coding, Map<Integer, String> checksums, Map<String, Object> attributes,
                                String attributesJson, Cancellation cancel) {
        List<H5Attribute> attrs = new ArrayList<>(H5Attributes.flatten(attributes));
        attrs.add(H5Attribute.text("tomospark", attributesJson));
        H5VolumeFile file = new H5VolumeFile(DATASET, end - first, height, width, type(coding),
                LongStream.range(0, end - first).toArray(), attrs);
        long t0 = System.nanoTime();
        CRC32C crc = new CRC32C();
        AtomicLong bytes = new AtomicLong();
        out.writeFile(NAME, os -> {
            CheckedOutputStream d = new CheckedOutputStream(os, crc);
            bytes.set(file.write(d, i -> {
                int row = first + i;
                cancel.check("writing " + NAME + " at slice " + row);
                byte[] b = out.read(out.files().name(row));
                if (!SliceChecksum.matches(checksums.get(row), b))
                    throw new IOException(out.dir() + "/" + out.files().name(row) + " does not match its checksum "
                            + "marker; run again with --resume to recompute it");
                return b;
            }));
            d.flush();
        });
        return new Written(bytes.get(), SliceChecksum.CRC32C + ":" + String.format(Locale.ROOT, "%08x", crc.getValue()),
                (System.nanoTime() - t0) / 1e9);
    }

    /**
     * Whether volume.h5 is there with the length and checksum a run recorded ({@link Written#describe}; a report
     * written before checksums carried their algorithm recorded SHA-256 as {@code sha256}, verified as such).
     */
    static boolean intact(FileSystem fs, Path dir, Object recorded) throws IOException {
        if (!(recorded instanceof Map<?, ?> m) || !(m.get("bytes") instanceof Number n)) return false;
        Object sum = m.get("checksum") != null ? m.get("checksum") : m.get("sha256");
        if (!(sum instanceof String s) || SliceChecksum.normalize(s) == null) return false;
        Path p = new Path(dir, NAME);
        if (!fs.exists(p) || fs.getFileStatus(p).getLen() != n.longValue()) return false;
        try (InputStream in = fs.open(p)) {
            return SliceChecksum.matches(s, in);
        }
    }

    private static H5Type type(SampleCoding coding) {
        return switch (coding.type()) {
            case FLOAT32 -> H5Type.FLOAT32;
            case FLOAT16 -> H5Type.FLOAT16;
            case UINT16 -> H5Type.UINT16;
        };
    }

}
