package org.lbsim.scenario;

/** A flow trace that cannot be read; names the file, the line and the column. */
public final class TraceFormatException extends RuntimeException {
    private final String file;
    private final int line;
    private final String column;
    private final String problem;

    public TraceFormatException(String file, int line, String column, String problem) {
        super(file + ":" + line + ": " + (column.isEmpty() ? "" : column + ": ") + problem, null, false, false);
        this.file = file;
        this.line = line;
        this.column = column;
        this.problem = problem;
    }

    public String file() {
        return file;
    }

    public int line() {
        return line;
    }

    public String column() {
        return column;
    }

    public String problem() {
        return problem;
    }
}
