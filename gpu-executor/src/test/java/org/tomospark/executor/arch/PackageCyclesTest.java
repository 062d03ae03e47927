package org.tomospark.executor.arch;

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
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The package graph of gpu-executor's main code is acyclic: each package is one slice, so a class of package a that
 * uses package b and a class of b that uses a (directly or through other packages) fail the build. docs/architecture.md
 * gives the order the packages depend on each other in.
 */
class PackageCyclesTest {
    /** One slice per package: org.tomospark.executor.backend and org.tomospark.executor.backends.cuda are two. */
    static final ArchRule NO_CYCLES = slices().matching("org.tomospark.(**)").should().beFreeOfCycles();

    static JavaClasses mainClasses() {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages("org.tomospark.executor");
    }

    @Test
    void packagesHaveNoCycles() {
        JavaClasses classes = mainClasses();
        Set<String> packages = classes.stream().map(JavaClass::getPackageName).collect(Collectors.toCollection(TreeSet::new));
        // the rule must see the whole module, not an empty or partial import that passes by default
        assertTrue(packages.containsAll(Set.of("org.tomospark.executor.pipeline", "org.tomospark.executor.inputs",
                "org.tomospark.executor.center", "org.tomospark.executor.config", "org.tomospark.executor.backend",
                "org.tomospark.executor.backends.cuda", "org.tomospark.executor.preprocess")), packages.toString());
        EvaluationResult r = NO_CYCLES.evaluate(classes);
        assertFalse(r.hasViolation(), () -> String.join("\n", r.getFailureReport().getDetails()));
    }

    @Test
    void theRuleFindsACycleBetweenTwoPackages() {
        // two test packages that use each other: the rule must report exactly that cycle
        JavaClasses classes = new ClassFileImporter().importPackages("org.tomospark.executor.arch.cycle");
        EvaluationResult r = NO_CYCLES.evaluate(classes);
        assertTrue(r.hasViolation());
        String report = String.join("\n", r.getFailureReport().getDetails());
        assertTrue(report.contains("Cycle detected: Slice executor.arch.cycle.a -> \n"
                + "                Slice executor.arch.cycle.b -> \n"
                + "                Slice executor.arch.cycle.a"), report);
        assertEquals(1, r.getFailureReport().getDetails().size(), report);
    }
}
