package org.tomospark.executor.arch.cycle.a;

import org.tomospark.executor.arch.cycle.b.Right;

/** One side of a deliberate package cycle, for the cycle rule's own test. */
public final class Left {
    public Right partner() {
        return new Right();
    }
}
