package org.tomospark.executor.inputs;

import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.WritableGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.preprocess.RawStack;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.function.Consumer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataExchangeTest {
    @TempDir
    Path tmp;

    static final DemoDataset.Spec SMALL = DemoDataset.Spec.demo().withSize(24, 5, 13);

    @Test
    void demoFileRoundTripsThroughHyperslabReads() throws Exception {
        DemoDataset d = new DemoDataset(SMALL);
        Path f = tmp.resolve("demo.h5");
        d.writeHdf5(f);
        DemoDataset.Counts c = d.counts();
        try (DataExchangeSource src = DataExchangeSource.open(f)) {
            ScanMetadata m = src.metadata();
            assertEquals(13, m.numProjections());
            assertEquals(5, m.rows());
            assertEquals(24, m.width());
            assertEquals(ScanMetadata.SampleType.UINT16, m.sampleType());
            assertEquals(10, m.numFlats());
            assertArrayEquals(d.thetaDeg(), m.anglesDeg(), 1e-12);
            RawStack band = src.readProjections(2, 2);
            for (int p = 0; p < 13; p++)
                for (int r = 0; r < 2; r++)
                    for (int col = 0; col < 24; col++)
                        assertEquals(c.data()[p][2 + r][col], (int) band.get(p, r, col));
            assertEquals(c.white()[3][4][5], (int) src.readFlats(4, 1).get(3, 0, 5));
            assertEquals(c.dark()[9][0][23], (int) src.readDarks(0, 5).get(9, 0, 23));
        }
        // the same file through a channel (as from HDFS)
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ);
             DataExchangeSource src = DataExchangeSource.open(ch, "hdfs://nn/demo.h5")) {
            assertEquals(c.data()[12][4][0], (int) src.readProjections(4, 1).get(12, 0, 0));
        }
    }

    @Test
    void realToothScanMetadata() {
        Path tooth = ToothScan.path();
        try (DataExchangeSource src = DataExchangeSource.open(tooth)) {
            ScanMetadata m = src.metadata();
            assertEquals(181, m.numProjections());
            assertEquals(2, m.rows());
            assertEquals(640, m.width());
            assertEquals(ScanMetadata.SampleType.FLOAT32, m.sampleType());
            assertEquals(179.006, m.anglesDeg()[180], 1e-3);
        }
    }

    private Path write(Consumer<WritableGroup> content) {
        Path f = tmp.resolve("bad-" + System.nanoTime() + ".h5");
        try (WritableHdfFile w = HdfFile.write(f)) {
            content.accept(w.putGroup("exchange"));
        }
        return f;
    }

    static String openError(Path f) {
        return assertThrows(IllegalArgumentException.class, () -> DataExchangeSource.open(f).close()).getMessage();
    }

    @Test
    void missingDataset() {
        Path f = write(ex -> ex.putDataset("theta", new double[]{0, 1}));
        String m = openError(f);
        assertTrue(m.contains(f.toString()) && m.contains("/exchange/data not found"), m);
    }

    @Test
    void angleCountMismatch() {
        Path f = write(ex -> {
            ex.putDataset("data", new float[3][2][4]);
            ex.putDataset("theta", new double[]{0, 1});
        });
        String m = openError(f);
        assertTrue(m.contains("/exchange/theta has 2 angles but /exchange/data has 3 projections"), m);
    }

    @Test
    void flatShapeMismatch() {
        Path f = write(ex -> {
            ex.putDataset("data", new float[3][2][4]);
            ex.putDataset("data_white", new float[3][2][5]);
        });
        String m = openError(f);
        assertTrue(m.contains("/exchange/data_white has shape [3, 2, 5]"), m);
    }

    @Test
    void wrongRank() {
        Path f = write(ex -> ex.putDataset("data", new float[3][4]));
        assertTrue(openError(f).contains("/exchange/data must be 3-D"));
    }

    @Test
    void truncatedFile() throws Exception {
        DemoDataset d = new DemoDataset(SMALL);
        Path f = tmp.resolve("full.h5");
        d.writeHdf5(f);
        byte[] all = Files.readAllBytes(f);
        Path t = tmp.resolve("truncated.h5");
        Files.write(t, Arrays.copyOf(all, all.length / 2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
            try (DataExchangeSource s = DataExchangeSource.open(t)) {
                s.readProjections(0, 5);
                s.readFlats(0, 5);
                s.readDarks(0, 5);
            }
        });
        assertTrue(e.getMessage().contains(t.toString()), e.getMessage());
    }

    @Test
    void notHdf5AndMissingFile() throws Exception {
        Path junk = tmp.resolve("junk.h5");
        Files.writeString(junk, "not an hdf5 file at all");
        assertTrue(openError(junk).contains("not a readable HDF5 file"));
        assertTrue(openError(tmp.resolve("nope.h5")).contains("no such file"));
    }
}
