package org.lbsim.api;

import org.lbsim.scenario.SetException;
import java.util.List;
import java.util.Optional;
import org.lbsim.config.Overrides;

/**
 * A field path of a scenario as {@code --set}, sweeps and {@code --only} write it: keys separated by dots, list
 * elements by index ({@code topology.k}, {@code failures.links[0].a}).
 *
 * @param text     the path as written
 * @param segments its keys (String) and indices (Integer), in order
 */
public record FieldPath(String text, List<Object> segments) {
    public FieldPath {
        segments = List.copyOf(segments);
    }

    /** The path {@code text}, or empty when it is not one. */
    public static Optional<FieldPath> parse(String text) {
        try {
            return Optional.of(new FieldPath(text, Overrides.parse(text + "=0").path()));
        } catch (SetException e) {
            return Optional.empty();
        }
    }

    /** The path {@code text}; @throws IllegalArgumentException when it is not one */
    public static FieldPath of(String text) {
        return parse(text).orElseThrow(() -> new IllegalArgumentException("'" + text + "' is not a field path"));
    }

    /** Whether setting this path sets {@code field}: equal, or a map or list around it. */
    public boolean covers(FieldPath field) {
        return segments.size() <= field.segments.size() && field.segments.subList(0, segments.size()).equals(segments);
    }

    /** Whether the two paths set the same field: one covers the other ({@code topology} and {@code topology.k}). */
    public boolean overlaps(FieldPath other) {
        return covers(other) || other.covers(this);
    }
}
