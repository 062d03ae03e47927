package org.tomospark.job.spark;

import org.tomospark.executor.backend.GroupShape;
import java.io.Serializable;

/**
 * Chooses the slice-group size (rows per Spark task) so that one task fits in its share of executor memory
 * and, for GPU backends, of device memory. A pure function of its {@link Input}: no Spark, no I/O.
 *
 * <p>Host bytes of a task of g rows (n projections, w columns, p output pixels, k slices per pass, s bytes per
 * raw sample): the raw band g·n·w·s (read straight into its array), the float sinograms g·n·w·4 unless the backend
 * corrects the raw counts on its device, the slices g·p·4 and as many arrays kept for reuse by the task's cached
 * processor, the host backend's compound sinogram k·n·w·4 (a GPU backend keeps its own on the device, with pinned
 * buffers outside the heap), and two encoded slices 2·p·4. The raw band and the float band hold the detector rows
 * read, R = g·b + 2·h with b detector rows per slice (bin.rows) and h halo rows above and below (Paganin). Device
 * bytes: the sinograms and slices of the group, g·(n·w + p)·4.
 */
public final class MemoryPlanner {
    private MemoryPlanner() {
    }

    /** Spark's reserved system memory per executor JVM. */
    public static final long RESERVED = 300L << 20;

    /**
     * @param numProjections    projections in the scan
     * @param width             detector columns
     * @param bytesPerSample    2 (uint16) or 4 (float32)
     * @param slicePixels       output pixels per slice (ROI)
     * @param slicesPerPass     backend.slicesPerPass, 0 for the backend's choice (group sizes then need no multiple,
     *                          and the planner prefers multiples of 16, which suit every backend's choice)
     * @param rows              slices to reconstruct
     * @param requestedRows     group.rows, 0 to choose
     * @param executorMemory    heap of one executor (spark.executor.memory; the driver's heap in local mode)
     * @param tasksPerExecutor  tasks one executor runs at once (spark.executor.cores / spark.task.cpus)
     * @param memoryFraction    share of (heap − 300 MiB) the tasks may use (job.memoryFraction)
     * @param gpuMemory         bytes of one GPU, 0 if unknown or no GPU (job.gpuMemory)
     * @param tasksPerGpu       tasks sharing one GPU (job.tasksPerDevice)
     * @param totalTaskSlots    tasks the whole application runs at once (to keep every slot busy), 0 to ignore
     * @param rowBin            detector rows per output slice (bin.rows)
     * @param haloRows          detector rows read above and below each group besides its own (Paganin)
     * @param shape             the backend's pass (no planned group is smaller, unless the rows are fewer) and the
     *                          multiple that fills its largest unit of work
     */
    public record Input(int numProjections, int width, int bytesPerSample, long slicePixels, int slicesPerPass, int rows,
                        int requestedRows, long executorMemory, int tasksPerExecutor, double memoryFraction, long gpuMemory,
                        int tasksPerGpu, int totalTaskSlots, int rowBin, int haloRows, GroupShape shape,
                        boolean correctedOnDevice, boolean deviceBackend) implements Serializable {
        /** Corrected on the host. */
        public Input(int numProjections, int width, int bytesPerSample, long slicePixels, int slicesPerPass, int rows,
                     int requestedRows, long executorMemory, int tasksPerExecutor, double memoryFraction, long gpuMemory,
                     int tasksPerGpu, int totalTaskSlots, int rowBin, int haloRows, GroupShape shape) {
            this(numProjections, width, bytesPerSample, slicePixels, slicesPerPass, rows, requestedRows, executorMemory,
                    tasksPerExecutor, memoryFraction, gpuMemory, tasksPerGpu, totalTaskSlots, rowBin, haloRows, shape, false, false);
        }

        /** The shape of a backend that runs any group size, preferring multiples of 16 (or of the slices per pass). */
        public Input(int numProjections, int width, int bytesPerSample, long slicePixels, int slicesPerPass, int rows,
                     int requestedRows, long executorMemory, int tasksPerExecutor, double memoryFraction, long gpuMemory,
                     int tasksPerGpu, int totalTaskSlots, int rowBin, int haloRows) {
            this(numProjections, width, bytesPerSample, slicePixels, slicesPerPass, rows, requestedRows, executorMemory,
                    tasksPerExecutor, memoryFraction, gpuMemory, tasksPerGpu, totalTaskSlots, rowBin, haloRows,
                    new GroupShape(slicesPerPass == 0 ? 1 : slicesPerPass, slicesPerPass == 0 ? 16 : slicesPerPass));
        }

        /** One detector row per slice, no halo rows. */
        public Input(int numProjections, int width, int bytesPerSample, long slicePixels, int slicesPerPass, int rows,
                     int requestedRows, long executorMemory, int tasksPerExecutor, double memoryFraction, long gpuMemory,
                     int tasksPerGpu, int totalTaskSlots) {
            this(numProjections, width, bytesPerSample, slicePixels, slicesPerPass, rows, requestedRows, executorMemory,
                    tasksPerExecutor, memoryFraction, gpuMemory, tasksPerGpu, totalTaskSlots, 1, 0);
        }

        /** Detector rows a task of g slices reads. */
        public long detectorRows(int g) {
            return (long) g * Math.max(1, rowBin) + 2L * haloRows;
        }
    }

    /** The planned group size and what one task needs. */
    public record Plan(int groupRows, long hostBytesPerTask, long hostBudgetPerTask, long deviceBytesPerTask,
                       long deviceBudgetPerTask) implements Serializable {
    }

