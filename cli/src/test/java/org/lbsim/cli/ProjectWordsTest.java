package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The project speaks of itself: no tracked text file (docs, code comments, YAML, scripts, tests) numbers
 * its development by work sessions or tracker issues. Those words date the text and point at records the
 * reader does not have; a result is described by its code and settings instead (a commit, a reading, a
 * parameter). Git history keeps the story.
 */
class ProjectWordsTest {
    /**
     * A development-record number: the word, an optional plural, spaces or a hyphen, an optional '#', digits
     * (so also a range such as "... 13-14" and a Markdown anchor such as "...-9"). The words are split in
     * the source so that this file does not match its own pattern.
     */
    static final Pattern RECORD_NUMBER = Pattern.compile(
            "(?i)\\b(" + "sess" + "ion" + "|" + "iss" + "ue" + ")s?(?:\\s+|-)#?[0-9]+");

    /** Directories a tree walk leaves out when git is not available: build output, VCS, local run folders. */
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of("target", ".git", ".mvn", ".idea", "runs", "sweeps", "out", "reproductions");

    /** The repository root: the nearest directory at or above the working directory (cli/) that holds mvnw. */
    static Path root() {
        Path cwd = Path.of("").toAbsolutePath();
        for (Path p = cwd; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("mvnw"))) {
                return p;
            }
        }
        throw new IllegalStateException("no repository root (a directory with mvnw) above " + cwd);
    }

    /** The tracked files by {@code git ls-files}, or null when git is missing or the root is no work tree. */
    static List<Path> trackedFiles(Path root) {
        try {
            Process git = new ProcessBuilder("git", "-C", root.toString(), "ls-files", "-z").redirectErrorStream(false).start();
            git.getOutputStream().close();
            byte[] out;
            try (InputStream in = git.getInputStream()) {
                out = in.readAllBytes();
            }
            if (!git.waitFor(60, TimeUnit.SECONDS) || git.exitValue() != 0) {
                git.destroyForcibly();
                return null;
            }
            List<Path> files = new ArrayList<>();
            for (String name : new String(out, StandardCharsets.UTF_8).split("\0")) {
                if (!name.isEmpty()) {
                    files.add(root.resolve(name));
                }
            }
            return files.isEmpty() ? null : files;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Every regular file under the root, leaving out {@link #SKIPPED_DIRECTORIES}. */
    static List<Path> walkedFiles(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(Files::isRegularFile)
                    .filter(p -> {
                        for (Path part : root.relativize(p)) {
                            if (SKIPPED_DIRECTORIES.contains(part.toString())) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .sorted()
                    .toList();
        }
    }

    /** One line per match, {@code file:line: text}, over the files that exist and hold text (no NUL byte). */
    static List<String> matches(Path root, List<Path> files) throws IOException {
        List<String> found = new ArrayList<>();
        for (Path file : files) {
            if (!Files.isRegularFile(file)) {
                continue; // tracked but deleted in this work tree
            }
            byte[] bytes = Files.readAllBytes(file);
            if (isBinary(bytes)) {
                continue;
            }
            String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                Matcher m = RECORD_NUMBER.matcher(lines[i]);
                if (m.find()) {
                    found.add(root.relativize(file) + ":" + (i + 1) + ": " + excerpt(lines[i], m.start(), m.end()));
                }
            }
        }
        return found;
    }

    private static boolean isBinary(byte[] bytes) {
        for (int i = 0; i < Math.min(bytes.length, 8192); i++) {
            if (bytes[i] == 0) {
                return true;
            }
        }
        return false;
    }

    private static String excerpt(String line, int start, int end) {
        int from = Math.max(0, start - 40);
        int to = Math.min(line.length(), end + 40);
        return (from > 0 ? "..." : "") + line.substring(from, to).strip() + (to < line.length() ? "..." : "");
    }

    @Test
    void noTrackedFileNumbersItsDevelopmentRecords() throws IOException {
        Path root = root();
        List<Path> files = trackedFiles(root);
        if (files == null) {
            files = walkedFiles(root);
        }
        assertThat(files).as("files found under %s", root).hasSizeGreaterThan(100);
        List<String> found = matches(root, files);
        assertThat(found)
                .withFailMessage("describe the code and its settings instead of the development record (file:line: text):%n%s",
                        String.join("\n", found))
                .isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"Sess" + "ion 12: fig9", "measured in sess" + "ion 14", "(since sess" + "ion 11)", "sess" + "ions 13-14",
            "Iss" + "ue 21's target", "iss" + "ues 14 and 17", "see iss" + "ue #4", "#sess" + "ion-9-iss" + "ue-19"})
    void theRecordNumbersAreFound(String text) {
        assertThat(RECORD_NUMBER.matcher(text).find()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a session of the benchmark helper", "the NIC may issue a NACK", "issues nothing", "round robin over 4 uplinks",
            "three rounds of alternated runs", "sessionId 3", "tissues 4"})
    void ordinaryWordsAreNot(String text) {
        assertThat(RECORD_NUMBER.matcher(text).find()).isFalse();
    }

    @Test
    void theScanReportsFileAndLine(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("a.md"), "# A\nfine text\nas measured in sess" + "ion 7, the queue\n");
        Files.write(dir.resolve("b.bin"), new byte[] {'s', 0, 'x'});
        Files.createDirectories(dir.resolve("target"));
        Files.writeString(dir.resolve("target").resolve("c.md"), "iss" + "ue 3\n");
        List<String> found = matches(dir, walkedFiles(dir));
        assertThat(found).containsExactly("a.md:3: as measured in sess" + "ion 7, the queue");
    }
}
