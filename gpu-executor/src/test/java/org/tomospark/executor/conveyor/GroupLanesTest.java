package org.tomospark.executor.conveyor;

import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.pipeline.GroupPlanner;
import org.tomospark.executor.pipeline.SliceGroupProcessor;
import org.tomospark.executor.pipeline.Workflow;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.IterativeParams;
import org.tomospark.executor.phantom.DemoDataset;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Groups processed by several lanes at once (each with its own processor) give the slices of one lane, bit for bit: every
 * slice handed to the sink once, the skipped ones not at all, the progress counted to the end; a failing group stops the
 * run with its own error.
 */
class GroupLanesTest {

    private static Map<Integer, float[]> run(DemoDataset d, ReconstructionParams p, int lanes, IntPredicate skip,
                                             List<Integer> progress, VolumeReconstructor.Summary[] summary) {
        Map<Integer, float[]> got = new ConcurrentHashMap<>();
        int[] inSink = {0};
        VolumeReconstructor.Summary s = VolumeReconstructor.run(d.asSource(), p, (row, px, w, h) -> {
            synchronized (inSink) {
                assertEquals(0, inSink[0]++, "one lane at a time in the sink");
            }
            float[] old = got.put(row, px.toArray());
            assertTrue(old == null, "slice " + row + " handed over twice");
            synchronized (inSink) {
                inSink[0]--;
            }
        }, (done, total, updates, ns) -> progress.add(done), skip, null, null, lanes, true);
        if (summary != null) summary[0] = s;
        return got;
    }

    @Test
    void lanesGiveTheSlicesOfOneLane() {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(96, 23, 90));
        ReconstructionParams p = ReconstructionParams.builder().backend("java").groupRows(2).build();
        Map<Integer, float[]> one = run(d, p, 1, null, new ArrayList<>(), null);
        for (int lanes : new int[]{2, 3, 5}) {
            List<Integer> progress = new ArrayList<>();
            VolumeReconstructor.Summary[] s = new VolumeReconstructor.Summary[1];
            Map<Integer, float[]> many = run(d, p, lanes, null, progress, s);
            assertEquals(23, many.size());
            for (int r = 0; r < 23; r++) assertArrayEquals(one.get(r), many.get(r), lanes + " lanes, slice " + r);
            assertEquals(Math.min(lanes, 12 / VolumeReconstructor.GROUPS_PER_LANE), s[0].waits().lanes(), "a lane per four groups");
            assertEquals(23, progress.get(progress.size() - 1));
            assertEquals(12, progress.size(), "one progress report a group");
            assertEquals(one.size(), s[0].slices());
        }
    }

    @Test
    void aLaneTakesAtLeastFourGroups() {
        assertEquals(1, VolumeReconstructor.lanesFor(2, 4));
        assertEquals(1, VolumeReconstructor.lanesFor(2, 7));
        assertEquals(2, VolumeReconstructor.lanesFor(2, 8));
        assertEquals(2, VolumeReconstructor.lanesFor(2, 32));
        assertEquals(1, VolumeReconstructor.lanesFor(1, 32));
        assertEquals(1, VolumeReconstructor.lanesFor(3, 0));
    }

    @Test
    void aRunsLanesAreDecidedFromItsPlannedGroups() {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(64, 64, 60));
        ProjectionSource src = d.asSource();
        ReconstructionParams fbp = ReconstructionParams.builder().backend("java").groupRows(8).build();
        assertEquals(2, VolumeReconstructor.lanes(fbp, src.metadata(), new int[]{0, 64}, 1, 2), "8 groups: two lanes");
        assertEquals(1, VolumeReconstructor.lanes(fbp, src.metadata(), new int[]{0, 24}, 1, 2), "3 groups: one lane");
        assertEquals(1, VolumeReconstructor.lanes(fbp, src.metadata(), new int[]{0, 64}, 1, 1), "one asked for");
        ReconstructionParams sirt = fbp.toBuilder().iterative(new IterativeParams(Algorithm.SIRT, 10, 1, 0)).build();
        assertEquals(1, VolumeReconstructor.lanes(sirt, src.metadata(), new int[]{0, 64}, 1, 2), "an iterative solve sizes the GPU alone");
    }

    @Test
    void skippedSlicesAreNotHandedOver() {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(48, 40, 40));
        ReconstructionParams p = ReconstructionParams.builder().backend("java").groupRows(2).build();
        // rows 0-3 are whole skipped groups (not read), row 5 is skipped inside a computed group
        VolumeReconstructor.Summary[] s = new VolumeReconstructor.Summary[1];
        Map<Integer, float[]> got = run(d, p, 3, r -> r < 4 || r == 5, new ArrayList<>(), s);
        assertEquals(3, s[0].waits().lanes());
        assertEquals(35, got.size());
        assertFalse(got.containsKey(5));
        assertEquals(5, s[0].skipped());
    }

    @Test
    void aFailingGroupStopsTheLanesWithItsError() {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(64, 16, 60));
        ReconstructionParams p = ReconstructionParams.builder().backend("java").groupRows(2).build();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> VolumeReconstructor.run(d.asSource(), p,
                (row, px, w, h) -> {
                    if (row == 6) throw new IllegalStateException("sink refused slice 6");
                }, null, null, null, null, 3, true));
        assertEquals("sink refused slice 6", e.getMessage());
    }

    @Test
    void aLaneWhoseProcessorCannotBeSetUpLeavesItsGroupsToTheOthers() {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(64, 10, 60));
        ReconstructionParams p = ReconstructionParams.builder().backend("java").groupRows(2).build();
        Map<Integer, float[]> one = run(d, p, 1, null, new ArrayList<>(), null);
        ProjectionSource src = d.asSource();
        ScanGeometry scan = p.scanGeometry(src.metadata());
        Workflow wf = new Workflow(scan, p);
        SliceGeometry slice = p.sliceGeometry(wf.effective().detectorWidth());
        List<GroupPlanner.Group> groups = GroupPlanner.plan(0, 10, 2, 1);
        Map<Integer, float[]> got = new ConcurrentHashMap<>();
        try (SliceGroupProcessor first = new SliceGroupProcessor(scan, slice, p, Backends.open("java", p.algorithm().backendOptions()), 2,
                true);
             BandPrefetcher reads = new BandPrefetcher(src, wf, groups, 3)) {
            GroupLoop loop = new GroupLoop(reads, (row, px, w, h) -> got.put(row, px.toArray()), null, null, 10, 0, 0,
                    System.nanoTime(), src.dataName(), src.flatName());
            loop.run(first, 3, () -> {
                throw new IllegalStateException("CUDA_ERROR_OUT_OF_MEMORY (a small GPU)");
            });
            assertEquals(1, loop.lanesRun());
            assertEquals(1, loop.waits().lanes());
        }
        assertEquals(10, got.size());
        for (int r = 0; r < 10; r++) assertArrayEquals(one.get(r), got.get(r), "slice " + r);
    }
}
