package org.tomospark.executor.arch;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layer order of docs/architecture.md's gpu-executor table holds in the code: a class uses only packages of rows
 * above its own (and its own package), and every package of the module is in the table. The table is read from the
 * document itself, so that the document cannot drift from the code.
 */
class LayersTest {
    private static final String PREFIX = "org.tomospark.executor.";
    private static final Pattern ROW = Pattern.compile("^\\| (\\d+) \\| ([^|]+) \\|");
    private static final Pattern NAME = Pattern.compile("`([a-z.]+)`");

    /** Package (without the module's prefix) to its row, from the table under "| row | gpu-executor packages |". */
    static Map<String, Integer> rows(List<String> doc) {
        Map<String, Integer> rows = new TreeMap<>();
        boolean in = false;
        for (String line : doc) {
            if (line.startsWith("| row | gpu-executor packages |")) {
                in = true;
                continue;
            }
            if (!in) continue;
            if (!line.startsWith("|")) break;
            Matcher m = ROW.matcher(line);
            if (!m.find()) continue;
            int row = Integer.parseInt(m.group(1));
            Matcher n = NAME.matcher(m.group(2));
            while (n.find()) rows.put(n.group(1), row);
        }
        return rows;
    }

    private static List<String> architectureDoc() throws IOException {
        Path doc = Path.of("..", "docs", "architecture.md");
        assertTrue(Files.isRegularFile(doc), "docs/architecture.md not found from " + Path.of("").toAbsolutePath());
        return Files.readAllLines(doc, StandardCharsets.UTF_8);
    }

    /** Each class's use of a class of the same row or a row below, as "source (row) -> target (row)". */
    static Set<String> violations(JavaClasses classes, Map<String, Integer> rows, Set<String> unlisted) {
        Set<String> bad = new TreeSet<>();
        for (JavaClass c : classes) {
            String from = c.getPackageName().substring(PREFIX.length());
            Integer rowFrom = rows.get(from);
            if (rowFrom == null) {
                unlisted.add(from);
                continue;
            }
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String pkg = d.getTargetClass().getPackageName();
                if (!pkg.startsWith(PREFIX)) continue;
                String to = pkg.substring(PREFIX.length());
                if (to.equals(from)) continue;
                Integer rowTo = rows.get(to);
                if (rowTo == null) unlisted.add(to);
                else if (rowTo >= rowFrom)
                    bad.add(c.getName() + " (row " + rowFrom + ") -> " + d.getTargetClass().getName() + " (row " + rowTo + ")");
            }
        }
        return bad;
    }

    @Test
    void everyClassUsesOnlyRowsAboveItsOwn() throws IOException {
        Map<String, Integer> rows = rows(architectureDoc());
        assertTrue(rows.keySet().containsAll(Set.of("util", "backend", "backends.cuda", "cone", "iterative", "pipeline")), rows.toString());
        Set<String> unlisted = new TreeSet<>();
        Set<String> bad = violations(PackageCyclesTest.mainClasses(), rows, unlisted);
        assertTrue(unlisted.isEmpty(), "packages missing from docs/architecture.md's gpu-executor table: " + unlisted);
        assertTrue(bad.isEmpty(), "uses against the table's order:\n" + String.join("\n", bad));
    }

    @Test
    void aUseOfAPackageOfTheSameRowOrBelowIsFound() {
        // the two test packages that use each other, placed in rows: whichever way, one use runs against the order
        JavaClasses cycle = new ClassFileImporter().importPackages("org.tomospark.executor.arch.cycle");
        Set<String> unlisted = new TreeSet<>();
        assertEquals(1, violations(cycle, Map.of("arch.cycle.a", 1, "arch.cycle.b", 2), unlisted).size());
        assertEquals(2, violations(cycle, Map.of("arch.cycle.a", 1, "arch.cycle.b", 1), unlisted).size());
        assertTrue(unlisted.isEmpty(), unlisted.toString());
        assertEquals(Map.of("util", 1, "inputs.filter", 1, "geometry", 2),
                rows(List.of("| row | gpu-executor packages | what |", "|---|---|---|", "| 1 | `util`, `inputs.filter` | a `Name` |",
                        "| 2 | `geometry` | b |", "", "| 3 | `pipeline` | after the table |")));
    }
}
