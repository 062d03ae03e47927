package org.tomospark.job.outputs;

import org.tomospark.executor.outputs.FloatTiff;
import org.tomospark.executor.outputs.SampleCoding;
import org.tomospark.executor.util.Cancellation;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * volume.raw: every committed slice of [first, end) as float32 little-endian [slice][y][x] (the stored values, decoded
 * from a compact output type), streamed from the slice
 * files one slice at a time (a 2048³ volume is 32 GiB) and renamed into place like every file of the output.
 */
public final class RawVolume {
    public static final String NAME = "volume.raw";

    private RawVolume() {
    }

    /** Writes volume.raw from the committed slices; a cancel between two slices leaves no volume.raw, partial or whole. */
    public static void write(OutputCommit out, int first, int end, int width, int height, SampleCoding coding,
                             Cancellation cancel) {
        out.writeFile(NAME, os -> {
            for (int r = first; r < end; r++) {
                cancel.check("writing " + NAME + " at slice " + r);
                FloatTiff.Image img = out.files().decode(out.read(out.files().name(r)), width, height, coding);
                ByteBuffer bb = ByteBuffer.allocate(img.pixels().length * 4).order(ByteOrder.LITTLE_ENDIAN);
                bb.asFloatBuffer().put(img.pixels());
                os.write(bb.array());
            }
        });
    }
}
