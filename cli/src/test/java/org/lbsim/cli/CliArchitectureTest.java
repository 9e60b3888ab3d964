package org.lbsim.cli;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The command line's packages, checked on its compiled main classes: layers without a cycle. */
@AnalyzeClasses(packages = "org.lbsim.cli", importOptions = ImportOption.DoNotIncludeTests.class)
class CliArchitectureTest {

    /** Every package is its own slice (org.lbsim.cli and org.lbsim.cli.command are two), the entry point's included. */
    @ArchTest
    static final ArchRule packagesAreFreeOfCycles = slices()
            .matching("org.lbsim.(**)")
            .should().beFreeOfCycles();

    @ArchTest
    static final ArchRule theEntryPointIsOnTop = noClasses()
            .that().resideInAPackage("org.lbsim.cli..").and().resideOutsideOfPackage("org.lbsim.cli")
            .should().dependOnClassesThat().resideInAPackage("org.lbsim.cli")
            .because("org.lbsim.cli holds the entry point (Main) and the Java API's file helpers, which use the commands;"
                    + " exit codes and user errors live in org.lbsim.cli.errors");

    @ArchTest
    static final ArchRule errorsDependOnNoOtherPackageOfTheCli = noClasses()
            .that().resideInAPackage("org.lbsim.cli.errors")
            .should().dependOnClassesThat(resideInAPackage("org.lbsim.cli..").and(not(resideInAPackage("org.lbsim.cli.errors"))))
            .because("every package of the command line reports through errors");
}
