package org.lbsim.cli.plot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Runs grouped for a figure: one series per group ({@code --by}), one point per x value, the
 * y values of the runs that share both (usually one per seed) summarised by {@link Stats.Summary}.
 * Numeric x values (every x a number) make a numeric axis sorted by value; otherwise x values are
 * categories in the order they first appear.
 */
public final class Grouped {
    /** One run's coordinates. {@code group} is "" when there is no grouping. */
    public record Row(Object x, String group, double y) {
    }

    /** The runs at one x of one group. */
    public record Cell(Object x, double xValue, Stats.Summary y, double[] values) {
    }

    private final String xTitle;
    private final String yTitle;
    private final boolean numericX;
    private final List<Object> categories;
    private final Map<String, List<Cell>> groups;

    private Grouped(String xTitle, String yTitle, boolean numericX, List<Object> categories, Map<String, List<Cell>> groups) {
        this.xTitle = xTitle;
        this.yTitle = yTitle;
        this.numericX = numericX;
        this.categories = categories;
        this.groups = groups;
    }

    /** Rows with a NaN y are left out; null x values become the category "null". */
    public static Grouped of(String xTitle, String yTitle, List<Row> rows) {
        boolean numeric = !rows.isEmpty() && rows.stream().allMatch(r -> r.x() instanceof Number);
        List<Object> categories = new ArrayList<>();
        Map<String, Map<Object, List<Double>>> byGroup = new LinkedHashMap<>();
        for (Row r : rows) {
            if (Double.isNaN(r.y())) {
                continue;
            }
            Object x = numeric ? (Object) ((Number) r.x()).doubleValue() : String.valueOf(r.x());
            if (!numeric && !categories.contains(x)) {
                categories.add(x);
            }
            byGroup.computeIfAbsent(Objects.requireNonNullElse(r.group(), ""), g -> new LinkedHashMap<>())
                    .computeIfAbsent(x, k -> new ArrayList<>()).add(r.y());
        }
        Map<String, List<Cell>> groups = new LinkedHashMap<>();
        for (Map.Entry<String, Map<Object, List<Double>>> g : byGroup.entrySet()) {
            List<Cell> cells = new ArrayList<>();
            for (Map.Entry<Object, List<Double>> e : g.getValue().entrySet()) {
                double[] values = e.getValue().stream().mapToDouble(Double::doubleValue).toArray();
                double xv = numeric ? (Double) e.getKey() : categories.indexOf(e.getKey());
                cells.add(new Cell(e.getKey(), xv, Stats.Summary.of(values), values));
            }
            cells.sort(Comparator.comparingDouble(Cell::xValue));
            groups.put(g.getKey(), cells);
        }
        return new Grouped(xTitle, yTitle, numeric, List.copyOf(categories), groups);
    }

    /**
     * Rows whose x is the run column {@code xColumn}, with the axis in human terms (see
     * {@link Labels}): numbers on a numeric axis in the column's unit ("message size (MiB)"),
     * or, with {@code asCategories} or any non-number, categories such as "2 MiB" or "ECMP" (a scheme by its display name)
     * (numbers as categories in increasing order).
     */
    public static Grouped ofColumn(String xColumn, String yTitle, List<Row> rows, boolean asCategories) {
        boolean numbers = !rows.isEmpty() && rows.stream().allMatch(r -> r.x() instanceof Number);
        if (numbers && !asCategories) {
            double max = rows.stream().mapToDouble(r -> Math.abs(((Number) r.x()).doubleValue())).max().orElse(0);
            Labels.Scaled axis = Labels.numericAxis(xColumn, max);
            List<Row> scaled = rows.stream().map(r -> new Row(((Number) r.x()).doubleValue() * axis.factor(), r.group(), r.y())).toList();
            return of(axis.title(), yTitle, scaled);
        }
        List<Row> ordered = numbers ? rows.stream().sorted(Comparator.comparingDouble(r -> ((Number) r.x()).doubleValue())).toList() : rows;
        List<Row> named = ordered.stream().map(r -> new Row(Labels.value(xColumn, r.x()), r.group(), r.y())).toList();
        return of(Labels.title(xColumn), yTitle, named);
    }

    public String xTitle() {
        return xTitle;
    }

    public String yTitle() {
        return yTitle;
    }

    public boolean numericX() {
        return numericX;
    }

    /** The category labels in axis order (empty for a numeric x). */
    public List<Object> categories() {
        return categories;
    }

    /** Group name to its cells sorted by x. */
    public Map<String, List<Cell>> groups() {
        return groups;
    }

    public boolean isEmpty() {
        return groups.isEmpty();
    }

    /** Largest number of runs behind one point. */
    public int maxRunsPerPoint() {
        return groups.values().stream().flatMap(List::stream).mapToInt(c -> c.y().n()).max().orElse(0);
    }

    /** All (x, y) of the individual runs of a group, for fits. */
    public double[][] points(String group) {
        List<Cell> cells = groups.get(group);
        int n = cells.stream().mapToInt(c -> c.values().length).sum();
        double[] x = new double[n];
        double[] y = new double[n];
        int k = 0;
        for (Cell c : cells) {
            for (double v : c.values()) {
                x[k] = c.xValue();
                y[k++] = v;
            }
        }
        return new double[][] {x, y};
    }
}
