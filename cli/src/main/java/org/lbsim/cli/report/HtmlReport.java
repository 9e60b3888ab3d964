package org.lbsim.cli.report;

import static org.lbsim.cli.report.Html.esc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.lbsim.cli.plot.Charts;
import org.lbsim.cli.plot.Figure;
import org.lbsim.cli.plot.Grouped;
import org.lbsim.cli.plot.Labels;
import org.lbsim.cli.plot.ResultsReader;
import org.lbsim.cli.plot.Stats;
import org.lbsim.metrics.TimeSeries;

/**
 * One self-contained HTML page: inline CSS, figures as inline SVG, no script, no fetch of anything
 * (a Content-Security-Policy forbids it, so a mistake shows up as a console error rather than a
 * silent request). Same input, same bytes: nothing depends on the clock or the machine.
 * Interactive pages ({@link InteractiveFigures}) add uPlot and a script that draws each figure again
 * from its CSV (embedded in the page); the policy then allows those two inline scripts by hash only.
 */
public final class HtmlReport {
    /** Single runs of a database shown in full (each with its figures); the others only in the table. */
    static final int MAX_RUN_SECTIONS = 12;
    private static final String SCHEME = "loadBalancing.type";
    /** The point's name as the sweep gives it ({@code points: - {name: "SWITCH PKT, per-class pointers", ...}}). */
    private static final String NAME = "scenario_name";
    private static final String MESSAGE = "workload.messageBytes";
    private static final String BUFFER = "switches.buffer.bytesPerPort";
    /** Combinations of the other varying fields that get an FCT CDF overlay of the schemes. */
    static final int MAX_OVERLAYS = 4;

    private static final String CSS = """
            :root{--line:#dde2e8;--muted:#5b6673}
            *{box-sizing:border-box}
            body{margin:0;background:#f5f6f8;color:#1c232b;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
            main{max-width:1180px;margin:0 auto;padding:20px 24px 40px}
            header{border-bottom:3px solid #0072b2;margin-bottom:8px;padding-bottom:10px}
            h1{font-size:26px;margin:0 0 4px}
            h2{font-size:20px;margin:34px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}
            h3{font-size:17px;margin:22px 0 8px}
            .sub{color:var(--muted);margin:0}
            nav ul{margin:6px 0 0;padding-left:20px}
            .kpis{display:flex;flex-wrap:wrap;gap:10px;margin:14px 0}
            .kpi{background:#fff;border:1px solid var(--line);border-radius:6px;padding:8px 14px;min-width:150px}
            .kpi span{display:block;color:var(--muted);font-size:13px}
            .kpi b{font-size:21px;font-variant-numeric:tabular-nums}
            .tables{display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start}
            .scroll{overflow-x:auto;max-width:100%}
            table{border-collapse:collapse;background:#fff;font-variant-numeric:tabular-nums;font-size:13.5px}
            caption{text-align:left;font-weight:600;padding:0 0 4px}
            th,td{border:1px solid var(--line);padding:3px 8px;text-align:right;white-space:nowrap}
            th{background:#eef1f5;font-weight:600;white-space:normal;vertical-align:bottom}
            td:first-child,th:first-child{text-align:left}
            .preface table{max-width:100%}
            .preface th,.preface td{white-space:normal;text-align:left;vertical-align:top}
            .figs{display:grid;grid-template-columns:repeat(auto-fill,minmax(540px,1fr));gap:14px}
            figure{margin:0;background:#fff;border:1px solid var(--line);border-radius:6px;padding:6px}
            figcaption{color:var(--muted);font-size:12.5px;padding:2px 4px}
            figure svg{display:block}
            pre{background:#fff;border:1px solid var(--line);border-radius:6px;padding:10px 12px;overflow:auto;font-size:13px;line-height:1.35;max-height:560px}
            .note{background:#fff8e5;border:1px solid #efd9a0;border-radius:6px;padding:6px 10px;color:#6b4d00;margin:8px 0}
            details{margin:8px 0}
            summary{cursor:pointer;font-weight:600}
            footer{margin-top:36px;color:var(--muted);font-size:13px}
            """;
    /** Interactive pages: the chart replaces the SVG on screen once drawn; the SVG prints. */
    private static final String INTERACTIVE_CSS = """
            .toggle{display:inline-block;margin-top:6px;color:var(--muted);font-size:13.5px}
            figure.live>svg{display:none}
            .chart-caption{display:none;color:var(--muted);font-size:12.5px;font-style:italic;margin:2px 6px}
            figure.live .chart-caption{display:block}
            body.static-figures figure.live .chart-caption{display:none}
            .chart .uplot{width:100%}
            .chart .u-title{font-size:15px}
            .chart .u-legend{font-size:12.5px}
            body.static-figures figure.live>svg{display:block}
            body.static-figures figure.live .chart{display:none}
            @media print{figure.live>svg{display:block!important}figure.live .chart,figure.live .chart-caption,.toggle{display:none!important}}
            """;

