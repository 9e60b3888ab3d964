package org.lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative inline link {@code [text](target)} in README.md and docs/*.md resolves: the file part
 * (relative to the linking file) exists, and a {@code #anchor} names a heading of the target Markdown
 * file by its GitHub anchor (lowercase; every character that is not a letter, digit, space, hyphen or
 * underscore removed; spaces to hyphens; a repeated anchor numbered -1, -2, ...). Absolute URLs
 * (any scheme: http:, https:, mailto:, ...) are not checked, nor links inside fenced code blocks and
 * inline code spans.
 */
class DocsLinksTest {
    /** {@code [text](target)} or {@code [text](target "title")}; text without brackets inside (code spans are masked first). */
    private static final Pattern LINK = Pattern.compile("\\[[^\\[\\]]*\\]\\(\\s*(<[^>]*>|[^\\s()]*)(?:\\s+(?:\"[^\"]*\"|'[^']*'))?\\s*\\)");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})(?:\\s+(.*?))?\\s*$");
    private static final Pattern FENCE = Pattern.compile("^\\s*(`{3,}|~{3,})");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
    private static final Pattern INLINE_LINK = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");

    /** The repository root: the parent of the working directory (cli/) when it holds pom.xml and docs/. */
    static Path root() {
        Path cwd = Path.of("").toAbsolutePath();
        for (Path p = cwd; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("pom.xml")) && Files.isDirectory(p.resolve("docs"))) {
                return p;
            }
        }
        throw new IllegalStateException("no repository root (pom.xml and docs/) above " + cwd);
    }

    static List<Path> markdownFiles(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(files::add);
        }
        return files;
    }

    /** GitHub's anchor of one heading's text, before duplicate numbering. */
    static String slug(String heading) {
        String text = INLINE_LINK.matcher(heading).replaceAll("$1");
        StringBuilder out = new StringBuilder();
        text.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (c == ' ') {
                out.append('-');
            } else if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    /** Every heading anchor of a Markdown text (outside fenced code), repeated ones numbered as GitHub does. */
    static Set<String> anchors(String markdown) {
        Map<String, Integer> occurrences = new HashMap<>();
        Set<String> anchors = new HashSet<>();
        String fence = null;
        for (String line : markdown.split("\n", -1)) {
            Matcher f = FENCE.matcher(line);
            if (fence != null) {
                if (f.find() && f.group(1).charAt(0) == fence.charAt(0) && f.group(1).length() >= fence.length()
                        && line.substring(f.end()).isBlank()) {
                    fence = null;
                }
                continue;
            }
            if (f.find()) {
                fence = f.group(1);
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (!h.matches()) {
                continue;
            }
            String text = h.group(2) == null ? "" : h.group(2).replaceAll("\\s+#+$", "").replaceAll("^#+$", "");
            String original = slug(text.strip());
            String result = original;
            while (occurrences.containsKey(result)) {
                int n = occurrences.merge(original, 1, Integer::sum);
                result = original + "-" + n;
            }
            occurrences.put(result, 0);
            anchors.add(result);
        }
        return anchors;
    }

    /** The text with fenced code blocks and inline code spans replaced by spaces (line breaks kept, so offsets keep their line). */
    static String masked(String markdown) {
        char[] out = markdown.toCharArray();
        String[] lines = markdown.split("\n", -1);
        int offset = 0;
        String fence = null;
        int paragraphStart = -1;
        List<int[]> paragraphs = new ArrayList<>();
        for (String line : lines) {
            Matcher f = FENCE.matcher(line);
            boolean inFence = fence != null;
            if (inFence) {
                if (f.find() && f.group(1).charAt(0) == fence.charAt(0) && f.group(1).length() >= fence.length()
                        && line.substring(f.end()).isBlank()) {
                    fence = null;
                }
            } else if (f.find()) {
                fence = f.group(1);
                inFence = true;
            }
            if (inFence) {
                for (int i = offset; i < offset + line.length(); i++) {
                    out[i] = ' ';
                }
            }
            boolean text = !inFence && !line.isBlank();
            if (text && paragraphStart < 0) {
                paragraphStart = offset;
            } else if (!text && paragraphStart >= 0) {
                paragraphs.add(new int[] {paragraphStart, offset});
                paragraphStart = -1;
            }
            offset += line.length() + 1;
        }
        if (paragraphStart >= 0) {
            paragraphs.add(new int[] {paragraphStart, markdown.length()});
        }
        for (int[] p : paragraphs) {
            maskCodeSpans(markdown, out, p[0], Math.min(p[1], markdown.length()));
        }
        return new String(out);
    }

    /** CommonMark code spans within one block: a run of n backquotes up to the next run of exactly n. */
    private static void maskCodeSpans(String s, char[] out, int from, int to) {
        int i = from;
        while (i < to) {
            if (s.charAt(i) != '`') {
                i++;
                continue;
            }
            int n = run(s, i, to);
            int j = i + n;
            int close = -1;
            while (j < to) {
                if (s.charAt(j) == '`') {
                    int m = run(s, j, to);
                    if (m == n) {
                        close = j;
                        break;
                    }
                    j += m;
                } else {
                    j++;
                }
            }
            if (close < 0) {
                i += n;
                continue;
            }
            for (int k = i; k < close + n; k++) {
                if (out[k] != '\n') {
                    out[k] = ' ';
                }
            }
            i = close + n;
        }
    }

    private static int run(String s, int at, int to) {
        int n = 0;
        while (at + n < to && s.charAt(at + n) == '`') {
            n++;
        }
        return n;
    }

    /** One line per broken link, {@code file:line: target}, paths relative to the root. */
    static List<String> brokenLinks(Path root, List<Path> files) throws IOException {
        Map<Path, Set<String>> anchorCache = new HashMap<>();
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path file : files) {
            String text = Files.readString(file);
            String masked = masked(text);
            Matcher m = LINK.matcher(masked);
            while (m.find()) {
                String target = m.group(1);
                if (target.startsWith("<") && target.endsWith(">")) {
                    target = target.substring(1, target.length() - 1);
                }
                if (target.isEmpty() || SCHEME.matcher(target).find()) {
                    continue;
                }
                checked++;
                int hash = target.indexOf('#');
                String filePart = hash < 0 ? target : target.substring(0, hash);
                String anchor = hash < 0 ? null : URLDecoder.decode(target.substring(hash + 1).replace("+", "%2B"), StandardCharsets.UTF_8);
                Path resolved;
                if (filePart.isEmpty()) {
                    resolved = file;
                } else {
                    String decoded = URLDecoder.decode(filePart.replace("+", "%2B"), StandardCharsets.UTF_8);
                    resolved = (decoded.startsWith("/") ? root.resolve(decoded.substring(1)) : file.getParent().resolve(decoded)).normalize();
                }
                boolean ok = Files.exists(resolved);
                if (ok && anchor != null && resolved.getFileName().toString().endsWith(".md") && Files.isRegularFile(resolved)) {
                    Set<String> anchors = anchorCache.computeIfAbsent(resolved, p -> {
                        try {
                            return anchors(Files.readString(p));
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    ok = anchors.contains(anchor);
                }
                if (!ok) {
                    int line = 1;
                    for (int i = 0; i < m.start(); i++) {
                        if (text.charAt(i) == '\n') {
                            line++;
                        }
                    }
                    broken.add(root.relativize(file) + ":" + line + ": " + target);
                }
            }
        }
        if (checked == 0) {
            broken.add("(no relative link found at all: the link pattern is broken)");
        }
        return broken;
    }

    @Test
    void everyRelativeLinkAndAnchorInTheDocsResolves() throws IOException {
        Path root = root();
        List<Path> files = markdownFiles(root);
        assertThat(files).hasSizeGreaterThan(5);
        List<String> broken = brokenLinks(root, files);
        assertThat(broken)
                .withFailMessage("broken links in README.md and docs/*.md (file:line: target):%n%s", String.join("\n", broken))
                .isEmpty();
    }

    @Test
    void anchorsAreGithubs() {
        assertThat(slug("Which code produced each table of fig1-fig14 (the rule's \"every row from the current code\")"))
                .isEqualTo("which-code-produced-each-table-of-fig1-fig14-the-rules-every-row-from-the-current-code");
        assertThat(slug("themis-fig1: the HPCC / ConWeave ns-3 NACK readings (k = 8)"))
                .isEqualTo("themis-fig1-the-hpcc--conweave-ns-3-nack-readings-k--8");
        assertThat(slug("HOST DR's core order: `interleaved` is the default"))
                .isEqualTo("host-drs-core-order-interleaved-is-the-default");
        assertThat(slug("See [sweeps](sweeps.md) now")).isEqualTo("see-sweeps-now");
        assertThat(anchors("# A\n## A\n```\n# A\n```\n### A\n## A-1\n"))
                .containsExactlyInAnyOrder("a", "a-1", "a-2", "a-1-1");
    }

    @Test
    void codeIsNotLinked(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path docs = Files.createDirectories(dir.resolve("docs"));
        Files.writeString(dir.resolve("README.md"), """
                # Top
                [fine](docs/a.md#a-section) and [self](#top) and [web](https://example.org/x#y)
                `[code](nowhere.md)` and ``a ` [code](nowhere.md)``
                ```
                [fenced](nowhere.md)
                ```
                [broken file](docs/missing.md)
                [broken anchor](docs/a.md#no-such-section)
                """);
        Files.writeString(docs.resolve("a.md"), "## A section\n[up](../README.md#top)\n");
        List<String> broken = brokenLinks(dir, List.of(dir.resolve("README.md"), docs.resolve("a.md")));
        assertThat(broken).containsExactly("README.md:7: docs/missing.md", "README.md:8: docs/a.md#no-such-section");
    }
}
