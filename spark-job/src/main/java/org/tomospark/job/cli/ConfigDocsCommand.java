package org.tomospark.job.cli;

import org.tomospark.executor.config.ConfigRegistry;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.job.InputKeys;
import org.tomospark.job.JobKeys;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** Generates conf/CONFIG.md and conf/tomospark.properties from the key definitions. */
@Command(name = "config-docs", mixinStandardHelpOptions = true,
        description = "Generate the configuration reference from the key definitions.")
public final class ConfigDocsCommand implements Callable<Integer> {
    @Option(names = "--dir", defaultValue = "conf", paramLabel = "DIR") Path dir;

    /** Loads every class that declares keys. */
    public static void registerAll() {
        CoreKeys.CENTER.name();
        JobKeys.INPUT.name();
        InputKeys.INPUT_FORMAT.name();
        for (String c : new String[]{"org.tomospark.job.spark.SparkKeys", "org.tomospark.job.batch.BatchKeys"}) {
            try {
                Class.forName(c, true, ConfigDocsCommand.class.getClassLoader());
            } catch (ClassNotFoundException ignored) {
                // optional key holders
            }
        }
    }

    @Override
    public Integer call() throws IOException {
        registerAll();
        Files.createDirectories(dir);
        // a file of these names is replaced only when an earlier config-docs wrote it
        for (String f : new String[]{"CONFIG.md", "tomospark.properties"}) {
            Path p = dir.resolve(f);
            if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !(Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                    && Files.readString(p).contains("by `tomospark config-docs`")))
                throw new IllegalArgumentException(p + ": already exists and was not written by tomospark config-docs; it is "
                        + "left as it is: choose another --dir");
        }
        Files.writeString(dir.resolve("CONFIG.md"), ConfigRegistry.markdown());
        Files.writeString(dir.resolve("tomospark.properties"), ConfigRegistry.exampleProperties());
        System.err.println("wrote " + dir.resolve("CONFIG.md") + " and " + dir.resolve("tomospark.properties"));
        return 0;
    }
}