    private final StringBuilder body = new StringBuilder();
    private final List<String[]> toc = new ArrayList<>();
    private final Map<String, Figure> drawn = new LinkedHashMap<>();
    /** Folder (relative to the page) the figures' SVG and CSV files are written to; null: none written. */
    private final String figuresDir;
    /** Whether figures are also drawn interactively (uPlot, from their CSV). */
    private final boolean interactive;
    private int figures;

    private HtmlReport(String figuresDir, boolean interactive) {
        this.figuresDir = figuresDir;
        this.interactive = interactive;
    }

    /** A page and its figures by file stem ({@code fig-3-fct-cdf}), to be written into the page's figure folder. */
    public record Page(String html, Map<String, Figure> figures) {
        /** Writes each figure as SVG and its data as CSV into {@code dir}. */
        public void writeFigures(java.nio.file.Path dir) throws java.io.IOException {
            java.nio.file.Files.createDirectories(dir);
            for (Map.Entry<String, Figure> e : figures.entrySet()) {
                java.nio.file.Files.writeString(dir.resolve(e.getKey() + ".svg"), e.getValue().svg(), java.nio.charset.StandardCharsets.UTF_8);
                java.nio.file.Files.writeString(dir.resolve(e.getKey() + ".csv"), e.getValue().csv(), java.nio.charset.StandardCharsets.UTF_8);
            }
        }
    }

    /** The report of one run. */
    public static String forRun(RunData run, String generator) {
        return runPage(run, generator, null).html();
    }

    /** The report of one run, each figure's caption linking to its SVG and CSV in {@code figuresDir} (relative to the page). */
    public static Page runPage(RunData run, String generator, String figuresDir) {
        return runPage(run, generator, figuresDir, false);
    }

    /** As {@link #runPage(RunData, String, String)}; {@code interactive}: zoom and hover on every figure (uPlot inlined). */
    public static Page runPage(RunData run, String generator, String figuresDir, boolean interactive) {
        HtmlReport r = new HtmlReport(figuresDir, interactive);
        r.run(run, "", true);
        return new Page(r.page("lbsim report: " + run.title(), subtitle(run), generator), r.drawn);
    }

    /** The report of a results database: one section per sweep, then the single runs. */
    public static String forDatabase(ResultsReader db, String title, String generator) {
        return forDatabase(db, title, generator, "");
    }

    /**
     * The report of a results database with a preface in markdown before the sweeps: a
     * reproduction's paper statements, our tables and the verdicts ("" for none).
     */
    public static String forDatabase(ResultsReader db, String title, String generator, String prefaceMarkdown) {
        return databasePage(db, title, generator, prefaceMarkdown, null).html();
    }

    /**
     * As {@link #forDatabase(ResultsReader, String, String, String)}, each figure's caption linking
     * to its SVG and CSV in {@code figuresDir} (relative to the page; null: no links).
     */
    public static Page databasePage(ResultsReader db, String title, String generator, String prefaceMarkdown, String figuresDir) {
        return databasePage(db, title, generator, prefaceMarkdown, figuresDir, false);
    }

    /** As {@link #databasePage(ResultsReader, String, String, String, String)}; {@code interactive}: zoom and hover (uPlot inlined). */
    public static Page databasePage(ResultsReader db, String title, String generator, String prefaceMarkdown, String figuresDir,
                                    boolean interactive) {
        HtmlReport r = new HtmlReport(figuresDir, interactive);
        if (!prefaceMarkdown.isBlank()) {
            r.section("h2", "paper", "The paper and lbsim", true);
            r.body.append("<div class=\"preface\">\n").append(Markdown.toHtml(prefaceMarkdown)).append("</div>\n");
        }
        List<String> sweeps = db.sweeps();
        int total = 0;
        for (String sweep : sweeps) {
            List<Map<String, Object>> rows = sweep == null ? db.viewRows("v.sweep IS NULL") : db.viewRows("v.sweep = ?", sweep);
            total += rows.size();
            if (sweep == null) {
                r.singleRuns(db, rows, sweeps.size() == 1 && rows.size() == 1);
            } else {
                r.sweep(db, sweep, rows);
            }
        }
        if (total == 0) {
            r.body.append("<p class=\"note\">The database holds no runs yet.</p>\n");
        }
        long named = sweeps.stream().filter(Objects::nonNull).count();
        String sub = total + (total == 1 ? " run" : " runs") + (named > 0 ? " in " + named + (named == 1 ? " sweep" : " sweeps") : "")
                + (sweeps.contains(null) ? (named > 0 ? " and " : ", ") + "single runs" : "");
        return new Page(r.page("lbsim report: " + title, esc(sub), generator), r.drawn);
    }

