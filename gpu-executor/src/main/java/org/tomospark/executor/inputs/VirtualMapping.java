package org.tomospark.executor.inputs;

/**
 * One mapping of a virtual dataset: the elements that {@code virtual} selects in the virtual dataset are those that
 * {@code source} selects in dataset {@code dataset} of file {@code file}, in row-major order ("." is the virtual
 * dataset's own file).
 */
record VirtualMapping(String file, String dataset, Selection source, Selection virtual) {
    static final String SAME_FILE = ".";
}
