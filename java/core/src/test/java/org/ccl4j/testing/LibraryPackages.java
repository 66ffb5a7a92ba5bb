package org.ccl4j.testing;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

/** The library's classes for the package rules, and their slices: every package one of its own. */
public final class LibraryPackages {
    /** Each package a slice (ArchUnit's patterns would fold subpackages together). */
    public static final SliceAssignment BY_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            return SliceIdentifier.of(javaClass.getPackageName());
        }

        @Override
        public String getDescription() {
            return "each package";
        }
    };

    private LibraryPackages() {
    }

    /**
     * The library's classes on the class path (the packages under {@code org.ccl4j} but the
     * command line's and the benchmarks', tools built on the library), tests left out: Maven's
     * test folders, core's test jar, and the one folder of every module's tests that the GPU
     * machine runs (scripts/gpu/prepare.sh), which ArchUnit's own option does not know.
     */
    public static JavaClasses library() {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("/test-classes/") && !location.contains("-tests.jar"))
                .withImportOption(location -> !location.contains("/org/ccl4j/cli/")
                        && !location.contains("/org/ccl4j/bench/"))
                .importPackages("org.ccl4j");
    }
}
