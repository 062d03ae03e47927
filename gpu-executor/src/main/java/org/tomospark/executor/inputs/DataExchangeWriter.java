package org.tomospark.executor.inputs;

import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.DatasetCreationOptions;
import io.jhdf.api.WritableGroup;

import java.nio.file.Path;
import java.util.function.Consumer;

/** Writes a DataExchange HDF5 file (uint16 counts, flats, darks, theta in degrees) with jhdf. */
public final class DataExchangeWriter {
    private DataExchangeWriter() {
    }

    /**
     * @param data  [angle][row][col] counts
     * @param white [n][row][col]
     * @param dark  [n][row][col]
     * @param thetaDeg angles in degrees
     */
    public static void writeUint16(Path file, int[][][] data, int[][][] white, int[][][] dark, double[] thetaDeg, String sample) {
        writeUint16(file, toShort(data), toShort(white), toShort(dark), thetaDeg, sample, f -> {
        });
    }

    /**
     * As above, with the counts already as 16-bit samples (read as unsigned), and {@code more} writing further groups
     * (a cone-beam scan's /geometry) into the open file.
     */
    public static void writeUint16(Path file, short[][][] data, short[][][] white, short[][][] dark, double[] thetaDeg, String sample,
                                   Consumer<WritableHdfFile> more) {
        DatasetCreationOptions u16 = DatasetCreationOptions.builder().unsigned().build();
        try (WritableHdfFile f = HdfFile.write(file)) {
            WritableGroup ex = f.putGroup("exchange");
            ex.putDataset("data", data, u16);
            ex.putDataset("data_white", white, u16);
            ex.putDataset("data_dark", dark, u16);
            ex.putDataset("theta", thetaDeg.clone());
            more.accept(f);
            // jhdf 0.13 writes a corrupt file for attributes on nested groups (/measurement/sample), so the
            // sample name goes on the root group
            f.putAttribute("sample_name", sample);
        }
    }

    private static short[][][] toShort(int[][][] a) {
        short[][][] s = new short[a.length][][];
        for (int i = 0; i < a.length; i++) {
            s[i] = new short[a[i].length][];
            for (int j = 0; j < a[i].length; j++) {
                s[i][j] = new short[a[i][j].length];
                for (int k = 0; k < a[i][j].length; k++) {
                    int v = a[i][j][k];
                    if (v < 0 || v > 65535) throw new IllegalArgumentException("uint16 value out of range: " + v);
                    s[i][j][k] = (short) v;
                }
            }
        }
        return s;
    }
}