    private String page(String title, String subtitle, String generator) {
        boolean live = interactive && figures > 0;
        InteractiveFigures js = live ? InteractiveFigures.get() : null;
        StringBuilder p = new StringBuilder(body.length() + (live ? 80_000 : 4096));
        p.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:")
                .append(live ? "; " + js.scriptSrc() : "").append("\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<meta name=\"generator\" content=\"").append(esc(generator)).append("\">\n")
                .append("<title>").append(esc(title)).append("</title>\n<style>\n").append(CSS);
        if (live) {
            p.append(js.libraryCss).append('\n').append(INTERACTIVE_CSS);
        }
        p.append("</style>\n</head>\n<body>\n<main>\n")
                .append("<header>\n<h1>").append(esc(title)).append("</h1>\n<p class=\"sub\">").append(subtitle).append("</p>\n");
        if (live) {
            p.append("<label class=\"toggle\"><input type=\"checkbox\" id=\"interactive-toggle\" checked> interactive figures (uPlot ")
                    .append(esc(js.version)).append("): drag to zoom, double-click to reset, hover for values, click a legend entry to hide it;")
                    .append(" unticked: the static figures, as printed</label>\n");
        }
        if (toc.size() > 1) {
            p.append("<nav><ul>\n");
            for (String[] t : toc) {
                p.append("<li><a href=\"#").append(t[0]).append("\">").append(esc(t[1])).append("</a></li>\n");
            }
            p.append("</ul></nav>\n");
        }
        p.append("</header>\n").append(body)
                .append("<footer>Written by ").append(esc(generator)).append(". Sweep figures: mean over the runs (seeds) of a point; its whisker, as each caption says: the 95 % confidence interval of the mean")
                .append(" (Student t) from ").append(Stats.MIN_INTERVAL_RUNS).append(" runs on, the runs' range (min\u2013max) below, none for one run;")
                .append(" never beyond what the quantity can take.")
                .append(" Times in \u00b5s, queues in KB (1000 bytes); drops, retransmissions and queues in sweep tables are means over the runs.</footer>\n</main>\n");
        if (live) {
            p.append("<script>").append(js.library).append("</script>\n<script>").append(js.figuresJs).append("</script>\n");
        }
        p.append("</body>\n</html>\n");
        return p.toString();
    }

    private static String subtitle(RunData run) {
        List<String> parts = new ArrayList<>();
        Object name = run.summary().get("scenario_name");
        parts.add("scenario <b>" + esc(name == null ? "?" : name) + "</b>, seed " + esc(run.summary().get("seed")));
        String scheme = scheme(run);
        if (!scheme.isEmpty()) {
            parts.add(esc(scheme));
        }
        Object topo = run.scenarioField("topology.type");
        Object work = run.scenarioField("workload.type");
        if (topo != null || work != null) {
            parts.add(esc(Objects.toString(topo, "?") + " fabric, " + run.summary().get("hosts") + " hosts, " + Objects.toString(work, "?") + " workload"));
        }
        Object version = run.meta().get("lbsim_version");
        Object commit = run.meta().get("git_commit");
        if (version != null) {
            String c = commit == null ? "" : String.valueOf(commit);
            parts.add("lbsim " + esc(version) + (c.isEmpty() ? "" : " (" + esc(c.substring(0, Math.min(12, c.length()))) + ")"));
        }
        return String.join(" \u00b7 ", parts);
    }

    private static String scheme(RunData run) {
        List<String> s = new ArrayList<>();
        for (String f : List.of("loadBalancing.type", "congestionControl.type", "lossRecovery.type")) {
            Object v = run.scenarioField(f);
            if (v != null) {
                s.add(String.valueOf(v));
            }
        }
        return String.join(" / ", s);
    }

