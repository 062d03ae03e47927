package org.tomospark.executor.backend;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.Locale;

/**
 * Native GPU and OpenCL libraries (PoCL's LLVM, vendor drivers) may install their own SIGSEGV handlers. The
 * JVM uses SIGSEGV for safepoint polls and implicit null checks, so without signal chaining it dies
 * silently (no hs_err file) at the next safepoint after such a library is loaded. The cure is the JDK's
 * {@code libjsig.so} in {@code LD_PRELOAD}, which the launch scripts, the test build and the example Spark
 * configuration set. This class warns once when a native backend is probed without it.
 */
public final class NativeSignals {
    private static final Logger LOG = LoggerFactory.getLogger(NativeSignals.class);
    private static volatile boolean warned;

    private NativeSignals() {
    }

    /** Whether the JDK's signal-chaining library is preloaded into this process. */
    public static boolean chained() {
        String p = System.getenv("LD_PRELOAD");
        return p != null && p.contains("libjsig");
    }

    /** Logs a warning (once per JVM) if {@code what} is about to be loaded without signal chaining. */
    public static void warnIfUnchained(String what) {
        if (warned || chained() || !System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) return;
        warned = true;
        LOG.warn("loading {} without signal chaining: set LD_PRELOAD=$JAVA_HOME/lib/libjsig.so (submit/ scripts do; for Spark "
                + "executors set spark.executorEnv.LD_PRELOAD), or the JVM may die with SIGSEGV at a safepoint", what);
    }
}
