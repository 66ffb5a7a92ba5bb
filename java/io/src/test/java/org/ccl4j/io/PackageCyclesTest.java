package org.ccl4j.io;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.stream.Collectors;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import org.ccl4j.testing.PackageSlices;

/** The packages of ccl4j-core and ccl4j-io depend on each other without cycles. */
class PackageCyclesTest {
    @Test
    void theLibrarysPackagesHaveNoCycles() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))  // core's test helpers
                .importPackages("org.ccl4j");
        Set<String> packages = classes.stream().map(JavaClass::getPackageName).collect(Collectors.toSet());
        // the check must see both modules' packages, or it proves nothing
        assertTrue(packages.containsAll(Set.of("org.ccl4j", "org.ccl4j.physics", "org.ccl4j.internal",
                "org.ccl4j.io", "org.ccl4j.io.grid")), "imported packages: " + packages);
        slices().assignedFrom(PackageSlices.BY_PACKAGE).should().beFreeOfCycles().check(classes);
    }
}
