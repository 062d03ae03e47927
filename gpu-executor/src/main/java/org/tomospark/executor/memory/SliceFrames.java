package org.tomospark.executor.memory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The JVM's direct slice frames ({@link SliceFrame}), kept for reuse by size: a device may have registered them (pinned
 * their pages for its copies), so a frame is never left to the collector while registered. Frames of a size nobody asks
 * for any more are released, each {@link Listener} told first (a device unregisters it), when room is needed for
 * another size. The frames' bytes are capped ({@link #DEFAULT_FRACTION} of the heap's maximum: the JDK's default limit on
 * direct memory is the heap's maximum); beyond the cap, and where the JVM refuses direct memory, {@link #take} gives no
 * frame and the caller takes a heap frame (the slices then take one more copy).
 */
public final class SliceFrames {
    private static final Logger LOG = LoggerFactory.getLogger(SliceFrames.class);
    /** Share of the heap's maximum that direct frames may hold. */
    public static final double DEFAULT_FRACTION = 0.25;
    private static final SliceFrames JVM = new SliceFrames((long) (Runtime.getRuntime().maxMemory() * DEFAULT_FRACTION));

    /** Told before a frame is released (its memory then goes back to the JVM). */
    public interface Listener {
        void releasing(SliceFrame frame);
    }

    private record Size(int pixels, int room) {
    }

    private final long capBytes;
    private final Map<Size, ArrayDeque<SliceFrame>> free = new HashMap<>();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    /** Every frame made and not released, idle or not: a frame its user never gives back is not freed while registered. */
    private final Set<SliceFrame> made = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The frames in {@link #free}: one given back twice is kept once. */
    private final Set<SliceFrame> idle = Collections.newSetFromMap(new IdentityHashMap<>());
    private long bytes;
    private int frames;
    private boolean refused;
    /** Whether a frame was refused for the cap (warned once). */
    private boolean capped;

    SliceFrames(long capBytes) {
        this.capBytes = capBytes;
    }

    /** The JVM's frames. */
    public static SliceFrames jvm() {
        return JVM;
    }

    public void addListener(Listener l) {
        listeners.add(l);
    }

    /**
     * A direct frame of {@code pixels} values behind at least {@code room} bytes: a free one of that size, or a new one
     * while the cap allows (other sizes' free frames are released to make room); null when the cap or the JVM's direct
     * memory leaves none.
     */
    public SliceFrame take(int pixels, int room) {
        Size size = new Size(pixels, SliceFrame.roundRoom(room));
        long frameBytes = size.room() + 4L * pixels + SliceFrame.ALIGN;
        synchronized (this) {
            ArrayDeque<SliceFrame> q = free.get(size);
            if (q != null && !q.isEmpty()) {
                SliceFrame f = q.pop();
                idle.remove(f);
                return f;
            }
            if (refused) return null;
            if (bytes + frameBytes > capBytes) releaseOtherSizes(size, frameBytes);
            if (bytes + frameBytes > capBytes) {
                if (!capped) LOG.warn("direct slice frames: their cap of {} MiB is reached at {} frames; later slices go through "
                        + "heap arrays, one copy more each (the JVM's cap is a quarter of -Xmx: a larger heap raises it)",
                        capBytes >> 20, frames);
                capped = true;
                return null;
            }
            bytes += frameBytes;
            frames++;
        }
        try {
            SliceFrame f = SliceFrame.direct(pixels, size.room(), true);
            synchronized (this) {
                made.add(f);
            }
            return f;
        } catch (OutOfMemoryError e) {
            // the JVM's direct memory limit (-XX:MaxDirectMemorySize) is lower than the cap: heap frames from now on
            synchronized (this) {
                bytes -= frameBytes;
                frames--;
                if (!refused) LOG.warn("direct slice frames: the JVM refused more direct memory at {} frames ({} MiB); later slices "
                        + "use heap arrays and one more copy", frames, bytes >> 20);
                refused = true;
            }
            return null;
        }
    }

    /** Gives a frame this pool made back for reuse; other frames are ignored. */
    public synchronized void give(SliceFrame f) {
        if (f == null || !f.isDirect() || !f.lasting() || !made.contains(f) || !idle.add(f)) return;
        free.computeIfAbsent(new Size(f.pixels(), f.room()), s -> new ArrayDeque<>()).push(f);
    }

    /** Frees other sizes' idle frames until {@code needed} more bytes fit under the cap. */
    private void releaseOtherSizes(Size keep, long needed) {
        Iterator<Map.Entry<Size, ArrayDeque<SliceFrame>>> it = free.entrySet().iterator();
        while (it.hasNext() && bytes + needed > capBytes) {
            Map.Entry<Size, ArrayDeque<SliceFrame>> e = it.next();
            if (e.getKey().equals(keep)) continue;
            ArrayDeque<SliceFrame> q = e.getValue();
            while (!q.isEmpty() && bytes + needed > capBytes) {
                SliceFrame f = q.pop();
                idle.remove(f);
                for (Listener l : listeners) l.releasing(f);
                made.remove(f);
                bytes -= f.room() + 4L * f.pixels() + SliceFrame.ALIGN;
                frames--;
            }
            if (q.isEmpty()) it.remove();
        }
    }

    /** Bytes of direct frames this pool has made and not released. */
    public synchronized long bytes() {
        return bytes;
    }

    /** Idle frames of this size. */
    public synchronized int free(int pixels, int room) {
        ArrayDeque<SliceFrame> q = free.get(new Size(pixels, SliceFrame.roundRoom(room)));
        return q == null ? 0 : q.size();
    }

    public long capBytes() {
        return capBytes;
    }
}
