package org.lbsim.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lbsim.metrics.RunResult;

/**
 * The "Use from Java" example of README.md, exactly as written there: extracted between its markers,
 * compiled against the test classpath, run, and its output checked against the same runs made here.
 */
class ReadmeExampleTest {
    static final String START = "<!-- java-api-example:start -->";
    static final String END = "<!-- java-api-example:end -->";

    @TempDir
    Path dir;

    @Test
    void the_readme_java_example_compiles_runs_and_prints_one_line_per_scheme() throws Exception {
        String code = example(Files.readString(readme(), StandardCharsets.UTF_8));
        Matcher cls = Pattern.compile("public\\s+(?:final\\s+)?class\\s+(\\w+)").matcher(code);
        assertThat(cls.find()).as("a public class in the README example").isTrue();
        String className = cls.group(1);
        Path source = Files.createDirectories(dir.resolve("src")).resolve(className + ".java");
        Files.writeString(source, code, StandardCharsets.UTF_8);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        compile(source, classes);

        String output = runMain(classes, className);

        List<String> lines = output.lines().toList();
        assertThat(lines).hasSize(3);
        String[] schemes = {"ecmp", "host-spray", "ofan"};
        for (int i = 0; i < schemes.length; i++) {
            // the same scenario built here (printf in the default locale, as the example)
            RunResult r = Lbsim.scenario().fatTree(4).linkRateGbps(400).permutation(1 << 20).scheme(schemes[i])
                    .set("switches.ecn.kminBytes", 50_000).seed(7).run();
            assertThat(r.flowsFinished()).isEqualTo(16);
            String expected = String.format("%-10s CCT %7.2f us, %+.1f %% over the lower bound",
                    schemes[i], r.cctPs() / 1e6, r.cctIncreasePct());
            assertThat(lines.get(i)).isEqualTo(expected);
        }
    }

    /** README.md of the repository (tests run in core/). */
    static Path readme() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("core"))) {
                return p.resolve("README.md");
            }
        }
        throw new AssertionError("README.md not found above " + Path.of("").toAbsolutePath());
    }

    /** The fenced code between the markers. */
    static String example(String readme) {
        int start = readme.indexOf(START);
        int end = readme.indexOf(END);
        assertThat(start).as("README.md has the marker %s", START).isGreaterThanOrEqualTo(0);
        assertThat(end).as("README.md has the marker %s after the start marker", END).isGreaterThan(start);
        String block = readme.substring(start + START.length(), end);
        int open = block.indexOf("```java");
        int close = block.lastIndexOf("```");
        assertThat(open).as("a ```java fence between the markers").isGreaterThanOrEqualTo(0);
        assertThat(close).isGreaterThan(open);
        return block.substring(block.indexOf('\n', open) + 1, close);
    }

    static void compile(Path source, Path classes) throws IOException, URISyntaxException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac).as("a JDK (javax.tools compiler) runs the tests").isNotNull();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = List.of("-classpath", classpath(), "-d", classes.toString(), "-proc:none", "-Xlint:none");
            boolean ok = javac.getTask(null, files, diagnostics, options, null, files.getJavaFileObjects(source.toFile())).call();
            assertThat(ok).as("the README example compiles: %s", diagnostics.getDiagnostics()).isTrue();
        }
    }

    /** The test classpath, plus where the API classes were loaded from (surefire may hide them behind a manifest jar). */
    private static String classpath() throws URISyntaxException {
        List<String> parts = new ArrayList<>(List.of(System.getProperty("java.class.path").split(File.pathSeparator)));
        for (Class<?> c : List.of(Lbsim.class, RunResult.class)) {
            parts.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        }
        return String.join(File.pathSeparator, parts);
    }

    static synchronized String runMain(Path classes, String className) throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, Lbsim.class.getClassLoader());
             PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            Method main = loader.loadClass(className).getMethod("main", String[].class);
            System.setOut(out);
            try {
                main.invoke(null, (Object) new String[0]);
            } finally {
                System.setOut(original);
            }
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
