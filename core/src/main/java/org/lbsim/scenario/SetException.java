package org.lbsim.scenario;

/** A {@code --set PATH=VALUE} argument that cannot be parsed or applied to the scenario tree (before binding). */
public final class SetException extends RuntimeException {
    private final String argument;
    private final String field;
    private final String problem;

    public SetException(String argument, String field, String problem) {
        super("--set " + argument + ": " + (field.isEmpty() ? "" : field + ": ") + problem, null, false, false);
        this.argument = argument;
        this.field = field;
        this.problem = problem;
    }

    /** The argument as given, such as {@code topology.k=x}. */
    public String argument() {
        return argument;
    }

    /** The field path the problem is at ("" when the argument itself is malformed). */
    public String field() {
        return field;
    }

    /** What is wrong, without the argument or the field. */
    public String problem() {
        return problem;
    }
}
