package org.tomospark.executor.arch.cycle.b;

import org.tomospark.executor.arch.cycle.a.Left;

/** The other side of the deliberate package cycle. */
public final class Right {
    public Left partner() {
        return new Left();
    }
}
