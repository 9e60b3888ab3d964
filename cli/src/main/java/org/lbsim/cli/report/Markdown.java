package org.lbsim.cli.report;

import java.util.List;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/** Markdown (with GitHub tables) to HTML for the reports; raw HTML in the text is escaped, links sanitized. */
public final class Markdown {
    private static final List<org.commonmark.Extension> EXTENSIONS = List.of(TablesExtension.create());
    private static final Parser PARSER = Parser.builder().extensions(EXTENSIONS).build();
    private static final HtmlRenderer RENDERER = HtmlRenderer.builder().extensions(EXTENSIONS).escapeHtml(true).sanitizeUrls(true).build();

    private Markdown() {
    }

    public static String toHtml(String markdown) {
        return RENDERER.render(PARSER.parse(markdown));
    }
}
