package org.tomospark.executor.conveyor;

import org.tomospark.executor.pipeline.SliceGroupProcessor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * A group processor being set up on a thread of its own (a GPU's context, kernels and pinned buffers take a second or
 * more) while its caller does other work. {@link #take} hands it over once ready; a processor never taken is closed
 * by {@link #close} when its set-up ends.
 */
public final class PreparedProcessor implements AutoCloseable {
    private final CompletableFuture<SliceGroupProcessor> future;
    private boolean taken;

    private PreparedProcessor(CompletableFuture<SliceGroupProcessor> future) {
        this.future = future;
    }

    /** Starts {@code setUp} on a new daemon thread. */
    public static PreparedProcessor start(Supplier<SliceGroupProcessor> setUp) {
        CompletableFuture<SliceGroupProcessor> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                f.complete(setUp.get());
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        }, "tomospark-processor-set-up");
        t.setDaemon(true);
        t.start();
        return new PreparedProcessor(f);
    }

    /** Waits for the processor and hands it over: the caller closes it. A failed set-up is thrown here, as it was. */
    public synchronized SliceGroupProcessor take() {
        if (taken) throw new IllegalStateException("the prepared processor was already taken");
        taken = true;
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error r) throw r;
            throw e;
        }
    }

    /** A processor not taken is closed once its set-up ends (without waiting for it); a failed set-up is dropped. */
    @Override
    public synchronized void close() {
        if (taken) return;
        taken = true;
        future.whenComplete((p, e) -> {
            if (p != null) p.close();
        });
    }
}
