package org.lbsim.scenario;

import java.util.ArrayList;
import java.util.List;

/**
 * A scenario value that is not allowed. {@link #field()} is the dotted path of the offending
 * field relative to where it was thrown; binders prepend the enclosing path as the exception
 * travels outwards, so the final message names the full path.
 */
public final class ScenarioException extends RuntimeException {
    private final String field;
    private final String problem;
    /** Further errors found in the same pass (binders report every error of a file at once). */
    private final List<ScenarioException> more;

    public ScenarioException(String field, String problem) {
        this(field, problem, List.of());
    }

    private ScenarioException(String field, String problem, List<ScenarioException> more) {
        super(field + ": " + problem, null, false, false);
        this.field = field;
        this.problem = problem;
        this.more = more;
    }

    /**
     * One exception for several errors: the first one's field and problem, the others in
     * {@link #all()}. Errors that carry further errors are flattened.
     */
    public static ScenarioException of(List<ScenarioException> errors) {
        List<ScenarioException> flat = new ArrayList<>();
        for (ScenarioException e : errors) {
            flat.addAll(e.all());
        }
        ScenarioException first = flat.get(0);
        return flat.size() == 1 ? first : new ScenarioException(first.field, first.problem, List.copyOf(flat.subList(1, flat.size())));
    }

    /** This error and every further one found with it, in the order they were found. */
    public List<ScenarioException> all() {
        if (more.isEmpty()) {
            return List.of(this);
        }
        List<ScenarioException> all = new ArrayList<>();
        all.add(new ScenarioException(field, problem));
        all.addAll(more);
        return all;
    }

    public String field() {
        return field;
    }

    public String problem() {
        return problem;
    }

    /** The same problem, seen from one level further out. */
    public ScenarioException under(String parent) {
        if (parent == null || parent.isEmpty()) {
            return this;
        }
        List<ScenarioException> moved = new ArrayList<>();
        for (ScenarioException e : more) {
            moved.add(e.under(parent));
        }
        return new ScenarioException(field.isEmpty() ? parent : parent + "." + field, problem, List.copyOf(moved));
    }

    public static void require(boolean ok, String field, String problem) {
        if (!ok) {
            throw new ScenarioException(field, problem);
        }
    }
}
