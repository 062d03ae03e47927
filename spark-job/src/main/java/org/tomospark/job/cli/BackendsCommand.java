package org.tomospark.job.cli;

import org.tomospark.executor.backend.Backends;
import picocli.CommandLine.Command;

import java.util.Map;
import java.util.concurrent.Callable;

/** Lists the back-projection backends and whether each can run here. */
@Command(name = "backends", mixinStandardHelpOptions = true, description = "List backends and whether each can run on this machine.")
public final class BackendsCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        for (Map.Entry<String, String> e : Backends.availability().entrySet())
            System.out.printf("%-8s %s%n", e.getKey(), e.getValue() == null ? "available" : "unavailable: " + e.getValue());
        return 0;
    }
}
