package org.tomospark.job.deploy;

import java.util.List;

import static org.junit.jupiter.api.Assertions.fail;

/** The instructions of the recipe's Dockerfile that the submit line depends on: its base image and its copies. */
record Dockerfile(List<String> instructions) {

    /** A COPY instruction: its source in the build context and its destination in the image. */
    record Copy(String source, String destination) {
    }

    /** The default of {@code ARG name=value}. */
    String argDefault(String name) {
        for (String i : instructions)
            if (i.startsWith("ARG " + name + "=")) return i.substring(("ARG " + name + "=").length());
        return fail("no ARG " + name + "=... in the Dockerfile");
    }

    /** The image of the (one) FROM. */
    String from() {
        List<String> froms = instructions.stream().filter(i -> i.startsWith("FROM ")).toList();
        if (froms.size() != 1) fail("one FROM expected: " + froms);
        return froms.get(0).substring("FROM ".length()).strip();
    }

    /** The COPY whose destination is {@code destination} (its --flags left out). */
    Copy copyTo(String destination) {
        for (String i : instructions) {
            if (!i.startsWith("COPY ")) continue;
            List<String> words = List.of(i.substring("COPY ".length()).strip().split("\\s+")).stream()
                    .filter(w -> !w.startsWith("--")).toList();
            if (words.size() == 2 && words.get(1).equals(destination)) return new Copy(words.get(0), words.get(1));
        }
        return fail("no COPY to " + destination + " in the Dockerfile: " + instructions);
    }
}
