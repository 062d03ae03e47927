package org.tomospark.job.arch;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The package graph of spark-job's main code is acyclic, one slice per package (docs/architecture.md gives the
 * order). gpu-executor's packages are checked by that module's own test; this one imports only spark-job's classes.
 */
class PackageCyclesTest {
    static final ArchRule NO_CYCLES = slices().matching("org.tomospark.(**)").should().beFreeOfCycles();

    @Test
    void packagesHaveNoCycles() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages("org.tomospark.job");
        Set<String> packages = classes.stream().map(JavaClass::getPackageName).collect(Collectors.toCollection(TreeSet::new));
        // the rule must see the whole module, not an empty or partial import that passes by default
        assertTrue(packages.containsAll(Set.of("org.tomospark.job", "org.tomospark.job.cli",
                "org.tomospark.job.inputs", "org.tomospark.job.outputs", "org.tomospark.job.fs", "org.tomospark.job.local",
                "org.tomospark.job.run", "org.tomospark.job.spark")),
                packages.toString());
        EvaluationResult r = NO_CYCLES.evaluate(classes);
        assertFalse(r.hasViolation(), () -> String.join("\n", r.getFailureReport().getDetails()));
    }
}
