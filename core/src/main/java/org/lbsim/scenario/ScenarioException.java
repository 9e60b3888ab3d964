package org.lbsim.scenario;

/**
 * A scenario value that is not allowed. {@link #field()} is the dotted path of the offending
 * field relative to where it was thrown; binders prepend the enclosing path as the exception
 * travels outwards, so the final message names the full path.
 */
public final class ScenarioException extends RuntimeException {
    private final String field;
    private final String problem;

    public ScenarioException(String field, String problem) {
        super(field + ": " + problem, null, false, false);
        this.field = field;
        this.problem = problem;
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
        return new ScenarioException(field.isEmpty() ? parent : parent + "." + field, problem);
    }

    public static void require(boolean ok, String field, String problem) {
        if (!ok) {
            throw new ScenarioException(field, problem);
        }
    }
}
