package org.tomospark.executor.filter;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Parker's short-scan weights: every ray and its conjugate together count once. */
class FdkFilterTest {
    @Test
    void parkerWeightsOfConjugateRaysAddToOne() {
        double delta = Math.toRadians(12);
        for (double gamma = -Math.toRadians(9); gamma <= Math.toRadians(9); gamma += 0.01)
            for (double beta = 0; beta < Math.PI + 2 * delta; beta += 0.013) {
                double conj = beta + Math.PI - 2 * gamma;
                if (conj > Math.PI + 2 * delta) continue;
                assertEquals(1, FdkFilter.parker(beta, gamma, delta) + FdkFilter.parker(conj, -gamma, delta), 1e-12,
                        "beta " + beta + ", gamma " + gamma);
            }
    }
}
