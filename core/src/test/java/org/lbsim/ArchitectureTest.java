package org.lbsim;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The layering of DESIGN.md, checked on the compiled main classes of core. */
@AnalyzeClasses(packages = "org.lbsim", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule kernelDependsOnNothingElseOfOurs = noClasses()
            .that().resideInAPackage("org.lbsim.kernel..")
            .should().dependOnClassesThat(resideInAPackage("org.lbsim..").and(not(resideInAPackage("org.lbsim.kernel.."))))
            .because("the kernel knows nothing about the model (DESIGN.md, Layout)");

    @ArchTest
    static final ArchRule nothingInCoreDependsOnTheCli = noClasses()
            .that().resideInAPackage("org.lbsim..")
            .should().dependOnClassesThat().resideInAPackage("org.lbsim.cli..")
            .because("cli holds everything user-facing and builds on core, never the other way round");

    @ArchTest
    static final ArchRule netDoesNotDependOnLoadBalancingImplementations = noClasses()
            .that().resideInAPackage("org.lbsim.net..")
            .should().dependOnClassesThat().resideInAPackage("org.lbsim.lb..")
            .because("net only holds the PortSelector interface; schemes live in lb");

    /** Every package is its own slice (org.lbsim.lb and org.lbsim.lb.pro are two), with no exception. */
    @ArchTest
    static final ArchRule packagesAreFreeOfCycles = slices()
            .matching("org.lbsim.(**)")
            .should().beFreeOfCycles();

    @ArchTest
    static final ArchRule publicInterfacesAreExtensionPoints = classes()
            .that().areInterfaces().and().arePublic().and().resideInAPackage("org.lbsim..")
            .should().resideInAnyPackage("org.lbsim.spi", "org.lbsim.net", "org.lbsim.kernel", "org.lbsim.scenario")
            .because("host-side extension points and their contexts live in spi, switch-side ones in net (below spi),"
                    + " event handlers in kernel, scenario variants in scenario; implementation packages declare none");

    @ArchTest
    static final ArchRule spiDependsOnNoImplementation = noClasses()
            .that().resideInAPackage("org.lbsim.spi")
            .should().dependOnClassesThat().resideInAnyPackage("org.lbsim.lb..", "org.lbsim.transport..", "org.lbsim.cc..",
                    "org.lbsim.counters..", "org.lbsim.registry..", "org.lbsim.sim..", "org.lbsim.config..", "org.lbsim.api..")
            .because("implementations and the engine depend on spi, never the other way round");

    @ArchTest
    static final ArchRule everyStaticFieldIsFinal = fields()
            .that().areStatic()
            .should().beFinal()
            .because("no mutable global state: one Simulator per run, runs in parallel threads");
}
