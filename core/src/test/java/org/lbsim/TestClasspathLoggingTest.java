package org.lbsim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/**
 * ArchUnit ({@link ArchitectureTest}) logs through slf4j-api; without a provider on the test class path SLF4J prints its
 * "No SLF4J providers were found" warning into every core test run. slf4j-nop is that provider, in test scope only: core
 * itself depends on the JDK alone.
 */
class TestClasspathLoggingTest {
    @Test
    void slf4j_finds_a_provider_so_core_tests_print_no_warning() {
        // what SLF4J looks up before it falls back to its no-operation logger and warns
        assertThat(ServiceLoader.load(org.slf4j.spi.SLF4JServiceProvider.class).findFirst()).isPresent();
    }
}
