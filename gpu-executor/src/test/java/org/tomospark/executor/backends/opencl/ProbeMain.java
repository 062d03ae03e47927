package org.tomospark.executor.backends.opencl;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendProvider;
import org.tomospark.executor.backend.Backends;

/** Run in a child JVM by the tests (with no ICD visible): prints what the provider and registry answer. */
public final class ProbeMain {
    public static void main(String[] args) {
        BackendProvider p = new OpenClBackendProvider();
        System.out.println("reason=" + p.unavailableReason());
        System.out.println("auto=" + p.eligibleForAuto());
        System.out.println("resolved=" + Backends.resolve("auto").id());
        try {
            Backends.open("opencl", BackendOptions.defaults()).close();
            System.out.println("open-error=none");
        } catch (RuntimeException e) {
            System.out.println("open-error=" + e.getMessage());
        }
    }
}