    /** One run: key figures, tables, plots, scenario. {@code top}: the page is about this run (h2 sections). */
    private void run(RunData run, String idPrefix, boolean top) {
        String h = top ? "h2" : "h3";
        Map<String, Object> s = run.summary();
        body.append("<div class=\"kpis\">\n");
        kpi("CCT", Html.ps(s.get("cct_ps")));
        kpi("lower bound", Html.ps(s.get("lower_bound_ps")));
        kpi("CCT increase", Html.pct(s.get("cct_increase_pct")));
        kpi("flows finished", Html.num(s.get("flows_finished")) + " / " + Html.num(s.get("flows")));
        kpi("drops", Html.num(run.counters().get("dropped") != null ? run.counters().get("dropped") : run.counters().get("drops")));
        kpi("retransmissions", Html.num(run.counters().get("retransmissions")));
        body.append("</div>\n");
        for (String n : run.notes()) {
            body.append("<p class=\"note\">").append(esc(n)).append("</p>\n");
        }

        section(h, idPrefix + "summary", "Summary", top);
        body.append("<div class=\"tables\">\n");
        StringBuilder t = new StringBuilder("<table><caption>Run</caption>\n");
        for (Map.Entry<String, Object> e : s.entrySet()) {
            Html.row(t, List.of(Html.header(e.getKey()), cellByName(e.getKey(), e.getValue())), false);
        }
        body.append(t).append("</table>\n");
        t = new StringBuilder("<table><caption>Counters</caption>\n");
        for (Map.Entry<String, Object> e : run.counters().entrySet()) {
            Html.row(t, List.of(Html.header(e.getKey()), cellByName(e.getKey(), e.getValue())), false);
        }
        body.append(t).append("</table>\n");
        if (!run.outOfOrder().isEmpty()) {
            t = new StringBuilder("<table><caption>Reordering at the receivers</caption>\n");
            for (Map.Entry<String, Object> e : run.outOfOrder().entrySet()) {
                Html.row(t, List.of(Html.header(e.getKey()), Html.num(e.getValue())), false);
            }
            body.append(t).append("</table>\n");
        }
        body.append("</div>\n");

        if (!run.jobs().isEmpty()) {
            // PRO V: JCT slowdown against the idle-fabric critical path; NCCL-tests algbw / busbw in GB/s
            section(h, idPrefix + "jobs", "Jobs", top);
            StringBuilder jt = new StringBuilder("<div class=\"scroll\"><table>\n");
            Html.row(jt, RunData.JOB_COLUMNS.stream().map(Html::header).toList(), true);
            for (Map<String, Object> j : run.jobs()) {
                Html.row(jt, RunData.JOB_COLUMNS.stream().map(c -> cellByName(c, j.get(c))).toList(), false);
            }
            body.append(jt).append("</table></div>\n");
        }

        section(h, idPrefix + "layers", "Queues and drops per layer", top);
        if (run.layers().isEmpty()) {
            body.append("<p class=\"note\">No per-layer statistics.</p>\n");
        } else {
            Set<String> cols = new LinkedHashSet<>();
            run.layers().forEach(l -> cols.addAll(l.keySet()));
            StringBuilder lt = new StringBuilder("<div class=\"scroll\"><table>\n");
            Html.row(lt, cols.stream().map(Html::header).toList(), true);
            for (Map<String, Object> l : run.layers()) {
                Html.row(lt, cols.stream().map(c -> cellByName(c, l.get(c))).toList(), false);
            }
            body.append(lt).append("</table></div>\n");
        }

        section(h, idPrefix + "figures", "Figures", top);
        RunFigures.Result f = RunFigures.of(run);
        figures(f.figures());
        for (String m : f.missing()) {
            body.append("<p class=\"note\">Not drawn: ").append(esc(m)).append("</p>\n");
        }
        for (String n : f.notes()) {
            body.append("<p class=\"sub\">").append(esc(n)).append("</p>\n");
        }

        section(h, idPrefix + "scenario", "Scenario", top);
        body.append("<pre>").append(esc(run.scenarioYaml().isEmpty() ? "(not available)" : run.scenarioYaml())).append("</pre>\n");
    }

    private static String cellByName(String column, Object v) {
        return Html.cell(column, v);
    }

    private void kpi(String label, String value) {
        body.append("<div class=\"kpi\"><span>").append(esc(label)).append("</span><b>").append(value).append("</b></div>\n");
    }

    private void section(String h, String id, String title, boolean inToc) {
        body.append('<').append(h).append(" id=\"").append(esc(id)).append("\">").append(esc(title)).append("</").append(h).append(">\n");
        if (inToc) {
            toc.add(new String[] {esc(id), title});
        }
    }

    private void figures(List<Figure> list) {
        if (list.isEmpty()) {
            return;
        }
        body.append("<div class=\"figs\">\n");
        for (Figure f : list) {
            figures++;
            String stem = "fig-" + figures + "-" + f.name();
            drawn.put(stem, f);
            body.append("<figure id=\"fig-").append(figures).append("\" data-name=\"").append(esc(f.name())).append('"');
            if (interactive) {
                body.append(" data-chart=\"").append(esc(InteractiveFigures.specJson(f))).append('"');
            }
            body.append('>').append(f.svgElement("f" + figures + "-"));
            if (interactive) {
                // the same CSV as the figure folder's fig-N-NAME.csv; figures.js draws it
                body.append("<div class=\"chart\"></div>");
                if (!f.caption().isEmpty()) {
                    body.append("<p class=\"chart-caption\">").append(esc(f.caption())).append("</p>"); // the SVG draws it inside
                }
                body.append("<pre class=\"figure-csv\" hidden>").append(esc(f.csv())).append("</pre>");
            }
            List<String> cap = new ArrayList<>(); // the figure draws its own caption (what the bars are)
            if (figuresDir != null) {
                String base = esc(figuresDir + "/" + stem);
                cap.add("<a href=\"" + base + ".csv\">data (CSV)</a> \u00b7 <a href=\"" + base + ".svg\">SVG</a>");
            }
            if (!cap.isEmpty()) {
                body.append("<figcaption>").append(String.join(" ", cap)).append("</figcaption>");
            }
            body.append("</figure>\n");
        }
        body.append("</div>\n");
    }

