package org.lbsim.cli;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The command line's packages, checked on its compiled main classes: layers without a cycle, and one door to core. */
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

    /**
     * Core is reached through org.lbsim.api (binding, checking, preparing and running a scenario; reading and wording
     * inputs; the catalog), with the scenario records as its input and the metrics records as its output. Nothing of the
     * engine (config, sim, workload, kernel, topology, registry, spi ...) is named by a command, so it can change behind the API.
     */
    @ArchTest
    static final ArchRule coreOnlyThroughItsApi = noClasses()
            .that().resideInAPackage("org.lbsim.cli..")
            .should().dependOnClassesThat(resideInAPackage("org.lbsim..")
                    .and(not(resideInAnyPackage("org.lbsim.cli..", "org.lbsim.api..", "org.lbsim.scenario..", "org.lbsim.metrics.."))))
            .because("org.lbsim.api is the command line's door to core; org.lbsim.scenario and org.lbsim.metrics are its input and output types");
}
