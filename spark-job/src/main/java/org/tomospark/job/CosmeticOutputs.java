package org.tomospark.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The files of a run that are only for looking at (preview.png, contact-sheet.png). Whatever goes wrong while one is
 * made, a missing native library, a bug or a failed write, must not fail the reconstruction it illustrates: every step
 * that makes such a file runs through {@link #run}, and a failure drops that file and becomes a warning, reported at
 * once and added to the run's report. The run goes on to its manifest and _SUCCESS.
 */
public final class CosmeticOutputs {
    private final Consumer<String> warn;
    private final Map<String, String> failed = new ConcurrentHashMap<>();
    private final List<String> warnings = new ArrayList<>();

    /** @param warn where a failure's warning goes as it happens (the terminal, a log) */
    public CosmeticOutputs(Consumer<String> warn) {
        this.warn = warn;
    }

    /**
     * Runs one step of making {@code file}. Once a step of that file has failed, its later steps are skipped.
     *
     * @return whether the step ran and succeeded
     */
    public boolean run(String file, Runnable step) {
        if (failed.containsKey(file)) return false;
        try {
            step.run();
            return true;
        } catch (RuntimeException | Error e) { // Error too: a native library that cannot load is a LinkageError
            String w = file + " was not written: " + describe(e);
            if (failed.putIfAbsent(file, w) == null) {
                synchronized (warnings) {
                    warnings.add(w);
                }
                warn.accept(w);
            }
            return false;
        }
    }

    /** Whether a step of {@code file} has failed. */
    public boolean failed(String file) {
        return failed.containsKey(file);
    }

    /** The warnings so far, one per failed file, in the order the failures happened. */
    public List<String> warnings() {
        synchronized (warnings) {
            return List.copyOf(warnings);
        }
    }

    /** Appends {@link #warnings} to the report's "warnings" list (which is created when the report has none). */
    public void addTo(Map<String, Object> report) {
        List<Object> all = new ArrayList<>();
        if (report.get("warnings") instanceof List<?> l) all.addAll(l);
        all.addAll(warnings());
        report.put("warnings", all);
    }

    /** The failure and, when it has one, its root cause: what a user needs to see which library or file was missing. */
    static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        return root == e ? e.toString() : e + " (caused by " + root + ")";
    }
}