    private static String str(Object o) {
        return ResultsReader.format(o);
    }

    /**
     * The dimensions of a sweep: scenario fields (dotted columns) whose value differs between the
     * runs, the scheme first (the points' names instead where the sweep names its points and each
     * name is one scheme), leaving out those that follow from one already chosen (the
     * parameters of a scheme vary with the scheme: {@code loadBalancing.weighted} is set for OFAN only).
     */
    static List<String> varyingFields(List<Map<String, Object>> rows) {
        List<String> varying = new ArrayList<>();
        if (rows.isEmpty()) {
            return varying;
        }
        for (String col : rows.get(0).keySet()) {
            if (!col.contains(".")) {
                continue;
            }
            Set<String> values = new LinkedHashSet<>();
            for (Map<String, Object> r : rows) {
                values.add(str(r.get(col)));
            }
            if (values.size() > 1) {
                varying.add(col);
            }
        }
        if (varying.remove(SCHEME)) {
            varying.add(0, SCHEME);
        }
        // a sweep that names its points: series and rows by those names, which say more than the fields they set
        Set<String> names = new LinkedHashSet<>();
        rows.forEach(r -> names.add(str(r.get(NAME))));
        if (names.size() > 1 && rows.get(0).containsKey(NAME) && (!varying.contains(SCHEME) || determines(rows, NAME, SCHEME))) {
            varying.remove(SCHEME);
            varying.add(0, NAME);
        }
        List<String> out = new ArrayList<>();
        for (String f : varying) {
            // a number the names happen to fix (a message size) stays: it is an axis of the figures
            if (out.stream().filter(g -> !(g.equals(NAME) && numeric(rows, f))).noneMatch(g -> determines(rows, g, f))) {
                out.add(f);
            }
        }
        return out;
    }

    /** Whether every value of {@code g} comes with a single value of {@code f}. */
    private static boolean determines(List<Map<String, Object>> rows, String g, String f) {
        Map<String, String> seen = new LinkedHashMap<>();
        for (Map<String, Object> r : rows) {
            String prev = seen.putIfAbsent(str(r.get(g)), str(r.get(f)));
            if (prev != null && !prev.equals(str(r.get(f)))) {
                return false;
            }
        }
        return true;
    }

    private static boolean numeric(List<Map<String, Object>> rows, String col) {
        return rows.stream().allMatch(r -> r.get(col) instanceof Number);
    }

    private static String label(Map<String, Object> row, List<String> cols) {
        List<String> parts = new ArrayList<>();
        for (String c : cols) {
            parts.add(Labels.value(c, row.get(c)));
        }
        return String.join(" / ", parts);
    }

    private void sweep(ResultsReader db, String sweep, List<Map<String, Object>> rows) {
        String id = "sweep-" + Html.id(sweep);
        section("h2", id, "Sweep " + sweep, true);
        List<String> varying = varyingFields(rows);
        Set<Object> seeds = new LinkedHashSet<>();
        rows.forEach(r -> seeds.add(r.get("seed")));
        body.append("<p class=\"sub\">").append(rows.size()).append(rows.size() == 1 ? " run" : " runs").append(", ")
                .append(seeds.size()).append(seeds.size() == 1 ? " seed" : " seeds")
                .append(varying.isEmpty() ? "; no scenario field varies" : "; varying: " + esc(String.join(", ", varying))).append("</p>\n");
        figures(sweepFigures(sweep, rows, varying));
        List<String> notDrawn = new ArrayList<>();
        figures(overlayFigures(db, rows, varying, notDrawn));
        for (String m : notDrawn) {
            body.append("<p class=\"note\">Not drawn: ").append(esc(m)).append("</p>\n");
        }
        sweepTable(rows, varying);
        Object yaml = rows.get(0).get("scenario_yaml");
        if (yaml != null) {
            body.append("<details><summary>Scenario of the first run (").append(esc(rows.get(0).get("run_id"))).append(")</summary><pre>")
                    .append(esc(yaml)).append("</pre></details>\n");
        }
    }

