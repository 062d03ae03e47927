package org.tomospark.job.inputs;

import org.tomospark.job.fs.HadoopConf;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.tomospark.executor.inputs.DataExchangeSource;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ReadOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import static org.tomospark.executor.inputs.BandReadBenchmark.arg;
import static org.tomospark.executor.inputs.BandReadBenchmark.floors;
import static org.tomospark.executor.inputs.BandReadBenchmark.header;
import static org.tomospark.executor.inputs.BandReadBenchmark.median;
import static org.tomospark.executor.inputs.BandReadBenchmark.print;
import static org.tomospark.executor.inputs.BandReadBenchmark.readAll;
import static org.tomospark.executor.inputs.BandReadBenchmark.row;
import static org.tomospark.executor.inputs.BandReadBenchmark.scan;
import static org.tomospark.executor.inputs.BandReadBenchmark.threads;

/**
 * gpu-executor's BandReadBenchmark through spark-job's openers, as the CLI and Spark open files: every row of a
 * uint16 DataExchange scan read in bands from the page cache by jhdf's hyperslab reader over a Hadoop stream (the old
 * path) and by the direct reader on 1..N threads, through a FileChannel (file://) and through Hadoop's positioned
 * reads (as on HDFS), next to dd and cat; then the same for scans chunked one projection per chunk and compressed
 * (gzip by default; bitshuffle-lz4 and blosc-zstd on request), whose chunks are decoded on the same threads.
 * <p>
 * usage: ReadBenchmark DIR [ANGLES ROWS COLUMNS [BAND_ROWS [ROUNDS [THREADS,.. [COMPRESSED_ANGLES [LAYOUT,..]]]]]]
 * (defaults: 1024 256 2048 32 3 1,2 256 gzip; COMPRESSED_ANGLES 0 leaves out the compressed scans)
 */
public final class ReadBenchmark {
    private ReadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Path.of(args.length > 0 ? args[0] : "/tmp/readbench"));
        int angles = arg(args, 1, 1024), rows = arg(args, 2, 256), cols = arg(args, 3, 2048);
        int band = arg(args, 4, 32), rounds = arg(args, 5, 3), compressedAngles = arg(args, 7, 256);
        int[] threads = threads(args, 6);
        List<String> layouts = List.of((args.length > 8 ? args[8] : "gzip").split(","));
        Path contiguous = scan(dir, angles, rows, cols, "contiguous");
        header(band, rounds);
        Configuration conf = HadoopConf.create();
        List<String[]> table = new ArrayList<>();
        measure(table, contiguous, angles, rows, cols, band, rounds, threads, conf, true);
        if (compressedAngles > 0)
            for (String layout : layouts)
                measure(table, scan(dir, compressedAngles, rows, cols, layout), compressedAngles, rows, cols, band,
                        rounds, threads,
                        conf, false);
        print(table);
    }

    private static void measure(List<String[]> table, Path f, int angles, int rows, int cols, int band, int rounds, int[] threads,
                                Configuration conf, boolean withFileChannel) throws Exception {
        long bytes = (long) angles * rows * cols * 2;
        String name = f.getFileName().toString();
        int layout = name.indexOf('-', "scan-".length());
        String scan = angles + "x" + rows + "x" + cols + (layout > 0 ? " " + name.substring(layout + 1,
                name.length() - 3) : "");
        floors(table, scan, f, rounds);
        long[] sum = new long[1];
        double old = median(rounds, () -> readAll(() -> Inputs.openHdf5(f.toString(), conf, ReadOptions.hyperslab()), rows, band, sum));
        table.add(row(scan, "old: jhdf hyperslab, Hadoop stream (the CLI's path before)", 1, old, bytes, old));
        if (withFileChannel) {
            double oldFc = median(rounds, () -> readAll(() -> DataExchangeSource.open(f, ReadOptions.hyperslab()), rows, band, sum));
            table.add(row(scan, "old: jhdf hyperslab, FileChannel", 1, oldFc, bytes, old));
        }
        for (int t : threads) {
            double c = median(rounds, () -> readAll(() -> Inputs.openHdf5(f.toString(), conf, ReadOptions.threads(t)), rows, band, sum));
            table.add(row(scan, "new: direct, as the CLI and Spark open file:// (FileChannel)", t, c, bytes, old));
            if (withFileChannel) {
                double h = median(rounds, () -> readAll(() -> openThroughHadoop(f, conf, t), rows, band, sum));
                table.add(row(scan, "new: direct, Hadoop positioned reads (as on HDFS)", t, h, bytes, old));
            }
        }
    }

    /** The bands read by Hadoop's positioned reads even where the file is local. */
    private static ProjectionSource openThroughHadoop(Path f, Configuration conf, int threads) {
        // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(f.toUri());
        try {
            FileSystem fs = p.getFileSystem(conf);
            long length = Files.size(f);
            return DataExchangeSource.open(new HadoopSeekableChannel(fs.open(p), length, f.toString()),
                    new HadoopRangeReader(fs.open(p), length, f.toString()), f.toString(), ReadOptions.threads(threads));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
