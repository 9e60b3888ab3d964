package org.lbsim.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every worked example of docs/extending.md, exactly as written there: compiled against lbsim and
 * run. Each example checks its own mechanism and throws when it does not hold; here it must print
 * its one summary line.
 */
class ExtendingExamplesTest {
    static final String START = "<!-- extending-example:start -->";
    static final String END = "<!-- extending-example:end -->";

    @TempDir
    Path dir;

    static Path doc() {
        return ReadmeExampleTest.readme().getParent().resolve("docs").resolve("extending.md");
    }

    static Stream<String> examples() throws Exception {
        String text = Files.readString(doc(), StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        for (int at = text.indexOf(START); at >= 0; at = text.indexOf(START, at + 1)) {
            String block = text.substring(at, text.indexOf(END, at));
            int open = block.indexOf("```java");
            out.add(block.substring(block.indexOf('\n', open) + 1, block.lastIndexOf("```")));
        }
        assertThat(out).as("worked examples in docs/extending.md").hasSizeGreaterThanOrEqualTo(4);
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("examples")
    void theExampleCompilesRunsAndPrintsItsSummary(String code) throws Exception {
        Matcher cls = Pattern.compile("public\\s+class\\s+(\\w+)").matcher(code);
        assertThat(cls.find()).as("a public class in the example").isTrue();
        String name = cls.group(1);
        Path source = Files.createDirectories(dir.resolve("src")).resolve(name + ".java");
        Files.writeString(source, code, StandardCharsets.UTF_8);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        ReadmeExampleTest.compile(source, classes);
        String output = ReadmeExampleTest.runMain(classes, name);
        assertThat(output.lines().toList()).as(name + " output").hasSize(1);
        assertThat(output).matches("(?s)[A-Za-z][A-Za-z -]*: .+");
    }
}