    /** The per-scheme CCT-increase figure and, when the message size varies, max queue against message size. */
    static List<Figure> sweepFigures(String sweep, List<Map<String, Object>> rows, List<String> varying) {
        List<Figure> out = new ArrayList<>();
        String scheme = schemeColumn(varying);
        boolean hasScheme = !rows.isEmpty() && rows.get(0).containsKey(scheme);
        List<String> others = varying.stream().filter(v -> !v.equals(scheme)).toList();
        String x;
        List<String> by;
        if (others.size() == 1 && numeric(rows, others.get(0)) && hasScheme) {
            x = others.get(0);
            by = List.of(scheme);
        } else if (hasScheme) {
            x = scheme;
            by = others;
        } else if (!varying.isEmpty()) {
            x = varying.get(0);
            by = varying.subList(1, varying.size());
        } else {
            x = "scenario_name";
            by = List.of();
        }
        List<Grouped.Row> cct = new ArrayList<>();
        for (Map<String, Object> r : rows) {
            if (r.get("cct_increase_pct") instanceof Number n) {
                cct.add(new Grouped.Row(r.get(x), label(r, by), n.doubleValue()));
            }
        }
        // a few sizes (or other numbers) read best as groups of bars, as the papers draw them
        boolean few = cct.stream().map(Grouped.Row::x).distinct().count() <= 4;
        Grouped g = Grouped.ofColumn(x, "CCT increase over the lower bound (%)", cct, few);
        boolean logX = g.numericX() && spansDecades(cct);
        // a CCT is never below its lower bound: no interval reaches below an increase of 0
        Figure f = Charts.grouped("cct-increase", g, Charts.GroupedOptions.of(sweep + ": CCT increase over the lower bound")
                .withLog(logX, null).withFloor(0).withSize(Charts.Size.REPORT.width(), Charts.Size.REPORT.height()));
        if (f != null) {
            out.add(f);
        }
        if (varying.contains(MESSAGE) && !rows.isEmpty() && rows.get(0).containsKey("max_queue_bytes")) {
            List<String> groups = varying.stream().filter(v -> !v.equals(MESSAGE)).toList();
            List<Grouped.Row> q = new ArrayList<>();
            for (Map<String, Object> r : rows) {
                if (r.get("max_queue_bytes") instanceof Number n && r.get(MESSAGE) instanceof Number) {
                    q.add(new Grouped.Row(r.get(MESSAGE), label(r, groups), n.doubleValue() / 1e3));
                }
            }
            // a power law only through enough sizes to say something: with fewer no fit is drawn, nor named in the legend
            boolean fit = q.stream().map(Grouped.Row::x).distinct().count() >= Charts.MIN_FIT_POINTS;
            Charts.GroupedOptions qo = Charts.GroupedOptions.of(sweep + ": largest queue vs message size").withLog(true, true).withFit(fit)
                    .withFloor(0).withSize(Charts.Size.REPORT.width(), Charts.Size.REPORT.height());
            Set<Object> buffers = new LinkedHashSet<>();
            rows.forEach(r -> buffers.add(r.get(BUFFER)));
            if (buffers.size() == 1 && buffers.iterator().next() instanceof Number b && b.doubleValue() > 0) {
                qo = qo.withCap(b.doubleValue() / 1e3, "buffer cap (" + Labels.number(b.doubleValue() / 1e3) + " KB per port)");
            }
            Figure fq = Charts.grouped("max-queue-vs-message", Grouped.ofColumn(MESSAGE, "largest switch queue (KB)", q, false), qo);
            if (fq != null) {
                out.add(fq);
            }
        }
        return out;
    }

