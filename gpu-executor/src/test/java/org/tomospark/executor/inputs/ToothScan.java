package org.tomospark.executor.inputs;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the real TomoPy tooth scan in ../shared/data (beside the repository). */
public final class ToothScan {
    private ToothScan() {
    }

    public static Path path() {
        String prop = System.getProperty("tomospark.toothScan");
        Path[] candidates = prop != null ? new Path[]{Path.of(prop)}
                : new Path[]{Path.of("../../shared/data/tooth.h5"), Path.of("../shared/data/tooth.h5"),
                Path.of("/work/shared/data/tooth.h5")};
        for (Path p : candidates) if (Files.isRegularFile(p)) return p.toAbsolutePath().normalize();
        throw new IllegalStateException("tooth.h5 not found in ../shared/data beside the repository (set -Dtomospark.toothScan=PATH)");
    }
}
