package org.lbsim.cli.store;

/**
 * A results database that cannot be opened, read or written, or a query it rejects. The message
 * is one line that starts with where the problem is (the database file, or "query"), ready to be
 * shown as {@code lbsim: <message>}.
 */
public final class StoreException extends RuntimeException {
    private final boolean locked;

    public StoreException(String message, Throwable cause) {
        this(message, cause, false);
    }

    public StoreException(String message) {
        this(message, null, false);
    }

    StoreException(String message, Throwable cause, boolean locked) {
        super(message, cause);
        this.locked = locked;
    }

    /** Whether the database could not be opened because another process has it open for writing. */
    public boolean locked() {
        return locked;
    }
}
