package org.tomospark.job.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The classpath the launch scripts run with (built by submit/env.sh) holds runtime dependencies only: no JUnit, no
 * HDFS minicluster, no JMH. Maven's dependency plugin takes its scope filter from the user property
 * {@code includeScope} and silently ignores a misspelt one, keeping every scope; so the scripts' own
 * {@code dependency:build-classpath} command (its goal and -D flags) is run here, with the Maven of this build, on a
 * small project that has dependencies of both scopes, and the classpath it writes is read back.
 */
class LaunchClasspathTest {
    @TempDir
    Path tmp;

    static Path root() {
        Path up = Path.of("..").toAbsolutePath().normalize();
        return Files.isRegularFile(up.resolve("submit/env.sh")) ? up : Path.of("").toAbsolutePath();
    }

    /**
     * The words of every {@code dependency:build-classpath} command in a shell script, from the word after
     * {@code mvn} up to the first redirection: continued lines joined, comments left out, a line cut into commands
     * at {@code && || ; | ( )}.
     */
    static List<List<String>> classpathCommands(Path script) throws IOException {
        List<List<String>> commands = new ArrayList<>();
        for (String line : Files.readString(script).replace("\\\n", " ").split("\n")) {
            if (line.strip().startsWith("#")) continue;
            for (String command : line.split("&&|\\|\\||;|\\||\\(|\\)")) {
                if (!command.contains("dependency:build-classpath")) continue;
                List<String> words = new ArrayList<>();
                boolean afterMvn = false;
                for (String w : command.strip().split("\\s+")) {
                    if (w.startsWith(">") || w.matches("\\d>.*")) break;
                    if (afterMvn) words.add(w);
                    else afterMvn = w.equals("mvn") || w.endsWith("/mvn");
                }
                assertTrue(afterMvn, script + ": a build-classpath command that is not a mvn command: " + command);
                commands.add(words);
            }
        }
        return commands;
    }

    /** The values of {@code -Dname=value} among a command's words. */
    static List<String> property(List<String> words, String name) {
        List<String> v = new ArrayList<>();
        for (String w : words) if (w.startsWith("-D" + name + "=")) v.add(w.substring(name.length() + 3));
        return v;
    }

    @Test
    void everyScriptNamesTheScopeOfTheClasspathItBuilds() throws Exception {
        // every script runs main classes: the product's launch classpath, the OpenCL comparison, the GPU and OpenCL
        // benchmarks, and the benchmarks module's classpath that the other bench-* scripts source (bench-classpath.sh):
        // runtime scope
        Map<String, List<String>> expected = Map.of("env.sh", List.of("runtime"), "compare-ufo.sh", List.of("runtime"),
                "gpu-bench", List.of("runtime"), "opencl-bench", List.of("runtime"), "bench-classpath.sh", List.of("runtime"));
        Map<String, List<String>> found = new TreeMap<>();
        try (Stream<Path> scripts = Files.list(root().resolve("submit"))) {
            for (Path s : scripts.filter(Files::isRegularFile).toList())
                for (List<String> cmd : classpathCommands(s)) {
                    for (String w : cmd) assertFalse(w.startsWith("-Dmdep.includeScope"), s + ": " + w
                            + " is not a property the plugin reads");
                    List<String> scope = property(cmd, "includeScope");
                    assertEquals(1, scope.size(), s + ": " + cmd + " sets no single includeScope");
                    found.computeIfAbsent(s.getFileName().toString(), k -> new ArrayList<>()).add(scope.get(0));
                }
        }
        assertEquals(new TreeMap<>(expected), found);
    }

    @Test
    void launchClasspathHoldsNoTestScopeJars() throws Exception {
        List<List<String>> commands = classpathCommands(root().resolve("submit/env.sh"));
        assertEquals(1, commands.size(), "env.sh's build-classpath commands: " + commands);
        List<String> words = commands.get(0);
        List<String> outputFile = property(words, "mdep.outputFile");
        assertEquals(1, outputFile.size(), "env.sh names the classpath file with -Dmdep.outputFile: " + words);

        Path project = Files.createDirectories(tmp.resolve("project"));
        Files.writeString(project.resolve("pom.xml"), standInPom());
        List<String> cmd = new ArrayList<>(List.of(mvn()));
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (w.equals("-pl") || w.equals("--projects")) i++; // the module: here the stand-in project itself
            else cmd.add(w);
        }
        if (System.getProperty("tomospark.test.mavenMode", "").equals("offline=true")) cmd.add("-o");
        String repo = System.getProperty("tomospark.test.mavenRepository", "");
        if (!repo.isBlank() && !repo.startsWith("${")) cmd.add("-Dmaven.repo.local=" + repo);
        Path log = tmp.resolve("mvn.log");
        Process p = new ProcessBuilder(cmd).directory(project.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(cmd + " did not finish in 300 s: " + Files.readString(log));
        }
        assertEquals(0, p.exitValue(), cmd + ": " + Files.readString(log));

        List<String> jars = List.of(Files.readString(project.resolve(outputFile.get(0))).strip().split(File.pathSeparator));
        assertTrue(jars.stream().anyMatch(j -> j.contains("/info/picocli/picocli/")), "the compile dependency is missing: " + jars);
        List<String> testJars = jars.stream().filter(j -> j.contains("/org/junit/") || j.contains("/org/openjdk/jmh/")).toList();
        assertEquals(List.of(), testJars, "test-scope jars on the launch classpath");
    }

    /** Maven of this build, else the one on the PATH. */
    static String mvn() {
        String home = System.getProperty("tomospark.test.mavenHome", "");
        if (!home.isBlank() && !home.startsWith("${") && Files.isExecutable(Path.of(home, "bin", "mvn")))
            return Path.of(home, "bin", "mvn").toString();
        return "mvn";
    }

    /** A project under tomospark's parent (its plugin and dependency versions) with one compile and two test dependencies. */
    static String standInPom() throws IOException {
        Path parent = root().resolve("pom.xml");
        Matcher m = Pattern.compile("<artifactId>tomospark-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(parent));
        assertTrue(m.find(), parent + ": no version");
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <parent>
                    <groupId>org.tomospark</groupId>
                    <artifactId>tomospark-parent</artifactId>
                    <version>%s</version>
                    <relativePath>%s</relativePath>
                  </parent>
                  <artifactId>launch-classpath-stand-in</artifactId>
                  <dependencies>
                    <dependency>
                      <groupId>info.picocli</groupId>
                      <artifactId>picocli</artifactId>
                    </dependency>
                    <dependency>
                      <groupId>org.junit.jupiter</groupId>
                      <artifactId>junit-jupiter</artifactId>
                      <scope>test</scope>
                    </dependency>
                    <dependency>
                      <groupId>org.openjdk.jmh</groupId>
                      <artifactId>jmh-core</artifactId>
                      <scope>test</scope>
                    </dependency>
                  </dependencies>
                </project>
                """.formatted(m.group(1), parent);
    }
}
