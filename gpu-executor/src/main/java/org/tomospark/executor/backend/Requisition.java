package org.tomospark.executor.backend;

/**
 * A backend's answer to {@link BackprojectionBackend#validate}: what it will use per batch.
 *
 * @param slicesPerPass  slices interleaved in one compound sinogram
 * @param deviceBytes    device memory needed for one in-flight batch (0 for the host backend)
 * @param hostBytes      host memory needed beyond the caller's arrays
 * @param filtersOnDevice true if the backend applies the ramp filter itself (unfiltered batches expected)
 * @param description    the chosen variant, in words
 */
public record Requisition(int slicesPerPass, long deviceBytes, long hostBytes, boolean filtersOnDevice, String description) {
}
