package org.tomospark.executor.params;

import org.tomospark.executor.cone.ConeGeometryReader;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.inputs.DataExchangeSource;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ScanMetadata;

import io.jhdf.HdfFile;

import java.util.Arrays;

/**
 * Decides, on the driver, whether a run is cone-beam and resolves its geometry against the input: the {@code cone.*}
 * keys completed by the DataExchange file's {@code /geometry} group ({@link ConeGeometryReader}), the angles as the
 * parallel-beam path takes them ({@code /exchange/theta} or angles.start/angles.step), and the volume's defaults. Both
 * engines call it once, before anything is planned; the resolved geometry travels with the parameters to the tasks.
 */
public final class ConeResolution {
    /** Where the angles of a cone-beam scan come from, in messages. */
    public static final String ANGLES = ScanMetadata.DATA_EXCHANGE_ANGLES;

    private ConeResolution() {
    }

    /**
     * The parameters with their cone-beam settings resolved, or with none when the run is parallel beam (geometry=auto
     * and an input without /geometry, or geometry=parallel).
     */
    public static ReconstructionParams resolve(ProjectionSource src, ReconstructionParams p) {
        ConeParams c = p.scan().cone();
        if (c == null || c.resolved()) return p;
        HdfFile hdf = src instanceof DataExchangeSource dx ? dx.hdf() : null;
        if (!c.required() && !ConeGeometryReader.present(hdf)) return p.toBuilder().cone(null).build();
        p.checkConeCompatible();
        ScanMetadata meta = src.metadata();
        double[] deg = Arrays.stream(p.scanGeometry(meta).anglesRad()).map(Math::toDegrees).toArray();
        ConeGeometry g = ConeGeometryReader.read(hdf, meta.source(), meta.width(), meta.rows(), deg, c.given());
        return p.toBuilder().cone(c.resolve(g)).build();
    }
}
