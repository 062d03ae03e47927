package org.tomospark.executor.backends.cuda;

import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;

import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuStreamCreate;
import static jcuda.driver.JCudaDriver.cuStreamDestroy;
import static jcuda.driver.JCudaDriver.cuStreamSynchronize;

/**
 * A backend's three streams (copy-in, compute, copy-out) and, per pipeline buffer, the events that order them: the
 * upload done, the compute done, the download done; and the compute's start, which with its end times the chunk on the
 * device. Created with the backend, on the current context.
 */
final class CudaStreams implements AutoCloseable {
    final CUevent[] uploaded = new CUevent[2], started = new CUevent[2], computed = new CUevent[2], downloaded = new CUevent[2];
    private final CUstream[] streams = new CUstream[3];

    CudaStreams() {
        try {
            for (int i = 0; i < 3; i++) streams[i] = stream();
            for (int i = 0; i < 2; i++) {
                uploaded[i] = event();
                started[i] = timedEvent();
                computed[i] = timedEvent();
                downloaded[i] = event();
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The copy-in stream. */
    CUstream in() {
        return streams[0];
    }

    /** The compute stream: correction, filter, interleave, back-projection. */
    CUstream compute() {
        return streams[1];
    }

    /** The copy-out stream. */
    CUstream out() {
        return streams[2];
    }

    private static CUstream stream() {
        CUstream s = new CUstream();
        cuStreamCreate(s, CUstream_flags.CU_STREAM_NON_BLOCKING);
        return s;
    }

    private static CUevent event() {
        CUevent e = new CUevent();
        cuEventCreate(e, CUevent_flags.CU_EVENT_DISABLE_TIMING);
        return e;
    }

    /** An event that records a time, for {@code cuEventElapsedTime}. */
    private static CUevent timedEvent() {
        CUevent e = new CUevent();
        cuEventCreate(e, CUevent_flags.CU_EVENT_DEFAULT);
        return e;
    }

    /** Waits until every stream is idle. */
    void synchronize() {
        for (CUstream s : streams) cuStreamSynchronize(s);
    }

    @Override
    public void close() {
        for (CUstream s : streams) if (s != null) cuStreamDestroy(s);
        for (CUevent[] es : new CUevent[][]{uploaded, started, computed, downloaded})
            for (CUevent e : es) if (e != null) cuEventDestroy(e);
    }
}
