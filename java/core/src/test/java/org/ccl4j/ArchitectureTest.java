package org.ccl4j;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import org.ccl4j.engine.jvm.BindingsUserFixture;
import org.ccl4j.engine.jvm.FacadeUserFixture;
import org.ccl4j.testing.LibraryPackages;

/**
 * The layers of the core (docs/ARCHITECTURE.md): the API ({@code org.ccl4j}, {@code org.ccl4j.physics})
 * over the factory ({@code org.ccl4j.engine}) over the engines ({@code engine.nativelib},
 * {@code engine.jvm}), all over the seam ({@code engine.spi}), the serial union-finds
 * ({@code engine.serial}) and {@code internal}. Each rule is checked on the library's classes, and
 * on a fixture of the tests that breaks it, so that a rule that could not fail fails here.
 */
class ArchitectureTest {
    private static final JavaClasses LIBRARY = LibraryPackages.library();

    /** The fixtures that break the rules, each in the package of the classes it stands for. */
    private static final JavaClasses FIXTURES = new ClassFileImporter().importClasses(BindingsUserFixture.class,
            FacadeUserFixture.class, ApiImplementationFixture.class, ApiUsingAnEngineFixture.class, Labels.class,
            ComponentLabeler.class, org.ccl4j.engine.Engines.class, org.ccl4j.engine.jvm.JvmEngine.class);

    private static final ArchRule ONLY_THE_NATIVE_ENGINE_CALLS_THE_BINDINGS = noClasses()
            .that().resideOutsideOfPackages("org.ccl4j.engine.nativelib", "org.ccl4j.internal.ffi")
            .should().dependOnClassesThat().resideInAPackage("org.ccl4j.internal.ffi")
            .as("only the native engine imports the generated bindings");

    private static final ArchRule THE_API_KNOWS_NO_ENGINE = noClasses()
            .that().resideInAnyPackage("org.ccl4j", "org.ccl4j.physics")
            .should().dependOnClassesThat().resideInAnyPackage("org.ccl4j.engine.nativelib..", "org.ccl4j.engine.jvm..")
            .as("the exported packages depend on no engine implementation");

    private static final ArchRule ENGINES_KNOW_NO_API = noClasses()
            .that().resideInAPackage("org.ccl4j.engine..")
            .should().dependOnClassesThat().resideInAnyPackage("org.ccl4j", "org.ccl4j.physics")
            .as("the engines depend on neither the facade nor the API types");

    private static final ArchRule THE_API_PACKAGES_HOLD_API_TYPES_ONLY = classes()
            .that().resideInAnyPackage("org.ccl4j", "org.ccl4j.physics").and().areTopLevelClasses()
            .and().doNotHaveSimpleName("package-info")  // the packages' Javadoc, compiled to a synthetic interface
            .should().haveModifier(JavaModifier.PUBLIC)
            .as("org.ccl4j and org.ccl4j.physics hold API types only");

    private static final ArchRule NO_CYCLES = slices().assignedFrom(LibraryPackages.BY_PACKAGE).should().beFreeOfCycles();

    private static final List<ArchRule> RULES = List.of(ONLY_THE_NATIVE_ENGINE_CALLS_THE_BINDINGS,
            THE_API_KNOWS_NO_ENGINE, ENGINES_KNOW_NO_API, THE_API_PACKAGES_HOLD_API_TYPES_ONLY, NO_CYCLES);

    @Test
    void theLibraryKeepsEveryRule() {
        Set<String> packages = LIBRARY.stream().map(JavaClass::getPackageName).collect(Collectors.toSet());
        // the rules must see every layer, or they prove nothing
        assertTrue(packages.containsAll(Set.of("org.ccl4j", "org.ccl4j.physics", "org.ccl4j.engine",
                "org.ccl4j.engine.spi", "org.ccl4j.engine.nativelib", "org.ccl4j.engine.jvm", "org.ccl4j.engine.serial",
                "org.ccl4j.internal", "org.ccl4j.internal.ffi")), "imported packages: " + packages);
        for (ArchRule rule : RULES) {
            rule.check(LIBRARY);
        }
    }

    @Test
    void eachRuleFailsOnAFixtureThatBreaksIt() {
        for (ArchRule rule : RULES) {
            assertFalse(rule.evaluate(FIXTURES).getFailureReport().isEmpty(), "no fixture breaks: " + rule);
        }
    }
}
