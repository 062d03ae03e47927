package org.tomospark.executor.backend.cuda;

import org.tomospark.executor.backend.BackendUnavailableException;
import org.tomospark.executor.backend.BackendProvider;
import org.tomospark.executor.backend.BackprojectionBackend;

/** Registers the CUDA backend (id "cuda"); preferred by {@code auto} when a CUDA driver and device are present. */
public final class CudaBackendProvider implements BackendProvider {
    @Override
    public String id() {
        return CudaBackend.ID;
    }

    @Override
    public String unavailableReason() {
        return CudaDevice.unavailableReason();
    }

    @Override
    public BackprojectionBackend create() {
        String r = unavailableReason();
        if (r != null) throw new BackendUnavailableException("backend 'cuda' cannot run here: " + r);
        return new CudaBackend();
    }

    @Override
    public int autoPriority() {
        return 10;
    }
}
