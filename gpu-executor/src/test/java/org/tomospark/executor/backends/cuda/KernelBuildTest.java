package org.tomospark.executor.backends.cuda;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which kernel modules a jar loads: fatbins only when they were built from the sources of the committed PTX. */
class KernelBuildTest {
    private static byte[] hash(String h) {
        return (h + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void fatbinsAreLoadedOnlyWhenBuiltFromThePtxsSources() {
        assertTrue(KernelBuild.fatbinsCurrent(true, hash("ab12"), hash("ab12")));
        assertFalse(KernelBuild.fatbinsCurrent(true, hash("ab12"), hash("cd34")), "fatbins of other sources are stale");
        assertFalse(KernelBuild.fatbinsCurrent(true, null, hash("cd34")), "fatbins without a source hash predate it");
        assertFalse(KernelBuild.fatbinsCurrent(false, null, hash("cd34")), "no fatbins: the PTX");
    }

    @Test
    void theCommittedPtxNamesItsSources() {
        // kernels/build-ptx.sh writes it beside the PTX; its --check (CI) keeps it equal to the sources' hash
        assertNotNull(KernelBuildTest.class.getResource("/kernels-ptx/sources.sha256"));
        KernelBuild b = KernelBuild.packaged();
        assertNotNull(b.catalog());
    }
}
