package org.tomospark.executor.pipeline;

import org.tomospark.executor.params.ConeParams;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.params.WorkflowParams;
import org.tomospark.executor.center.CenterFinder;
import org.tomospark.executor.cone.SlabPlanner;
import org.tomospark.executor.inputs.InputWarnings;
import org.tomospark.executor.phase.PaganinParams;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The workflow part of a run's report (report.json's "workflow"): the centre and how it was found, the sinogram stages
 * with their settings, the geometry before and after them, the rows per group, and the warnings about the input and
 * the stages (the input's own, {@link InputWarnings}, first). Both engines describe their runs with it.
 */
public final class WorkflowReport {
    private WorkflowReport() {
    }

    /**
     * @param found         what the centre search found, or null when the centre was given (or is the detector's)
     * @param centerNanos   how long the search took
     * @param groupRows     detector rows per slice group
     * @param requestedRows detector rows the run was asked for (before cutting them to whole row bins)
     */
    public static Map<String, Object> describe(ReconstructionParams p, Workflow wf, CenterFinder.Result found, long centerNanos,
                                               int groupRows, int requestedRows, List<String> inputWarnings) {
        Map<String, Object> m = new LinkedHashMap<>();
        ConeParams cone = p.coneBeam();
        if (cone != null) {
            m.put("geometry", "cone");
            Map<String, Object> c = cone.describe();
            c.put("slabSlices", groupRows);
            c.put("detectorRowsReadPerProjection", rowsRead(cone, groupRows));
            m.put("coneBeam", c);
            List<String> warn = new ArrayList<>(inputWarnings);
            String outside = (String) c.get("slicesOutsideCompleteData");
            if (!outside.isEmpty())
                warn.add("cone beam: slices " + outside + " lie outside the complete-data region (cone-beam artefacts grow there)");
            m.put("warnings", warn);
            return m;
        }
        m.put("geometry", "parallel");
        m.put("center", center(p, wf, found, centerNanos));
        WorkflowParams w = p.workflow();
        m.put("stripeRemoval", w.stripe().describe());
        if (w.paganin() != null) m.put("phaseRetrieval", paganin(w.paganin(), wf.haloRows()));
        Map<String, Object> half = w.halfAcquisition() ? halfAcquisition(wf) : null;
        if (half != null) m.put("halfAcquisition", half);
        if (w.binning())
            m.put("binning", Map.of("columns", w.binColumns(), "rows", w.binRows(), "projections", w.binProjections()));
        m.put("rawDetector", Map.of("width", wf.raw().detectorWidth(), "projections", wf.raw().numProjections()));
        m.put("groupRows", groupRows);
        m.put("warnings", warnings(w, found, half, requestedRows, inputWarnings));
        return m;
    }

    /** Detector rows the slabs of a whole volume read, summed (a row read by two slabs counts twice). */
    static long rowsRead(ConeParams cone, int slab) {
        long rows = 0;
        int nz = cone.volume().nz();
        for (int k = 0; k < nz; k += Math.max(1, slab))
            rows += SlabPlanner.rows(cone.geometry(), cone.volume(), k, Math.min(nz, k + Math.max(1, slab)))[1];
        return rows;
    }

    private static Map<String, Object> center(ReconstructionParams p, Workflow wf, CenterFinder.Result found, long centerNanos) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("value", wf.raw().centerOfRotation());
        c.put("source", found == null ? (Double.isNaN(p.scan().center()) ? "detector centre" : "given") : "auto");
        if (found != null) {
            c.put("method", found.method().id());
            if (!Double.isNaN(found.score())) c.put("score", found.score());
            c.put("searchSeconds", centerNanos / 1e9);
        }
        c.put("effective", wf.effective().centerOfRotation());
        return c;
    }

    private static Map<String, Object> paganin(PaganinParams pg, int haloRows) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("energyKeV", pg.energyKeV());
        m.put("distanceM", pg.distanceM());
        m.put("pixelSizeM", pg.pixelSizeM());
        m.put("deltaOverBeta", pg.deltaOverBeta());
        m.put("kernelLengthPx", pg.kernelLengthPx());
        m.put("haloRows", haloRows);
        return m;
    }

    private static Map<String, Object> halfAcquisition(Workflow wf) {
        Map<String, Object> h = new LinkedHashMap<>();
        double cb = wf.binned().centerOfRotation();
        int mb = wf.binned().detectorWidth();
        h.put("overlapColumns", cb <= (mb - 1) / 2.0 ? 2 * cb + 1 : 2 * (mb - 1 - cb) + 1);
        h.put("stitchedWidth", wf.effective().detectorWidth());
        h.put("stitchedProjections", wf.effective().numProjections());
        return h;
    }

    private static List<String> warnings(WorkflowParams w, CenterFinder.Result found, Map<String, Object> half, int requestedRows,
                                         List<String> inputWarnings) {
        List<String> warn = new ArrayList<>(inputWarnings);
        boolean correlation = found != null && found.method() == CenterFinder.Method.CORRELATION;
        if (correlation && !Double.isNaN(found.score()) && found.score() < 0.9)
            warn.add(String.format(Locale.ROOT, "centre search: weak correlation peak %.3f; check the centre with --center-sweep",
                    found.score()));
        if (found != null && found.method() == CenterFinder.Method.VO && found.score() > 0.9)
            warn.add(String.format(Locale.ROOT, "centre search: the Vo metric has no clear minimum (%.3f of its median); "
                    + "check with --center-sweep", found.score()));
        if (half != null && ((Number) half.get("overlapColumns")).doubleValue() < 16)
            warn.add("half acquisition: the overlap is only " + half.get("overlapColumns")
                    + " columns; the stitch may show a seam");
        if (w.binRows() > 1 && requestedRows % w.binRows() != 0)
            warn.add("bin.rows " + w.binRows() + ": the last " + requestedRows % w.binRows()
                    + " rows do not fill a bin and were not reconstructed");
        return warn;
    }
}
