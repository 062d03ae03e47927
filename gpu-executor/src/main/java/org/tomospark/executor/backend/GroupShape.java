package org.tomospark.executor.backend;

/**
 * How a backend likes its slice groups: {@code pass} slices are back-projected together (a smaller group leaves part
 * of a pass empty), and group sizes that are multiples of {@code preferred} fill its largest unit of work (the
 * tensor-core kernels' 32-slice blocks).
 */
public record GroupShape(int pass, int preferred) {
    public GroupShape {
        if (pass < 1 || preferred < pass || preferred % pass != 0)
            throw new IllegalArgumentException("group shape: pass " + pass + ", preferred " + preferred);
    }
}
