package org.tomospark.executor.conveyor;

import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.pipeline.SliceGroupProcessor;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.backend.BackendUnavailableException;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.phantom.DemoDataset;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A processor set up ahead on its own thread serves the run as one set up in place would, and is never leaked. */
class PreparedProcessorTest {

    private static float[][] run(ProjectionSource src, ReconstructionParams p, PreparedProcessor prepared, int slices) {
        float[][] got = new float[slices][];
        VolumeReconstructor.run(src, p, (row, px, w, h) -> got[row] = px.toArray(), null, null, null, prepared);
        return got;
    }

    @Test
    void aRunWithAProcessorSetUpAheadGivesTheSlicesOfOneSetUpInPlace() {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(96, 5, 120));
        ReconstructionParams p = ReconstructionParams.builder().backend("java").groupRows(2).build();
        float[][] inPlace = run(d.asSource(), p, null, 5);
        ProjectionSource src = d.asSource();
        float[][] ahead;
        try (PreparedProcessor prepared = VolumeReconstructor.prepare(src, p, null)) {
            ahead = run(src, p, prepared, 5);
        }
        for (int i = 0; i < 5; i++) assertArrayEquals(inPlace[i], ahead[i], "slice " + i);
    }

    @Test
    void aFailedSetUpIsThrownWhenTheProcessorIsTaken() {
        BackendUnavailableException why = new BackendUnavailableException("cuda: no GPU here");
        try (PreparedProcessor prepared = PreparedProcessor.start(() -> {
            throw why;
        })) {
            assertSame(why, assertThrows(BackendUnavailableException.class, prepared::take));
            assertThrows(IllegalStateException.class, prepared::take, "a processor is handed over once");
        }
    }

    @Test
    void aProcessorNeverTakenIsClosedOnceItsSetUpEnds() throws Exception {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(64, 2, 60));
        ReconstructionParams p = ReconstructionParams.builder().backend("java").build();
        CountDownLatch release = new CountDownLatch(1);
        SliceGroupProcessor[] made = new SliceGroupProcessor[1];
        PreparedProcessor prepared = PreparedProcessor.start(() -> {
            try {
                assertTrue(release.await(10, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            PreparedProcessor inner = VolumeReconstructor.prepare(d.asSource(), p, null);
            made[0] = inner.take();
            return made[0];
        });
        prepared.close(); // before its set-up has ended: closing must not wait for it
        release.countDown();
        for (int i = 0; i < 200 && (made[0] == null || !made[0].closed()); i++) Thread.sleep(10);
        assertTrue(made[0] != null && made[0].closed(), "the untaken processor was closed");
    }
}