    /**
     * The schemes overlaid: for each combination of the other varying fields (at most
     * {@link #MAX_OVERLAYS}), one FCT CDF with a curve per scheme (the flows of all its seeds); for
     * the first combination and the first seed, the queue series of each layer with a line per
     * scheme. Why a figure is missing goes to {@code notDrawn}.
     */
    static List<Figure> overlayFigures(ResultsReader db, List<Map<String, Object>> rows, List<String> varying, List<String> notDrawn) {
        List<Figure> out = new ArrayList<>();
        String scheme = schemeColumn(varying);
        if (rows.isEmpty() || !varying.contains(scheme)) {
            return out;
        }
        List<String> others = varying.stream().filter(v -> !v.equals(scheme)).toList();
        Map<String, List<Map<String, Object>>> combos = new LinkedHashMap<>();
        for (Map<String, Object> r : rows) {
            combos.computeIfAbsent(label(r, others), k -> new ArrayList<>()).add(r);
        }
        if (combos.size() > MAX_OVERLAYS) {
            notDrawn.add("FCT CDFs for " + (combos.size() - MAX_OVERLAYS) + " of " + combos.size() + " settings (only the first "
                    + MAX_OVERLAYS + " are overlaid; 'lbsim plot' or 'lbsim query' show the others)");
        }
        int shown = 0;
        boolean anyFct = false;
        for (Map.Entry<String, List<Map<String, Object>>> combo : combos.entrySet()) {
            if (shown++ == MAX_OVERLAYS) {
                break;
            }
            Map<String, List<Double>> fct = new LinkedHashMap<>();
            for (Map<String, Object> r : combo.getValue()) {
                List<Double> v = fct.computeIfAbsent(Labels.value(scheme, r.get(scheme)), k -> new ArrayList<>());
                if (!db.hasTable("flows")) {
                    continue;
                }
                for (Map<String, Object> f : db.query("SELECT fct_ps FROM flows WHERE run_id = ? AND fct_ps >= 0", r.get("run_id"))) {
                    v.add(((Number) f.get("fct_ps")).doubleValue() / 1e6);
                }
            }
            Map<String, double[]> samples = new LinkedHashMap<>();
            fct.forEach((k, v) -> samples.put(k, v.stream().mapToDouble(Double::doubleValue).toArray()));
            String where = combo.getKey().isEmpty() ? "" : " (" + combo.getKey() + ")";
            Figure f = Charts.cdf("fct-cdf-by-scheme", "Flow completion time by scheme" + where, "FCT (\u00b5s)", samples, true, Charts.Size.REPORT);
            if (f != null) {
                out.add(f);
                anyFct = true;
            }
        }
        if (!anyFct) {
            notDrawn.add("FCT CDFs by scheme: no flow finished (or the database has no flows table)");
        }
        List<Map<String, Object>> first = combos.values().iterator().next();
        Object seed = first.get(0).get("seed");
        Map<String, List<TimeSeries>> byLayer = new LinkedHashMap<>();
        for (Map<String, Object> r : first) {
            if (!Objects.equals(r.get("seed"), seed)) {
                continue;
            }
            String name = Labels.value(scheme, r.get(scheme));
            for (TimeSeries t : db.series(String.valueOf(r.get("run_id")))) {
                if (t.name().startsWith("queue.max ")) {
                    String layer = t.name().substring("queue.max ".length());
                    byLayer.computeIfAbsent(layer, k -> new ArrayList<>()).add(new TimeSeries(name, t.unit(), t.timesPs(), t.values()));
                }
            }
        }
        if (byLayer.isEmpty()) {
            notDrawn.add("queue series by scheme: the runs sampled no queue series (metrics.sampleIntervalUs: 0)");
        }
        String at = (first.isEmpty() || label(first.get(0), others).isEmpty() ? "" : label(first.get(0), others) + ", ") + "seed " + Labels.value("seed", seed);
        for (Map.Entry<String, List<TimeSeries>> e : byLayer.entrySet()) {
            Figure f = Charts.timeSeries("queue-series-" + Html.id(e.getKey()), "Largest queue at layer " + e.getKey() + " by scheme (" + at + ")",
                    "queue (KB)", e.getValue(), 1e-3, n -> n, Charts.Size.REPORT);
            if (f != null) {
                out.add(f);
            }
        }
        return out;
    }

    /** The column that names the schemes of a sweep: the points' names where the sweep gives them, else the load-balancing type. */
    private static String schemeColumn(List<String> varying) {
        return varying.contains(NAME) ? NAME : SCHEME;
    }

    private static boolean spansDecades(List<Grouped.Row> rows) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (Grouped.Row r : rows) {
            double v = ((Number) r.x()).doubleValue();
            if (v <= 0) {
                return false;
            }
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        return hi / lo >= 20;
    }

    private void sweepTable(List<Map<String, Object>> rows, List<String> varying) {
        StringBuilder t = new StringBuilder("<div class=\"scroll\"><table>\n");
        List<List<String>> cells = sweepTableCells(rows, varying);
        for (int i = 0; i < cells.size(); i++) {
            Html.row(t, cells.get(i), i == 0);
        }
        body.append(t).append("</table></div>\n");
        body.append("<p class=\"sub\">n: runs (seeds) behind a row; the other columns are means over them. CCT increase interval: with ")
                .append(Stats.MIN_INTERVAL_RUNS).append(" or more runs the 95 % confidence interval of the mean (Student t, n \u2212 1 degrees")
                .append(" of freedom), cut at 0 (a CCT is never below its lower bound); with fewer, the smallest and the largest run (min\u2013max),")
                .append(" no confidence interval; with one, none.</p>\n");
    }

