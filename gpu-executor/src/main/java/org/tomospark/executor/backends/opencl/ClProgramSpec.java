package org.tomospark.executor.backends.opencl;

/**
 * An OpenCL program to build: a source file of kernels/ and its complete build options, as a {@link ClPrograms}
 * builder gives them.
 *
 * @param file    the source's name in kernels/, e.g. {@code bp_alu.cl}
 * @param options the compiler flags and {@code -D} options
 */
record ClProgramSpec(String file, String options) {
    /** This program with extra options appended (the {@code opencl.define} key; blank: none). */
    ClProgramSpec withExtra(String extra) {
        return extra == null || extra.isBlank() ? this : new ClProgramSpec(file, options + " " + extra.trim());
    }
}
