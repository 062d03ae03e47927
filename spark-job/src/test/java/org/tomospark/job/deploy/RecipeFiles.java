package org.tomospark.job.deploy;

import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Kubernetes recipe's files (submit/kubernetes), found from the module's directory, where Maven runs the tests. */
final class RecipeFiles {
    private RecipeFiles() {
    }

    /** The repository's root. */
    static Path root() {
        Path fromModule = Path.of("..").toAbsolutePath().normalize();
        Path root = Files.isDirectory(fromModule.resolve("submit/kubernetes")) ? fromModule : Path.of("").toAbsolutePath();
        assertTrue(Files.isDirectory(root.resolve("submit/kubernetes")), "no submit/kubernetes under " + root);
        return root;
    }

    static Path dir() {
        return root().resolve("submit/kubernetes");
    }

    /** Every YAML file of the recipe, sorted. */
    static List<Path> yamlFiles() throws IOException {
        try (Stream<Path> files = Files.list(dir())) {
            return files.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml")).sorted().toList();
        }
    }

    /** A YAML document as a map (YAML 1.1, as Kubernetes reads it: 0755 is octal). */
    static Map<String, Object> yaml(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file)) {
            Object doc = new Yaml().load(r);
            return map(doc, file.getFileName().toString());
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object node, String what) {
        assertInstanceOf(Map.class, node, what + " is not a mapping");
        return (Map<String, Object>) node;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object node, String what) {
        assertInstanceOf(List.class, node, what + " is not a list");
        return (List<Object>) node;
    }

    /** The Dockerfile's instructions, continuation lines joined, comments and blank lines left out. */
    static List<String> dockerfile() throws IOException {
        String text = Files.readString(dir().resolve("Dockerfile")).replace("\\\n", " ");
        return text.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    }

    /** The patterns of the image's build context file (Dockerfile.dockerignore), comments and blank lines left out. */
    static List<String> dockerIgnore() throws IOException {
        return Files.readAllLines(dir().resolve("Dockerfile.dockerignore")).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    }
}
