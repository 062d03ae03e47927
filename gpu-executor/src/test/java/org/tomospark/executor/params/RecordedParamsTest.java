package org.tomospark.executor.params;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.geometry.SliceGrid;
import org.tomospark.executor.outputs.OutputFormat;
import org.tomospark.executor.outputs.SampleCoding;
import org.tomospark.executor.outputs.ZarrCompression;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The flat view runs record (report.json, manifest.json, the run signature that resume and reprocess recognise an output
 * by) carries every parameter of every part, under its name: a parameter added to a part but not recorded would let a
 * run with other slices pass for the same run.
 */
class RecordedParamsTest {
    /** Where a part's component is recorded under another name than its own. */
    private static final Map<String, String> RENAMED = Map.of("OutputSettings.coding", "outputCoding",
            "OutputSettings.format", "outputFormat");

    @Test
    void everyParameterOfEveryPartIsRecordedWithItsValue() throws Exception {
        ReconstructionParams p = ReconstructionParams.builder().backend("java").filter(FilterSpec.of(FilterWindow.HANN))
                .center(40.5).angles(0, 0.5).axisCorrection(new double[]{0.25, -0.25}).sliceSize(96).roi(1, 2, 30, 40)
                .rows(3, 9).groupRows(2).denominatorFloor(2e-3f).transmissionFloor(2e-6f).maxRepairFraction(0.1)
                .sliceGrid(SliceGrid.values()[SliceGrid.values().length - 1]).outputCoding(SampleCoding.FLOAT32)
                .outputFormat(OutputFormat.ZARR).zarrCompression(ZarrCompression.values()[ZarrCompression.values().length - 1])
                .build();
        Map<String, Object> recorded = components(p.recorded());
        List<String> expected = new ArrayList<>();
        for (RecordComponent part : ReconstructionParams.class.getRecordComponents()) {
            Object value = part.getAccessor().invoke(p);
            boolean settings = part.getType().getSimpleName().endsWith("Settings");
            if (!settings) {
                expected.add(part.getName());
                assertTrue(Objects.deepEquals(value, recorded.get(part.getName())), part.getName());
                continue;
            }
            for (Map.Entry<String, Object> c : components(value).entrySet()) {
                String name = RENAMED.getOrDefault(part.getType().getSimpleName() + "." + c.getKey(), c.getKey());
                expected.add(name);
                assertTrue(recorded.containsKey(name), part.getType().getSimpleName() + "." + c.getKey() + " is not recorded");
                assertTrue(Objects.deepEquals(c.getValue(), recorded.get(name)), name + ": " + c.getValue() + " recorded as "
                        + recorded.get(name));
            }
        }
        assertEquals(expected.size(), recorded.size(), "recorded " + recorded.keySet() + ", the parts hold " + expected);
    }

    private static Map<String, Object> components(Object record) throws Exception {
        Map<String, Object> m = new HashMap<>();
        for (RecordComponent c : record.getClass().getRecordComponents()) m.put(c.getName(), c.getAccessor().invoke(record));
        return m;
    }
}
