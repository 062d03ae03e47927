package org.tomospark.executor.backends.opencl;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The build options of one OpenCL program being set: the generated {@link ClPrograms} builders extend it, one typed
 * setter per option of kernels/opencl.def. {@link #build()} refuses a program whose options are not all set, so a
 * program is never built with the defaults of its source (the .cl sources have none).
 *
 * @param <B> the program's builder, returned by its setters
 */
abstract class ClProgramBuilder<B extends ClProgramBuilder<B>> {
    private final String file;
    private final List<String> flags;
    private final List<String> options;
    private final Map<String, Integer> values = new LinkedHashMap<>();

    ClProgramBuilder(String file, List<String> flags, List<String> options) {
        this.file = file;
        this.flags = flags;
        this.options = options;
    }

    /** Sets an integer option, passed as {@code -DNAME=value}. */
    final B define(String name, int value) {
        if (!options.contains(name))
            throw new IllegalArgumentException("kernels/" + file + " has no build option " + name + " (kernels/opencl.def)");
        if (values.putIfAbsent(name, value) != null)
            throw new IllegalStateException("kernels/" + file + ": build option " + name + " set twice");
        @SuppressWarnings("unchecked") B self = (B) this;
        return self;
    }

    /** Sets a flag option, passed as {@code -DNAME=1} or {@code -DNAME=0}. */
    final B flag(String name, boolean value) {
        return define(name, value ? 1 : 0);
    }

    /**
     * The program's source file and build options: its compiler flags, then every option in the table's order.
     *
     * @throws IllegalStateException naming the options not set
     */
    final ClProgramSpec build() {
        List<String> missing = options.stream().filter(o -> !values.containsKey(o)).toList();
        if (!missing.isEmpty())
            throw new IllegalStateException("kernels/" + file + ": build options " + missing + " not set (kernels/opencl.def)");
        StringBuilder b = new StringBuilder(String.join(" ", flags));
        for (String o : options) {
            if (b.length() > 0) b.append(' ');
            b.append("-D").append(o).append('=').append(values.get(o));
        }
        return new ClProgramSpec(file, b.toString());
    }
}