    /**
     * The summary table of a sweep, its header first (cells as HTML): a row per point of the sweep ({@code runs.point}), its
     * seeds the runs behind it, never two points in one row. A row is labelled by the varying fields; where two points
     * read the same in them (a field that differs is not among them, or two values print alike), a first column names
     * each row's point as the sweep numbers its points ({@code point 1}, the {@code -p1-} of its run ids).
     */
    static List<List<String>> sweepTableCells(List<Map<String, Object>> rows, List<String> varying) {
        List<String> keys = varying.isEmpty() ? List.of("scenario_name") : varying;
        Map<Object, List<Map<String, Object>>> points = new LinkedHashMap<>();
        for (Map<String, Object> r : rows) {
            // runs recorded outside a sweep's points have no point: grouped by what the table shows of them
            Object point = r.get("point");
            points.computeIfAbsent(point != null ? List.of("point", point) : List.of("label", label(r, keys)), k -> new ArrayList<>()).add(r);
        }
        Set<String> labels = new LinkedHashSet<>();
        boolean samePoints = false;
        for (List<Map<String, Object>> point : points.values()) {
            samePoints |= !labels.add(label(point.get(0), keys));
        }
        List<List<String>> out = new ArrayList<>();
        List<String> head = new ArrayList<>();
        if (samePoints) {
            head.add("point");
        }
        keys.forEach(k -> head.add(esc(Labels.title(k))));
        head.addAll(List.of("n (runs)", "finished", "CCT (\u00b5s)", "lower bound (\u00b5s)", "CCT increase (%): mean [interval]", "drops",
                "retransmissions", "max queue (KB)"));
        out.add(head);
        for (List<Map<String, Object>> point : points.values()) {
            List<String> cells = new ArrayList<>();
            if (samePoints) {
                Object p = point.get(0).get("point");
                cells.add(p == null ? "\u2013" : "point " + esc(p));
            }
            keys.forEach(k -> cells.add(esc(Labels.value(k, point.get(0).get(k)))));
            cells.add(String.valueOf(point.size()));
            long finished = point.stream().filter(r -> r.get("cct_ps") instanceof Number n && n.longValue() >= 0).count();
            cells.add(finished + " / " + point.size());
            Stats.Summary cct = summary(point, "cct_ps", true);
            cells.add(cct == null ? "\u2013" : Html.cell("cct_ps", cct.mean()));
            Stats.Summary bound = summary(point, "lower_bound_ps", true);
            cells.add(bound == null ? "\u2013" : Html.cell("lower_bound_ps", bound.mean()));
            Stats.Summary inc = summary(point, "cct_increase_pct", false);
            cells.add(inc == null ? "\u2013" : increaseCell(inc));
            Stats.Summary drops = summary(point, "drops", false);
            cells.add(drops == null ? "\u2013" : Html.num(drops.mean()));
            Stats.Summary rtx = summary(point, "retransmissions", false);
            cells.add(rtx == null ? "\u2013" : Html.num(rtx.mean()));
            Stats.Summary q = summary(point, "max_queue_bytes", false);
            cells.add(q == null ? "\u2013" : Html.cell("max_queue_bytes", q.mean()));
            out.add(cells);
        }
        return out;
    }

    /** A CCT increase: the mean, and its interval named (95 % CI from three runs on, the runs' range below, none for one run). */
    static String increaseCell(Stats.Summary inc) {
        Stats.Interval i = Stats.interval(inc, Stats.IntervalKind.T95, 0, Double.NaN);
        String mean = String.format(Locale.ROOT, "%+.2f", inc.mean());
        return switch (i.kind()) {
            case NONE -> mean;
            case RANGE -> String.format(Locale.ROOT, "%s [%+.2f, %+.2f] min\u2013max", mean, i.low(), i.high());
            default -> String.format(Locale.ROOT, "%s [%+.2f, %+.2f] 95 %% CI", mean, i.low(), i.high());
        };
    }

    private static Stats.Summary summary(List<Map<String, Object>> rows, String col, boolean nonNegative) {
        double[] v = rows.stream().map(r -> r.get(col)).filter(o -> o instanceof Number).mapToDouble(o -> ((Number) o).doubleValue())
                .filter(d -> !Double.isNaN(d) && (!nonNegative || d >= 0)).toArray();
        return v.length == 0 ? null : Stats.Summary.of(v);
    }

    /** @param open whether the runs' sections start unfolded (the database holds this one run only) */
    private void singleRuns(ResultsReader db, List<Map<String, Object>> rows, boolean open) {
        section("h2", "single-runs", "Single runs", true);
        StringBuilder t = new StringBuilder("<div class=\"scroll\"><table>\n");
        Html.row(t, List.of("run", "scenario", "scheme", "seed", "CCT", "lower bound", "CCT increase", "drops", "retransmissions", "max queue"), true);
        for (Map<String, Object> r : rows) {
            Html.row(t, List.of(esc(r.get("run_id")), esc(str(r.get("scenario_name"))), esc(str(r.get(SCHEME))), Html.num(r.get("seed")),
                    Html.ps(r.get("cct_ps")), Html.ps(r.get("lower_bound_ps")), Html.pct(r.get("cct_increase_pct")), Html.num(r.get("drops")),
                    Html.num(r.get("retransmissions")), Html.kb(r.get("max_queue_bytes"))), false);
        }
        body.append(t).append("</table></div>\n");
        int shown = 0;
        for (Map<String, Object> r : rows) {
            if (shown++ == MAX_RUN_SECTIONS) {
                body.append("<p class=\"note\">").append(rows.size() - MAX_RUN_SECTIONS)
                        .append(" more single runs are only in the table; 'lbsim report' on a run folder shows one in full.</p>\n");
                break;
            }
            RunData run = RunData.fromDatabase(db, r);
            body.append("<details").append(open ? " open" : "").append("><summary>Run ").append(esc(run.title())).append(" \u2014 ")
                    .append(subtitle(run)).append("</summary>\n");
            run(run, "run-" + shown + "-", false);
            body.append("</details>\n");
        }
    }
}
