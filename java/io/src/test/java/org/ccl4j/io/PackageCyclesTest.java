package org.ccl4j.io;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.stream.Collectors;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

import org.ccl4j.testing.LibraryPackages;

/** The packages of ccl4j-core and ccl4j-io depend on each other without cycles. */
class PackageCyclesTest {
    @Test
    void theLibrarysPackagesHaveNoCycles() {
        JavaClasses classes = LibraryPackages.library();
        Set<String> packages = classes.stream().map(JavaClass::getPackageName).collect(Collectors.toSet());
        // the check must see both modules' packages, or it proves nothing
        assertTrue(packages.containsAll(Set.of("org.ccl4j", "org.ccl4j.physics", "org.ccl4j.internal",
                "org.ccl4j.io", "org.ccl4j.io.grid")), "imported packages: " + packages);
        slices().assignedFrom(LibraryPackages.BY_PACKAGE).should().beFreeOfCycles().check(classes);
    }
}
