package org.tomospark.job.batch;

/**
 * One scan of a batch: its URI (taken literally, as {@code --input} is), its file name, and the name of its output
 * folder under the batch's output root (the file name without its last extension).
 */
public record ScanInput(String uri, String fileName, String name) {
    /** The output folder's name for a scan file: its name without the last extension (scan_001.h5 → scan_001). */
    public static String outputName(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return dot > 0 ? fileName.substring(0, dot) : fileName;
    }

    public static ScanInput of(String uri, String fileName) {
        String name = outputName(fileName);
        if (name.startsWith("_") || name.startsWith("."))
            throw new IllegalArgumentException(uri + ": a scan whose output folder would be named '" + name + "' (it "
                    + "begins with '_' or '.', which Hadoop and the output root's own files use); rename the file");
        return new ScanInput(uri, fileName, name);
    }
}
