package org.tomospark.executor.inputs;

import io.jhdf.api.dataset.ChunkedDataset;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A chunked dataset that is not jhdf's own class is refused with a message that names it and what to change. */
class JhdfChunkIndexTest {
    @Test
    void aDatasetOutsideJhdfsClassesIsRefusedNamingTheDatasetAndTheClassToChange() {
        ChunkedDataset other = (ChunkedDataset) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{ChunkedDataset.class}, (proxy, method, args) -> null);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> JhdfChunkIndex.of(other, "scan.h5:/exchange/data"));
        for (String part : new String[]{"scan.h5:/exchange/data", "filter mask", "ChunkedDatasetBase",
                "JhdfChunkIndex"})
            assertTrue(e.getMessage().contains(part), "names " + part + ": " + e.getMessage());
    }
}