    /** Group sizes must be a multiple of this. */
    static int multiple(Input in) {
        return in.slicesPerPass() == 0 ? 1 : in.slicesPerPass();
    }

    /**
     * Slice groups planned a task slot on the CPU backends: on {@code local[2]} twenty tasks, where the rows allow groups
     * of one pass. A notebook's progress bar counts finished tasks, and equal groups started together on two slots tend
     * to end together: in pairs, twenty tasks still move the bar through eleven values.
     */
    static final int CPU_GROUPS_PER_SLOT = 10;

    static int preferred(Input in) {
        return Math.max(multiple(in), in.shape().preferred() / multiple(in) * multiple(in));
    }

    /** No planned group is smaller (one pass of the backend), unless the rows are fewer. */
    static int smallest(Input in) {
        int k = multiple(in);
        int pass = (in.shape().pass() + k - 1) / k * k;
        return Math.max(k, Math.min(pass, (in.rows() + k - 1) / k * k));
    }

    public static long hostBytes(Input in, int g) {
        long nw = (long) in.numProjections() * in.width();
        return in.detectorRows(g) * nw * (in.bytesPerSample() + (in.correctedOnDevice() ? 0 : 4)) + 2 * g * in.slicePixels() * 4
                + (in.deviceBackend() ? 0 : preferred(in) * nw * 4) + 2 * in.slicePixels() * 4;
    }

    public static long deviceBytes(Input in, int g) {
        return g * ((long) in.numProjections() * in.width() + in.slicePixels()) * 4;
    }

    public static Plan plan(Input in) {
        int k = multiple(in);
        if (in.requestedRows() > 0 && in.requestedRows() % k != 0)
            throw new IllegalArgumentException(
                    "group.rows (" + in.requestedRows() + ") must be a multiple of backend.slicesPerPass (" + k + ")");
        long hostBudget = (long) (Math.max(0, in.executorMemory() - RESERVED) * in.memoryFraction()) / Math.max(1, in.tasksPerExecutor());
        long devBudget = in.gpuMemory() > 0 ? (long) (in.gpuMemory() * 0.9) / Math.max(1, in.tasksPerGpu()) : Long.MAX_VALUE;
        String budgetText = String.format("%d MiB per task (spark.executor.memory=%d MiB, %d concurrent tasks per executor "
                        + "from spark.executor.cores/spark.task.cpus, or on GPUs the conveyor's groups in flight, "
                        + "job.memoryFraction=%.2f)",
                hostBudget >> 20, in.executorMemory() >> 20, in.tasksPerExecutor(), in.memoryFraction());
        if (in.requestedRows() > 0) {
            int g = in.requestedRows();
            long h = hostBytes(in, g), d = deviceBytes(in, g);
            if (h > hostBudget)
                throw new IllegalArgumentException(String.format(
                        "a slice group of %d rows needs %d MiB of executor memory but the budget is %s;"
                                + " lower group.rows, or raise spark.executor.memory or job.memoryFraction, or lower spark.executor.cores",
                        g, h >> 20, budgetText));
            if (d > devBudget)
                throw new IllegalArgumentException(String.format(
                        "a slice group of %d rows needs %d MiB of GPU memory but the budget is %d MiB "
                                + "(job.gpuMemory=%d MiB, job.tasksPerDevice=%d); lower group.rows or job.tasksPerDevice",
                        g, d >> 20, devBudget >> 20, in.gpuMemory() >> 20, in.tasksPerGpu()));
            return new Plan(g, h, hostBudget, d, devBudget);
        }
        if (hostBytes(in, k) > hostBudget)
            throw new IllegalArgumentException(String.format(
                    "even the smallest slice group (%d rows = backend.slicesPerPass) needs %d MiB of executor "
                            + "memory but the budget is %s; raise spark.executor.memory or job.memoryFraction, lower "
                            + "spark.executor.cores or backend.slicesPerPass, or reconstruct a smaller slice.size/slice.roi",
                    k, hostBytes(in, k) >> 20, budgetText));
        if (deviceBytes(in, k) > devBudget)
            throw new IllegalArgumentException(String.format(
                    "even the smallest slice group (%d rows) needs %d MiB of GPU memory but the budget is "
                            + "%d MiB (job.gpuMemory, job.tasksPerDevice); lower backend.slicesPerPass or job.tasksPerDevice",
                    k, deviceBytes(in, k) >> 20, devBudget >> 20));
        // the core's default (about 256 MiB of raw rows, at most 64 rows) ...
        int pref = preferred(in);
        long perRow = Math.max(1, (long) in.numProjections() * in.width() * in.bytesPerSample() * Math.max(1, in.rowBin()));
        int g = (int) Math.max(pref, Math.min(64, (256L << 20) / perRow));
        // ... enough groups to keep every task slot busy (on CPUs several a slot: a group costs no more there when
        // smaller, and a notebook's progress bar, which counts finished tasks, then moves in steps of a few seconds),
        // but never less than one pass of the backend ...
        int perSlot = in.deviceBackend() ? 1 : CPU_GROUPS_PER_SLOT;
        if (in.totalTaskSlots() > 0) g = Math.min(g, (int) Math.ceil(in.rows() / (double) (in.totalTaskSlots() * perSlot)));
        int least = smallest(in);
        g = g >= pref ? g / pref * pref : Math.max(least, g / k * k);
        // ... and within the budgets
        while (g > least && (hostBytes(in, g) > hostBudget || deviceBytes(in, g) > devBudget)) g = Math.max(least, g - least);
        return new Plan(g, hostBytes(in, g), hostBudget, deviceBytes(in, g), devBudget);
    }
}
